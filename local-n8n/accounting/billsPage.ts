/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// The bills a stand-in holds as a person reads them (`/__standin/bills`, linked by `npm start`):
// supplier, number, lines with their account and tax, totals, the original attached, the note.

import type { ServerResponse } from 'node:http';
import { escapeHtml, htmlPage } from '../htmlPage.ts';

export interface BillView {
	kind: string;
	number: string;
	supplier: string;
	date: string;
	currency: string;
	lines: Array<{ description: string; account: string; tax: string; amount: number | string }>;
	total: number | string;
	attachments: string[];
	notes: string[];
}

export function billsPage(books: string, bills: BillView[]): string {
	const sections = bills
		.slice()
		.reverse()
		.map(
			(
				bill,
			) => `<h2>${escapeHtml(bill.kind)} ${escapeHtml(bill.number)} from ${escapeHtml(bill.supplier)}</h2>
<p>${escapeHtml(bill.date)} · ${escapeHtml(bill.currency)} · total <b>${escapeHtml(bill.total)}</b></p>
<table><tr><th>Line</th><th>Account</th><th>Tax</th><th>Amount</th></tr>
${bill.lines.map((line) => `<tr><td>${escapeHtml(line.description)}</td><td>${escapeHtml(line.account)}</td><td>${escapeHtml(line.tax)}</td><td class="amount">${escapeHtml(line.amount)}</td></tr>`).join('\n')}
</table>
<p>Attached: ${escapeHtml(bill.attachments.join(', ') || 'nothing')}</p>
${bill.notes.map((note) => `<p class="muted">Note: ${escapeHtml(note)}</p>`).join('\n')}`,
		)
		.join('\n');
	return htmlPage(
		`Bills in the ${books} stand-in`,
		bills.length === 0
			? '<p class="muted">No bill yet.</p>'
			: `<p class="muted">Newest first; the raw requests are at <a href="/__standin/requests">/__standin/requests</a>.</p>\n${sections}`,
	);
}

export function sendPage(res: ServerResponse, html: string): void {
	res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
	res.end(html);
}
