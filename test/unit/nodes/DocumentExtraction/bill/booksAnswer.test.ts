// What the books' answers mean for a bill Build Bill built: the lookup's (new, already booked, a
// person decides and why) and the create's (the bill asked for, or a person decides). The answers
// are shaped as the books send them; their shapes are checked against the official schemas in
// test/unit/accounting/booksAnswerOfficialSchemas.test.ts.
import { describe, expect, it } from 'vitest';

import {
	accountRefusal,
	judgeCreated,
	judgeLookup,
} from '../../../../../nodes/DocumentExtraction/bill/booksAnswer.ts';
import { buildQuickBooksBill } from '../../../../../nodes/DocumentExtraction/bill/quickBooksBill.ts';
import { buildXeroBill } from '../../../../../nodes/DocumentExtraction/bill/xeroBill.ts';
import {
	quickBooksExampleSettings,
	xeroExampleSettings,
} from '../../../accounting/exampleSettings.ts';
import { quickBooksRow, xeroInvoice } from '../../../accounting/booksAnswers.ts';
import { invoiceItem } from '../../../accounting/generatedInvoices.ts';

function xeroBillItem(overrides: Parameters<typeof invoiceItem>[0] = {}) {
	const built = buildXeroBill(
		invoiceItem({ vendor: 'Acme Inc', invoice_no: 'INV-1001', ...overrides }),
		{
			...xeroExampleSettings(),
			tenantId: 'tenant-1',
		},
	);
	if (!built.ready) throw new Error(String(built.json.review_reason));
	return built.json;
}

function quickBooksBillItem(overrides: Parameters<typeof invoiceItem>[0] = {}) {
	const built = buildQuickBooksBill(
		invoiceItem({ vendor: 'Acme Inc', invoice_no: 'INV-1001', ...overrides }),
		{ ...quickBooksExampleSettings(), companyId: '9130' },
	);
	if (!built.ready) throw new Error(String(built.json.review_reason));
	return built.json;
}

describe('judgeLookup, Xero', () => {
	const bill = xeroBillItem();

	it('is new when Xero has no bill of the supplier with the number', () => {
		expect(judgeLookup(bill, { Invoices: [] })).toEqual({
			verdict: 'new',
			review_reason: null,
			books_bill: null,
			also_found: [],
		});
	});

	it('is already booked for a live bill of the same supplier, number, total and date, and names it', () => {
		const judged = judgeLookup(bill, {
			Invoices: [xeroInvoice({ Contact: { Name: 'ACME  inc' } })],
		});
		expect(judged.verdict).toBe('alreadyBooked');
		expect(judged.books_bill).toEqual({
			id: '2f8e1d6a-0000-4000-8000-000000000001',
			number: 'INV-1001',
			supplier: 'ACME  inc',
			status: 'AUTHORISED',
			total: 46.5,
			date: '2026-10-05',
			currency: 'EUR',
			link: 'https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=2f8e1d6a-0000-4000-8000-000000000001',
		});
	});

	it('leaves it to a person when the bill with the number is voided or deleted, and says why', () => {
		for (const status of ['VOIDED', 'DELETED']) {
			const judged = judgeLookup(bill, { Invoices: [xeroInvoice({ Status: status })] });
			expect(judged.verdict, status).toBe('personDecides');
			expect(judged.review_reason).toContain(`it is ${status.toLowerCase()}`);
		}
	});

	it('leaves it to a person when the bill with the number has another total or date', () => {
		const total = judgeLookup(bill, { Invoices: [xeroInvoice({ Total: 64.5 })] });
		expect(total.verdict).toBe('personDecides');
		expect(total.review_reason).toContain("its total is 64.50, this invoice's 46.50");
		const date = judgeLookup(bill, {
			Invoices: [xeroInvoice({ DateString: '2026-09-05T00:00:00', Date: undefined })],
		});
		expect(date.verdict).toBe('personDecides');
		expect(date.review_reason).toContain('it is dated 2026-09-05, this invoice 2026-10-05');
		expect(date.books_bill?.id).toBe('2f8e1d6a-0000-4000-8000-000000000001');
	});

	it('reads the date from /Date(…)/ when Xero sends no DateString', () => {
		expect(judgeLookup(bill, { Invoices: [xeroInvoice({ DateString: undefined })] }).verdict).toBe(
			'alreadyBooked',
		);
	});

	it("does not count another legal entity's bill or another number", () => {
		for (const other of [
			xeroInvoice({ Contact: { Name: 'ACME GmbH' } }),
			xeroInvoice({ InvoiceNumber: 'INV-10010' }),
		])
			expect(judgeLookup(bill, { Invoices: [other] }).verdict).toBe('new');
	});

	it('names the live bill when a voided one shares the number', () => {
		const judged = judgeLookup(bill, {
			Invoices: [xeroInvoice({ Status: 'VOIDED', InvoiceID: 'old' }), xeroInvoice()],
		});
		expect(judged.verdict).toBe('alreadyBooked');
		expect(judged.also_found.map((found) => found.id)).toEqual(['old']);
	});

	it('judges credit notes from the CreditNotes answer', () => {
		const credit = xeroBillItem({
			lines: [{ description: 'Return', quantity: 1, unit_price: -46.5, amount: -46.5 }],
			subtotal: -46.5,
		});
		expect(credit.endpoint).toBe('CreditNotes');
		const judged = judgeLookup(credit, {
			CreditNotes: [
				{
					...xeroInvoice({ Type: 'ACCPAYCREDIT', InvoiceID: undefined, InvoiceNumber: undefined }),
					CreditNoteID: 'cn-1',
					CreditNoteNumber: 'INV-1001',
				},
			],
		});
		expect(judged.verdict).toBe('alreadyBooked');
		expect(judged.books_bill?.link).toBe(
			'https://go.xero.com/AccountsPayable/ViewCreditNote.aspx?creditNoteID=cn-1',
		);
	});

	it('leaves it to a person when the answer is not a Xero answer or the bill is not a Build Bill item', () => {
		expect(judgeLookup(bill, { Fault: 'x' }).review_reason).toContain("not Xero's Invoices answer");
		expect(judgeLookup({ vendor: 'Acme' }, { Invoices: [] }).review_reason).toContain(
			'holds no bill Build Bill built',
		);
	});
});

