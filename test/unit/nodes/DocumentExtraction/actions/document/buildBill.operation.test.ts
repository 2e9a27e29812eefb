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
	xeroTenantId: 'tenant-1',
	quickBooksCompanyId: '4620816365',
	...extra,
});

/** Runs Build Bill on one invoice item; its Bill and Cannot Be Booked outputs. */
async function buildOne(extra: IDataObject, json: IDataObject = simplified()) {
	const result = await harness().run({
		parameters: parameters(extra),
		items: [{ json }],
		typeVersion: 1.2,
	});
	return { bill: result.output(), held: result.output(undefined, 1) };
}

const QUICKBOOKS = {
	target: 'quickBooks',
	quickBooksExpenseAccountId: '7',
	quickBooksTaxAccountId: '8',
};
/** A parameter whose expression gives an empty value for this item, as an unset Settings field does. */
const EMPTY_SETTING = '={{ $json.not_a_setting ?? "" }}';

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
			tenant_id: 'tenant-1',
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

	it("QuickBooks: the vendor's key is the company's and the vendor's, the same for every invoice of theirs", async () => {
		const keys = async (header: IDataObject, companyId = '4620816365') => {
			const { bill } = await buildOne(
				{ ...QUICKBOOKS, quickBooksCompanyId: companyId },
				simplified({ ...EXTRACTED, header: { ...EXTRACTED.header, ...header } }),
			);
			return bill[0].json.idempotency_keys as Record<'vendor' | 'bill' | 'attachment', string>;
		};
		const first = await keys({});
		const second = await keys({ vendor: 'NORTHWIND CONSULTING LTD', invoice_no: 'NW-10' });
		expect(second.vendor).toBe(first.vendor);
		expect(second.bill).not.toBe(first.bill);
		expect((await keys({}, '4620816366')).vendor).not.toBe(first.vendor);
		expect((await keys({ vendor: 'Northwind Consulting GmbH' })).vendor).not.toBe(first.vendor);
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

	describe('a setting the bill needs for this invoice, missing: Cannot Be Booked with what to set', () => {
		it('QuickBooks, an invoice with tax and no Tax Account ID', async () => {
			const { bill, held } = await buildOne({ ...QUICKBOOKS, quickBooksTaxAccountId: '' });
			expect(bill).toEqual([]);
			expect(held).toHaveLength(1);
			expect(held[0].json.review_reason).toBe(
				'set Tax Account ID in Build Bill: this invoice has tax (480.00), booked as its own line on that account',
			);
			expect(held[0].json.bill).toBeUndefined();
		});

		it('QuickBooks, an invoice without tax needs no Tax Account ID', async () => {
			const { bill, held } = await buildOne(
				{ ...QUICKBOOKS, quickBooksTaxAccountId: '' },
				simplified({ ...EXTRACTED, amounts: { subtotal: 2400, tax: 0, total: 2400 } }),
			);
			expect(held).toEqual([]);
			expect((bill[0].json.bill as { Line: unknown[] }).Line).toHaveLength(1);
			expect(bill[0].json.company_id).toBe('4620816365');
		});

		it('QuickBooks, no company ID and an expense account that comes out empty', async () => {
			const { bill, held } = await buildOne({
				...QUICKBOOKS,
				quickBooksCompanyId: ' ',
				quickBooksExpenseAccountId: EMPTY_SETTING,
			});
			expect(bill).toEqual([]);
			expect(held[0].json.review_reason).toBe(
				"set Company ID in Build Bill (your QuickBooks company's realm id); set Expense Account ID in Build Bill (the QuickBooks account the lines are booked to)",
			);
		});

		it('Xero, no tenant ID and no account code', async () => {
			const { bill, held } = await buildOne({ xeroTenantId: '', xeroAccountCode: EMPTY_SETTING });
			expect(bill).toEqual([]);
			expect(held[0].json.review_reason).toBe(
				"set Tenant ID in Build Bill (your Xero organisation's tenant id); set Account Code in Build Bill (the Xero expense account the lines are booked to)",
			);
		});

		it("the invoice's own reasons come first; the settings are asked for once it can be booked", async () => {
			const { held } = await buildOne(
				{ xeroTenantId: '', allowedCurrencies: 'EUR' },
				simplified({ ...EXTRACTED, currency: 'USD' }),
			);
			expect(held[0].json.review_reason).toBe('the books take EUR; this invoice is in USD');
		});
	});

	describe('the approval decision on the bill', () => {
		const APPROVED = {
			decidedBy: 'manager@example.test',
			decidedAt: '2026-11-02T09:30:00.000Z',
		};

		it('Xero: a History & Notes entry saying who approved and when', async () => {
			const { bill } = await buildOne({ approval: APPROVED });
			expect(bill[0].json).toMatchObject({
				approval_note: 'Approved by manager@example.test on 2026-11-02T09:30:00.000Z',
				xero_history: {
					HistoryRecords: [
						{ Details: 'Approved by manager@example.test on 2026-11-02T09:30:00.000Z' },
					],
				},
			});
		});

		it("QuickBooks: first in the bill's private note (its Memo), before what did not fit elsewhere", async () => {
			const { bill } = await buildOne(
				{
					...QUICKBOOKS,
					approval: { note: 'Under the approval threshold of 1,000.00: no approval needed' },
				},
				simplified({ ...EXTRACTED, header: { ...EXTRACTED.header, vendor: 'Acme: Supplies' } }),
			);
			expect(
				String((bill[0].json.bill as IDataObject).PrivateNote)
					.split('\n')
					.slice(0, 2),
			).toEqual([
				'Under the approval threshold of 1,000.00: no approval needed',
				'Vendor: Acme: Supplies',
			]);
			expect(bill[0].json.approval_note).toBe(
				'Under the approval threshold of 1,000.00: no approval needed',
			);
		});

		it("Xero's note is cut to the 250 characters Xero keeps; no decision, no note", async () => {
			const { bill } = await buildOne({ approval: { note: `Approved: ${'x'.repeat(400)}` } });
			const details = (bill[0].json.xero_history as { HistoryRecords: IDataObject[] })
				.HistoryRecords[0].Details as string;
			expect(details).toHaveLength(250);
			expect(details.endsWith('…')).toBe(true);
			const without = await buildOne({ ...QUICKBOOKS });
			expect(without.bill[0].json.approval_note).toBeNull();
			expect((without.bill[0].json.bill as IDataObject).PrivateNote).toMatch(
				/^Original not attached: /,
			);
			expect((await buildOne({})).bill[0].json.xero_history).toBeNull();
		});
	});
});
