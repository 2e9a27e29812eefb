/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The IMAP server in Node: the local stand-in for a user's mailbox when Dovecot is not installed (a
// normal laptop), in the process that starts it, no system package. It serves one mailbox (INBOX,
// one login) from a Maildir (maildir.ts), so a message is delivered exactly as it is for Dovecot, and
// it speaks the part of IMAP4rev1 (RFC 3501) with IDLE (RFC 2177) that n8n's Email Trigger (IMAP)
// uses through @n8n/imap and imapflow: CAPABILITY, LOGIN, LIST/LSUB, SELECT/EXAMINE, STATUS, SEARCH,
// FETCH (BODY[]/BODY.PEEK[], sections, BODYSTRUCTURE, ENVELOPE, FLAGS, UID …), STORE, EXPUNGE,
// CLOSE, APPEND, NOOP, IDLE, LOGOUT, each also as UID command. No TLS (loopback only, as the
// credential's "SSL/TLS" off asks), no other mailboxes, no \Recent, no keywords.
//
// Mail that arrives in the Maildir (new/, watched, and looked at every second) is announced to
// every client that has INBOX open at once, with `* n EXISTS`: in IDLE, and between commands too, as
// RFC 3501 (7.3.1, 5.2) allows; Dovecot announces it in IDLE only, which n8n's client enters 15 s
// after its last command.

import { createWriteStream, watch, type FSWatcher } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { redact } from '../log.ts';
import {
	ImapError,
	formatInternalDate,
	imapList,
	inSequenceSet,
	isSequenceSet,
	parseCommand,
	parseInternalDate,
	tokenText,
	type ImapCommand,
	type Token,
} from './imapProtocol.ts';
import {
	bodyStructure,
	envelope,
	parseMime,
	searchKeys,
	sectionText,
	type MimePart,
} from './imapMessage.ts';
import { MAILDIR_FLAGS, MaildirMailbox, type StoredMessage } from './maildir.ts';

const CAPABILITIES = 'IMAP4rev1 IDLE';
const FLAGS = Object.keys(MAILDIR_FLAGS);
/** The most a command line or a literal may be (a message with large attachments fits). */
const MAX_LITERAL = 64 * 1024 * 1024;
const MAX_LINE = 64 * 1024;
/** How often a client in IDLE hears that the server is there (Dovecot: 2 minutes). */
const IDLE_KEEPALIVE_MS = 60_000;

export interface NodeImapServerOptions {
	maildir: string;
	user: string;
	password: string;
	port: number;
	host?: string;
	logFile: string;
}

export interface NodeImapServer {
	port: number;
	/** SELECT or EXAMINE of INBOX finished, since the server started. */
	mailboxOpenedCount(): number;
	/** IDLE commands a client has started, since the server started. */
	idleCount(): number;
	/** Looks at the Maildir now (a delivery is otherwise seen within a second). */
	refresh(): void;
	close(): Promise<void>;
}

type State = 'not authenticated' | 'authenticated' | 'selected';

/** Sends one line or a literal-bearing response; text is latin1. */
type Send = (text: string) => void;

class Session {
	state: State = 'not authenticated';
	readOnly = false;
	/** The UIDs this client knows, in its sequence order. */
	view: number[] = [];
	idleTag: string | undefined;
	private keepalive: NodeJS.Timeout | undefined;

	readonly socket: Socket;
	private readonly server: ImapService;

	constructor(socket: Socket, server: ImapService) {
		this.socket = socket;
		this.server = server;
	}

	send: Send = (text) => {
		if (this.socket.writable) this.socket.write(Buffer.from(`${text}\r\n`, 'latin1'));
	};

	/** Runs one command; every response ends with its tagged line. */
	run(command: ImapCommand): void {
		try {
			this.server.look();
			const done = this.server.handle(this, command);
			if (this.idleTag) return;
			this.sync(true);
			if (done !== false) this.send(`${command.tag} OK ${done ?? `${command.name} completed`}`);
		} catch (error) {
			const status = error instanceof ImapError ? error.status : 'NO';
			this.send(`${command.tag} ${status} ${(error as Error).message}`);
		}
	}

	startIdle(tag: string): void {
		this.idleTag = tag;
		this.send('+ idling');
		this.sync(true);
		this.keepalive = setInterval(() => this.send('* OK Still here'), IDLE_KEEPALIVE_MS);
	}