describe('judgeLookup, QuickBooks', () => {
	const bill = quickBooksBillItem();

	it('is new on an empty answer, already booked for the vendor with the same bill', () => {
		expect(judgeLookup(bill, { QueryResponse: {} }, '56').verdict).toBe('new');
		const judged = judgeLookup(bill, { QueryResponse: { Bill: [quickBooksRow()] } }, '56');
		expect(judged.verdict).toBe('alreadyBooked');
		expect(judged.books_bill).toMatchObject({
			id: '145',
			link: 'https://app.qbo.intuit.com/app/bill?txnId=145',
		});
	});

	it("counts only the vendor's bills by VendorRef when its Id is known, by name otherwise", () => {
		const others = {
			QueryResponse: { Bill: [quickBooksRow({ VendorRef: { value: '57', name: 'Acme Inc' } })] },
		};
		expect(judgeLookup(bill, others, '56').verdict).toBe('new');
		expect(judgeLookup(bill, others).verdict).toBe('alreadyBooked');
	});

	it('reads every page, and leaves it to a person when the last page read is full', () => {
		const full = Array.from({ length: 1000 }, (_, index) =>
			quickBooksRow({ Id: String(index), VendorRef: { value: '99' } }),
		);
		const cut = judgeLookup(bill, { QueryResponse: { Bill: full } }, '56');
		expect(cut.verdict).toBe('personDecides');
		expect(cut.review_reason).toContain('the next page was not read');
		const pages = [
			{ QueryResponse: { Bill: full } },
			{ QueryResponse: { Bill: [quickBooksRow()] } },
		];
		expect(judgeLookup(bill, pages, '56').verdict).toBe('alreadyBooked');
	});

	it('leaves a voided bill or another total to a person', () => {
		const voided = quickBooksRow({ TotalAmt: 0, PrivateNote: 'Voided' });
		expect(judgeLookup(bill, { QueryResponse: { Bill: [voided] } }, '56').review_reason).toContain(
			'it is voided',
		);
		expect(
			judgeLookup(bill, { QueryResponse: { Bill: [quickBooksRow({ TotalAmt: 46.05 })] } }, '56')
				.verdict,
		).toBe('personDecides');
	});

	it('compares a number longer than 21 characters whole, through the private note Build Bill writes', () => {
		const long = 'INV-2026-0000000000001-A';
		const longBill = quickBooksBillItem({ invoice_no: long });
		const asBuilt = longBill.bill as { DocNumber: string; PrivateNote: string };
		const row = quickBooksRow({ DocNumber: asBuilt.DocNumber, PrivateNote: asBuilt.PrivateNote });
		expect(judgeLookup(longBill, { QueryResponse: { Bill: [row] } }, '56').verdict).toBe(
			'alreadyBooked',
		);
		const otherWhole = quickBooksRow({
			DocNumber: asBuilt.DocNumber,
			PrivateNote: 'Invoice number: INV-2026-0000000000001-B',
		});
		const judged = judgeLookup(longBill, { QueryResponse: { Bill: [otherWhole] } }, '56');
		expect(judged.verdict).toBe('personDecides');
		expect(judged.review_reason).toContain('does not record the whole number');
	});
});

