/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// A Maildir (tmp/, new/, cur/): how both local IMAP servers keep a mailbox, so that a message is
// delivered the same way whichever serves it (deliverToMaildir, as a mail delivery agent does), and
// the mail stays in npm start's data folder across runs.
//
// MaildirMailbox is the store of the IMAP server in Node (nodeImapServer.ts): it moves what arrived
// in new/ to cur/, numbers each message with a UID that never changes or comes back (kept in
// `local-imap-uids.json` beside the folders; Dovecot keeps its own `dovecot-uidlist`), and keeps the
// flags in the file names (`<name>:2,<letters>`, the Maildir convention Dovecot reads too).

import { randomBytes } from 'node:crypto';
import {
	chownSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The system flags a Maildir name keeps, each with its letter (RFC 3501 2.3.2; Maildir's info). */
export const MAILDIR_FLAGS: Readonly<Record<string, string>> = {
	'\\Draft': 'D',
	'\\Flagged': 'F',
	'\\Answered': 'R',
	'\\Seen': 'S',
	'\\Deleted': 'T',
};

export interface StoredMessage {
	uid: number;
	/** The file's unique part (before `:2,`): what its UID is kept under. */
	base: string;
	/** The file's name in cur/. */
	file: string;
	/** System flags, as IMAP writes them (`\Seen`). */
	flags: Set<string>;
	size: number;
	/** When it arrived (the file's modification time). */
	internalDate: Date;
}

interface UidState {
	uidValidity: number;
	uidNext: number;
	uids: Record<string, number>;
}

const STATE_FILE = 'local-imap-uids.json';

function uniqueName(): string {
	return `${Math.floor(Date.now() / 1000)}.P${process.pid}R${randomBytes(6).toString('hex')}.${hostname().replace(/[/:]/g, '_')}`;
}

/** The file name of a message in cur/ with `flags`: the letters sorted, as Maildir asks. */
export function maildirFileName(base: string, flags: Iterable<string>): string {
	const letters = [...flags]
		.map((flag) => MAILDIR_FLAGS[flag])
		.filter(Boolean)
		.sort()
		.join('');
	return `${base}:2,${letters}`;
}

/** A cur/ file name's unique part and flags. */
export function parseMaildirFileName(file: string): { base: string; flags: Set<string> } {
	const info = file.indexOf(':2,');
	const base = info === -1 ? file : file.slice(0, info);
	const letters = info === -1 ? '' : file.slice(info + 3);
	const flags = new Set(
		Object.entries(MAILDIR_FLAGS)
			.filter(([, letter]) => letters.includes(letter))
			.map(([flag]) => flag),
	);
	return { base, flags };
}

/** Makes `maildir` with its three folders (kept when there). */
export function makeMaildir(maildir: string): void {
	for (const sub of ['tmp', 'new', 'cur']) mkdirSync(join(maildir, sub), { recursive: true });
}

/**
 * Puts a raw RFC 5322 message (CRLF line ends) into a Maildir's INBOX as new and unseen, the way a
 * mail delivery agent does: a unique name, written in tmp/, then renamed into new/ (atomic). Run
 * as root, the file is given to the Maildir's owner (Dovecot's mail user when Dovecot serves it).
 */
export function deliverToMaildir(maildir: string, message: Buffer | string): void {
	const unique = uniqueName();
	const staged = join(maildir, 'tmp', unique);
	writeFileSync(staged, Buffer.isBuffer(message) ? message : Buffer.from(message, 'utf8'), {
		mode: 0o600,
	});
	if (process.getuid?.() === 0) {
		const owner = statSync(maildir);
		chownSync(staged, owner.uid, owner.gid);
	}
	renameSync(staged, join(maildir, 'new', unique));
}

/** One Maildir as an IMAP mailbox: its messages in UID order, their flags, and new arrivals. */
export class MaildirMailbox {
	readonly maildir: string;
	private state: UidState;
	private byUid = new Map<number, StoredMessage>();

	constructor(maildir: string) {
		this.maildir = maildir;
		makeMaildir(maildir);
		const stateFile = join(maildir, STATE_FILE);
		this.state = existsSync(stateFile)
			? (JSON.parse(readFileSync(stateFile, 'utf8')) as UidState)
			: { uidValidity: Math.floor(Date.now() / 1000), uidNext: 1, uids: {} };
		this.refresh();
	}

	get uidValidity(): number {
		return this.state.uidValidity;
	}

	get uidNext(): number {
		return this.state.uidNext;
	}

	/** The messages, lowest UID first (a message's sequence number is its place here, from 1). */
	messages(): StoredMessage[] {
		return [...this.byUid.values()].sort((a, b) => a.uid - b.uid);
	}

	/**
	 * Takes in what arrived in new/ (moved to cur/, a UID each, oldest first) and forgets what left
	 * cur/. Whether anything changed.
	 */
	refresh(): boolean {
		for (const file of readdirSync(join(this.maildir, 'new'))) {
			if (file.startsWith('.')) continue;
			const { base, flags } = parseMaildirFileName(file);
			try {
				renameSync(
					join(this.maildir, 'new', file),
					join(this.maildir, 'cur', maildirFileName(base, flags)),
				);
			} catch {
				// taken by another reader of the same folder meanwhile
			}
		}
		const seen = new Set<string>();
		const arrived: StoredMessage[] = [];
		let changed = false;
		for (const file of readdirSync(join(this.maildir, 'cur'))) {
			if (file.startsWith('.')) continue;
			const { base, flags } = parseMaildirFileName(file);
			seen.add(base);
			const uid = this.state.uids[base];
			const known = uid === undefined ? undefined : this.byUid.get(uid);
			if (known) {
				known.file = file;
				known.flags = flags;
				continue;
			}
			const stat = statSync(join(this.maildir, 'cur', file));
			const message = {
				uid: uid ?? 0,
				base,
				file,
				flags,
				size: stat.size,
				internalDate: stat.mtime,
			};
			if (uid === undefined) arrived.push(message);
			else this.byUid.set(uid, message);
			changed = true;
		}
		arrived.sort(
			(a, b) => a.internalDate.getTime() - b.internalDate.getTime() || a.base.localeCompare(b.base),
		);
		for (const message of arrived) {
			message.uid = this.state.uidNext++;
			this.state.uids[message.base] = message.uid;
			this.byUid.set(message.uid, message);
		}
		// What left cur/ (expunged by another reader): its UID is never given again.
		for (const [base, uid] of Object.entries(this.state.uids))
			if (!seen.has(base)) {
				this.byUid.delete(uid);
				delete this.state.uids[base];
				changed = true;
			}
		if (changed) this.saveState();
		return changed;
	}

	/** The message's bytes as delivered. */
	read(message: StoredMessage): Buffer {
		return readFileSync(join(this.maildir, 'cur', message.file));
	}

	/** Gives `message` exactly `flags` (its file renamed). */
	setFlags(message: StoredMessage, flags: Set<string>): void {
		const file = maildirFileName(message.base, flags);
		if (file !== message.file)
			renameSync(join(this.maildir, 'cur', message.file), join(this.maildir, 'cur', file));
		message.file = file;
		message.flags = new Set([...flags].filter((flag) => flag in MAILDIR_FLAGS));
	}

	/** Adds a message (IMAP APPEND): into cur/ with its flags, at once; its UID. */
	append(content: Buffer, flags: Set<string>, internalDate = new Date()): StoredMessage {
		const base = uniqueName();
		const staged = join(this.maildir, 'tmp', base);
		writeFileSync(staged, content, { mode: 0o600 });
		utimesSync(staged, internalDate, internalDate);
		renameSync(staged, join(this.maildir, 'cur', maildirFileName(base, flags)));
		this.refresh();
		return this.byUid.get(this.state.uids[base])!;
	}

	/** Removes the messages flagged \Deleted; their UIDs, lowest first. */
	expunge(): number[] {
		const removed = this.messages().filter((message) => message.flags.has('\\Deleted'));
		for (const message of removed) {
			rmSync(join(this.maildir, 'cur', message.file), { force: true });
			this.byUid.delete(message.uid);
			delete this.state.uids[message.base];
		}
		if (removed.length > 0) this.saveState();
		return removed.map((message) => message.uid);
	}

	private saveState(): void {
		const file = join(this.maildir, STATE_FILE);
		writeFileSync(`${file}.tmp`, `${JSON.stringify(this.state)}\n`);
		renameSync(`${file}.tmp`, file);
	}
}
