/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The IMAP server in Node over a real socket, as a client speaks to it: login, the mailbox opened,
// a message delivered into the Maildir announced at once (between commands and in IDLE), found by
// the searches n8n's Email Trigger sends, fetched byte for byte, marked read, its parts and their
// dispositions in BODYSTRUCTURE; APPEND; and the mail and its UIDs kept across a restart.
// (n8n's own client against it, in a real n8n: test/e2e/imap-without-dovecot.test.ts.)

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	composeMessage,
	deliverToMaildir,
	invoicePdf,
	startImapServer,
	type ImapServer,
} from '../../../local-n8n/mail/index.ts';

/** A bare IMAP client: commands in, everything the server said back as text. */
class Client {
	private socket: Socket;
	private received = '';
	private tagCount = 0;
	private waiters: Array<() => void> = [];

	private constructor(socket: Socket) {
		this.socket = socket;
		socket.on('data', (chunk: Buffer) => {
			this.received += chunk.toString('latin1');
			for (const wake of this.waiters.splice(0)) wake();
		});
	}

	static async open(port: number): Promise<Client> {
		const socket = connect(port, '127.0.0.1');
		const client = new Client(socket);
		await client.until((text) => text.includes('\r\n'));
		client.take();
		return client;
	}

	/** What the server sent since the last take(). */
	take(): string {
		const text = this.received;
		this.received = '';
		return text;
	}

	async until(done: (text: string) => boolean, timeoutMs = 5_000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		while (!done(this.received)) {
			if (Date.now() > deadline) throw new Error(`timed out; got:\n${this.received}`);
			await new Promise<void>((resolve) => {
				this.waiters.push(resolve);
				setTimeout(resolve, 50);
			});
		}
		return this.received;
	}

	/** Sends a command (literals given apart are sent after the server's go-ahead); its whole answer. */
	async run(command: string, literal?: Buffer): Promise<string> {
		const tag = `T${++this.tagCount}`;
		if (literal) {
			this.socket.write(`${tag} ${command} {${literal.length}}\r\n`);
			await this.until((text) => text.startsWith('+'));
			this.take();
			this.socket.write(Buffer.concat([literal, Buffer.from('\r\n')]));
		} else {
			this.socket.write(`${tag} ${command}\r\n`);
		}
		await this.until((text) => new RegExp(`(^|\\r\\n)${tag} (OK|NO|BAD)[^\\r]*\\r\\n$`).test(text));
		return this.take();
	}

	write(text: string): void {
		this.socket.write(text);
	}

	close(): void {
		this.socket.destroy();
	}
}

const dir = mkdtempSync(join(tmpdir(), 'imap-node-test-'));
let server: ImapServer;
const pdf = invoicePdf(['Acme Supplies', 'Invoice INV-7', 'Total 119.00']);
const email = (subject: string) =>
	composeMessage({
		from: 'Acme Billing <billing@acme.example>',
		to: 'invoices@example.com',
		subject,
		text: 'Our invoice is attached.',
		attachments: [{ fileName: 'invoice.pdf', contentType: 'application/pdf', content: pdf }],
	});

beforeAll(async () => {
	server = await startImapServer({ server: 'node', user: 'invoices', password: 'secret-pw', dir });
});
afterAll(async () => {
	await server?.stop();
	rmSync(dir, { recursive: true, force: true });
});

