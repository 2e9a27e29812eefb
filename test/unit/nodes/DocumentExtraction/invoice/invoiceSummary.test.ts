import { describe, expect, it } from 'vitest';

import type { SimplifiedInvoice } from '../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import {
	invoiceOutput,
	simplifyInvoice,
} from '../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import { invoiceSummary } from '../../../../../nodes/DocumentExtraction/invoice/invoiceSummary.ts';

const ACME = {
	header: { vendor: 'Acme Supplies GmbH', date: '2026-11-02', invoice_no: 'INV-0042' },
	amounts: { subtotal: 1250, tax: 237.5, total: 1487.5 },
	currency: 'EUR',
	line_items: [
		{ description: 'Paper A4', quantity: 50, unit_price: 20, amount: 1000 },
		{ description: 'Toner', quantity: 2, unit_price: 100, amount: 200 },
		{ description: 'Delivery', quantity: 1, unit_price: 50, amount: 50 },
	],
};

function summaryOf(extracted: unknown) {
	return invoiceSummary(simplifyInvoice(extracted));
}

function withLines(lines: SimplifiedInvoice['line_items']): SimplifiedInvoice {
	return { ...simplifyInvoice(ACME), line_items: lines };
}

describe('invoiceSummary', () => {
	it('says vendor, number, date, currency and total, and the number of lines on one line', () => {
		expect(summaryOf(ACME).summary).toBe(
			'Acme Supplies GmbH, INV-0042, 2026-11-02, EUR 1,487.50, 3 lines',
		);
	});

	it('leaves the currency out when the invoice names none', () => {
		expect(summaryOf({ ...ACME, currency: undefined }).summary).toBe(
			'Acme Supplies GmbH, INV-0042, 2026-11-02, 1,487.50, 3 lines',
		);
	});

	it('says what is missing instead of printing null', () => {
		const summary = summaryOf({ amounts: { total: 12 }, line_items: [{ amount: 12 }] }).summary;
		expect(summary).toBe('vendor unknown, no invoice number, no date, 12.00, 1 line');
		expect(summaryOf({ header: { vendor: 'Acme' } }).summary).toBe(
			'Acme, no invoice number, no date, total unknown, 0 lines',
		);
	});

	it('is null throughout for a document without invoice data (still in review)', () => {
		expect(summaryOf(null)).toEqual({
			summary: null,
			summary_html: null,
			lines_markdown: null,
			lines_html: null,
		});
	});

	it('has no tables for an invoice without lines', () => {
		const result = summaryOf({ ...ACME, line_items: [] });
		expect(result.summary).toMatch(/, 0 lines$/);
		expect(result.lines_markdown).toBeNull();
		expect(result.lines_html).toBeNull();
	});

	it('shows a credit note with its negative amounts', () => {
		const result = summaryOf({
			header: { vendor: 'Acme', date: '2026-11-03', invoice_no: 'CN-7' },
			amounts: { subtotal: -100, tax: -19, total: -119 },
			currency: 'EUR',
			line_items: [{ description: 'Returned toner', quantity: -1, unit_price: 100, amount: -100 }],
		});
		expect(result.summary).toBe('Acme, CN-7, 2026-11-03, EUR -119.00, 1 line');
		expect(result.lines_markdown).toContain('| Returned toner | -1 | 100.00 | -100.00 |');
	});

	it('formats amounts from the invoice numbers, without floating-point noise', () => {
		const result = summaryOf({
			...ACME,
			amounts: { subtotal: 0.3, tax: 0, total: 0.1 + 0.2 },
			line_items: [{ description: 'Sum', quantity: 3, unit_price: 0.1, amount: 0.1 + 0.2 }],
		});
		expect(result.summary).toContain('EUR 0.30,');
		expect(result.lines_markdown).toContain('| Sum | 3 | 0.10 | 0.30 |');
		expect(result.lines_html).not.toContain('0.30000000000000004');
	});

	it('builds a Markdown table with one row per line', () => {
		expect(summaryOf(ACME).lines_markdown).toBe(
			[
				'| Description | Quantity | Unit price | Amount |',
				'|---|--:|--:|--:|',
				'| Paper A4 | 50 | 20.00 | 1,000.00 |',
				'| Toner | 2 | 100.00 | 200.00 |',
				'| Delivery | 1 | 50.00 | 50.00 |',
			].join('\n'),
		);
	});

	it('builds the same table in HTML', () => {
		const html = summaryOf(ACME).lines_html ?? '';
		expect(html.match(/<tr>/g)).toHaveLength(4);
		expect(html).toContain('>Paper A4</td>');
		expect(html).toContain('>1,000.00</td>');
		expect(html).toMatch(/^<table[^>]*>.*<\/table>$/);
	});

	it('leaves a cell empty for a missing value (an amount-only line)', () => {
		const result = invoiceSummary(
			withLines([{ description: null, quantity: null, unit_price: null, amount: 12 }]),
		);
		expect(result.lines_markdown).toContain('\n|  |  |  | 12.00 |');
	});

	it('escapes every text in the HTML table', () => {
		const result = invoiceSummary(
			withLines([
				{
					description: '<script>alert("x")</script> & \'more\'',
					quantity: 1,
					unit_price: 1,
					amount: 1,
				},
			]),
		);
		expect(result.lines_html).not.toContain('<script>');
		expect(result.lines_html).toContain(
			'&#x3C;script&#x3E;alert(&#x22;x&#x22;)&#x3C;/script&#x3E; &#x26; &#x27;more&#x27;',
		);
	});

	it('keeps a pipe or a line break in a description from breaking the Markdown table', () => {
		const result = invoiceSummary(
			withLines([{ description: 'A | B\nC\\', quantity: 1, unit_price: 1, amount: 1 }]),
		);
		const rows = (result.lines_markdown ?? '').split('\n');
		expect(rows).toHaveLength(3);
		expect(rows[2]).toBe('| A \\| B C\\\\ | 1 | 1.00 | 1.00 |');
	});

	it('shortens a long description in the tables to at most 80 characters, with an ellipsis', () => {
		const long = 'Consulting services '.repeat(20).trim();
		const result = invoiceSummary(
			withLines([{ description: long, quantity: 1, unit_price: 1, amount: 1 }]),
		);
		const cell = (result.lines_markdown ?? '').split('\n')[2].split(' | ')[0].slice(2);
		expect(cell.length).toBeLessThanOrEqual(80);
		expect(cell.endsWith('…')).toBe(true);
		expect(long.startsWith(cell.slice(0, -1))).toBe(true);
	});

	it('keeps the summary on one line whatever the vendor holds', () => {
		const summary = summaryOf({
			...ACME,
			header: { ...ACME.header, vendor: 'Acme\nSupplies\t GmbH' },
		}).summary;
		expect(summary).toBe('Acme Supplies GmbH, INV-0042, 2026-11-02, EUR 1,487.50, 3 lines');
	});
});