	endIdle(line: string): void {
		clearInterval(this.keepalive);
		const tag = this.idleTag;
		this.idleTag = undefined;
		this.send(
			line.trim().toUpperCase() === 'DONE'
				? `${tag} OK IDLE terminated`
				: `${tag} BAD Expected DONE`,
		);
	}

	/**
	 * Tells the client what changed in INBOX since it last heard: expunged messages (only where a
	 * client may hear of them: at the end of a command or in IDLE) and the new count.
	 */
	sync(expungesAllowed: boolean): void {
		if (this.state !== 'selected') return;
		const now = this.server.mailbox.messages().map((message) => message.uid);
		const present = new Set(now);
		const gone = this.view.filter((uid) => !present.has(uid));
		if (gone.length > 0) {
			if (!expungesAllowed && !this.idleTag) return;
			for (let seq = this.view.length; seq >= 1; seq--)
				if (!present.has(this.view[seq - 1])) this.send(`* ${seq} EXPUNGE`);
		}
		const known = new Set(this.view);
		const added = now.filter((uid) => !known.has(uid));
		this.view = now;
		if (added.length > 0) this.send(`* ${now.length} EXISTS`);
	}

	close(): void {
		clearInterval(this.keepalive);
	}
}

/** The mailbox and every client of it. */
class ImapService {
	readonly sessions = new Set<Session>();
	opened = 0;
	idles = 0;

	readonly mailbox: MaildirMailbox;
	readonly log: (line: string) => void;
	private readonly options: NodeImapServerOptions;

	constructor(
		mailbox: MaildirMailbox,
		options: NodeImapServerOptions,
		log: (line: string) => void,
	) {
		this.mailbox = mailbox;
		this.options = options;
		this.log = log;
	}

	/** After the Maildir changed: each client with INBOX open hears of the new mail at once. */
	changed(): void {
		for (const session of this.sessions) session.sync(false);
	}

	/** Looks at the Maildir; when something arrived or left, tells the clients. */
	look(): void {
		if (this.mailbox.refresh()) this.changed();
	}

	/**
	 * Runs `command` for `session`: the tagged OK's text, or false when the command answers itself
	 * (IDLE, LOGOUT). Throws ImapError for BAD and NO.
	 */
	handle(session: Session, command: ImapCommand): string | false | undefined {
		const { name, args } = command;
		this.log(
			`${command.tag} ${name}${name === 'LOGIN' ? ' ***' : ` ${describe(args)}`}`.slice(0, 300),
		);
		switch (name) {
			case 'CAPABILITY':
				session.send(`* CAPABILITY ${CAPABILITIES}`);
				return undefined;
			case 'NOOP':
			case 'CHECK':
				return undefined;
			case 'LOGOUT':
				session.send('* BYE Logging out');
				session.send(`${command.tag} OK LOGOUT completed`);
				session.socket.end();
				return false;
			case 'STARTTLS':
			case 'AUTHENTICATE':
				throw new ImapError('NO', 'Plain-text LOGIN only (loopback)');
			case 'LOGIN':
				return this.login(session, args);
		}
		if (session.state === 'not authenticated') throw new ImapError('NO', 'Log in first');
		switch (name) {
			case 'SELECT':
			case 'EXAMINE':
				return this.select(session, name, args);
			case 'LIST':
			case 'LSUB':
				this.list(session, name, args);
				return undefined;
			case 'STATUS':
				this.status(session, args);
				return undefined;
			case 'APPEND':
				return this.append(args);
			case 'SUBSCRIBE':
			case 'UNSUBSCRIBE':
				this.inbox(args[0]);
				return undefined;
			case 'CREATE':
			case 'DELETE':
			case 'RENAME':
				throw new ImapError('NO', '[CANNOT] This server has INBOX only');
		}
		if (session.state !== 'selected') throw new ImapError('BAD', 'Select a mailbox first');
		switch (name) {
			case 'IDLE':
				this.idles += 1;
				session.startIdle(command.tag);
				return false;
			case 'CLOSE':
			case 'UNSELECT':
				session.state = 'authenticated';
				session.view = [];
				if (name === 'CLOSE' && !session.readOnly && this.mailbox.expunge().length > 0)
					this.changed();
				return undefined;
			case 'EXPUNGE':
			case 'UID EXPUNGE':
				this.writable(session);
				if (this.mailbox.expunge().length > 0) this.changed();
				return undefined;
			case 'SEARCH':
			case 'UID SEARCH':
				this.search(session, args, name === 'UID SEARCH');
				return undefined;
			case 'FETCH':
			case 'UID FETCH':
				this.fetch(session, args, name === 'UID FETCH');
				return undefined;
			case 'STORE':
			case 'UID STORE':
				this.store(session, args, name === 'UID STORE');
				return undefined;
			case 'COPY':
			case 'UID COPY':
			case 'MOVE':
			case 'UID MOVE':
				throw new ImapError('NO', '[CANNOT] This server has INBOX only');
			default:
				throw new ImapError('BAD', `Unknown command ${name}`);
		}
	}

