// The IMAP4rev1 wire format (RFC 3501) as far as the IMAP server in Node needs it: a client's
// command read into tokens (atoms, quoted strings, literals, parenthesised lists), sequence sets,
// dates, and the strings and lists of a response. Text is handled as latin1, one character per byte,
// so that a message's bytes go out exactly as they were delivered.

export type Token =
	| { kind: 'atom'; value: string }
	| { kind: 'string'; value: string }
	| { kind: 'list'; items: Token[] };

export interface ImapCommand {
	tag: string;
	/** Upper case; `UID FETCH` and the like as one name. */
	name: string;
	args: Token[];
}

/** A command the server refuses with BAD (malformed) or NO (not possible). */
export class ImapError extends Error {
	readonly status: 'BAD' | 'NO';
	constructor(status: 'BAD' | 'NO', message: string) {
		super(message);
		this.status = status;
	}
}

const ATOM_END = new Set([' ', '(', ')', '\r', '\n']);

/**
 * The tokens of `text`, where each `{n}` (or `{n+}`) stands for the next of `literals` (the bytes
 * the client sent after it).
 */
export function tokenize(text: string, literals: Buffer[] = []): Token[] {
	const pending = [...literals];
	let at = 0;
	const readList = (closing: boolean): Token[] => {
		const items: Token[] = [];
		while (at < text.length) {
			const char = text[at];
			if (char === ' ') {
				at++;
			} else if (char === ')') {
				if (!closing) throw new ImapError('BAD', 'Unexpected )');
				at++;
				return items;
			} else if (char === '(') {
				at++;
				items.push({ kind: 'list', items: readList(true) });
			} else if (char === '"') {
				items.push({ kind: 'string', value: readQuoted() });
			} else if (char === '{') {
				const match = /^\{(\d+)\+?\}/.exec(text.slice(at));
				const literal = pending.shift();
				if (!match || !literal) throw new ImapError('BAD', 'Malformed literal');
				at += match[0].length;
				items.push({ kind: 'string', value: literal.toString('latin1') });
			} else {
				items.push({ kind: 'atom', value: readAtom() });
			}
		}
		if (closing) throw new ImapError('BAD', 'Missing )');
		return items;
	};
	const readQuoted = (): string => {
		let value = '';
		for (at++; at < text.length; at++) {
			const char = text[at];
			if (char === '\\') value += text[++at] ?? '';
			else if (char === '"') {
				at++;
				return value;
			} else value += char;
		}
		throw new ImapError('BAD', 'Unterminated quoted string');
	};
	// An atom; a section (`BODY[HEADER.FIELDS (TO)]`) and a partial (`<0.1024>`) belong to it.
	const readAtom = (): string => {
		const start = at;
		while (at < text.length && !ATOM_END.has(text[at])) {
			if (text[at] === '[') {
				const close = text.indexOf(']', at);
				if (close === -1) throw new ImapError('BAD', 'Missing ]');
				at = close;
			} else if (text[at] === '<' && text[at - 1] === ']') {
				const close = text.indexOf('>', at);
				if (close === -1) throw new ImapError('BAD', 'Missing >');
				at = close;
			}
			at++;
		}
		return text.slice(start, at);
	};
	return readList(false);
}

const WITH_SUBCOMMAND = new Set(['UID']);

/** A whole command: `<tag> <name> <args>`. */
export function parseCommand(text: string, literals: Buffer[] = []): ImapCommand {
	const tokens = tokenize(text, literals);
	const [tag, name, ...args] = tokens;
	if (tag?.kind !== 'atom' || name?.kind !== 'atom') throw new ImapError('BAD', 'Missing command');
	let command = name.value.toUpperCase();
	if (WITH_SUBCOMMAND.has(command)) {
		const sub = args.shift();
		if (sub?.kind !== 'atom') throw new ImapError('BAD', `${command} without a command`);
		command = `${command} ${sub.value.toUpperCase()}`;
	}
	return { tag: tag.value, name: command, args };
}

