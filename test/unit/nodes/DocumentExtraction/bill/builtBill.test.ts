// The first step every target shares: identity, currency, exact amounts, reasons (currency first).
import { describe, expect, it } from 'vitest';

import { checkedInvoice } from '../../../../../nodes/DocumentExtraction/bill/builtBill.ts';

describe('the checked invoice', () => {
	it("names the document and its currency (null: the books' own), with the currency's reason first", () => {
		const checked = checkedInvoice(
			{ document_id: 'doc_1', vendor: 'Acme', invoice_no: 'A-1', currency: 'CHF', total: 5.001 },
			{ allowedCurrencies: 'EUR' },
		);
		expect(checked.base).toEqual({
			document_id: 'doc_1',
			vendor: 'Acme',
			invoice_no: 'A-1',
			currency: 'CHF',
		});
		expect(checked.reasons[0]).toBe('the books take EUR; this invoice is in CHF');
		expect(checked.reasons).toContain('the total (5.001) has more than 2 decimals');
		expect(checkedInvoice({}, {}).base).toEqual({
			document_id: null,
			vendor: null,
			invoice_no: null,
			currency: null,
		});
	});
});
