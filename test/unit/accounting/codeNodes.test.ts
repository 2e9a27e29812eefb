// The money arithmetic of the Invoice to QuickBooks example, run as its own Code nodes' JavaScript
// (taken from the workflow file) on generated invoices, with what it builds posted to the QuickBooks
// stand-in: every invoice the gate lets through and the books can take becomes a document whose
// total, as QuickBooks computes it, equals the invoice's to the cent; every other one gets a reason
// and is not built. (The Xero example uses the package's Build Bill: bill/xeroBill.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startQuickBooksStandIn,
	toCents,
	type QuickBooksStandIn,
} from '../../../local-n8n/accounting/index.ts';
import { exampleCode, exampleSettings, runCodeNode, type CodeItem } from './codeNode.ts';
import { generateInvoices, invoiceItem as invoice, simplified } from './generatedInvoices.ts';

const QUICKBOOKS = 'invoice-to-quickbooks.workflow.json';
const buildQuickBooks = exampleCode(QUICKBOOKS, 'Build QuickBooks bill');
const quickBooksSettings = exampleSettings(QUICKBOOKS);

let quickBooks: QuickBooksStandIn;
beforeAll(async () => {
	quickBooks = await startQuickBooksStandIn({ accessToken: 'token' });
});
afterAll(async () => {
	await quickBooks.close();
});

const readyToPost = (item: Record<string, unknown>) => item.ready_to_post === true;

async function quickBooksCall(path: string, body: unknown) {
	const response = await fetch(`${quickBooks.url}/v3/company/1${path}`, {
		method: 'POST',
		headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as Record<string, Record<string, unknown>>;
	expect(response.status, JSON.stringify(answer)).toBe(200);
	return answer;
}

async function postToQuickBooks(item: CodeItem) {
	const name = String(item.json.vendor_name);
	const currency = String(item.json.currency);
	const existing = quickBooks.vendors.find(
		(vendor) => vendor.DisplayName === name && vendor.CurrencyRef.value === currency,
	);
	const vendor =
		existing ??
		(await quickBooksCall('/vendor', { DisplayName: name, CurrencyRef: { value: currency } }))
			.Vendor;
	const entity = String(item.json.entity);
	const answer = await quickBooksCall(`/${entity}`, {
		...(item.json.bill as object),
		VendorRef: { value: String(vendor.Id) },
	});
	return entity === 'bill' ? answer.Bill : answer.VendorCredit;
}

describe("generated invoices through the QuickBooks example's Code node and the stand-in", () => {
	const invoices = generateInvoices(20261123, 240);

	it('the generator covers what the issue lists: 1–80 lines, credit notes, every currency and no currency, each way of stopping', () => {
		const lineCounts = invoices.map((invoice) => invoice.data.line_items.length);
		expect(Math.max(...lineCounts)).toBeGreaterThanOrEqual(60);
		expect(
			invoices.filter((invoice) => invoice.expect === 'post' && invoice.creditNote).length,
		).toBeGreaterThan(3);
		expect(new Set(invoices.map((invoice) => invoice.currency))).toEqual(
			new Set(['EUR', 'USD', 'GBP', null, 'CHF']),
		);
		expect(new Set(invoices.map((invoice) => invoice.stopBecause).filter(Boolean)).size).toBe(10);
	});

	it("each one the gate lets through is posted to QuickBooks with lines adding up to the invoice's total, or gets a reason", async () => {
		let posted = 0;
		for (const invoice of invoices) {
			const item = simplified(invoice.data);
			if (!readyToPost(item)) continue;
			const [built] = runCodeNode(buildQuickBooks, [item], quickBooksSettings);
			if (invoice.expect === 'stop') {
				expect(built.json.review_reason, `${invoice.name} (${invoice.stopBecause})`).toEqual(
					expect.any(String),
				);
				expect(built.json.bill).toBeUndefined();
				continue;
			}
			const transaction = await postToQuickBooks(built);
			expect(built.json.entity).toBe(invoice.creditNote ? 'vendorcredit' : 'bill');
			expect(toCents(transaction.TotalAmt as number), invoice.name).toBe(invoice.cents!.total);
			expect((transaction.CurrencyRef as { value: string }).value).toBe(
				invoice.currency ?? quickBooksSettings.default_currency,
			);
			posted++;
		}
		expect(posted).toBeGreaterThan(150);
	});
});

const quickBooksBill = (item: CodeItem) =>
	item.json.bill as {
		Line: Array<{ Amount: number; Description: string }>;
		DocNumber: string;
		PrivateNote?: string;
		CurrencyRef: { value: string };
	};

describe('Build QuickBooks bill', () => {
	it("adds the tax as its own line so the lines add up to the total, in the invoice's currency", () => {
		const [built] = runCodeNode(
			buildQuickBooks,
			[invoice({ currency: 'USD', tax: 8.84 })],
			quickBooksSettings,
			[undefined],
		);
		const bill = quickBooksBill(built);
		expect(bill.Line.map((line) => [line.Description, line.Amount])).toEqual([
			['Screws (1250 × 0.0372)', 46.5],
			['Tax', 8.84],
		]);
		expect(bill.CurrencyRef).toEqual({ value: 'USD' });
	});

	it('shortens DocNumber to 21 characters, a description to 4000, a display name to one line without colons, keeping the full text in the private note', () => {
		const description = `Maintenance ${'y'.repeat(4100)}`;
		const [built] = runCodeNode(
			buildQuickBooks,
			[
				invoice({
					vendor: 'Acme:\nSupplies',
					invoice_no: 'INV-2026-000000000000042',
					lines: [{ description, quantity: 1, unit_price: 46.5, amount: 46.5 }],
				}),
			],
			quickBooksSettings,
			[{ fileName: 'invoice.pdf', mimeType: 'application/pdf' }],
		);
		const bill = quickBooksBill(built);
		expect(built.json.vendor_name).toBe('Acme Supplies');
		expect(bill.DocNumber).toBe('INV-2026-000000000000');
		expect(bill.Line[0].Description).toHaveLength(4000);
		expect(bill.PrivateNote).toContain('Vendor: Acme: Supplies');
		expect(bill.PrivateNote).toContain('Invoice number: INV-2026-000000000000042');
		expect(bill.PrivateNote).toHaveLength(4000);
	});

	it('turns a negative total into a VendorCredit with positive amounts', () => {
		const [built] = runCodeNode(
			buildQuickBooks,
			[
				invoice({
					lines: [{ description: 'Returned toner', quantity: 2, unit_price: -12.5, amount: -25 }],
					subtotal: -25,
					tax: -4.75,
				}),
			],
			quickBooksSettings,
		);
		expect(built.json).toMatchObject({ entity: 'vendorcredit', expected_total: 29.75 });
		expect(quickBooksBill(built).Line.map((line) => line.Amount)).toEqual([25, 4.75]);
	});

	it('on the trigger path (no file in the execution) says in the private note that the original is not attached', () => {
		const [built] = runCodeNode(buildQuickBooks, [invoice()], quickBooksSettings);
		expect(built.json.attach).toBe(false);
		expect(quickBooksBill(built).PrivateNote).toContain(
			'attach it to the bill by hand (Document Extraction document doc_generated)',
		);
	});
});