	private login(session: Session, args: Token[]): string {
		if (session.state !== 'not authenticated') throw new ImapError('BAD', 'Already logged in');
		const user = tokenText(args[0], 'user');
		const password = tokenText(args[1], 'password');
		if (user !== this.options.user || password !== this.options.password)
			throw new ImapError('NO', '[AUTHENTICATIONFAILED] Authentication failed');
		session.state = 'authenticated';
		return `[CAPABILITY ${CAPABILITIES}] Logged in`;
	}

	/** Refuses a mailbox other than INBOX. */
	private inbox(token: Token | undefined): void {
		const name = tokenText(token, 'mailbox');
		if (name.toUpperCase() !== 'INBOX')
			throw new ImapError('NO', `[NONEXISTENT] Mailbox doesn't exist: ${name}`);
	}

	private writable(session: Session): void {
		if (session.readOnly) throw new ImapError('NO', '[READ-ONLY] Mailbox is read-only');
	}

	private select(session: Session, name: string, args: Token[]): string {
		session.state = 'authenticated';
		session.view = [];
		this.inbox(args[0]);
		const messages = this.mailbox.messages();
		session.view = messages.map((message) => message.uid);
		session.readOnly = name === 'EXAMINE';
		session.state = 'selected';
		const firstUnseen = messages.findIndex((message) => !message.flags.has('\\Seen'));
		session.send(`* FLAGS ${imapList(FLAGS)}`);
		session.send(`* OK [PERMANENTFLAGS ${imapList(FLAGS)}] Flags permitted`);
		session.send(`* ${messages.length} EXISTS`);
		session.send('* 0 RECENT');
		if (firstUnseen !== -1) session.send(`* OK [UNSEEN ${firstUnseen + 1}] First unseen`);
		session.send(`* OK [UIDVALIDITY ${this.mailbox.uidValidity}] UIDs valid`);
		session.send(`* OK [UIDNEXT ${this.mailbox.uidNext}] Predicted next UID`);
		this.opened += 1;
		return `[${session.readOnly ? 'READ-ONLY' : 'READ-WRITE'}] ${name} completed`;
	}

	private list(session: Session, name: string, args: Token[]): void {
		const reference = tokenText(args[0], 'reference');
		const pattern = tokenText(args[1], 'mailbox pattern');
		if (pattern === '') {
			session.send(`* ${name} (\\Noselect) "/" ""`);
			return;
		}
		const wildcard = new RegExp(
			`^${(reference + pattern).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/[*%]/g, '.*')}$`,
			'i',
		);
		if (wildcard.test('INBOX')) session.send(`* ${name} (\\HasNoChildren) "/" INBOX`);
	}

	private status(session: Session, args: Token[]): void {
		this.inbox(args[0]);
		const items = args[1]?.kind === 'list' ? args[1].items.map((item) => tokenText(item)) : [];
		const messages = this.mailbox.messages();
		const values: Record<string, number> = {
			MESSAGES: messages.length,
			RECENT: 0,
			UIDNEXT: this.mailbox.uidNext,
			UIDVALIDITY: this.mailbox.uidValidity,
			UNSEEN: messages.filter((message) => !message.flags.has('\\Seen')).length,
		};
		const answer = items.map((item) => {
			const key = item.toUpperCase();
			if (!(key in values)) throw new ImapError('BAD', `Unknown status item ${item}`);
			return `${key} ${values[key]}`;
		});
		session.send(`* STATUS INBOX ${imapList(answer)}`);
	}

