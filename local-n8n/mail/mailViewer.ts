/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// Every email n8n sent through the local SMTP server, as the approver receives it: a list, and a page
// per email with its HTML in a sandboxed frame (no scripts; its links, the approval form's among
// them, open in a new tab) and the original with its attachments (.eml, for any mail client).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml, htmlPage } from '../htmlPage.ts';
import type { MailMessage } from './mimeMessage.ts';

/** The list page: newest first. */
export function mailListPage(messages: MailMessage[]): string {
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
		messages.length === 0
			? '<p class="muted">No email yet: send an invoice (npm run send-invoice) and reload.</p>'
			: `<table><tr><th>Received</th><th>To</th><th>Subject</th><th>Attached</th></tr>\n${rows}</table>`,
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

function answer(messages: () => MailMessage[], req: IncomingMessage, res: ServerResponse): void {
	const path = new URL(req.url ?? '/', 'http://mail').pathname;
	const all = messages();
	const match = /^\/message\/(\d+)(\.eml)?$/.exec(path);
	const message = match ? all[Number(match[1])] : undefined;
	if (path === '/') {
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(mailListPage(all));
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
): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => answer(messages, req, res));
	await new Promise<void>((resolve) => {
		server.once('error', () => server.listen(0, '127.0.0.1', resolve));
		server.listen(port, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