/** The text of an atom or string token. */
export function tokenText(token: Token | undefined, what = 'argument'): string {
	if (!token || token.kind === 'list') throw new ImapError('BAD', `Missing ${what}`);
	return token.value;
}

/**
 * Whether `value` is in the sequence set `set` (`1:3,7,9:*`), where `*` is `largest` (the highest
 * sequence number or UID in use). A range is read either way round (`9:3` is `3:9`).
 */
export function inSequenceSet(set: string, value: number, largest: number): boolean {
	return set.split(',').some((part) => {
		const [from, to = from] = part.split(':').map((end) => (end === '*' ? largest : Number(end)));
		return value >= Math.min(from, to) && value <= Math.max(from, to);
	});
}

/** Whether `text` is a sequence set. */
export function isSequenceSet(text: string): boolean {
	return /^(\d+|\*)(:(\d+|\*))?(,(\d+|\*)(:(\d+|\*))?)*$/.test(text);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An IMAP date (`29-Nov-2026`) as a day number `yyyymmdd`, or throws. */
export function parseImapDate(text: string): number {
	const match = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(text.trim());
	const month = match
		? MONTHS.findIndex((name) => name.toLowerCase() === match[2].toLowerCase())
		: -1;
	if (!match || month === -1) throw new ImapError('BAD', `Not a date: ${text}`);
	return Number(match[3]) * 10_000 + (month + 1) * 100 + Number(match[1]);
}

/**
 * The day of `date` as `yyyymmdd`, in this machine's time zone: the one the client's SINCE speaks of
 * (n8n's Email Trigger writes the local date it was published on).
 */
export function dayOf(date: Date): number {
	return date.getFullYear() * 10_000 + (date.getMonth() + 1) * 100 + date.getDate();
}

/** INTERNALDATE's form: `29-Nov-2026 07:31:05 +0100`, local time. */
export function formatInternalDate(date: Date): string {
	const two = (n: number) => String(n).padStart(2, '0');
	const offset = -date.getTimezoneOffset();
	const sign = offset < 0 ? '-' : '+';
	const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}${two(Math.abs(offset) % 60)}`;
	return `${two(date.getDate())}-${MONTHS[date.getMonth()]}-${date.getFullYear()} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())} ${zone}`;
}

/** An IMAP date-time from APPEND (`29-Nov-2026 07:31:05 +0100`). */
export function parseInternalDate(text: string): Date {
	const match = /^\s?(\d{1,2})-([A-Za-z]{3})-(\d{4}) (\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)$/.exec(
		text,
	);
	const month = match
		? MONTHS.findIndex((name) => name.toLowerCase() === match[2].toLowerCase())
		: -1;
	if (!match || month === -1) throw new ImapError('BAD', `Not a date-time: ${text}`);
	const offsetMinutes = (match[7] === '-' ? -1 : 1) * (Number(match[8]) * 60 + Number(match[9]));
	const utc = Date.UTC(
		Number(match[3]),
		month,
		Number(match[1]),
		Number(match[4]),
		Number(match[5]),
		Number(match[6]),
	);
	return new Date(utc - offsetMinutes * 60_000);
}

/**
 * A string for a response: quoted when it is short printable ASCII, else a literal (`{n}` CRLF and
 * the bytes), which carries anything.
 */
export function imapString(value: string): string {
	if (/^[\x20-\x7e]*$/.test(value) && value.length < 1000)
		return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
	return `{${Buffer.byteLength(value, 'latin1')}}\r\n${value}`;
}

/** A string, or NIL. */
export function imapNString(value: string | undefined | null): string {
	return value === undefined || value === null ? 'NIL' : imapString(value);
}

/** A parenthesised list of already formatted items, or NIL when there are none and `nilWhenEmpty`. */
export function imapList(items: string[], nilWhenEmpty = false): string {
	return items.length === 0 && nilWhenEmpty ? 'NIL' : `(${items.join(' ')})`;
}