	private append(args: Token[]): string {
		this.inbox(args[0]);
		const rest = args.slice(1);
		const message = rest.pop();
		if (message?.kind !== 'string') throw new ImapError('BAD', 'APPEND without a message');
		let flags = new Set<string>();
		let date: Date | undefined;
		for (const token of rest) {
			if (token.kind === 'list') flags = this.flagsOf(token.items);
			else date = parseInternalDate(token.value);
		}
		const stored = this.mailbox.append(Buffer.from(message.value, 'latin1'), flags, date);
		this.changed();
		return `[APPENDUID ${this.mailbox.uidValidity} ${stored.uid}] APPEND completed`;
	}

	private flagsOf(tokens: Token[]): Set<string> {
		const flags = new Set<string>();
		for (const token of tokens) {
			const text = tokenText(token, 'flag');
			const flag = FLAGS.find((known) => known.toLowerCase() === text.toLowerCase());
			// A keyword is accepted and not kept (PERMANENTFLAGS lists none).
			if (flag) flags.add(flag);
			else if (text.startsWith('\\')) throw new ImapError('BAD', `Unknown flag ${text}`);
		}
		return flags;
	}

	/** The messages of `set` (sequence numbers, or UIDs) as this client numbers them. */
	private messagesOf(session: Session, set: string, byUid: boolean) {
		if (!isSequenceSet(set)) throw new ImapError('BAD', `Not a sequence set: ${set}`);
		const stored = new Map(this.mailbox.messages().map((message) => [message.uid, message]));
		const largest = byUid ? (session.view.at(-1) ?? 0) : session.view.length;
		return session.view
			.map((uid, index) => ({ uid, seq: index + 1, message: stored.get(uid) }))
			.filter(({ uid, seq }) => inSequenceSet(set, byUid ? uid : seq, largest))
			.filter(
				(entry): entry is { uid: number; seq: number; message: StoredMessage } => !!entry.message,
			);
	}

	private search(session: Session, args: Token[], byUid: boolean): void {
		const matches = searchKeys(args);
		const stored = new Map(this.mailbox.messages().map((message) => [message.uid, message]));
		const largest = { seq: session.view.length, uid: session.view.at(-1) ?? 0 };
		const found: number[] = [];
		session.view.forEach((uid, index) => {
			const message = stored.get(uid);
			if (!message) return;
			let raw: string | undefined;
			let mime: MimePart | undefined;
			const candidate = {
				...message,
				seq: index + 1,
				raw: () => (raw ??= this.mailbox.read(message).toString('latin1')),
				mime: () => (mime ??= parseMime(candidate.raw())),
			};
			if (matches(candidate, largest)) found.push(byUid ? uid : index + 1);
		});
		session.send(`* SEARCH${found.map((n) => ` ${n}`).join('')}`);
	}

	private fetch(session: Session, args: Token[], byUid: boolean): void {
		const set = tokenText(args[0], 'sequence set');
		const items = fetchItems(args[1]);
		if (byUid && !items.some((item) => item.name === 'UID')) items.unshift({ name: 'UID' });
		// BODY[…] without .PEEK, RFC822 and RFC822.TEXT mark the message read (RFC 3501 6.4.5).
		const marksSeen = items.some(
			(item) =>
				(item.name === 'BODY[]' && !item.peek) ||
				item.name === 'RFC822' ||
				item.name === 'RFC822.TEXT',
		);
		for (const { uid, seq, message } of this.messagesOf(session, set, byUid)) {
			const raw = this.mailbox.read(message).toString('latin1');
			let mime: MimePart | undefined;
			const parsed = () => (mime ??= parseMime(raw));
			const newlySeen = marksSeen && !session.readOnly && !message.flags.has('\\Seen');
			if (newlySeen) this.mailbox.setFlags(message, new Set([...message.flags, '\\Seen']));
			const parts = items.map((item) => fetchItem(item, { uid, message, raw, parsed }));
			if (newlySeen && !items.some((item) => item.name === 'FLAGS'))
				parts.push(`FLAGS ${imapList([...message.flags])}`);
			session.send(`* ${seq} FETCH (${parts.join(' ')})`);
		}
	}

