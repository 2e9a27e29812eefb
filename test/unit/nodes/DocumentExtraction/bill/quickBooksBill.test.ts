// Target QuickBooks Online (bill/quickBooksBill.ts) on 240 generated invoices: every one the package's
// gate lets through and the books can take is posted to the QuickBooks stand-in, its lines adding up
// to the invoice's total to the cent, in the invoice's currency or, when it names none, the company's
// home currency (N42); every other one gets a reason and is not built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildQuickBooksBill } from '../../../../../nodes/DocumentExtraction/bill/quickBooksBill.ts';
import {
	startQuickBooksStandIn,
	toCents,
	type QuickBooksStandIn,
} from '../../../../../local-n8n/accounting/index.ts';
import { quickBooksExampleSettings } from '../../../accounting/exampleSettings.ts';
import {
	amountOnlyInvoice,
	generateInvoiceItems,
	invoiceItem as invoice,
} from '../../../accounting/generatedInvoices.ts';

const settings = quickBooksExampleSettings();
/** The stand-in company's home currency (what QuickBooks books when the request names none). */
const HOME = 'EUR';

let quickBooks: QuickBooksStandIn;
beforeAll(async () => {
	quickBooks = await startQuickBooksStandIn({ accessToken: 'token' });
});
afterAll(async () => await quickBooks.close());