describe('judgeCreated', () => {
	it('is created when Xero returns the bill asked for', () => {
		const bill = xeroBillItem();
		const judged = judgeCreated(bill, { Invoices: [xeroInvoice({ Status: 'DRAFT' })] });
		expect(judged.verdict).toBe('created');
		expect(judged.books_bill?.id).toBe('2f8e1d6a-0000-4000-8000-000000000001');
	});

	it('leaves it to a person when the books return another bill, and says what differs', () => {
		const bill = xeroBillItem();
		const judged = judgeCreated(bill, {
			Invoices: [xeroInvoice({ Contact: { Name: 'ACME GmbH' }, InvoiceNumber: '1001', Total: 10 })],
		});
		expect(judged.verdict).toBe('personDecides');
		expect(judged.review_reason).toContain('its supplier is ACME GmbH, not Acme Inc');
		expect(judged.review_reason).toContain('its number is 1001, not INV-1001');
		expect(judged.review_reason).toContain('its total is 10.00, not 46.50');
		expect(judgeCreated(bill, { Invoices: [] }).verdict).toBe('personDecides');
	});

	it('checks a QuickBooks bill by VendorRef, the DocNumber QuickBooks keeps and the total', () => {
		const bill = quickBooksBillItem({ invoice_no: 'INV-2026-0000000000001-A' });
		const row = quickBooksRow({ DocNumber: 'INV-2026-000000000000' });
		expect(judgeCreated(bill, { Bill: row }, '56').verdict).toBe('created');
		const other = judgeCreated(bill, { Bill: row }, '57');
		expect(other.verdict).toBe('personDecides');
		expect(other.review_reason).toContain('its vendor is 56 (Acme Inc), not 57');
	});

	it('says the account was refused when the books refuse it (archived, deleted, inactive), naming it', () => {
		const xero = judgeCreated(xeroBillItem(), {
			error: {
				message:
					'400 - "{\\"Elements\\":[{\\"ValidationErrors\\":[{\\"Message\\":\\"Account code \'429\' has been archived, or has been deleted. Each line item must reference a valid account.\\"}]}]}"',
				httpCode: '400',
			},
		});
		expect(xero).toMatchObject({ verdict: 'accountRefused', refused_account: '429' });
		expect(xero.review_reason).toBe(
			"Xero refused the account 429: Account code '429' has been archived, or has been deleted. Each line item must reference a valid account.",
		);
		const quickBooks = judgeCreated(quickBooksBillItem(), {
			Fault: {
				type: 'ValidationFault',
				Error: [
					{
						Message: 'Invalid Reference Id',
						Detail:
							"Invalid Reference Id : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees.",
						code: '2500',
					},
				],
			},
		});
		expect(quickBooks.verdict).toBe('accountRefused');
		expect(quickBooks.refused_account).toBe(
			(
				quickBooksBillItem().bill as {
					Line: Array<{ AccountBasedExpenseLineDetail: { AccountRef: { value: string } } }>;
				}
			).Line[0].AccountBasedExpenseLineDetail.AccountRef.value,
		);
		// Any other refusal is not about the account.
		expect(
			accountRefusal({ error: { message: '400 - Duplicate Name Exists Error' } }, '7'),
		).toBeNull();
	});

	it('leaves an account refused again, once the account was asked again, to a person', () => {
		const archived = {
			error: {
				message:
					'400 - "{\\"Elements\\":[{\\"ValidationErrors\\":[{\\"Message\\":\\"Account code \'408\' has been archived, or has been deleted.\\"}]}]}"',
			},
		};
		expect(judgeCreated(xeroBillItem(), archived).verdict).toBe('accountRefused');
		const again = judgeCreated(xeroBillItem(), archived, undefined, true);
		expect(again).toMatchObject({ verdict: 'personDecides', refused_account: '408' });
		expect(again.review_reason).toContain('Xero refused the account 408');
		expect(again.review_reason).toContain('chosen again: a person decides');
	});

	it("calls any other refusal of the create the books' refusal, with their words, for a last try", () => {
		const xero = judgeCreated(xeroBillItem(), {
			error: { message: 'Bad request - please check your parameters', httpCode: '400' },
		});
		expect(xero).toMatchObject({
			verdict: 'booksRefused',
			review_reason: 'Xero refused the bill: Bad request - please check your parameters (HTTP 400)',
			books_bill: null,
		});
		const quickBooks = judgeCreated(quickBooksBillItem(), {
			Fault: {
				Error: [
					{ Message: 'Stale object', Detail: 'Stale Object Error : You and x', code: '5010' },
				],
			},
		});
		expect(quickBooks).toMatchObject({
			verdict: 'booksRefused',
			review_reason: 'QuickBooks refused the bill: Stale Object Error : You and x',
		});
		// An answer without a bill and without a refusal is not a refusal: a person decides.
		expect(judgeCreated(quickBooksBillItem(), {}).verdict).toBe('personDecides');
	});
});
