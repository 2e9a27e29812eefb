// A stored message as IMAP shows it (RFC 3501 6.4.4, 6.4.5, 7.4.2): its MIME parts with their
// places in the bytes (RFC 2045/2046), a body section by its name (`HEADER`, `TEXT`, `2`, `2.MIME`,
// `HEADER.FIELDS (FROM)`), BODYSTRUCTURE with the disposition n8n's Email Trigger reads an
// attachment by, ENVELOPE, and the search keys a client filters on. Text is latin1, one character
// per byte, so every offset is a byte offset.

import {
	ImapError,
	dayOf,
	imapList,
	imapNString,
	imapString,
	inSequenceSet,
	isSequenceSet,
	parseImapDate,
	tokenText,
	type Token,
} from './imapProtocol.ts';

export interface MimePart {
	/** The header block, the blank line after it included. */
	header: string;
	body: string;
	headers: Array<[name: string, value: string]>;
	type: string;
	subtype: string;
	params: Array<[string, string]>;
	children: MimePart[];
	/** The message inside a message/rfc822 part. */
	message?: MimePart;
}

function headerFields(header: string): Array<[string, string]> {
	return header
		.replace(/\r?\n[ \t]+/g, ' ')
		.split(/\r?\n/)
		.filter((line) => line.includes(':'))
		.map((line) => {
			const colon = line.indexOf(':');
			return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
		});
}

/** `text/plain; charset="utf-8"; name=a.txt` → the value and its parameters. */
function valueAndParams(field: string): { value: string; params: Array<[string, string]> } {
	const [value, ...rest] = field.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/);
	const params = rest
		.map((param) => {
			const equals = param.indexOf('=');
			if (equals === -1) return undefined;
			const name = param.slice(0, equals).trim().toLowerCase();
			const raw = param.slice(equals + 1).trim();
			return [name, raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw];
		})
		.filter((param): param is [string, string] => param !== undefined && param[0] !== '');
	return { value: value.trim(), params };
}

/** The MIME tree of `raw` (a message or a part of one). */
export function parseMime(raw: string, defaultType = 'text/plain'): MimePart {
	const blank = /\r?\n\r?\n/.exec(raw);
	// A part that starts with its blank line has no header fields.
	const headerEnd = raw.startsWith('\r\n') ? 2 : blank ? blank.index + blank[0].length : raw.length;
	const header = raw.slice(0, headerEnd);
	const body = raw.slice(headerEnd);
	const headers = headerFields(header);
	const contentType = valueAndParams(
		headers.find(([name]) => name === 'content-type')?.[1] ?? defaultType,
	);
	const [type = 'text', subtype = 'plain'] = contentType.value.toLowerCase().split('/');
	const part: MimePart = {
		header,
		body,
		headers,
		type,
		subtype,
		params: contentType.params,
		children: [],
	};
	const boundary = contentType.params.find(([name]) => name === 'boundary')?.[1];
	if (type === 'multipart' && boundary) part.children = multipartChildren(body, boundary, subtype);
	else if (type === 'message' && subtype === 'rfc822') part.message = parseMime(body);
	return part;
}

function multipartChildren(body: string, boundary: string, subtype: string): MimePart[] {
	const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const delimiter = new RegExp(`(?:^|\\r?\\n)--${escaped}(--)?[ \\t]*(?:\\r?\\n|$)`, 'g');
	const children: MimePart[] = [];
	let start: number | undefined;
	for (const match of body.matchAll(delimiter)) {
		if (start !== undefined)
			children.push(
				parseMime(
					body.slice(start, match.index),
					subtype === 'digest' ? 'message/rfc822' : undefined,
				),
			);
		if (match[1]) return children;
		start = match.index + match[0].length;
	}
	return children;
}

/** The part `path` (`[2, 1]` for `2.1`) names, or undefined (RFC 3501 6.4.5). */
function partAt(message: MimePart, path: number[]): MimePart | undefined {
	let part: MimePart | undefined = message;
	for (const number of path) {
		if (!part) return undefined;
		const inner: MimePart = part.message ?? part;
		if (inner.children.length > 0) part = inner.children[number - 1];
		else part = number === 1 ? (part.message ? inner : part) : undefined;
	}
	return part;
}

function headerLines(header: string, names: string[] | undefined, exclude: boolean): string {
	if (!names) return header;
	const wanted = new Set(names.map((name) => name.toLowerCase()));
	const kept = header
		.split(/\r\n(?![ \t])/)
		.filter((field) => field.includes(':'))
		.filter(
			(field) => wanted.has(field.slice(0, field.indexOf(':')).trim().toLowerCase()) !== exclude,
		);
	return `${kept.map((field) => `${field}\r\n`).join('')}\r\n`;
}

/**
 * The bytes of body section `section` (what is between the brackets of `BODY[…]`), with the
 * header field names of HEADER.FIELDS given apart.
 */
