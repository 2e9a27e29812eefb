// Target Xero (bill/xeroBill.ts) on 240 generated invoices (1–80 lines, 4-decimal prices, discounts,
// zero and mixed tax, credit notes, several currencies and none, each way of stopping): every one the
// package's gate lets through is posted to the Xero stand-in (Xero's published schema and
// arithmetic) with totals equal to the invoice's to the cent, an invoice naming no currency in the
// organisation's base currency (N42); every other one gets a reason and no request. Then the rules
// case by case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	buildXeroBill,
	type XeroSettings,
} from '../../../../../nodes/DocumentExtraction/bill/xeroBill.ts';
import {
	startXeroStandIn,
	toCents,
	type XeroStandIn,
} from '../../../../../local-n8n/accounting/index.ts';
import {
	type BinaryFile,
	type BuiltItem,
	xeroExampleSettings,
} from '../../../accounting/exampleSettings.ts';
import {
	amountOnlyInvoice,
	generateInvoiceItems,
	invoiceItem as invoice,
} from '../../../accounting/generatedInvoices.ts';

const settings = xeroExampleSettings();

/** The stand-in organisation's base currency (what Xero books when the request names none). */
const BASE_CURRENCY = 'EUR';

/** What Build Bill puts on its outputs for `items`: the built item, with the file when it is attached. */
function runXero(
	items: Array<Record<string, unknown>>,
	overrides: Partial<XeroSettings> = {},
	files: BinaryFile[] = [],
): BuiltItem[] {
	return items.map((item, index) => {
		const built = buildXeroBill(item, { ...settings, ...overrides }, files[index]);
		return { json: built.json, ...(built.attach ? { binary: { file: files[index] } } : {}) };
	});
}

const readyToPost = (item: Record<string, unknown>) => item.ready_to_post === true;

async function postToXero(item: BuiltItem) {
	return await post(String(item.json.endpoint), item.json.xero_request);
}

const xeroDocument = (item: BuiltItem) =>
	(
		item.json.xero_request as Record<
			string,
			Array<Record<string, unknown> & { LineItems: Array<Record<string, unknown>> }>
		>
	)[String(item.json.endpoint)][0];

let xero: XeroStandIn;
beforeAll(async () => {
	// ~200 bills in a second, far over Xero's 60 calls a minute: this file tests the bodies, not the pace.
	xero = await startXeroStandIn({ accessToken: 'token', limits: false });
});
afterAll(async () => await xero.close());

async function post(endpoint: string, request: unknown) {
	const response = await fetch(`${xero.url}/api.xro/2.0/${endpoint}?unitdp=4`, {
		method: 'POST',
		headers: {
			authorization: 'Bearer token',
			'xero-tenant-id': 'tenant',
			'content-type': 'application/json',
		},
		body: JSON.stringify(request),
	});
	const answer = (await response.json()) as Record<string, Array<Record<string, unknown>>>;
	expect(response.status, JSON.stringify(answer)).toBe(200);
	return answer[endpoint][0];
}

