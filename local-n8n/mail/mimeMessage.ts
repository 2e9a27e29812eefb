// A received email read for a test or a person: its subject, addresses, text and HTML bodies, the
// names of its attachments, and the links in it. Minimal MIME (RFC 2045/2046): multipart parts split
// on their boundary, bodies decoded from quoted-printable or base64, which is what nodemailer (and so
// n8n's Email node) writes. Not a general mail parser: no charsets other than UTF-8 and ASCII.

export interface MailMessage {
	from: string;
	to: string[];
	subject: string;
	text: string;
	html: string;
	/** File names of the parts sent as attachments. */
	attachments: string[];
	/** Every href in the HTML body, entities decoded, in order. */
	links: string[];
	receivedAt: string;
	raw: string;
}

interface Part {
	headers: Map<string, string>;
	body: string;
}

function splitHeaders(raw: string): Part {
	const end = raw.search(/\r?\n\r?\n/);
	const head = end === -1 ? raw : raw.slice(0, end);
	const body = end === -1 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
	const headers = new Map<string, string>();
	// Folded header lines continue with whitespace.
	for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
		const colon = line.indexOf(':');
		if (colon > 0)
			headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
	}
	return { headers, body };
}

function parameter(header: string, name: string): string | undefined {
	const match = new RegExp(`${name}\\*?="?([^";]+)"?`, 'i').exec(header);
	return match?.[1];
}

function decodeQuotedPrintable(text: string): string {
	const bytes: number[] = [];
	const softBreaksRemoved = text.replace(/=\r?\n/g, '');
	for (let index = 0; index < softBreaksRemoved.length; index++) {
		const character = softBreaksRemoved[index];
		const hex = softBreaksRemoved.slice(index + 1, index + 3);
		if (character === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
			bytes.push(parseInt(hex, 16));
			index += 2;
		} else {
			bytes.push(...Buffer.from(character, 'utf8'));
		}
	}
	return Buffer.from(bytes).toString('utf8');
}

function decodeBody(part: Part): string {
	const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
	if (encoding === 'base64')
		return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
	if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
	return part.body;
}

/** "=?UTF-8?Q?...?=" and "=?UTF-8?B?...?=" words in a header (RFC 2047). */
function decodeHeader(value: string): string {
	return value
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(
			/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi,
			(_, _charset: string, kind: string, text: string) =>
				kind.toUpperCase() === 'B'
					? Buffer.from(text, 'base64').toString('utf8')
					: decodeQuotedPrintable(text.replace(/_/g, ' ')),
		);
}

function leafParts(part: Part): Part[] {
	const type = part.headers.get('content-type') ?? 'text/plain';
	const boundary = parameter(type, 'boundary');
	if (!/^multipart\//i.test(type) || !boundary) return [part];
	return part.body
		.split(`--${boundary}`)
		.slice(1)
		.filter((chunk) => !chunk.startsWith('--'))
		.flatMap((chunk) => leafParts(splitHeaders(chunk.replace(/^\r?\n/, ''))));
}

function decodeEntities(text: string): string {
	return text
		.replace(/&amp;/g, '&')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>');
}

function addresses(value: string | undefined): string[] {
	return (value ?? '').match(/[^\s<>,"]+@[^\s<>,"]+/g) ?? [];
}

/** The message as received over SMTP (headers and body, CRLF line ends). */
export function parseMailMessage(raw: string, receivedAt = new Date().toISOString()): MailMessage {
	const message = splitHeaders(raw);
	let text = '';
	let html = '';
	const attachments: string[] = [];
	for (const part of leafParts(message)) {
		const type = (part.headers.get('content-type') ?? 'text/plain').toLowerCase();
		const disposition = part.headers.get('content-disposition') ?? '';
		const fileName =
			parameter(disposition, 'filename') ??
			parameter(part.headers.get('content-type') ?? '', 'name');
		if (/^attachment/i.test(disposition) || (fileName && !type.startsWith('text/'))) {
			attachments.push(decodeHeader(fileName ?? 'unnamed'));
		} else if (type.startsWith('text/html')) {
			html += decodeBody(part);
		} else if (type.startsWith('text/')) {
			text += decodeBody(part);
		}
	}
	const links = [...html.matchAll(/href\s*=\s*(["'])(.*?)\1/gi)].map((match) =>
		decodeEntities(match[2]),
	);
	return {
		from: addresses(message.headers.get('from'))[0] ?? '',
		to: addresses(message.headers.get('to')),
		subject: decodeHeader(message.headers.get('subject') ?? ''),
		text,
		html,
		attachments,
		links,
		receivedAt,
		raw,
	};
}