export function sectionText(message: MimePart, section: string, fields?: string[]): string {
	const match = /^((?:\d+\.)*\d+)?\.?(HEADER\.FIELDS\.NOT|HEADER\.FIELDS|HEADER|TEXT|MIME)?$/i.exec(
		section,
	);
	if (!match) throw new ImapError('BAD', `Unknown body section ${section}`);
	const path = match[1] ? match[1].split('.').map(Number) : [];
	const kind = (match[2] ?? '').toUpperCase();
	const part = partAt(message, path);
	if (!part) return '';
	if (kind === 'MIME') return path.length > 0 ? part.header : '';
	if (kind === '') return path.length === 0 ? part.header + part.body : part.body;
	// HEADER and TEXT of a part are those of the message it carries.
	const carried = path.length === 0 ? part : part.message;
	if (!carried) return '';
	if (kind === 'TEXT') return carried.body;
	return headerLines(carried.header, kind === 'HEADER' ? undefined : fields, kind.endsWith('.NOT'));
}

function field(part: MimePart, name: string): string | undefined {
	return part.headers.find(([field]) => field === name)?.[1];
}

function paramList(params: Array<[string, string]>): string {
	return imapList(
		params.flatMap(([name, value]) => [imapString(name), imapString(value)]),
		true,
	);
}

/** `Name <box@host>, other@host` → IMAP addresses `(name NIL box host)`. */
function addressList(value: string | undefined): string {
	if (!value) return 'NIL';
	const addresses = value
		.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)
		.map((entry) => entry.trim())
		.filter(Boolean)
		.map((entry) => {
			const angle = /^(.*)<([^>]*)>\s*$/.exec(entry);
			const name = angle ? angle[1].trim().replace(/^"(.*)"$/, '$1') : '';
			const address = (angle ? angle[2] : entry).trim();
			const at = address.lastIndexOf('@');
			const box = at === -1 ? address : address.slice(0, at);
			const host = at === -1 ? '' : address.slice(at + 1);
			return `(${imapNString(name || undefined)} NIL ${imapString(box)} ${imapString(host)})`;
		});
	return imapList(addresses, true);
}

/** ENVELOPE: date, subject, from, sender, reply-to, to, cc, bcc, in-reply-to, message-id. */
export function envelope(message: MimePart): string {
	const from = field(message, 'from');
	return imapList([
		imapNString(field(message, 'date')),
		imapNString(field(message, 'subject')),
		addressList(from),
		addressList(field(message, 'sender') ?? from),
		addressList(field(message, 'reply-to') ?? from),
		addressList(field(message, 'to')),
		addressList(field(message, 'cc')),
		addressList(field(message, 'bcc')),
		imapNString(field(message, 'in-reply-to')),
		imapNString(field(message, 'message-id')),
	]);
}

/** BODYSTRUCTURE (with its extension data: a part's disposition) or BODY (`extended` false). */
export function bodyStructure(part: MimePart, extended: boolean): string {
	if (part.children.length > 0) {
		const parts = part.children.map((child) => bodyStructure(child, extended)).join('');
		const extension = extended ? ` ${paramList(part.params)} NIL NIL NIL` : '';
		return `(${parts} ${imapString(part.subtype.toUpperCase())}${extension})`;
	}
	const fields = [
		imapString(part.type.toUpperCase()),
		imapString(part.subtype.toUpperCase()),
		paramList(part.params),
		imapNString(field(part, 'content-id')),
		imapNString(field(part, 'content-description')),
		imapString((field(part, 'content-transfer-encoding') ?? '7BIT').toUpperCase()),
		String(part.body.length),
	];
	const lines = String(part.body.split('\n').length - 1);
	if (part.message)
		fields.push(envelope(part.message), bodyStructure(part.message, extended), lines);
	else if (part.type === 'text') fields.push(lines);
	if (extended) {
		const disposition = field(part, 'content-disposition');
		const parsed = disposition ? valueAndParams(disposition) : undefined;
		const dispositionField = parsed
			? `(${imapString(parsed.value)} ${paramList(parsed.params)})`
			: 'NIL';
		fields.push('NIL', dispositionField, 'NIL', 'NIL');
	}
	return `(${fields.join(' ')})`;
}

/** What a search key looks at of one message. */
export interface SearchCandidate {
	uid: number;
	seq: number;
	flags: Set<string>;
	size: number;
	internalDate: Date;
	/** The message's text (latin1), read only when a key needs it. */
	raw: () => string;
	/** Its MIME parts, parsed only when a key needs them. */
	mime: () => MimePart;
}

type Matcher = (message: SearchCandidate, largest: { seq: number; uid: number }) => boolean;

const FLAG_KEYS: Record<string, [flag: string, set: boolean]> = {
	ANSWERED: ['\\Answered', true],
	DELETED: ['\\Deleted', true],
	DRAFT: ['\\Draft', true],
	FLAGGED: ['\\Flagged', true],
	SEEN: ['\\Seen', true],
	UNANSWERED: ['\\Answered', false],
	UNDELETED: ['\\Deleted', false],
	UNDRAFT: ['\\Draft', false],
	UNFLAGGED: ['\\Flagged', false],
	UNSEEN: ['\\Seen', false],
};

