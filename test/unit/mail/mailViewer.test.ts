// The page of the emails n8n sent (npm start): the list, an email's own page with its HTML in a
// sandboxed frame whose links open in a new tab, the original to download; markup stays text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	composeMessage,
	parseMailMessage,
	startMailViewer,
	type MailMessage,
} from '../../../local-n8n/mail/index.ts';

const messages: MailMessage[] = [];
let viewer: { url: string; close(): Promise<void> };
beforeAll(async () => {
	viewer = await startMailViewer(() => messages);
});
afterAll(async () => await viewer.close());

describe('the mail page', () => {
	it('lists each email and shows it as sent, with its form link and the original', async () => {
		expect(await (await fetch(`${viewer.url}/`)).text()).toContain('No email yet');
		const raw = composeMessage({
			from: 'n8n <invoices@example.com>',
			to: 'manager@example.com',
			subject: 'Approve <script>alert(1)</script> invoice',
			text: 'See the form.',
			attachments: [
				{
					fileName: 'invoice.pdf',
					contentType: 'application/pdf',
					content: Buffer.from('%PDF-1.4'),
				},
			],
		});
		messages.push({
			...parseMailMessage(raw),
			html: '<p>Decide: <a href="https://n8n.local/webhook-waiting/7?signature=x">Open form</a></p>',
		});

		const list = await (await fetch(`${viewer.url}/`)).text();
		expect(list).toContain(
			'<a href="/message/0">Approve &#60;script&#62;alert(1)&#60;/script&#62; invoice</a>',
		);
		expect(list).toContain('invoice.pdf');

		const page = await (await fetch(`${viewer.url}/message/0`)).text();
		expect(page).toContain(
			'<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="&#60;base target=&#34;_blank&#34;&#62;&#60;p&#62;Decide: &#60;a href=&#34;https://n8n.local/webhook-waiting/7?signature=x&#34;&#62;Open form',
		);
		expect(page).not.toContain('<script>');

		const original = await fetch(`${viewer.url}/message/0.eml`);
		expect(original.headers.get('content-type')).toBe('message/rfc822');
		expect(await original.text()).toBe(raw);
		expect((await fetch(`${viewer.url}/message/9`)).status).toBe(404);
	});

	it('offers the morning digest on demand when npm start gives it, and says what happened', async () => {
		expect(await (await fetch(`${viewer.url}/`)).text()).not.toContain('action="/digest"');
		expect((await fetch(`${viewer.url}/digest`, { method: 'POST' })).status).toBe(404);
		const asked: string[] = [];
		const withDigest = await startMailViewer(
			() => [],
			0,
			async () => {
				asked.push('digest');
				if (asked.length > 1) throw new Error('SMTP <down>');
				return 'Sent: Invoice register: 2 booked';
			},
		);
		try {
			expect(await (await fetch(`${withDigest.url}/`)).text()).toContain(
				'<form method="post" action="/digest"><button>Send the morning digest now</button>',
			);
			expect(await (await fetch(`${withDigest.url}/digest`, { method: 'POST' })).text()).toContain(
				'<p>Sent: Invoice register: 2 booked</p>',
			);
			expect(await (await fetch(`${withDigest.url}/digest`, { method: 'POST' })).text()).toContain(
				'<p>not sent: SMTP &#60;down&#62;</p>',
			);
			expect(asked).toEqual(['digest', 'digest']);
		} finally {
			await withDigest.close();
		}
	});
});
