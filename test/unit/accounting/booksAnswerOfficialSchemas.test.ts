// The answers the books' judgement reads (bill/booksAnswer.ts), against the books' official
// descriptions (../shared/reference/): Xero's Invoices and CreditNotes (the lookup's and the
// create's answer), every field read and status judged among Xero's own; every key of a QuickBooks
// row an element of Intuit's Bill or VendorCredit. Each validator is first shown to refuse a wrong one.
import { describe, expect, it } from 'vitest';

import { quickBooksRow, xeroInvoice } from './booksAnswers.ts';
import { hasReference, unknownQuickBooksKeys, xeroSchemaValidator } from './officialSchemas.ts';

describe.skipIf(!hasReference)(
	"The books' answers the judgement reads, against the official schemas",
	() => {
		it("Xero: bills and credit notes as the judgement reads them are valid Invoices and CreditNotes, the statuses it judges Xero's", () => {
			const invoices = xeroSchemaValidator('Invoices');
			const creditNotes = xeroSchemaValidator('CreditNotes');
			expect(invoices({ Invoices: [xeroInvoice({ Status: 'CANCELLED' })] })).toBe(false);
			expect(invoices({ Invoices: [xeroInvoice({ Total: 'many' })] })).toBe(false);
			for (const status of ['DRAFT', 'SUBMITTED', 'AUTHORISED', 'PAID', 'VOIDED', 'DELETED'])
				expect(
					invoices({ Invoices: [xeroInvoice({ Status: status })] }),
					JSON.stringify(invoices.errors),
				).toBe(true);
			const credit = {
				...xeroInvoice({ Type: 'ACCPAYCREDIT', InvoiceID: undefined, InvoiceNumber: undefined }),
				CreditNoteID: 'cn-1',
				CreditNoteNumber: 'INV-1001',
			};
			expect(creditNotes({ CreditNotes: [credit] }), JSON.stringify(creditNotes.errors)).toBe(true);
		}, 30_000);

		it("QuickBooks: every key of the rows the judgement reads is an element of Intuit's Bill and VendorCredit", () => {
			expect(unknownQuickBooksKeys({ ...quickBooksRow(), Total: 1 }, 'Bill')).toEqual([
				'Bill.Total',
			]);
			const voided = quickBooksRow({ TotalAmt: 0, PrivateNote: 'Voided' });
			for (const type of ['Bill', 'VendorCredit'])
				for (const row of [quickBooksRow(), voided])
					expect(unknownQuickBooksKeys(row, type), type).toEqual([]);
		});
	},
);