/** RFC 2047 words decoded, so that SUBJECT finds non-ASCII text. */
function decodeWords(value: string): string {
	return value.replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
		kind.toUpperCase() === 'B'
			? Buffer.from(text, 'base64').toString('latin1')
			: text
					.replace(/_/g, ' ')
					.replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
	);
}

const contains = (text: string | undefined, wanted: string) =>
	text !== undefined && text.toLowerCase().includes(wanted.toLowerCase());

function headerOf(message: SearchCandidate, name: string): string | undefined {
	const values = message
		.mime()
		.headers.filter(([field]) => field === name.toLowerCase())
		.map(([, value]) => decodeWords(value));
	return values.length > 0 ? values.join('\n') : undefined;
}

function sentDay(message: SearchCandidate): number {
	const date = new Date(headerOf(message, 'date') ?? Number.NaN);
	return dayOf(Number.isNaN(date.getTime()) ? message.internalDate : date);
}

/** Reads one search key from `tokens` at `at`; the matcher and where the next key starts. */
function searchKey(tokens: Token[], at: number): [Matcher, number] {
	const token = tokens[at];
	if (!token) throw new ImapError('BAD', 'Missing search key');
	if (token.kind === 'list') {
		const all = searchKeys(token.items);
		return [(message, largest) => all(message, largest), at + 1];
	}
	const key = token.value.toUpperCase();
	const argument = (offset = 1) => tokenText(tokens[at + offset], `argument of ${key}`);
	if (key in FLAG_KEYS) {
		const [flag, set] = FLAG_KEYS[key];
		return [(message) => message.flags.has(flag) === set, at + 1];
	}
	switch (key) {
		case 'ALL':
		case 'OLD':
			return [() => true, at + 1];
		// Nothing is \Recent here: every client sees a message as it is.
		case 'NEW':
		case 'RECENT':
			return [() => false, at + 1];
		case 'KEYWORD':
			return [() => false, at + 2];
		case 'UNKEYWORD':
			return [() => true, at + 2];
		case 'NOT': {
			const [inner, next] = searchKey(tokens, at + 1);
			return [(message, largest) => !inner(message, largest), next];
		}
		case 'OR': {
			const [left, middle] = searchKey(tokens, at + 1);
			const [right, next] = searchKey(tokens, middle);
			return [(message, largest) => left(message, largest) || right(message, largest), next];
		}
		case 'UID': {
			const set = argument();
			if (!isSequenceSet(set)) throw new ImapError('BAD', `Not a UID set: ${set}`);
			return [(message, largest) => inSequenceSet(set, message.uid, largest.uid), at + 2];
		}
		case 'SINCE':
		case 'BEFORE':
		case 'ON':
		case 'SENTSINCE':
		case 'SENTBEFORE':
		case 'SENTON': {
			const day = parseImapDate(argument());
			const dayOfMessage = key.startsWith('SENT')
				? sentDay
				: (message: SearchCandidate) => dayOf(message.internalDate);
			const test = key.endsWith('SINCE')
				? (d: number) => d >= day
				: key.endsWith('BEFORE')
					? (d: number) => d < day
					: (d: number) => d === day;
			return [(message) => test(dayOfMessage(message)), at + 2];
		}
		case 'LARGER':
		case 'SMALLER': {
			const size = Number(argument());
			return [(message) => (key === 'LARGER' ? message.size > size : message.size < size), at + 2];
		}
		case 'FROM':
		case 'TO':
		case 'CC':
		case 'BCC':
		case 'SUBJECT': {
			const wanted = argument();
			return [(message) => contains(headerOf(message, key), wanted), at + 2];
		}
		case 'HEADER': {
			const name = argument();
			const wanted = argument(2);
			return [(message) => contains(headerOf(message, name), wanted), at + 3];
		}
		case 'BODY':
		case 'TEXT': {
			const wanted = argument();
			return [
				(message) => contains(key === 'TEXT' ? message.raw() : message.mime().body, wanted),
				at + 2,
			];
		}
		default:
			if (isSequenceSet(token.value))
				return [(message, largest) => inSequenceSet(token.value, message.seq, largest.seq), at + 1];
			throw new ImapError('BAD', `Unknown search key ${token.value}`);
	}
}

/** The matcher of a whole search (its keys all hold); a leading `CHARSET x` is accepted. */
export function searchKeys(tokens: Token[]): Matcher {
	let at = 0;
	if (tokens[0]?.kind === 'atom' && tokens[0].value.toUpperCase() === 'CHARSET') {
		const charset = tokenText(tokens[1], 'charset').toUpperCase();
		if (!['US-ASCII', 'UTF-8'].includes(charset))
			throw new ImapError('NO', `[BADCHARSET (US-ASCII UTF-8)] ${charset} is not supported`);
		at = 2;
	}
	const matchers: Matcher[] = [];
	while (at < tokens.length) {
		const [matcher, next] = searchKey(tokens, at);
		matchers.push(matcher);
		at = next;
	}
	if (matchers.length === 0) throw new ImapError('BAD', 'Missing search key');
	return (message, largest) => matchers.every((matcher) => matcher(message, largest));
}
