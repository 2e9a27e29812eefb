/** Ready to post (N15): one test per reason; unknown is never ready. */
import { describe, expect, it } from 'vitest';

import {
	invoiceOutput,
	simplifyInvoice,
} from '../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import { readyToPost } from '../../../../../nodes/DocumentExtraction/invoice/readyToPost.ts';

const COMPLETE = {
	header: { vendor: 'Acme Supplies GmbH', date: '2026-03-15', invoice_no: 'INV-42' },
	amounts: { subtotal: 1500, tax: 285, total: 1785 },
	line_items: [
		{ description: 'Consulting', quantity: 10, unit_price: 125, amount: 1250 },
		{ description: 'Widgets', quantity: 1250, unit_price: 0.2, amount: 250 },
	],
};

type Extracted = typeof COMPLETE;

function verdict(extracted: unknown, status: string | null = 'verified') {
	return readyToPost(status, simplifyInvoice(extracted), extracted);
}

/** COMPLETE with a change; `patch` replaces header, amounts and line_items field by field. */
function changed(patch: (invoice: Extracted) => unknown): unknown {
	return patch(structuredClone(COMPLETE));
}

function expectOnlyReason(extracted: unknown, reason: RegExp, status: string | null = 'verified') {
	const result = verdict(extracted, status);
	expect(result.ready_to_post).toBe(false);
	expect(result.not_ready_because).toHaveLength(1);
	expect(result.not_ready_because[0]).toMatch(reason);
}

