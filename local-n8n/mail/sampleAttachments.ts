/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// The files an accounts-payable inbox gets next to invoices, made in code so a test says what each
// is: a PDF invoice (a real, minimal PDF: the sandbox checks the `%PDF-` signature and derives the
// invoice from the file's hash, so different text gives a different invoice), a company logo (a
// real PNG of a few KB, the kind mail signatures carry) and a calendar invite (.ics).

import { crc32, deflateSync } from 'node:zlib';

/** A one-page PDF showing `lines` of text; valid enough for any reader (xref offsets are exact). */
export function invoicePdf(lines: string[]): Buffer {
	const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
	const stream = [
		'BT /F1 12 Tf 72 720 Td 16 TL',
		...lines.map((line) => `(${escape(line)}) '`),
		'ET',
	].join('\n');
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((object, index) => {
		offsets.push(Buffer.byteLength(body, 'latin1'));
		body += `${index + 1} 0 obj\n${object}\nendobj\n`;
	});
	const xrefAt = Buffer.byteLength(body, 'latin1');
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}

function pngChunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typed));
	return Buffer.concat([length, typed, crc]);
}

/**
 * A `size`×`size` RGB PNG with a noisy pattern (so it does not compress to nothing): 48 px gives
 * about 7 KB, the size of a logo in an email signature.
 */
export function logoPng(size = 48): Buffer {
	const rows: Buffer[] = [];
	let seed = 0x2545f491;
	for (let y = 0; y < size; y++) {
		const row = Buffer.alloc(1 + size * 3); // filter byte 0, then RGB
		for (let x = 0; x < size * 3; x++) {
			seed = (seed * 1103515245 + 12345) >>> 0;
			row[1 + x] = seed >>> 24;
		}
		rows.push(row);
	}
	const header = Buffer.alloc(13);
	header.writeUInt32BE(size, 0);
	header.writeUInt32BE(size, 4);
	header[8] = 8; // bit depth
	header[9] = 2; // colour type RGB
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', header),
		pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
		pngChunk('IEND', Buffer.alloc(0)),
	]);
}

/** A calendar invite (RFC 5545), as a supplier's "payment run" meeting arrives. */
export function calendarInvite(summary = 'Invoice review call'): Buffer {
	return Buffer.from(
		[
			'BEGIN:VCALENDAR',
			'VERSION:2.0',
			'PRODID:-//n8n-nodes-document-extraction//tests//EN',
			'METHOD:REQUEST',
			'BEGIN:VEVENT',
			'UID:invoice-review-call@example.com',
			'DTSTAMP:20261101T090000Z',
			'DTSTART:20261110T140000Z',
			'DTEND:20261110T143000Z',
			`SUMMARY:${summary}`,
			'END:VEVENT',
			'END:VCALENDAR',
			'',
		].join('\r\n'),
		'utf8',
	);
}
