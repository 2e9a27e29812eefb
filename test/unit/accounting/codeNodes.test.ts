// The money arithmetic of the "to the books" examples, run as their own Code nodes' JavaScript
// (taken from the workflow files) on generated invoices, with what they build posted to the Xero
// and QuickBooks stand-ins: every invoice the gate lets through and the books can take becomes a
// document whose totals, as Xero and QuickBooks compute them, equal the invoice's to the cent;
// every other one gets a reason and is not built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceOutput } from '../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import {
	startQuickBooksStandIn,
	startXeroStandIn,
	toCents,
	type QuickBooksStandIn,
	type XeroStandIn,
} from '../../../local-n8n/accounting/index.ts';
import {
	exampleCode,
	exampleSettings,
	runCodeNode,
	type BinaryFile,
	type CodeItem,
} from './codeNode.ts';
import { generateInvoices, type GeneratedInvoice } from './generatedInvoices.ts';

const XERO = 'invoice-to-xero.workflow.json';
const QUICKBOOKS = 'invoice-to-quickbooks.workflow.json';
const buildXero = exampleCode(XERO, 'Build Xero bill');
const buildQuickBooks = exampleCode(QUICKBOOKS, 'Build QuickBooks bill');
const xeroSettings = exampleSettings(XERO);
const quickBooksSettings = exampleSettings(QUICKBOOKS);

let xero: XeroStandIn;
let quickBooks: QuickBooksStandIn;
beforeAll(async () => {
	xero = await startXeroStandIn({ accessToken: 'token' });
	quickBooks = await startQuickBooksStandIn({ accessToken: 'token' });
});
afterAll(async () => {
	await xero.close();
	await quickBooks.close();
});

/** The package's Simplified item for an invoice (what the examples' Settings node receives). */
function simplified(
	invoice: GeneratedInvoice['data'],
	documentId = 'doc_generated',
): Record<string, unknown> {
	const [item] = invoiceOutput(
		'simplified',
		{},
		{ document_id: documentId, status: 'verified' },
		invoice,
	);
	return item as Record<string, unknown>;
}

const readyToPost = (item: Record<string, unknown>) => item.ready_to_post === true;

async function postToXero(item: CodeItem) {
	const endpoint = String(item.json.endpoint);
	const response = await fetch(`${xero.url}/api.xro/2.0/${endpoint}?unitdp=4`, {
		method: 'POST',
		headers: {
			authorization: 'Bearer token',
			'xero-tenant-id': 'tenant',
			'content-type': 'application/json',
		},
		body: JSON.stringify(item.json.xero_request),
	});
	const answer = (await response.json()) as Record<string, Array<Record<string, unknown>>> & {
		Elements?: unknown;
	};
	expect(response.status, JSON.stringify(answer.Elements ?? answer)).toBe(200);
	return answer[endpoint][0];
}

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

