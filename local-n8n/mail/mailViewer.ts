/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// Every email n8n sent through the local SMTP server, as the approver receives it: a list, and a page
// per email with its HTML in a sandboxed frame (no scripts; its links, the approval form's among
// them, open in a new tab) and the original with its attachments (.eml, for any mail client). With
// `sendDigest`, a button runs the morning digest template now (npm start: its Schedule Trigger).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml, htmlPage } from '../htmlPage.ts';
import type { MailMessage } from './mimeMessage.ts';

/** Runs the morning digest now; says what happened, in a sentence. */
export type SendDigest = () => Promise<string>;

const DIGEST_BUTTON =
	'<form method="post" action="/digest"><button>Send the morning digest now</button> ' +
	'<span class="muted">(the invoice register: what waits for a person, what was booked)</span></form>';

/** The list page: newest first. */
export function mailListPage(messages: MailMessage[], digestButton = false): string {
	const rows = messages
		.map((message, index) => ({ message, index }))
		.reverse()
		.map(
			({ message, index }) =>
				`<tr><td>${escapeHtml(message.receivedAt)}</td><td>${escapeHtml(message.to.join(', '))}</td><td><a href="/message/${index}">${escapeHtml(message.subject || '(no subject)')}</a></td><td>${escapeHtml(message.attachments.join(', '))}</td></tr>`,
		)
		.join('\n');
	return htmlPage(
		'Mail sent by n8n',
		(digestButton ? DIGEST_BUTTON : '') +
			(messages.length === 0
				? '<p class="muted">No email yet: send an invoice (npm run send-invoice) and reload.</p>'
				: `<table><tr><th>Received</th><th>To</th><th>Subject</th><th>Attached</th></tr>\n${rows}</table>`),
	);
}

/** One email: its headers, its body as sent, and the original to download. */
export function mailMessagePage(message: MailMessage, index: number): string {
	const body = message.html
		? `<base target="_blank">${message.html}`
		: `<pre>${escapeHtml(message.text)}</pre>`;
	return htmlPage(
		message.subject || '(no subject)',
		`<p><a href="/">All mail</a></p>
<table>
<tr><th>From</th><td>${escapeHtml(message.from)}</td></tr>
<tr><th>To</th><td>${escapeHtml(message.to.join(', '))}</td></tr>
<tr><th>Received</th><td>${escapeHtml(message.receivedAt)}</td></tr>
<tr><th>Attached</th><td>${escapeHtml(message.attachments.join(', ') || 'nothing')} (<a href="/message/${index}.eml">the original, with its attachments</a>)</td></tr>
</table>
<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(body)}"></iframe>`,
	);
}

async function digestNow(sendDigest: SendDigest, res: ServerResponse): Promise<void> {
	const said = await sendDigest().catch((error: Error) => `not sent: ${error.message}`);
	res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
	res.end(htmlPage('Morning digest', `<p>${escapeHtml(said)}</p><p><a href="/">All mail</a></p>`));
}

function answer(
	messages: () => MailMessage[],
	sendDigest: SendDigest | undefined,
	req: IncomingMessage,
	res: ServerResponse,
): void {
	const path = new URL(req.url ?? '/', 'http://mail').pathname;
	const all = messages();
	const match = /^\/message\/(\d+)(\.eml)?$/.exec(path);
	const message = match ? all[Number(match[1])] : undefined;
	if (path === '/digest' && req.method === 'POST' && sendDigest) {
		void digestNow(sendDigest, res);
	} else if (path === '/') {
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(mailListPage(all, sendDigest !== undefined));
	} else if (message && match?.[2]) {
		res.writeHead(200, {
			'content-type': 'message/rfc822',
			'content-disposition': `attachment; filename="message-${match[1]}.eml"`,
		});
		res.end(message.raw);
	} else if (message) {
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(mailMessagePage(message, Number(match![1])));
	} else {
		res.writeHead(404, { 'content-type': 'text/plain' });
		res.end('No such email.');
	}
}

/** Serves the pages on 127.0.0.1 (`port` when free, else any). */
export async function startMailViewer(
	messages: () => MailMessage[],
	port = 0,
	sendDigest?: SendDigest,
): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => answer(messages, sendDigest, req, res));
	await new Promise<void>((resolve) => {
		server.once('error', () => server.listen(0, '127.0.0.1', resolve));
		server.listen(port, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
