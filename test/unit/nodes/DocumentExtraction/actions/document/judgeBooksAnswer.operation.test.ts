// Judge Books Answer through n8n's engine: the Build Bill item and the books' answer in, the item
// with its verdict out on that verdict's output, paired to its input item; nothing sent to any service.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { buildQuickBooksBill } from '../../../../../../nodes/DocumentExtraction/bill/quickBooksBill.ts';
import { buildXeroBill } from '../../../../../../nodes/DocumentExtraction/bill/xeroBill.ts';
import { quickBooksRow, xeroInvoice } from '../../../../accounting/booksAnswers.ts';
import {
	quickBooksExampleSettings,
	xeroExampleSettings,
} from '../../../../accounting/exampleSettings.ts';
import { invoiceItem } from '../../../../accounting/generatedInvoices.ts';
import { useNodeHarness } from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

function billItem(): IDataObject {
	const built = buildXeroBill(invoiceItem({ vendor: 'Acme Inc', invoice_no: 'INV-1001' }), {
		...xeroExampleSettings(),
		tenantId: 'tenant-1',
	});
	return built.json;
}

async function run(parameters: IDataObject, answer: IDataObject) {
	return harness().run({
		parameters: {
			resource: 'document',
			operation: 'judgeBooksAnswer',
			bill: JSON.stringify(billItem()),
			...parameters,
		},
		items: [{ json: answer }],
		typeVersion: 1.3,
	});
}

/** The judged items of every output (one item in, one out). */
async function judge(parameters: IDataObject, answer: IDataObject) {
	return (await run(parameters, answer)).outputs().flat();
}

describe('Judge Books Answer', () => {
	it("judges the lookup's answer of the input item: the bill, its verdict and the bill it names", async () => {
		const [judged] = await judge({}, { Invoices: [xeroInvoice()] });
		expect(judged.json).toMatchObject({
			invoice_no: 'INV-1001',
			endpoint: 'Invoices',
			verdict: 'alreadyBooked',
			review_reason: null,
			books_bill: { id: '2f8e1d6a-0000-4000-8000-000000000001', number: 'INV-1001' },
		});
		expect(judged.pairedItem).toEqual({ item: 0 });
		expect(service().requests).toEqual([]);
		const [fresh] = await judge({}, { Invoices: [] });
		expect(fresh.json.verdict).toBe('new');
	});

	it("judges the create's answer: another bill than asked for goes to a person with the reason", async () => {
		const [created] = await judge({ answerTo: 'create' }, { Invoices: [xeroInvoice()] });
		expect(created.json.verdict).toBe('created');
		const [other] = await judge(
			{ answerTo: 'create' },
			{ Invoices: [xeroInvoice({ InvoiceNumber: 'INV-1002' })] },
		);
		expect(other.json).toMatchObject({ verdict: 'personDecides' });
		expect(String(other.json.review_reason)).toContain('its number is INV-1002, not INV-1001');
	});

	it("takes QuickBooks' pages as n8n's items, every page read", async () => {
		const built = buildQuickBooksBill(invoiceItem({ vendor: 'Acme Inc', invoice_no: 'INV-1001' }), {
			...quickBooksExampleSettings(),
			companyId: '9130',
		});
		const other = quickBooksRow({ VendorRef: { value: '99' } });
		const pages = [
			{ json: { QueryResponse: { Bill: Array.from({ length: 1000 }, () => other) } } },
			{ json: { QueryResponse: { Bill: [quickBooksRow()] } } },
		];
		const [judged] = await judge(
			{
				bill: JSON.stringify(built.json),
				booksAnswer: JSON.stringify(pages),
				quickBooksVendorId: '56',
			},
			{},
		);
		expect(judged.json).toMatchObject({ verdict: 'alreadyBooked', books_bill: { id: '145' } });
		const [cut] = await judge(
			{
				bill: JSON.stringify(built.json),
				booksAnswer: JSON.stringify(pages.slice(0, 1)),
				quickBooksVendorId: '56',
			},
			{},
		);
		expect(cut.json.verdict).toBe('personDecides');
	});

	it('puts each verdict on its own output, in the order the editor shows them', async () => {
		const lookup = await run({}, { Invoices: [xeroInvoice()] });
		expect(lookup.outputs().map((items) => items.map((item) => item.json.verdict))).toEqual([
			[],
			['alreadyBooked'],
			[],
		]);
		const fresh = await run({}, { Invoices: [] });
		expect(fresh.output(undefined, 0).map((item) => item.json.verdict)).toEqual(['new']);
		const other = await run(
			{ answerTo: 'create' },
			{ Invoices: [xeroInvoice({ InvoiceNumber: 'INV-1002' })] },
		);
		expect(other.output(undefined, 1).map((item) => item.json.verdict)).toEqual(['personDecides']);
		const refused = await run(
			{ answerTo: 'create' },
			{
				error: {
					message:
						'400 - "{\\"Elements\\":[{\\"ValidationErrors\\":[{\\"Message\\":\\"Account code \'400\' has been archived, or has been deleted. Each line item must reference a valid account.\\"}]}]}"',
					httpCode: '400',
				},
			},
		);
		expect(refused.output(undefined, 2).map((item) => item.json.verdict)).toEqual([
			'accountRefused',
		]);
		const refusedAgain = await run(
			{ answerTo: 'create', accountAskedAgain: true },
			refused.output(undefined, 2)[0].json,
		);
		expect(refusedAgain.outputs().map((items) => items.length)).toEqual([0, 1, 0, 0]);
		const otherwise = await run(
			{ answerTo: 'create' },
			{ error: { message: 'Service Unavailable', httpCode: '503' } },
		);
		expect(otherwise.outputs().map((items) => items.map((item) => item.json.verdict))).toEqual([
			[],
			[],
			[],
			['booksRefused'],
		]);
		const created = await run({ answerTo: 'create' }, { Invoices: [xeroInvoice()] });
		expect(created.output(undefined, 0).map((item) => item.json.verdict)).toEqual(['created']);
	});

	it("judges QuickBooks' vendor answer onto Found, Missing and A Person Decides", async () => {
		const bill = JSON.stringify({ vendor_name: 'Acme Inc', currency: 'EUR' });
		const vendor = { Id: '56', CurrencyRef: { value: 'EUR' } };
		const verdicts = async (answer: IDataObject) =>
			(await run({ answerTo: 'vendor', bill }, answer))
				.outputs()
				.map((items) => items.map((item) => [item.json.verdict, item.json.vendor_id]));
		expect(await verdicts({ QueryResponse: { Vendor: [vendor] } })).toEqual([
			[['found', '56']],
			[],
			[],
		]);
		expect(await verdicts({ Vendor: vendor })).toEqual([[['found', '56']], [], []]);
		expect(await verdicts({ QueryResponse: {} })).toEqual([[], [['missing', null]], []]);
		// Still missing after the create was asked: a person, never a create again.
		const again = await run(
			{ answerTo: 'vendor', bill, vendorCreateAsked: true },
			{ QueryResponse: {} },
		);
		expect(again.outputs().map((items) => items.map((item) => item.json.verdict))).toEqual([
			[],
			[],
			['personDecides'],
		]);
		expect(
			await verdicts({ QueryResponse: { Vendor: [{ ...vendor, CurrencyRef: { value: 'USD' } }] } }),
		).toEqual([[], [], [['personDecides', null]]]);
	});

	it('says what to set when Bill is not JSON', async () => {
		const result = await run({ bill: 'not json' }, { Invoices: [] });
		expect(result.error()?.message).toContain('Bill is not JSON: set it to an expression');
	});
});
