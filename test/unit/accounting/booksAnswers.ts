// The books' answers as they send them, for the judgement of a bill's lookup and create
// (bill/booksAnswer.ts): a bill in Xero's GET Invoices answer, a row of QuickBooks' query answer.

/** A bill as Xero's GET Invoices answers it. */
export function xeroInvoice(overrides: Record<string, unknown> = {}) {
	return {
		Type: 'ACCPAY',
		InvoiceID: '2f8e1d6a-0000-4000-8000-000000000001',
		InvoiceNumber: 'INV-1001',
		Contact: { ContactID: 'c-1', Name: 'Acme Inc' },
		Date: '/Date(1791158400000+0000)/',
		DateString: '2026-10-05T00:00:00',
		Status: 'AUTHORISED',
		CurrencyCode: 'EUR',
		Total: 46.5,
		...overrides,
	};
}

/** A bill as QuickBooks' query answers it. */
export function quickBooksRow(overrides: Record<string, unknown> = {}) {
	return {
		Id: '145',
		DocNumber: 'INV-1001',
		VendorRef: { value: '56', name: 'Acme Inc' },
		TxnDate: '2026-10-05',
		CurrencyRef: { value: 'EUR' },
		TotalAmt: 46.5,
		...overrides,
	};
}