describe("generated invoices through the examples' Code nodes and the stand-ins", () => {
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

	it("each one the gate lets through is posted to Xero with totals equal to the invoice's, or gets a reason; each one it stops is never built", async () => {
		let posted = 0;
		for (const invoice of invoices) {
			const item = simplified(invoice.data);
			if (!readyToPost(item)) {
				expect(
					invoice.expect,
					`${invoice.name}: the gate stopped an invoice that should post`,
				).toBe('stop');
				continue;
			}
			const [built] = runCodeNode(buildXero, [item], xeroSettings);
			if (invoice.expect === 'stop') {
				expect(built.json.review_reason, `${invoice.name} (${invoice.stopBecause})`).toEqual(
					expect.any(String),
				);
				expect(built.json.xero_request).toBeUndefined();
				continue;
			}
			expect(built.json.review_reason, invoice.name).toBeNull();
			const document = await postToXero(built);
			expect(document.Type, invoice.name).toBe(invoice.creditNote ? 'ACCPAYCREDIT' : 'ACCPAY');
			expect(document.CurrencyCode, invoice.name).toBe(
				invoice.currency ?? xeroSettings.default_currency,
			);
			expect(
				[
					toCents(document.SubTotal as number),
					toCents(document.TotalTax as number),
					toCents(document.Total as number),
				],
				invoice.name,
			).toEqual([invoice.cents!.subtotal, invoice.cents!.tax, invoice.cents!.total]);
			expect((document.LineItems as unknown[]).length).toBe(invoice.data.line_items.length);
			posted++;
		}
		expect(posted).toBeGreaterThan(150);
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

const invoice = (
	overrides: Partial<{
		vendor: string;
		invoice_no: string;
		currency: string | null;
		lines: GeneratedInvoice['data']['line_items'];
		subtotal: number;
		tax: number;
		total: number;
	}> = {},
) => {
	const lines = overrides.lines ?? [
		{ description: 'Screws', quantity: 1250, unit_price: 0.0372, amount: 46.5 },
	];
	const subtotal = overrides.subtotal ?? 46.5;
	const tax = overrides.tax ?? 0;
	return simplified({
		header: {
			vendor: overrides.vendor ?? 'Acme Supplies GmbH',
			date: '2026-10-05',
			invoice_no: overrides.invoice_no ?? 'INV-1',
			currency: overrides.currency === undefined ? 'EUR' : overrides.currency,
		},
		amounts: { subtotal, tax, total: overrides.total ?? subtotal + tax },
		line_items: lines,
	});
};
const xeroDocument = (item: CodeItem) =>
	(
		item.json.xero_request as Record<
			string,
			Array<Record<string, unknown> & { LineItems: Array<Record<string, unknown>> }>
		>
	)[String(item.json.endpoint)][0];
const quickBooksBill = (item: CodeItem) =>
	item.json.bill as {
		Line: Array<{ Amount: number; Description: string }>;
		DocNumber: string;
		PrivateNote?: string;
		CurrencyRef: { value: string };
	};

describe('Build Xero bill', () => {
	it('keeps 1,250 × 0.0372 with its 4-decimal unit price (the request asks for unitdp=4)', () => {
		const [built] = runCodeNode(buildXero, [invoice()], xeroSettings);
		expect(xeroDocument(built).LineItems[0]).toMatchObject({
			Quantity: 1250,
			UnitAmount: 0.0372,
			LineAmount: 46.5,
		});
	});

	it('books a line Xero would recompute to another cent as 1 × its amount, quantity and price in the description', () => {
		const [built] = runCodeNode(
			buildXero,
			[
				invoice({
					lines: [{ description: 'Bolts', quantity: 3, unit_price: 0.3333, amount: 1.01 }],
					subtotal: 1.01,
				}),
			],
			xeroSettings,
		);
		expect(xeroDocument(built).LineItems[0]).toMatchObject({
			Description: 'Bolts (3 × 0.3333)',
			Quantity: 1,
			UnitAmount: 1.01,
			LineAmount: 1.01,
		});
	});

	it('spreads the tax over the lines by largest remainder: the line taxes add up to the tax', () => {
		const lines = [1, 2, 3].map((number) => ({
			description: `Item ${number}`,
			quantity: 1,
			unit_price: 1,
			amount: 1,
		}));
		const [built] = runCodeNode(
			buildXero,
			[invoice({ lines, subtotal: 3, tax: 0.1 })],
			xeroSettings,
		);
		expect(xeroDocument(built).LineItems.map((line) => line.TaxAmount)).toEqual([0.04, 0.03, 0.03]);
		expect(xeroDocument(built).LineAmountTypes).toBe('Exclusive');
	});

	it("writes the contact name on one line and shortens what is over Xero's limits", () => {
		const long = 'x'.repeat(5000);
		const [built] = runCodeNode(
			buildXero,
			[
				invoice({
					vendor: '  Acme\nSupplies \t GmbH ',
					invoice_no: `N-${'9'.repeat(300)}`,
					lines: [{ description: long, quantity: 1, unit_price: 46.5, amount: 46.5 }],
				}),
			],
			xeroSettings,
		);
		const document = xeroDocument(built);
		expect(document.Contact).toEqual({ Name: 'Acme Supplies GmbH' });
		expect(String(document.InvoiceNumber)).toHaveLength(255);
		expect(String(document.LineItems[0].Description)).toHaveLength(4000);
		expect(String(document.LineItems[0].Description).endsWith('…')).toBe(true);
	});

	it("books the invoice's currency, the default setting when it has none, and sends a currency the books do not take to review", () => {
		const [usd, none, chf] = runCodeNode(
			buildXero,
			[invoice({ currency: 'usd' }), invoice({ currency: null }), invoice({ currency: 'CHF' })],
			{ ...xeroSettings, default_currency: 'GBP' },
		);
		expect(xeroDocument(usd).CurrencyCode).toBe('USD');
		expect(xeroDocument(none).CurrencyCode).toBe('GBP');
		expect(chf.json).toMatchObject({
			review_reason: 'the books take EUR, USD, GBP; this invoice is in CHF',
			currency: 'CHF',
		});
		expect(chf.json.xero_request).toBeUndefined();
	});

	it('turns a negative total into an ACCPAYCREDIT credit note with positive amounts', () => {
		const [built] = runCodeNode(
			buildXero,
			[
				invoice({
					lines: [{ description: 'Returned toner', quantity: 2, unit_price: -12.5, amount: -25 }],
					subtotal: -25,
					tax: -4.75,
				}),
			],
			xeroSettings,
		);
		expect(built.json.endpoint).toBe('CreditNotes');
		const document = xeroDocument(built);
		expect(document).toMatchObject({ Type: 'ACCPAYCREDIT', CreditNoteNumber: 'INV-1' });
		expect(document.DueDate).toBeUndefined();
		expect(document.LineItems[0]).toMatchObject({
			Quantity: 2,
			UnitAmount: 12.5,
			LineAmount: 25,
			TaxAmount: 4.75,
		});
	});

	it('stops an invoice that is a cent off (the extraction checks allow a cent; a bill does not)', () => {
		const [built] = runCodeNode(buildXero, [invoice({ subtotal: 46.51 })], xeroSettings);
		expect(built.json.review_reason).toBe('the lines add up to 46.50, the subtotal is 46.51');
	});

	it('attaches the uploaded file when Xero takes its type; says why not otherwise', () => {
		const pdf: BinaryFile = { fileName: 'invoice.pdf', mimeType: 'application/pdf' };
		const json: BinaryFile = { fileName: 'invoice.json', mimeType: 'application/json' };
		const [withPdf, withJson] = runCodeNode(buildXero, [invoice(), invoice()], xeroSettings, [
			pdf,
			json,
		]);
		expect(withPdf.json).toMatchObject({
			attach: true,
			attachment_name: 'invoice.pdf',
			attachment_note: null,
		});
		expect(withPdf.binary).toEqual({ file: pdf });
		expect(withJson.json).toMatchObject({
			attach: false,
			attachment_note: 'Xero does not take .json attachments: the original file is not attached',
		});
		expect(withJson.binary).toBeUndefined();
		const [fromTrigger] = runCodeNode(buildXero, [invoice()], xeroSettings);
		expect(fromTrigger.json.attachment_note).toContain('attach it to the bill by hand');
	});
});

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
