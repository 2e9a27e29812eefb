/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// A local mail server for the approval example: n8n's SMTP credential points at it, and a test (or a
// person running `npm start`) reads what n8n sent. The SMTP conversation is the `smtp-server`
// package's (by the author of nodemailer, which n8n's Email node uses), not hand-written. Plain SMTP
// on 127.0.0.1 without TLS or login: it accepts every message and keeps it in memory.

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMailMessage, type MailMessage } from './mimeMessage.ts';

export interface MailServer {
	host: string;
	port: number;
	/** Every message received, oldest first. */
	messages(): MailMessage[];
	/** Resolves with the first `count` messages that match, or rejects after `timeoutMs`. */
	waitForMessages(
		match: (message: MailMessage) => boolean,
		count?: number,
		timeoutMs?: number,
	): Promise<MailMessage[]>;
	/** Called for each message as it arrives (e.g. to print it). */
	onMessage(listener: (message: MailMessage) => void): void;
	stop(): Promise<void>;
}

/** Starts the server on `port` (0: a free one) on 127.0.0.1. */
export async function startMailServer(port = 0): Promise<MailServer> {
	const received: MailMessage[] = [];
	const listeners: Array<(message: MailMessage) => void> = [];
	const server = new SMTPServer({
		secure: false,
		disabledCommands: ['STARTTLS', 'AUTH'],
		authOptional: true,
		banner: 'local mail server for n8n-nodes-document-extraction',
		logger: false,
		onData(stream, _session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('end', () => {
				const message = parseMailMessage(Buffer.concat(chunks).toString('utf8'));
				received.push(message);
				for (const listener of listeners) listener(message);
				callback();
			});
		},
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	const address = server.server.address() as AddressInfo;

	return {
		host: '127.0.0.1',
		port: address.port,
		messages: () => [...received],
		async waitForMessages(match, count = 1, timeoutMs = 30_000) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const found = received.filter(match);
				if (found.length >= count) return found.slice(0, count);
				if (Date.now() > deadline) {
					const subjects = received.map((message) => message.subject).join(' | ');
					throw new Error(
						`${found.length} of ${count} expected messages after ${timeoutMs} ms; received: ${subjects || 'none'}`,
					);
				}
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
		},
		onMessage(listener) {
			listeners.push(listener);
		},
		async stop() {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