describe('readyToPost', () => {
	it('a complete, verified invoice whose every check is true is ready, with no reason', () => {
		expect(verdict(COMPLETE)).toEqual({ ready_to_post: true, not_ready_because: [] });
	});

	it('also with a currency, and amounts sent as plain decimal text', () => {
		const extracted = changed((invoice) => ({
			...invoice,
			currency: 'EUR',
			amounts: { subtotal: '1500.00', tax: '285', total: '1785.00' },
		}));
		expect(verdict(extracted)).toEqual({ ready_to_post: true, not_ready_because: [] });
	});

	describe('the document', () => {
		it.each([
			['needs_review', /not verified \(status "needs_review"\): wait for the review result/],
			['processing', /not verified \(status "processing"\)/],
			['rejected', /rejected in review: do not post it/],
			[null, /does not say that the document is verified/],
		])('status %j: not ready, even with a complete invoice', (status, reason) => {
			expectOnlyReason(COMPLETE, reason, status);
		});

		it('verified without any extracted data: not ready, enter it by hand', () => {
			expectOnlyReason(null, /sent no invoice data.*enter the invoice from the original file/);
		});

		it('not verified and no data: one reason (the status), not a list of missing fields', () => {
			expect(verdict(undefined, 'needs_review').not_ready_because).toEqual([
				expect.stringMatching(/not verified/),
			]);
		});
	});

	describe('the header', () => {
		it.each([
			['vendor', { vendor: null }, /The vendor is missing: enter it/],
			['vendor (blank)', { vendor: '   ' }, /The vendor is missing/],
			['invoice number', { invoice_no: undefined }, /The invoice number is missing/],
			['date', { date: '' }, /The invoice date is missing/],
			[
				'date (not YYYY-MM-DD)',
				{ date: '15.03.2026' },
				/The invoice date "15\.03\.2026" is not a date of the form YYYY-MM-DD/,
			],
			['date (no such day)', { date: '2026-02-30' }, /"2026-02-30" is not a date/],
		])('%s', (_name, header, reason) => {
			expectOnlyReason(
				changed((invoice) => ({ ...invoice, header: { ...invoice.header, ...header } })),
				reason,
			);
		});

		it.each([
			['2026-03-15', true],
			['2024-02-29', true],
			['2026-02-29', false],
			['2026-3-15', false],
			['2026-03-15T00:00:00Z', false],
		])('the date %j is a date of the form YYYY-MM-DD: %j', (date, accepted) => {
			const extracted = changed((invoice) => ({ ...invoice, header: { ...invoice.header, date } }));
			if (accepted)
				expect(verdict(extracted)).toEqual({ ready_to_post: true, not_ready_because: [] });
			else expectOnlyReason(extracted, /is not a date of the form YYYY-MM-DD/);
		});
	});

	describe('the amounts', () => {
		it.each(['subtotal', 'tax', 'total'] as const)(
			'%s missing: not ready, and says so (the checks it feeds are not counted as passed)',
			(field) => {
				const extracted = changed((invoice) => ({
					...invoice,
					amounts: { ...invoice.amounts, [field]: null },
				}));
				const result = verdict(extracted);
				expect(result.ready_to_post).toBe(false);
				expect(result.not_ready_because).toEqual([
					expect.stringMatching(new RegExp(`^The ${field} is missing: enter it`)),
				]);
			},
		);

		it.each([['1,785.00'], ['1.785,00'], ['1.785'], ['EUR 1785']])(
			'total sent as %j: unreadable, never another number or 0',
			(text) => {
				const extracted = changed((invoice) => ({
					...invoice,
					amounts: { ...invoice.amounts, total: text },
				}));
				const result = verdict(extracted);
				expect(simplifyInvoice(extracted).total).toBeNull();
				expect(result.ready_to_post).toBe(false);
				expect(result.not_ready_because).toEqual([
					`The total ${JSON.stringify(text)} could not be read as an exact number: enter it from the original invoice.`,
				]);
			},
		);
	});

	describe('the lines', () => {
		it('no line items: not ready, although subtotal + tax = total', () => {
			const result = verdict(changed((invoice) => ({ ...invoice, line_items: [] })));
			expect(result.ready_to_post).toBe(false);
			expect(result.not_ready_because).toEqual([
				expect.stringMatching(/^The invoice has no line items: enter its lines/),
			]);
		});

		it('line_items not an array: no lines', () => {
			expectOnlyReason(
				changed((invoice) => ({ ...invoice, line_items: { 0: invoice.line_items[0] } })),
				/no line items/,
			);
		});

		it('one line amount missing: the line is named, and the unknown sum is not a pass', () => {
			const extracted = changed((invoice) => {
				invoice.line_items[1] = {
					...invoice.line_items[1],
					amount: undefined as unknown as number,
				};
				return invoice;
			});
			expect(simplifyInvoice(extracted).checks.line_items_sum_equals_subtotal).toBeNull();
			expectOnlyReason(extracted, /^Line 2: the amount is missing; enter it/);
		});

		it('a line amount sent as "1,250.00": Line 1, the text shown, never counted as 0', () => {
			const extracted = changed((invoice) => {
				invoice.line_items[0] = {
					...invoice.line_items[0],
					amount: '1,250.00' as unknown as number,
				};
				return invoice;
			});
			expectOnlyReason(
				extracted,
				/^Line 1: the amount could not be read as an exact number \("1,250\.00"\)/,
			);
		});

		it('lines with only their amount ("Consulting, September — 2,400.00") are ready: 1 × the amount is exact', () => {
			const extracted = changed((invoice) => ({
				...invoice,
				line_items: invoice.line_items.map((line) => ({
					description: line.description,
					amount: line.amount,
				})),
			}));
			expect(verdict(extracted)).toEqual({ ready_to_post: true, not_ready_because: [] });
		});

		it('one line without quantity next to full lines is ready; the other lines are still checked', () => {
			const extracted = changed((invoice) => ({
				...invoice,
				line_items: invoice.line_items.map((line, index) =>
					index === 0 ? { description: line.description, amount: line.amount } : line,
				),
			}));
			expect(verdict(extracted).ready_to_post).toBe(true);
		});

		it('amounts missing on several lines: one sentence naming the lines', () => {
			const extracted = changed((invoice) => ({
				...invoice,
				line_items: invoice.line_items.map((line) => ({
					description: line.description,
					quantity: line.quantity,
					unit_price: line.unit_price,
				})),
			}));
			const result = verdict(extracted);
			expect(result.ready_to_post).toBe(false);
			expect(result.not_ready_because).toContain(
				'Lines 1 and 2: the amount is missing; enter it from the original invoice.',
			);
		});

		it('many lines are listed as the first ten and how many more', () => {
			const lines = Array.from({ length: 14 }, () => ({
				description: 'x',
				quantity: 1,
				unit_price: 1,
			}));
			const extracted = {
				...COMPLETE,
				amounts: { subtotal: 14, tax: 0, total: 14 },
				line_items: lines,
			};
			expect(verdict(extracted).not_ready_because[0]).toBe(
				'Lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4 more: the amount is missing; enter it from the original invoice.',
			);
		});
	});

	describe('the checks', () => {
		it('subtotal + tax ≠ total', () => {
			expectOnlyReason(
				changed((invoice) => ({ ...invoice, amounts: { ...invoice.amounts, total: 1800 } })),
				/^Subtotal 1500 \+ tax 285 does not equal the total 1800/,
			);
		});

		it('the lines do not add up to the subtotal (a line missing from the extraction)', () => {
			const extracted = changed((invoice) => ({ ...invoice, line_items: [invoice.line_items[1]] }));
			expectOnlyReason(extracted, /^The line amounts add up to 250, not to the subtotal 1500/);
		});

		it('quantity × unit price ≠ amount on a line: that line is named', () => {
			const extracted = changed((invoice) => {
				invoice.line_items[1] = { ...invoice.line_items[1], unit_price: 0.04 };
				return invoice;
			});
			expectOnlyReason(extracted, /^Line 2: quantity × unit price does not equal the line amount/);
		});

		it('several reasons together: one sentence each, in order', () => {
			const extracted = {
				header: { vendor: 'Acme' },
				amounts: { subtotal: 10, tax: 1, total: 12 },
				line_items: [],
			};
			expect(
				verdict(extracted, 'needs_review').not_ready_because.map(
					(reason) => reason.split(/[:(]/)[0],
				),
			).toEqual([
				'The document is not verified ',
				'The invoice number is missing',
				'The invoice date is missing',
				'The invoice has no line items',
				'Subtotal 10 + tax 1 does not equal the total 12',
			]);
		});
	});

	describe('the currency', () => {
		it('an unreadable currency: not ready (it would be booked in the wrong one)', () => {
			expectOnlyReason(
				{ ...COMPLETE, currency: '€' },
				/^The currency "€" is not a three-letter code/,
			);
		});

		it('two currencies: not ready', () => {
			expectOnlyReason(
				{ ...COMPLETE, currency: 'EUR', header: { ...COMPLETE.header, currency: 'GBP' } },
				/more than one currency \(EUR, GBP\)/,
			);
		});
	});

	describe('on every output shape', () => {
		const response = { document_id: 'doc_1', status: 'verified' };
		const fields = { document_id: 'doc_1', status: 'verified' };
		const notReady = {
			...COMPLETE,
			line_items: [{ description: 'x', quantity: 1, unit_price: 1500, amount: '1,500.00' }],
		};

		it('Simplified, Split Line Items (every row) and Raw carry the same verdict and currency', () => {
			const [simplified] = invoiceOutput('simplified', response, fields, {
				...notReady,
				currency: 'EUR',
			});
			const rows = invoiceOutput('splitLineItems', response, fields, {
				...notReady,
				currency: 'EUR',
			});
			const [raw] = invoiceOutput('raw', response, fields, { ...notReady, currency: 'EUR' });
			for (const item of [simplified, ...rows, raw]) {
				expect(item.currency).toBe('EUR');
				expect(item.ready_to_post).toBe(false);
				expect(item.not_ready_because).toEqual([
					expect.stringMatching(/^Line 1: the amount could not be read/),
				]);
			}
		});

		it('a Split Line Items row of an invoice without lines is not ready', () => {
			const rows = invoiceOutput('splitLineItems', response, fields, {
				...COMPLETE,
				line_items: [],
			});
			expect(rows).toHaveLength(1);
			expect(rows[0]).toMatchObject({
				line_count: 0,
				ready_to_post: false,
				not_ready_because: [expect.stringMatching(/no line items/)],
			});
		});
	});
});
