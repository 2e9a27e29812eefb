/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// "To the books" in a real n8n: the Invoice to Xero example imported as a user imports it, its
// Settings pointed at the local Xero stand-in, an n8n Xero OAuth2 credential already connected.
// Invoices are POSTed to its webhook; what reaches the stand-in is checked against Xero's schema
// there (a refused body is a failed test here) and its totals against the invoice.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../local-n8n/index.ts';
import { startXeroStandIn, type XeroStandIn } from '../../local-n8n/accounting/index.ts';
import { activeBooksExample, STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import { queueExtraction, sendToExample } from './support/laterInvoices.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import {
	CAFE_INVOICE,
	untaxedInvoice,
	WRONG_TOTAL_REASON,
	wrongTotalInvoice,
} from './support/sampleInvoices.ts';

const TENANT = 'stand-in-tenant';

// Pilot's 10 requests a minute would hold the file's twelfth upload for a minute: what reaches Xero
// does not depend on it, and rate-limit-burst.test.ts proves the wait for a 429.
const fixture = useN8nAndSandbox({
	sandbox: { reviewDelayMs: 600_000, requestsPerMinute: { pilot: null } },
	tier: 'pilot',
});
let xero: XeroStandIn;
let xeroPath: string;
let workflowId: string;

interface XeroLine {
	Description: string;
	Quantity: number;
	UnitAmount: number;
	AccountCode: string;
	LineAmount: number;
	TaxAmount?: number;
}
interface XeroBill {
	Type: string;
	Contact: { Name: string };
	InvoiceNumber: string;
	Date?: string;
	DueDate?: string;
	LineAmountTypes: string;
	LineItems: XeroLine[];
}

const send = async (fileName: string, invoice: unknown) =>
	await sendToExample(
		fixture.stack.client,
		{ id: workflowId, webhookPath: xeroPath },
		fileName,
		invoice,
	);

/** The bills the stand-in received since the last call (every request must have passed its checks). */
function received(): XeroBill[] {
	const requests = xero.requests.splice(0);
	for (const request of requests) expect(request.errors, JSON.stringify(request.body)).toEqual([]);
	return requests
		.filter((request) => request.path === '/api.xro/2.0/Invoices?unitdp=4')
		.flatMap((request) => (request.body as { Invoices: XeroBill[] }).Invoices);
}

const cents = (amounts: Array<number | undefined>) =>
	amounts.reduce<number>((sum, amount) => sum + Math.round((amount ?? 0) * 100), 0);

