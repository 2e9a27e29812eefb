// Target Xero (bill/xeroBill.ts) on 240 generated invoices (1–80 lines, 4-decimal prices, discounts,
// zero and mixed tax, credit notes, several currencies and none, each way of stopping): every one the
// package's gate lets through becomes the same request the Invoice to Xero example's Code node builds,
// except that an invoice naming no currency is left to the organisation's base currency (N42); posted
// to the Xero stand-in (Xero's published schema and arithmetic), its totals equal the invoice's to the
// cent; every other one gets a reason and no request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	buildXeroBill,
	type XeroSettings,
} from '../../../../../nodes/DocumentExtraction/bill/xeroBill.ts';
import { invoiceOutput } from '../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import {
	startXeroStandIn,
	toCents,
	type XeroStandIn,
} from '../../../../../local-n8n/accounting/index.ts';
import { exampleCode, exampleSettings, runCodeNode } from '../../../accounting/codeNode.ts';
import { generateInvoices, type GeneratedInvoice } from '../../../accounting/generatedInvoices.ts';

const EXAMPLE = 'invoice-to-xero.workflow.json';
const example = exampleSettings(EXAMPLE);
const settings: XeroSettings = {
	accountCode: example.xero_account_code,
	taxType: example.xero_tax_type,
	status: example.xero_bill_status,
	paymentTermsDays: Number(example.payment_terms_days),
	allowedCurrencies: example.allowed_currencies,
};

let xero: XeroStandIn;
beforeAll(async () => {
	xero = await startXeroStandIn({ accessToken: 'token' });
});
afterAll(async () => await xero.close());

function simplified(data: GeneratedInvoice['data']): Record<string, unknown> {
	const [item] = invoiceOutput(
		'simplified',
		{},
		{ document_id: 'doc_generated', status: 'verified' },
		data,
	);
	return item as Record<string, unknown>;
}

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
	it("generated invoices: the example's request, the books' own currency when none is named, exact to the cent in Xero", async () => {
		const code = exampleCode(EXAMPLE, 'Build Xero bill');
		let posted = 0;
		let withoutCurrency = 0;
		for (const invoice of generateInvoices(20261126, 240)) {
			const item = simplified(invoice.data);
			if (item.ready_to_post !== true) continue;
			const built = buildXeroBill(item, settings);
			if (invoice.expect === 'stop' && invoice.currency !== null) {
				expect(built.ready, `${invoice.name} (${invoice.stopBecause})`).toBe(false);
				expect(built.json.review_reason).toEqual(expect.any(String));
				expect(built.json.xero_request).toBeUndefined();
				continue;
			}
			if (!built.ready) {
				expect(invoice.expect, `${invoice.name}: ${String(built.json.review_reason)}`).toBe('stop');
				continue;
			}
			const [fromExample] = runCodeNode(code, [item], example);
			const endpoint = String(built.json.endpoint);
			const document = (built.json.xero_request as Record<string, Array<Record<string, unknown>>>)[
				endpoint
			][0];
			const exampleDocument = (
				fromExample.json.xero_request as Record<string, Array<Record<string, unknown>>>
			)[endpoint][0];
			if (invoice.currency === null) {
				withoutCurrency++;
				expect(document.CurrencyCode, invoice.name).toBeUndefined();
				expect({ ...document, CurrencyCode: example.default_currency }).toEqual(exampleDocument);
			} else {
				expect(document, invoice.name).toEqual(exampleDocument);
			}
			const booked = await post(endpoint, built.json.xero_request);
			expect(
				[
					toCents(booked.SubTotal as number),
					toCents(booked.TotalTax as number),
					toCents(booked.Total as number),
				],
				invoice.name,
			).toEqual([invoice.cents!.subtotal, invoice.cents!.tax, invoice.cents!.total]);
			posted++;
		}
		expect(posted).toBeGreaterThan(150);
		expect(withoutCurrency).toBeGreaterThan(10);
	});

	it('amount-only lines ("Consulting, September — 2,400.00") book as 1 × the amount', () => {
		const built = buildXeroBill(
			{
				vendor: 'Northwind Consulting Ltd',
				invoice_no: 'NW-9',
				invoice_date: '2026-10-01',
				currency: 'GBP',
				subtotal: 2400,
				tax: 480,
				total: 2880,
				line_items: [
					{ description: 'Consulting, September', quantity: null, unit_price: null, amount: 2400 },
				],
			},
			settings,
		);
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