	private store(session: Session, args: Token[], byUid: boolean): void {
		this.writable(session);
		const set = tokenText(args[0], 'sequence set');
		const action = tokenText(args[1], 'store action').toUpperCase();
		const match = /^([+-]?)FLAGS(\.SILENT)?$/.exec(action);
		if (!match) throw new ImapError('BAD', `Unknown store action ${action}`);
		const given = this.flagsOf(
			args.slice(2).flatMap((token) => (token.kind === 'list' ? token.items : [token])),
		);
		for (const { uid, seq, message } of this.messagesOf(session, set, byUid)) {
			const flags = new Set(message.flags);
			if (match[1] === '') flags.clear();
			for (const flag of given)
				if (match[1] === '-') flags.delete(flag);
				else flags.add(flag);
			this.mailbox.setFlags(message, flags);
			if (!match[2])
				session.send(
					`* ${seq} FETCH (FLAGS ${imapList([...message.flags])}${byUid ? ` UID ${uid}` : ''})`,
				);
		}
	}
}

interface FetchItem {
	name: string;
	section?: string;
	fields?: string[];
	partial?: [number, number];
	peek?: boolean;
}

const MACROS: Record<string, string[]> = {
	ALL: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE', 'ENVELOPE'],
	FAST: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE'],
	FULL: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE', 'ENVELOPE', 'BODY'],
};

/** The items of a FETCH: one atom, a macro, or a list (`(UID BODY.PEEK[HEADER.FIELDS (TO)]<0.64>)`). */
export function fetchItems(token: Token | undefined): FetchItem[] {
	if (!token) throw new ImapError('BAD', 'Missing fetch items');
	const atoms = token.kind === 'list' ? token.items : [token];
	return atoms.flatMap((atom) => {
		const text = tokenText(atom, 'fetch item');
		const macro = MACROS[text.toUpperCase()];
		if (macro) return macro.map((name) => ({ name }));
		const match = /^(BODY(?:\.PEEK)?)\[([^\]]*)\](?:<(\d+)\.(\d+)>)?$/i.exec(text);
		if (!match) return [{ name: text.toUpperCase() }];
		const sectionWords = match[2].match(/^([^\s(]*)\s*(?:\((.*)\))?$/);
		return [
			{
				name: 'BODY[]',
				peek: match[1].toUpperCase() === 'BODY.PEEK',
				section: (sectionWords?.[1] ?? match[2]).toUpperCase(),
				fields: sectionWords?.[2]?.split(/\s+/).filter(Boolean),
				partial: match[3] === undefined ? undefined : [Number(match[3]), Number(match[4])],
			},
		];
	});
}

/** One fetch item's response text. */
function fetchItem(
	item: FetchItem,
	context: { uid: number; message: StoredMessage; raw: string; parsed: () => MimePart },
): string {
	const { message, raw, parsed } = context;
	switch (item.name) {
		case 'UID':
			return `UID ${context.uid}`;
		case 'FLAGS':
			return `FLAGS ${imapList([...message.flags])}`;
		case 'INTERNALDATE':
			return `INTERNALDATE "${formatInternalDate(message.internalDate)}"`;
		case 'RFC822.SIZE':
			return `RFC822.SIZE ${message.size}`;
		case 'ENVELOPE':
			return `ENVELOPE ${envelope(parsed())}`;
		case 'BODYSTRUCTURE':
		case 'BODY':
			return `${item.name} ${bodyStructure(parsed(), item.name === 'BODYSTRUCTURE')}`;
		case 'RFC822':
			return `RFC822 ${literal(raw)}`;
		case 'RFC822.HEADER':
			return `RFC822.HEADER ${literal(sectionText(parsed(), 'HEADER'))}`;
		case 'RFC822.TEXT':
			return `RFC822.TEXT ${literal(sectionText(parsed(), 'TEXT'))}`;
		case 'BODY[]': {
			const section = item.section ?? '';
			let text = section === '' ? raw : sectionText(parsed(), section, item.fields);
			let origin = '';
			if (item.partial) {
				text = text.slice(item.partial[0], item.partial[0] + item.partial[1]);
				origin = `<${item.partial[0]}>`;
			}
			const fields = item.fields ? ` ${imapList(item.fields)}` : '';
			return `BODY[${section}${fields}]${origin} ${literal(text)}`;
		}
		default:
			throw new ImapError('BAD', `Unknown fetch item ${item.name}`);
	}
}

/** A command's arguments for the log: lists in brackets, literals by their size. */
function describe(tokens: Token[]): string {
	return tokens
		.map((token) =>
			token.kind === 'list'
				? `(${describe(token.items)})`
				: token.kind === 'string' && token.value.length > 60
					? `{${token.value.length} bytes}`
					: token.value,
		)
		.join(' ');
}

