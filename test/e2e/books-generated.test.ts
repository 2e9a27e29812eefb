// Property-style, in a real n8n: generated invoices (seeded: 1–80 lines, decimal quantities, unit
// prices with 4 decimals, discount lines, zero, single and mixed tax, credit notes, several currencies
// and none, missing or unreadable fields; test/unit/accounting/generatedInvoices.ts) go through both
// "to the books" examples, each as the sandbox's extraction of a file POSTed to the example's
// webhook. For each one the gate and the examples let through, the totals the Xero and QuickBooks
// stand-ins compute equal the invoice's to the cent; for each one they stop, the answer is a review
// with a reason and nothing reaches the books. The two examples run side by side (each invoice waits
// a second in Detect Same Invoice's claim), one upload at a time (support/queuedExtractions.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	aboutTheInvoice,
	toCents,
	type QuickBooksStandIn,
	type XeroStandIn,
} from '../../local-n8n/accounting/index.ts';
import { generateInvoices, type GeneratedInvoice } from '../unit/accounting/generatedInvoices.ts';
import { activeBothBooks, type BothBooks } from './support/booksExamples.ts';
import { postFile, queueExtraction } from './support/laterInvoices.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { queuedExtractions } from './support/queuedExtractions.ts';
const SEED = 4242;
const COUNT = 36;

const fixture = useN8nAndSandbox({ sandbox: { reviewDelayMs: 600_000 }, tier: 'enterprise' });
let xero: XeroStandIn;
let quickBooks: QuickBooksStandIn;
let examples: BothBooks['examples'];

const send = queuedExtractions(() => fixture.sandbox);

async function through(example: 'xero' | 'quickbooks', invoice: GeneratedInvoice) {
	const answer = await send(
		async () => await queueExtraction(fixture.sandbox.url, invoice.data, 0.99),
		async () =>
			await postFile(
				fixture.stack.client,
				examples[example].webhookPath,
				`${invoice.data.header.invoice_no ?? 'no-number'}.json`,
				Buffer.from('{}'),
				'application/json',
			),
	);
	expect(answer.status, `${invoice.name}: ${answer.text}`).toBe(200);
	expect(answer.items, invoice.name).toHaveLength(1);
	return answer.items[0];
}

/**
 * Sends each invoice through `example`, the stand-in's requests cleared before each. One the gate
 * stops must be a review with a reason, nothing of it posted (`reachedTheBooks`); one let through
 * must be answered with `postedAnswer(invoice)` and totals that match, and pass `expectPosted`.
 */
async function throughEach(
	invoices: GeneratedInvoice[],
	example: 'xero' | 'quickbooks',
	standIn: { requests: unknown[] },
	reachedTheBooks: () => unknown[],
	postedAnswer: (invoice: GeneratedInvoice) => Record<string, unknown>,
	expectPosted: (invoice: GeneratedInvoice) => void,
) {
	for (const invoice of invoices) {
		standIn.requests.length = 0;
		const answer = await through(example, invoice);
		if (invoice.expect === 'stop') {
			expect(answer, `${invoice.name} (${invoice.stopBecause})`).toMatchObject({
				route: 'review',
				reason: expect.stringMatching(/\S/),
			});
			expect(reachedTheBooks(), invoice.name).toEqual([]);
			continue;
		}
		expect(answer, invoice.name).toMatchObject({ ...postedAnswer(invoice), totals_match: true });
		expectPosted(invoice);
	}
}

describe(`${COUNT} generated invoices (seed ${SEED}) through both examples in a real n8n`, () => {
	const invoices = generateInvoices(SEED, COUNT);

	beforeAll(async () => {
		({ xero, quickBooks, examples } = await activeBothBooks(fixture));
	});

	afterAll(async () => {
		await xero?.close();
		await quickBooks?.close();
	});

	it('covers posted bills and credit notes, and stopped invoices', () => {
		expect(
			invoices.filter((invoice) => invoice.expect === 'post' && !invoice.creditNote).length,
		).toBeGreaterThan(15);
		expect(
			invoices.filter((invoice) => invoice.expect === 'post' && invoice.creditNote).length,
		).toBeGreaterThan(0);
		expect(invoices.filter((invoice) => invoice.expect === 'stop').length).toBeGreaterThan(4);
		expect(Math.max(...invoices.map((invoice) => invoice.data.line_items.length))).toBeGreaterThan(
			40,
		);
	});

	it.concurrent(
		'Xero: each invoice let through is a document whose Xero totals equal the invoice to the cent; each one stopped is a review and nothing is posted',
		async () => {
			await throughEach(
				invoices,
				'xero',
				xero,
				() => xero.requests,
				(invoice) => ({ route: 'xero', xero_type: invoice.creditNote ? 'ACCPAYCREDIT' : 'ACCPAY' }),
				(invoice) => {
					expect(
						xero.requests.map((request) => request.errors),
						invoice.name,
					).toEqual([[]]);
					const document = xero.documents.at(-1)!;
					expect(
						[toCents(document.SubTotal), toCents(document.TotalTax), toCents(document.Total)],
						invoice.name,
					).toEqual([invoice.cents!.subtotal, invoice.cents!.tax, invoice.cents!.total]);
					expect(document.LineItems, invoice.name).toHaveLength(invoice.data.line_items.length);
				},
			);
		},
	);

	it.concurrent(
		'QuickBooks: each invoice let through is a bill or vendor credit whose total equals the invoice to the cent; each one stopped is a review and nothing is posted',
		async () => {
			await throughEach(
				invoices,
				'quickbooks',
				quickBooks,
				() => aboutTheInvoice(quickBooks.requests),
				(invoice) => ({
					route: 'quickbooks',
					quickbooks_entity: invoice.creditNote ? 'VendorCredit' : 'Bill',
				}),
				(invoice) => {
					expect(
						quickBooks.requests.flatMap((request) => request.errors),
						invoice.name,
					).toEqual([]);
					expect(toCents(quickBooks.transactions.at(-1)!.TotalAmt), invoice.name).toBe(
						invoice.cents!.total,
					);
				},
			);
		},
	);
});
