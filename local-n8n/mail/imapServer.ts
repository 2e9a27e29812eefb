/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// A real IMAP server for n8n's Email Trigger (IMAP), one mailbox on 127.0.0.1, in one of two kinds
// behind startImapServer():
//   - 'dovecot' (dovecotImapServer.ts): Dovecot, a system program, with its own config in a
//     temporary folder, run as the user. The e2e tests that prove the templates use it (the default).
//   - 'node' (nodeImapServer.ts): the IMAP server in Node, in this process: no system package. What
//     `npm start` runs when Dovecot is not installed.
// Both keep the mailbox as a Maildir, so a message is delivered the same way to either
// (deliverToMaildir: tmp/, then new/), e.g. by `npm run send-invoice` from another process.

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { log } from '../log.ts';
import { artifactsDir, makeTmpDir, timestampForFiles } from '../paths.ts';
import { freePort } from '../processes.ts';
import { dovecotPath, requirementPath } from '../systemPackages.ts';
import { startDovecot } from './dovecotImapServer.ts';
import { deliverToMaildir } from './maildir.ts';
import { startNodeImapServer } from './nodeImapServer.ts';

export type ImapServerKind = 'dovecot' | 'node';

/** Which server: one kind, or 'auto' (Dovecot when installed, else the one in Node). */
export type ImapServerChoice = ImapServerKind | 'auto';

export interface ImapServer {
	kind: ImapServerKind;
	/** For people: "Dovecot", "the IMAP server in Node". */
	title: string;
	host: string;
	port: number;
	/** The mailbox's login. */
	user: string;
	password: string;
	logFile: string;
	/** The mailbox's Maildir, where deliverToMaildir() puts a message. */
	maildir: string;
	/** Puts a raw RFC 5322 message (CRLF line ends) into the user's INBOX, as new and unseen. */
	deliver(message: Buffer | string): void;
	/**
	 * Resolves once a client has opened INBOX (its SELECT finished), `count` times since the server
	 * started. n8n's Email Trigger announces only messages that arrive after it opened the mailbox
	 * (its IDLE reports them): a message delivered before that is never started on by itself.
	 */
	waitForMailboxOpened(count?: number, timeoutMs?: number): Promise<void>;
	/**
	 * The IMAP server in Node only: resolves once clients have started IDLE `count` times since it
	 * started (a test then knows that the next message is announced in IDLE).
	 */
	waitForIdle?(count?: number, timeoutMs?: number): Promise<void>;
	stop(): Promise<void>;
}

/**
 * What 'auto' picks: the LOCAL_IMAP_SERVER environment variable when it names a kind (`node`,
 * `dovecot`), else Dovecot when it is installed, else the IMAP server in Node.
 */
export function chooseImapServer(
	choice: ImapServerChoice = 'auto',
	env: NodeJS.ProcessEnv = process.env,
	dovecotInstalled: () => boolean = () => dovecotPath() !== undefined,
): ImapServerKind {
	if (choice !== 'auto') return choice;
	const wanted = env.LOCAL_IMAP_SERVER?.trim().toLowerCase();
	if (wanted === 'node' || wanted === 'dovecot') return wanted;
	return dovecotInstalled() ? 'dovecot' : 'node';
}

/** Polls `count()` until it reaches `wanted`. */
export async function waitForCount(
	count: () => number,
	wanted: number,
	timeoutMs: number,
	what: string,
): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (count() < wanted) {
		if (Date.now() > until)
			throw new Error(`${what} ${count()} of ${wanted} times after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/**
 * Starts an IMAP server with one mailbox (`user`, a random password unless given) on 127.0.0.1:
 * on `port` when free, else a free one; its mail (and Dovecot's state) in `dir` when given (kept),
 * else in a temporary folder. `server` chooses the kind: Dovecot unless told otherwise (a missing
 * Dovecot then throws the message that says how to install it, for `neededBy`).
 */
export async function startImapServer(
	options: {
		server?: ImapServerChoice;
		user?: string;
		password?: string;
		dir?: string;
		port?: number;
		neededBy?: string;
	} = {},
): Promise<ImapServer> {
	const kind = chooseImapServer(options.server ?? 'dovecot');
	const user = options.user ?? 'invoices';
	const password = options.password ?? randomBytes(12).toString('hex');
	const port = await freePort(options.port);
	if (kind === 'dovecot') {
		const dovecot = requirementPath(
			'dovecot',
			options.neededBy ?? "the IMAP server of an email template's test",
		);
		const dir = options.dir ?? makeTmpDir('imap-dovecot');
		return await startDovecot(dovecot, { user, password, dir, port });
	}
	const dir = options.dir ?? makeTmpDir('imap-node');
	// The same place Dovecot keeps the mailbox in: a data folder works with either.
	const maildir = join(dir, 'mail', user, 'Maildir');
	const logFile = join(artifactsDir(), `imap-node-${timestampForFiles()}-${port}.log`);
	const server = await startNodeImapServer({ maildir, user, password, port, logFile });
	log('imap', `IMAP server in Node on 127.0.0.1:${port}, mailbox ${user}`);
	return {
		kind: 'node',
		title: 'the IMAP server in Node',
		host: '127.0.0.1',
		port,
		user,
		password,
		logFile,
		maildir,
		deliver(message) {
			deliverToMaildir(maildir, message);
			server.refresh();
		},
		waitForMailboxOpened: (count = 1, timeoutMs = 60_000) =>
			waitForCount(() => server.mailboxOpenedCount(), count, timeoutMs, 'INBOX opened'),
		waitForIdle: (count = 1, timeoutMs = 60_000) =>
			waitForCount(() => server.idleCount(), count, timeoutMs, 'IDLE started'),
		stop: () => server.close(),
	};
}