/** Bytes as an IMAP literal (always: a body may hold anything). */
function literal(text: string): string {
	return `{${text.length}}\r\n${text}`;
}

/** Reads a client's bytes into commands: lines, and the literals (`{n}`) between them. */
function commandReader(session: Session, onCommand: (text: string, literals: Buffer[]) => void) {
	let buffered = Buffer.alloc(0);
	let text = '';
	let literals: Buffer[] = [];
	let literalLeft = 0;
	return (chunk: Buffer) => {
		buffered = Buffer.concat([buffered, chunk]);
		for (;;) {
			if (literalLeft > 0) {
				if (buffered.length < literalLeft) return;
				literals.push(buffered.subarray(0, literalLeft));
				buffered = buffered.subarray(literalLeft);
				literalLeft = 0;
				continue;
			}
			const end = buffered.indexOf('\n');
			if (end === -1) {
				if (buffered.length > MAX_LINE) {
					session.send('* BYE Line too long');
					session.socket.destroy();
				}
				return;
			}
			const line = buffered.subarray(0, end).toString('latin1').replace(/\r$/, '');
			buffered = buffered.subarray(end + 1);
			if (session.idleTag) {
				session.endIdle(line);
				continue;
			}
			text += line;
			const announced = /\{(\d+)(\+?)\}$/.exec(line);
			if (announced && Number(announced[1]) <= MAX_LITERAL) {
				literalLeft = Number(announced[1]);
				if (!announced[2]) session.send('+ Ready for literal data');
				if (literalLeft === 0) literals.push(Buffer.alloc(0));
				continue;
			}
			const complete = text;
			const given = literals;
			text = '';
			literals = [];
			onCommand(complete, given);
		}
	};
}

/**
 * Starts the IMAP server in Node on `host:port` for the Maildir `maildir` (made when missing; its
 * mail and UIDs are kept there).
 */
export async function startNodeImapServer(options: NodeImapServerOptions): Promise<NodeImapServer> {
	const host = options.host ?? '127.0.0.1';
	const mailbox = new MaildirMailbox(options.maildir);
	const logStream = createWriteStream(options.logFile, { flags: 'a' });
	const log = (line: string) => logStream.write(`${new Date().toISOString()} ${redact(line)}\n`);
	const service = new ImapService(mailbox, options, log);
	const server: Server = createServer((socket) => {
		// A response is several writes: without this, Nagle's algorithm holds each next one back
		// until the client acknowledges the last (40 ms a command with delayed ACKs).
		socket.setNoDelay(true);
		const session = new Session(socket, service);
		service.sessions.add(session);
		log(`connection from ${socket.remoteAddress}:${socket.remotePort}`);
		socket.on(
			'data',
			commandReader(session, (text, literals) => {
				let command: ImapCommand;
				try {
					command = parseCommand(text, literals);
				} catch (error) {
					session.send(`${text.split(' ')[0] || '*'} BAD ${(error as Error).message}`);
					return;
				}
				session.run(command);
			}),
		);
		const forget = () => {
			session.close();
			service.sessions.delete(session);
		};
		socket.on('close', forget);
		socket.on('error', forget);
		session.send(
			`* OK [CAPABILITY ${CAPABILITIES}] Local IMAP server (n8n-nodes-document-extraction) ready`,
		);
	});
	const look = () => {
		try {
			service.look();
		} catch (error) {
			log(`looking at ${options.maildir} failed: ${(error as Error).message}`);
		}
	};
	let watcher: FSWatcher | undefined;
	try {
		watcher = watch(join(options.maildir, 'new'), () => setImmediate(look));
	} catch {
		// no file watching here: the look every second finds the mail
	}
	const poll = setInterval(look, 1_000);
	poll.unref();
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen({ port: options.port, host, exclusive: true }, () => resolve());
	});
	log(`listening on ${host}:${options.port}, mailbox ${options.user}, Maildir ${options.maildir}`);
	return {
		port: options.port,
		mailboxOpenedCount: () => service.opened,
		idleCount: () => service.idles,
		refresh: look,
		async close() {
			clearInterval(poll);
			watcher?.close();
			for (const session of service.sessions) {
				session.send('* BYE Server shutting down');
				session.socket.destroy();
			}
			await new Promise<void>((resolve) => server.close(() => resolve()));
			await new Promise<void>((resolve) => logStream.end(resolve));
		},
	};
}
