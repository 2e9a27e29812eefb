// Build Bill through n8n's engine (N42): an invoice item in, the exact request for the chosen books
// out on Bill with the original file for the attachment, or the reasons on Cannot Be Booked; paired
// to its input item; nothing sent to any service.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { invoiceOutput } from '../../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import { file, pdfBytes, useNodeHarness } from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const EXTRACTED = {
	header: { vendor: 'Northwind Consulting Ltd', date: '2026-10-01', invoice_no: 'NW-9' },
	amounts: { subtotal: 2400, tax: 480, total: 2880 },
	line_items: [
		{ description: 'Consulting, September', quantity: 1, unit_price: 2400, amount: 2400 },
	],
};
const VERIFIED = { document_id: 'doc_nw9', status: 'verified' };
const simplified = (extracted: IDataObject = EXTRACTED) =>
	invoiceOutput('simplified', VERIFIED, VERIFIED, extracted)[0];

const parameters = (extra: IDataObject = {}) => ({
	resource: 'document',
	operation: 'buildBill',
	...extra,
});

describe('Build Bill', () => {
	it("a ready invoice becomes a Xero bill on Bill, in the books' own currency, with the original file", async () => {
		const result = await harness().run({
			parameters: parameters({ xeroAccountCode: '429', originalFileField: 'data' }),
			items: [{ json: simplified(), binary: { data: file(pdfBytes(), 'NW-9.pdf') } }],
			typeVersion: 1.2,
		});
		const [bill] = result.output();
		expect(bill.json).toMatchObject({
			document_id: 'doc_nw9',
			currency: null,
			review_reason: null,
			endpoint: 'Invoices',
			expected: { subtotal: 2400, tax: 480, total: 2880 },
			attach: true,
			attachment_name: 'NW-9.pdf',
			attachment_field: 'data',
		});
		const document = (bill.json.xero_request as { Invoices: IDataObject[] }).Invoices[0];
		expect(document).not.toHaveProperty('CurrencyCode');
		expect(document).toMatchObject({
			Type: 'ACCPAY',
			InvoiceNumber: 'NW-9',
			DueDate: '2026-10-31',
		});
		expect(bill.binary?.data?.fileName).toBe('NW-9.pdf');
		expect(bill.pairedItem).toEqual({ item: 0 });
		expect(result.output(undefined, 1)).toEqual([]);
		expect(service().requests).toEqual([]);
	});

	it('QuickBooks: the tax as its own line, the currency the invoice names', async () => {
		const result = await harness().run({
			parameters: parameters({
				target: 'quickBooks',
				quickBooksExpenseAccountId: '7',
				quickBooksTaxAccountId: '8',
			}),
			items: [{ json: simplified({ ...EXTRACTED, currency: 'GBP' }) }],
			typeVersion: 1.2,
		});
		const [bill] = result.output();
		expect(bill.json).toMatchObject({ entity: 'bill', currency: 'GBP', attach: false });
		expect(bill.json.bill).toMatchObject({
			CurrencyRef: { value: 'GBP' },
			Line: [
				{ Amount: 2400, AccountBasedExpenseLineDetail: { AccountRef: { value: '7' } } },
				{
					Amount: 480,
					Description: 'Tax',
					AccountBasedExpenseLineDetail: { AccountRef: { value: '8' } },
				},
			],
		});
		expect(bill.binary).toBeUndefined();
	});

	it('an invoice not ready to post, or one the books cannot take, goes to Cannot Be Booked with the reasons, paired', async () => {
		const result = await harness().run({
			parameters: parameters({ allowedCurrencies: 'EUR' }),
			items: [
				{ json: simplified({ ...EXTRACTED, header: { ...EXTRACTED.header, invoice_no: '' } }) },
				{ json: simplified({ ...EXTRACTED, currency: 'USD' }) },
				{ json: { something: 'else' } },
			],
			typeVersion: 1.2,
		});
		expect(result.output()).toEqual([]);
		const held = result.output(undefined, 1);
		expect(held.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(held[0].json.review_reason).toMatch(/invoice number/i);
		expect(held[1].json.review_reason).toBe('the books take EUR; this invoice is in USD');
		expect(held[2].json.review_reason).toMatch(/^The item holds no whole invoice/);
	});

	it("reads Extract's raw output too", async () => {
		const result = await harness().run({
			parameters: parameters(),
			items: [{ json: { ...VERIFIED, extracted_json: EXTRACTED } }],
			typeVersion: 1.2,
		});
		expect(result.output()[0].json).toMatchObject({ document_id: 'doc_nw9', endpoint: 'Invoices' });
	});
});
