import { describe, expect, it } from 'vitest';

import type { SimplifiedInvoice } from '../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import {
	invoiceOutput,
	simplifyInvoice,
} from '../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import {
	invoiceSummary,
	MAX_DESCRIPTION_LENGTH,
} from '../../../../../nodes/DocumentExtraction/invoice/invoiceSummary.ts';

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
		expect(summaryOf(null)).toEqual({ summary: null, lines_markdown: null, lines_html: null });
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
			'&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;',
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

	it('shortens a long description in the tables with an ellipsis', () => {
		const long = 'Consulting services '.repeat(20).trim();
		const result = invoiceSummary(
			withLines([{ description: long, quantity: 1, unit_price: 1, amount: 1 }]),
		);
		const cell = (result.lines_markdown ?? '').split('\n')[2].split(' | ')[0].slice(2);
		expect(cell.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
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

	it('puts summary, lines_markdown and lines_html on the Simplified item', () => {
		const [item] = invoiceOutput('simplified', {}, fields, ACME);
		expect(item.summary).toBe('Acme Supplies GmbH, INV-0042, 2026-11-02, EUR 1,487.50, 3 lines');
		expect(item.lines_markdown).toBe(summaryOf(ACME).lines_markdown);
		expect(item.lines_html).toBe(summaryOf(ACME).lines_html);
	});

	it('shows no internal id a person need not see', () => {
		const [item] = invoiceOutput('simplified', {}, fields, ACME);
		const shown = [item.summary, item.lines_markdown, item.lines_html].join('\n');
		expect(shown).not.toContain('doc_secret_id');
		expect(shown).not.toContain('rev_1');
	});

	it('leaves Raw and Split Line Items as they were (N43)', () => {
		for (const mode of ['raw', 'splitLineItems'] as const) {
			for (const item of invoiceOutput(mode, { extracted_json: ACME }, fields, ACME)) {
				expect(item).not.toHaveProperty('summary');
				expect(item).not.toHaveProperty('lines_markdown');
				expect(item).not.toHaveProperty('lines_html');
			}
		}
	});
});