describe('invoiceOutput and the summary', () => {
	const fields = { document_id: 'doc_secret_id', status: 'verified', review_id: 'rev_1' };

	it('puts summary, summary_html, lines_markdown and lines_html on the Simplified item', () => {
		const [item] = invoiceOutput('simplified', {}, fields, ACME);
		expect(item.summary).toBe('Acme Supplies GmbH, INV-0042, 2026-11-02, EUR 1,487.50, 3 lines');
		expect(item.summary_html).toBe(item.summary);
		expect(item.lines_markdown).toBe(summaryOf(ACME).lines_markdown);
		expect(item.lines_html).toBe(summaryOf(ACME).lines_html);
	});

	it('shows no internal id a person need not see', () => {
		const [item] = invoiceOutput('simplified', {}, fields, ACME);
		const shown = [item.summary, item.summary_html, item.lines_markdown, item.lines_html].join(
			'\n',
		);
		expect(shown).not.toContain('doc_secret_id');
		expect(shown).not.toContain('rev_1');
	});

	it('leaves Raw and Split Line Items as they were (N43)', () => {
		for (const mode of ['raw', 'splitLineItems'] as const) {
			for (const item of invoiceOutput(mode, { extracted_json: ACME }, fields, ACME)) {
				expect(item).not.toHaveProperty('summary');
				expect(item).not.toHaveProperty('summary_html');
				expect(item).not.toHaveProperty('lines_markdown');
				expect(item).not.toHaveProperty('lines_html');
			}
		}
	});
});