describe('Verified invoices into Xero, in a real n8n', () => {
	beforeAll(async () => {
		xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		({ id: workflowId, webhookPath: xeroPath } = await activeBooksExample(fixture, 'xero', {
			xero_api_url: xero.url,
			xero_tenant_id: TENANT,
		}));
	});

	beforeEach(() => {
		xero.requests.length = 0;
	});

	afterAll(async () => {
		await xero?.close();
	});

	it('posts every line (a zero line, 0.1 + 0.2) as one ACCPAY bill whose Xero totals equal the invoice, with a bearer token', async () => {
		const answer = await send('cafe.json', CAFE_INVOICE);
		expect(answer).toEqual([
			expect.objectContaining({
				route: 'xero',
				line_count: 4,
				invoice_number: 'CM-7001',
				xero_total: 29.75,
				totals_match: true,
			}),
		]);

		const [bill, ...more] = received();
		expect(more).toEqual([]);
		expect(xero.requests).toEqual([]);
		expect(bill).toMatchObject({
			Type: 'ACCPAY',
			Contact: { Name: 'Café Müller & Söhne GmbH' },
			InvoiceNumber: 'CM-7001',
			Date: '2026-10-05',
			DueDate: '2026-11-04',
			LineAmountTypes: 'Exclusive',
		});
		expect(
			bill.LineItems.map((line) => [
				line.Description,
				line.Quantity,
				line.UnitAmount,
				line.LineAmount,
				line.AccountCode,
			]),
		).toEqual([
			['Espresso tasting', 1, 0.1, 0.1, '400'],
			['Milk foam', 1, 0.2, 0.2, '400'],
			['Free sample', 1, 0, 0, '400'],
			['Beans, 1 kg', 2, 12.35, 24.7, '400'],
		]);
		expect(cents(bill.LineItems.map((line) => line.LineAmount))).toBe(2500);
		expect(cents(bill.LineItems.map((line) => line.TaxAmount))).toBe(475);
	});

	it('sends the token and tenant Xero needs', async () => {
		await send('acme.json', {
			header: { vendor: 'Acme Supplies GmbH', date: '2026-10-02', invoice_no: 'INV-2026-0042' },
			amounts: { subtotal: 1250.0, tax: 237.5, total: 1487.5 },
			line_items: [
				{ description: 'Paper A4, 500 sheets', quantity: 40, unit_price: 25.0, amount: 1000.0 },
				{ description: 'Toner cartridge', quantity: 2, unit_price: 125.0, amount: 250.0 },
			],
			confidence: 0.98,
		});
		const [request] = xero.requests.splice(0);
		expect(request).toMatchObject({
			method: 'POST',
			path: '/api.xro/2.0/Invoices?unitdp=4',
			authorization: `Bearer ${STAND_IN_ACCESS_TOKEN}`,
			tenantId: TENANT,
			accepted: true,
		});
	});

	it('an invoice without a date is not ready to post: review with the reason, nothing reaches Xero', async () => {
		const answer = await send('undated.json', {
			header: { vendor: 'Initech Ltd.', invoice_no: 'IT-11' },
			amounts: { subtotal: 0.3, tax: 0, total: 0.3 },
			line_items: [{ description: 'Stapler', quantity: 1, unit_price: 0.3, amount: 0.3 }],
			confidence: 0.98,
		});
		expect(answer).toEqual([
			expect.objectContaining({
				route: 'review',
				reason: expect.stringContaining('The invoice date is missing'),
			}),
		]);
		expect(xero.requests).toEqual([]);
	});

	it('an invoice without tax becomes a NoTax bill without line taxes', async () => {
		const answer = await send('no-tax.json', untaxedInvoice('Initech Ltd.', 'IT-12'));
		expect(answer).toEqual([
			expect.objectContaining({ route: 'xero', totals_match: true, xero_total: 0.3 }),
		]);
		const [bill] = received();
		expect(bill).toMatchObject({ Date: '2026-10-06', DueDate: '2026-11-05' });
		expect(bill.LineAmountTypes).toBe('NoTax');
		expect(bill.LineItems.every((line) => line.TaxAmount === undefined)).toBe(true);
	});

	it('an invoice whose checks fail goes to review with the reason, and nothing reaches Xero', async () => {
		const answer = await send('wrong-total.json', wrongTotalInvoice('Globex Corporation', 'GX-9'));
		expect(answer).toEqual([
			expect.objectContaining({
				route: 'review',
				vendor: 'Globex Corporation',
				invoice_no: 'GX-9',
				reason: expect.stringContaining(WRONG_TOTAL_REASON),
			}),
		]);
		expect(xero.requests).toEqual([]);
	});

	it('the same invoice in another file (vendor written differently) is a possible duplicate: one bill, the earlier document named', async () => {
		const lines = [{ description: 'Widgets', quantity: 10, unit_price: 4.2, amount: 42 }];
		const [first] = await send('hooli-scan.json', {
			header: { vendor: 'Hooli Süd GmbH', date: '2026-10-09', invoice_no: 'HS-0077' },
			amounts: { subtotal: 42, tax: 0, total: 42 },
			line_items: lines,
			confidence: 0.98,
		});
		expect(first).toMatchObject({ route: 'xero' });
		const again = await send('hooli-email.json', {
			header: { vendor: 'HOOLI SUD', date: '2026-10-09', invoice_no: 'hs 77' },
			amounts: { subtotal: 42, tax: 0, total: 42 },
			line_items: lines,
			confidence: 0.97,
		});
		expect(again).toEqual([
			expect.objectContaining({
				route: 'review',
				possible_duplicate_of: null,
				reason: expect.stringContaining(
					'same vendor ("hooli sud"), same invoice number ("HS 77") and total 42.00',
				),
			}),
		]);
		expect(received().map((bill) => bill.InvoiceNumber)).toEqual(['HS-0077']);
	});

	it('two invoices of one vendor, and one number from two vendors, are four bills', async () => {
		const invoice = (vendor: string, number: string) => ({
			header: { vendor, date: '2026-10-10', invoice_no: number },
			amounts: { subtotal: 10, tax: 0, total: 10 },
			line_items: [{ description: 'Item', quantity: 1, unit_price: 10, amount: 10 }],
			confidence: 0.98,
		});
		for (const [vendor, number] of [
			['Umbrella Ltd', 'U-1'],
			['Umbrella Ltd', 'U-2'],
			['Stark & Wayne Inc', 'SAME-1'],
			['Wayne Stark Inc', 'SAME-1'],
		]) {
			expect(await send(`${number}.json`, invoice(vendor, number))).toEqual([
				expect.objectContaining({ route: 'xero' }),
			]);
		}
		expect(received().map((bill) => [bill.Contact.Name, bill.InvoiceNumber])).toEqual([
			['Umbrella Ltd', 'U-1'],
			['Umbrella Ltd', 'U-2'],
			['Stark & Wayne Inc', 'SAME-1'],
			['Wayne Stark Inc', 'SAME-1'],
		]);
	});

	it('a PDF and a PNG scan of one invoice become one bill; the scan is a possible duplicate of the PDF', async () => {
		const invoice = {
			header: { vendor: 'Initech Ltd', date: '2026-10-11', invoice_no: 'IT-2026-501' },
			amounts: { subtotal: 80, tax: 15.2, total: 95.2 },
			line_items: [{ description: 'TPS report covers', quantity: 8, unit_price: 10, amount: 80 }],
		};
		// The sandbox derives PDF and PNG results from the file's hash: queue the same invoice for both.
		for (let file = 0; file < 2; file++) {
			await queueExtraction(fixture.sandbox.url, invoice, 0.99);
		}
		const examples = (name: string) => readFileSync(join(REPO_ROOT, 'examples', 'files', name));
		const [fromPdf] = await send('invoice-initech.pdf', examples('invoice-initech.pdf'));
		expect(fromPdf).toMatchObject({
			route: 'xero',
			invoice_number: 'IT-2026-501',
			totals_match: true,
		});
		const [fromPng] = await send('receipt-scan.png', examples('receipt-scan.png'));
		expect(fromPng).toMatchObject({ route: 'review', possible_duplicate_of: null });
		expect(fromPng.document_id).not.toBe(fromPdf.document_id);
		expect(received().map((bill) => bill.InvoiceNumber)).toEqual(['IT-2026-501']);
	});
});