async function call(path: string, body: unknown) {
	const response = await fetch(`${quickBooks.url}/v3/company/1${path}`, {
		method: 'POST',
		headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as Record<string, Record<string, unknown>>;
	expect(response.status, JSON.stringify(answer)).toBe(200);
	return answer;
}

describe('Target QuickBooks', () => {
	it("generated invoices: lines adding up to the total, in the invoice's currency or the home currency; the rest stopped with a reason", async () => {
		let posted = 0;
		for (const { invoice, item } of generateInvoiceItems(20261126, 240)) {
			if (item.ready_to_post !== true) continue;
			const built = buildQuickBooksBill(item, settings);
			if (!built.ready) {
				expect(invoice.expect, `${invoice.name}: ${String(built.json.review_reason)}`).toBe('stop');
				expect(built.json.bill).toBeUndefined();
				continue;
			}
			expect(invoice.expect, invoice.name).toBe('post');
			const bill = built.json.bill as Record<string, unknown>;
			expect(bill.CurrencyRef, invoice.name).toEqual(
				invoice.currency === null ? undefined : { value: invoice.currency },
			);
			const currency = invoice.currency ?? HOME;
			const vendor = (
				await call('/vendor', {
					DisplayName: `${built.json.vendor_name} ${posted}`,
					CurrencyRef: { value: currency },
				})
			).Vendor;
			const entity = String(built.json.entity);
			const answer = await call(`/${entity}`, { ...bill, VendorRef: { value: String(vendor.Id) } });
			const transaction = entity === 'bill' ? answer.Bill : answer.VendorCredit;
			expect(toCents(transaction.TotalAmt as number), invoice.name).toBe(invoice.cents!.total);
			expect((transaction.CurrencyRef as { value: string }).value).toBe(currency);
			posted++;
		}
		expect(posted).toBeGreaterThan(150);
	});

	it("gives every invoice of one vendor in one company the vendor's key: eight at once against slow books make one vendor", async () => {
		const items = Array.from({ length: 8 }, (_, index) =>
			invoice({ vendor: index % 2 ? 'Initech Inc' : ' initech  INC', invoice_no: `IT-${index}` }),
		);
		const built = items.map((item) =>
			buildQuickBooksBill(item, { ...settings, companyId: '9130' }),
		);
		const keys = built.map((bill) => bill.json.idempotency_keys as Record<string, string>);
		expect(new Set(keys.map((key) => key.vendor)).size).toBe(1);
		expect(new Set(keys.map((key) => key.bill)).size).toBe(8);
		expect(new Set(built.map((bill) => String(bill.json.vendor_name).toLowerCase())).size).toBe(1);
		// Another legal entity, or the same vendor in another company, is another vendor.
		const key = (vendor: string, companyId = '9130') =>
			(
				buildQuickBooksBill(invoice({ vendor }), { ...settings, companyId }).json
					.idempotency_keys as Record<string, string>
			).vendor;
		expect(key('Initech GmbH')).not.toBe(keys[0].vendor);
		expect(key('Initech Inc', '9131')).not.toBe(keys[0].vendor);

		const slow = await startQuickBooksStandIn({
			accessToken: 'token',
			responseDelayMs: 50,
			slowdown: 4,
		});
		try {
			const answers = await Promise.all(
				built.map(async (bill, index) => {
					const response = await fetch(
						`${slow.url}/v3/company/9130/vendor?requestid=${keys[index].vendor}`,
						{
							method: 'POST',
							headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
							body: JSON.stringify({
								DisplayName: bill.json.vendor_name,
								CurrencyRef: { value: bill.json.currency },
							}),
						},
					);
					const json = (await response.json()) as { Vendor: { Id: string } };
					return { status: response.status, json };
				}),
			);
			expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
			expect(new Set(answers.map((answer) => answer.json.Vendor.Id)).size).toBe(1);
			expect(slow.vendors).toHaveLength(1);
		} finally {
			await slow.close();
		}
	});

	it('the tax is its own line; an amount-only line keeps its description', () => {
		// No currency: booked in the home currency, so no CurrencyRef.
		const built = buildQuickBooksBill(
			amountOnlyInvoice({ vendor: 'Northwind: Consulting', currency: null }),
			settings,
			{ fileName: 'nw-9.pdf' },
		);
		expect(built).toMatchObject({ ready: true, attach: true });
		expect(built.json.vendor_name).toBe('Northwind Consulting');
		const bill = built.json.bill as {
			Line: Array<{ Amount: number; Description: string }>;
			PrivateNote?: string;
			CurrencyRef?: unknown;
		};
		expect(bill.Line.map((line) => [line.Description, line.Amount])).toEqual([
			['Consulting, September', 2400],
			['Tax', 480],
		]);
		expect(bill.CurrencyRef).toBeUndefined();
		expect(bill.PrivateNote).toBe('Vendor: Northwind: Consulting');
	});

	it('shortens DocNumber to 21 characters, a description to 4000, a display name to one line without colons, keeping the full text in the private note', () => {
		const description = `Maintenance ${'y'.repeat(4100)}`;
		const built = buildQuickBooksBill(
			invoice({
				vendor: 'Acme:\nSupplies',
				invoice_no: 'INV-2026-000000000000042',
				lines: [{ description, quantity: 1, unit_price: 46.5, amount: 46.5 }],
			}),
			settings,
			{ fileName: 'invoice.pdf', mimeType: 'application/pdf' },
		);
		const bill = built.json.bill as {
			DocNumber: string;
			Line: Array<{ Description: string }>;
			PrivateNote: string;
		};
		expect(built.json.vendor_name).toBe('Acme Supplies');
		expect(bill.DocNumber).toBe('INV-2026-000000000000');
		expect(bill.Line[0].Description).toHaveLength(4000);
		expect(bill.PrivateNote).toContain('Vendor: Acme: Supplies');
		expect(bill.PrivateNote).toContain('Invoice number: INV-2026-000000000000042');
		expect(bill.PrivateNote).toHaveLength(4000);
	});

	it('turns a negative total into a VendorCredit with positive amounts', () => {
		const built = buildQuickBooksBill(
			invoice({
				lines: [{ description: 'Returned toner', quantity: 2, unit_price: -12.5, amount: -25 }],
				subtotal: -25,
				tax: -4.75,
			}),
			settings,
		);
		expect(built.json).toMatchObject({ entity: 'vendorcredit', expected_total: 29.75 });
		expect(
			(built.json.bill as { Line: Array<{ Amount: number }> }).Line.map((line) => line.Amount),
		).toEqual([25, 4.75]);
	});

	it('without the original on the item says in the private note that it is not attached', () => {
		const built = buildQuickBooksBill(invoice(), settings);
		expect(built.json.attach).toBe(false);
		expect((built.json.bill as { PrivateNote: string }).PrivateNote).toContain(
			'attach it to the bill by hand (Document Extraction document doc_generated)',
		);
	});

	it('a line missing its unit price is derived when exact, else booked as its amount with the quantity in the description', () => {
		const built = buildQuickBooksBill(
			invoice({
				lines: [
					{ description: 'Travel', quantity: 2, unit_price: null, amount: 250 },
					{ description: 'Hours', quantity: 3, unit_price: null, amount: 10 },
				],
				subtotal: 260,
				tax: 0,
			}),
			settings,
		);
		expect(
			(built.json.bill as { Line: Array<{ Description: string; Amount: number }> }).Line.map(
				(line) => [line.Description, line.Amount],
			),
		).toEqual([
			['Travel (2 × 125)', 250],
			['Hours (quantity 3)', 10],
		]);
	});
});