describe('Target Xero', () => {
	const invoices = generateInvoiceItems(20261123, 240);

	it("each one the gate lets through is posted to Xero with totals equal to the invoice's, or gets a reason; each one it stops is never built", async () => {
		let posted = 0;
		for (const { invoice, item } of invoices) {
			if (!readyToPost(item)) {
				expect(
					invoice.expect,
					`${invoice.name}: the gate stopped an invoice that should post`,
				).toBe('stop');
				continue;
			}
			const [built] = runXero([item]);
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
			// An invoice naming no currency is booked in the organisation's base currency (N42).
			expect(built.json.currency, invoice.name).toBe(invoice.currency);
			expect(document.CurrencyCode, invoice.name).toBe(invoice.currency ?? BASE_CURRENCY);
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

	it('amount-only lines ("Consulting, September — 2,400.00") book as 1 × the amount', () => {
		const built = buildXeroBill(amountOnlyInvoice(), settings);
		const document = (
			built.json.xero_request as { Invoices: Array<{ LineItems: unknown[]; CurrencyCode: string }> }
		).Invoices[0];
		expect(document.CurrencyCode).toBe('GBP');
		expect(document.LineItems).toEqual([
			{
				Description: 'Consulting, September',
				Quantity: 1,
				UnitAmount: 2400,
				AccountCode: '400',
				LineAmount: 2400,
				TaxAmount: 480,
			},
		]);
	});

	it('the Currency setting books an invoice naming none in that currency; a currency the books do not take is a reason', () => {
		const invoice = {
			vendor: 'Acme',
			invoice_no: 'A-1',
			subtotal: 10,
			tax: 0,
			total: 10,
			line_items: [{ description: 'x', amount: 10 }],
		};
		const inEur = buildXeroBill(invoice, { ...settings, currency: 'EUR' });
		expect(
			(inEur.json.xero_request as { Invoices: Array<{ CurrencyCode: string }> }).Invoices[0]
				.CurrencyCode,
		).toBe('EUR');
		const inYen = buildXeroBill({ ...invoice, currency: 'JPY' }, settings);
		expect(inYen).toEqual({
			ready: false,
			json: expect.objectContaining({
				review_reason: 'the books take EUR, USD, GBP; this invoice is in JPY',
			}),
		});
	});

	it('the original travels on when Xero takes its type', () => {
		const invoice = {
			vendor: 'A',
			invoice_no: '1',
			subtotal: 1,
			tax: 0,
			total: 1,
			line_items: [{ amount: 1 }],
		};
		expect(buildXeroBill(invoice, settings, { fileName: 'a.pdf' })).toMatchObject({
			ready: true,
			attach: true,
		});
		expect(buildXeroBill(invoice, settings, { fileName: 'a.heic' })).toMatchObject({
			ready: true,
			attach: false,
		});
	});
});

describe('Target Xero, case by case', () => {
	it('keeps 1,250 × 0.0372 with its 4-decimal unit price (the request asks for unitdp=4)', () => {
		const [built] = runXero([invoice()]);
		expect(xeroDocument(built).LineItems[0]).toMatchObject({
			Quantity: 1250,
			UnitAmount: 0.0372,
			LineAmount: 46.5,
		});
	});

	it('books a line Xero would recompute to another cent as 1 × its amount, quantity and price in the description', () => {
		const [built] = runXero([
			invoice({
				lines: [{ description: 'Bolts', quantity: 3, unit_price: 0.3333, amount: 1.01 }],
				subtotal: 1.01,
			}),
		]);
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
		const [built] = runXero([invoice({ lines, subtotal: 3, tax: 0.1 })]);
		expect(xeroDocument(built).LineItems.map((line) => line.TaxAmount)).toEqual([0.04, 0.03, 0.03]);
		expect(xeroDocument(built).LineAmountTypes).toBe('Exclusive');
	});

	it("writes the contact name on one line and shortens what is over Xero's limits", () => {
		const long = 'x'.repeat(5000);
		const [built] = runXero([
			invoice({
				vendor: '  Acme\nSupplies \t GmbH ',
				invoice_no: `N-${'9'.repeat(300)}`,
				lines: [{ description: long, quantity: 1, unit_price: 46.5, amount: 46.5 }],
			}),
		]);
		const document = xeroDocument(built);
		expect(document.Contact).toEqual({ Name: 'Acme Supplies GmbH' });
		expect(String(document.InvoiceNumber)).toHaveLength(255);
		expect(String(document.LineItems[0].Description)).toHaveLength(4000);
		expect(String(document.LineItems[0].Description).endsWith('…')).toBe(true);
	});

	it("books the invoice's currency, the Currency setting when it names none, and sends a currency the books do not take to review", () => {
		const [usd, none, chf] = runXero(
			[invoice({ currency: 'usd' }), invoice({ currency: null }), invoice({ currency: 'CHF' })],
			{ currency: 'GBP' },
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
		const [built] = runXero([
			invoice({
				lines: [{ description: 'Returned toner', quantity: 2, unit_price: -12.5, amount: -25 }],
				subtotal: -25,
				tax: -4.75,
			}),
		]);
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
		const [built] = runXero([invoice({ subtotal: 46.51 })]);
		expect(built.json.review_reason).toBe('the lines add up to 46.50, the subtotal is 46.51');
	});

	it('attaches the uploaded file when Xero takes its type; says why not otherwise', () => {
		const pdf: BinaryFile = { fileName: 'invoice.pdf', mimeType: 'application/pdf' };
		const json: BinaryFile = { fileName: 'invoice.json', mimeType: 'application/json' };
		const [withPdf, withJson] = runXero([invoice(), invoice()], {}, [pdf, json]);
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
		const [fromTrigger] = runXero([invoice()]);
		expect(fromTrigger.json.attachment_note).toContain('attach it to the bill by hand');
	});
});