/**
 * What n8n 2.41.1's Send and Wait does to its message before putting it into its email:
 * n8n-nodes-base/dist/utils/sendAndWait/utils.js (getSendAndWaitConfig) calls utilities.escapeHtml,
 * which turns these five named references back into characters (once, left to right).
 */
function sendAndWaitMessage(message: string): string {
	const characters: Record<string, string> = {
		'&amp;': '&',
		'&lt;': '<',
		'&gt;': '>',
		'&#39;': "'",
		'&quot;': '"',
	};
	return message.replace(/&amp;|&lt;|&gt;|&#39;|&quot;/g, (reference) => characters[reference]);
}

/** The text an HTML renderer shows for character references: each read once, left to right. */
function shownText(html: string): string {
	const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', amp: '&' };
	return html.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|quot|amp);/gi, (reference, name: string) =>
		name.startsWith('#x') || name.startsWith('#X')
			? String.fromCodePoint(parseInt(name.slice(2), 16))
			: name.startsWith('#')
				? String.fromCodePoint(Number(name.slice(1)))
				: (named[name] ?? reference),
	);
}

/** The tags of the HTML table itself: anything else that starts a tag came from supplier text. */
const TABLE_TAGS = /<\/?(table|thead|tbody|tr|th|td)(\s[^<>]*)?>/g;

describe('supplier text stays text in every message field (N43)', () => {
	const LINK = '<a href="https://evil.example">Pay here</a> Ltd';
	const MARKDOWN_LINK = '[Pay here](https://evil.example)';
	/** Text already written as references, so that decoding them once would make markup. */
	const ENCODED_LINK = '&lt;a href=&quot;https://evil.example&quot;&gt;Pay here&lt;/a&gt; Ltd';
	const withVendor = (vendor: string) =>
		summaryOf({
			...ACME,
			header: { ...ACME.header, vendor },
			line_items: [
				{ description: vendor, quantity: 1, unit_price: 1, amount: 1 },
				{ description: `${MARKDOWN_LINK} *urgent* _now_ \`code\``, amount: 1 },
			],
		});

	it.each([LINK, ENCODED_LINK])(
		"%s: summary_html and lines_html make no tag, in an HTML body and in n8n's Send and Wait message",
		(vendor) => {
			const result = withVendor(vendor);
			for (const html of [result.summary_html ?? '', result.lines_html ?? ''])
				for (const where of [html, sendAndWaitMessage(html)])
					expect(where.replace(TABLE_TAGS, '')).not.toMatch(/[<>]/);
			// ... and a person reads what the supplier wrote.
			expect(shownText(result.summary_html ?? '')).toBe(result.summary);
			expect(shownText(sendAndWaitMessage(result.summary_html ?? ''))).toBe(result.summary);
			const cells = shownText((result.lines_html ?? '').replace(TABLE_TAGS, '\n')).split('\n');
			expect(cells).toContain(vendor);
			expect(cells).toContain(`${MARKDOWN_LINK} *urgent* _now_ \`code\``);
		},
	);

	it('summary is the plain text the supplier wrote (for a subject line or a plain-text body)', () => {
		expect(withVendor(LINK).summary).toBe(`${LINK}, INV-0042, 2026-11-02, EUR 1,487.50, 2 lines`);
	});

	it('lines_markdown: no HTML, no link and no emphasis from supplier text, and still a table', () => {
		const markdown = withVendor(LINK).lines_markdown ?? '';
		const rows = markdown.split('\n').slice(2);
		expect(rows).toHaveLength(2);
		for (const row of rows) {
			expect(row).not.toMatch(/[<>]/);
			expect(row).not.toMatch(/(^|[^\\])[[\]*_`]/);
			expect(row.split(/(?<!\\)\|/)).toHaveLength(6);
		}
		expect(rows[1]).toContain('\\[Pay here\\](https://evil.example) \\*urgent\\*');
		expect(sendAndWaitMessage(markdown)).not.toMatch(/[<>]/);
	});

	it('lines_html is a table an email client shows as a table: the rows, the header, borders', () => {
		const html = summaryOf(ACME).lines_html ?? '';
		expect(html).toMatch(/^<table border="1" cellpadding="4" cellspacing="0"[^>]*><thead><tr><th/);
		expect(html.match(/<tr>/g)).toHaveLength(1 + ACME.line_items.length);
		expect(html).not.toContain('\n');
	});
});
