// A raw email (RFC 5322 + MIME, RFC 2045/2046) for a test to deliver into a mailbox: a text body
// and files attached as base64 parts of a multipart/mixed message, the shape mail clients send
// invoices in. Written by hand with Buffer so no mail library is needed next to the IMAP server; the
// reading side is n8n's own (mailparser in the Email Trigger).

import { randomBytes } from 'node:crypto';

export interface MessageAttachment {
	fileName: string;
	contentType: string;
	content: Buffer;
}

export interface ComposedMessageOptions {
	from: string;
	to: string;
	subject: string;
	/** Without angle brackets; a random one under example.com when not given. */
	messageId?: string;
	date?: Date;
	text: string;
	attachments: MessageAttachment[];
}

/** Base64 in lines of 76 characters, as MIME requires. */
function base64Lines(content: Buffer): string {
	return (content.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** A header value with non-ASCII text as an RFC 2047 encoded word. */
function headerText(value: string): string {
	// Printable ASCII is what a header may carry as it is.
	return /^[\x20-\x7e]*$/.test(value)
		? value
		: `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The message, CRLF line ends, ready for a Maildir or an SMTP DATA. */
export function composeMessage(options: ComposedMessageOptions): string {
	const boundary = `=_part_${randomBytes(8).toString('hex')}`;
	const messageId = options.messageId ?? `${randomBytes(8).toString('hex')}@example.com`;
	const lines = [
		`From: ${options.from}`,
		`To: ${options.to}`,
		`Subject: ${headerText(options.subject)}`,
		`Date: ${(options.date ?? new Date()).toUTCString().replace('GMT', '+0000')}`,
		`Message-ID: <${messageId}>`,
		'MIME-Version: 1.0',
		`Content-Type: multipart/mixed; boundary="${boundary}"`,
		'',
		'This is a multi-part message in MIME format.',
		`--${boundary}`,
		'Content-Type: text/plain; charset=utf-8',
		'Content-Transfer-Encoding: base64',
		'',
		base64Lines(Buffer.from(options.text, 'utf8')),
	];
	for (const attachment of options.attachments) {
		const name = headerText(attachment.fileName);
		lines.push(
			`--${boundary}`,
			`Content-Type: ${attachment.contentType}; name="${name}"`,
			`Content-Disposition: attachment; filename="${name}"`,
			'Content-Transfer-Encoding: base64',
			'',
			base64Lines(attachment.content),
		);
	}
	lines.push(`--${boundary}--`, '');
	return lines.join('\r\n');
}