describe('the IMAP server in Node', () => {
	it('refuses a wrong password and anything before login', async () => {
		const client = await Client.open(server.port);
		expect(await client.run('SELECT INBOX')).toMatch(/^T1 NO /m);
		expect(await client.run('LOGIN invoices wrong')).toMatch(/^T2 NO \[AUTHENTICATIONFAILED\]/m);
		expect(await client.run('LOGIN "invoices" "secret-pw"')).toMatch(/^T3 OK /m);
		expect(await client.run('SELECT Archive')).toMatch(/^T4 NO \[NONEXISTENT\]/m);
		client.close();
	});

	it('announces a delivered message at once, finds it as n8n searches, gives its bytes and marks it read', async () => {
		const client = await Client.open(server.port);
		await client.run('LOGIN invoices secret-pw');
		const list = await client.run('LIST "" "*"');
		expect(list).toContain('* LIST (\\HasNoChildren) "/" INBOX');
		const selected = await client.run('SELECT INBOX');
		expect(selected).toMatch(/\* 0 EXISTS/);
		expect(selected).toMatch(/\* OK \[UIDNEXT 1\]/);
		expect(selected).toMatch(/T\d+ OK \[READ-WRITE\]/);
		await server.waitForMailboxOpened(1, 1_000);

		const raw = email('Invoice INV-7');
		server.deliver(raw);
		// No command in flight: announced all the same.
		await client.until((text) => text.includes('* 1 EXISTS'));
		client.take();

		const today = new Date();
		const since = `${today.getDate()}-${today.toLocaleString('en-US', { month: 'short' })}-${today.getFullYear()}`;
		expect(await client.run(`UID SEARCH UNSEEN SINCE ${since}`)).toMatch(/^\* SEARCH 1\r\n/m);
		expect(await client.run('UID SEARCH UNSEEN UID 2:*')).toMatch(/^\* SEARCH 1\r\n/m);
		expect(await client.run('UID SEARCH SUBJECT "inv-7" FROM acme')).toMatch(/^\* SEARCH 1\r\n/m);
		expect(await client.run('UID SEARCH NOT FROM acme')).toMatch(/^\* SEARCH\r\n/m);

		const fetched = await client.run('UID FETCH 1 (BODY.PEEK[] UID)');
		const literal = /BODY\[\] \{(\d+)\}\r\n/.exec(fetched)!;
		const start = literal.index + literal[0].length;
		expect(Number(literal[1])).toBe(Buffer.byteLength(raw));
		expect(fetched.slice(start, start + Number(literal[1]))).toBe(raw);
		expect(fetched).toMatch(/ UID 1\)\r\n/);

		const structure = await client.run('UID FETCH 1 (BODYSTRUCTURE)');
		expect(structure).toContain('"APPLICATION" "PDF" ("name" "invoice.pdf")');
		expect(structure).toContain('("attachment" ("filename" "invoice.pdf"))');
		const part = await client.run('UID FETCH 1 (BODY.PEEK[2]<0.20>)');
		expect(part).toContain(`BODY[2]<0> {20}\r\n${pdf.toString('base64').slice(0, 20)}`);

		expect(await client.run('UID STORE 1 +FLAGS (\\Seen)')).toMatch(
			/\* 1 FETCH \(FLAGS \(\\Seen\) UID 1\)/,
		);
		expect(await client.run('UID SEARCH UNSEEN')).toMatch(/^\* SEARCH\r\n/m);
		// Kept as Maildir keeps it: the file in cur/, its flag in the name.
		expect(readdirSync(join(server.maildir, 'cur'))).toEqual([expect.stringMatching(/:2,S$/)]);
		client.close();
	});

	it('tells a client in IDLE of the next message, and takes an APPEND', async () => {
		const client = await Client.open(server.port);
		await client.run('LOGIN invoices secret-pw');
		await client.run('SELECT INBOX');
		client.write('I1 IDLE\r\n');
		await client.until((text) => text.startsWith('+ '));
		await server.waitForIdle!(1, 1_000);
		client.take();
		deliverToMaildir(server.maildir, email('Invoice INV-8'));
		await client.until((text) => text.includes('* 2 EXISTS'));
		client.write('DONE\r\n');
		await client.until((text) => text.includes('I1 OK IDLE terminated'));
		client.take();

		const appended = await client.run('APPEND INBOX (\\Seen)', Buffer.from(email('Copy')));
		expect(appended).toMatch(/\* 3 EXISTS/);
		expect(appended).toMatch(/OK \[APPENDUID \d+ 3\]/);
		expect(await client.run('UID SEARCH UNSEEN')).toMatch(/^\* SEARCH 2\r\n/m);
		// FETCH BODY[] (not PEEK) reads it: \Seen is set and said.
		expect(await client.run('FETCH 2 (BODY[HEADER.FIELDS (SUBJECT)])')).toMatch(
			/BODY\[HEADER\.FIELDS \(SUBJECT\)\] \{\d+\}\r\nSubject: Invoice INV-8\r\n\r\n FLAGS \(\\Seen\)\)/,
		);
		await client.run('LOGOUT');
		client.close();
	});

	it('keeps the mail and its UIDs across a restart', async () => {
		await server.stop();
		server = await startImapServer({
			server: 'node',
			user: 'invoices',
			password: 'secret-pw',
			dir,
		});
		deliverToMaildir(server.maildir, email('After the restart'));
		const client = await Client.open(server.port);
		await client.run('LOGIN invoices secret-pw');
		const selected = await client.run('EXAMINE INBOX');
		expect(selected).toMatch(/\* 4 EXISTS/);
		expect(selected).toMatch(/T\d+ OK \[READ-ONLY\]/);
		expect(await client.run('UID SEARCH ALL')).toMatch(/^\* SEARCH 1 2 3 4\r\n/m);
		expect(await client.run('UID SEARCH UNSEEN')).toMatch(/^\* SEARCH 4\r\n/m);
		expect(await client.run('STORE 4 +FLAGS (\\Seen)')).toMatch(/NO \[READ-ONLY\]/);
		client.close();
	});
});
