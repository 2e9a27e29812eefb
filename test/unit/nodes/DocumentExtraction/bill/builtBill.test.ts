// The first step every target shares: identity, currency, exact amounts, reasons (currency first).
import { describe, expect, it } from 'vitest';

import { billBuilder } from '../../../../../nodes/DocumentExtraction/bill/builtBill.ts';

describe('the checked invoice, the first step of every target', () => {
	/** A target that books whatever passes the shared checks. */
	const build = billBuilder(() => ({ ready: true, json: {}, attach: false }));

	it("names the document and its currency (null: the books' own), with the currency's reason first", () => {
		const held = build(
			{ document_id: 'doc_1', vendor: 'Acme', invoice_no: 'A-1', currency: 'CHF', total: 5.001 },
			{ allowedCurrencies: 'EUR' },
		);
		expect(held.ready).toBe(false);
		expect(held.json).toMatchObject({
			document_id: 'doc_1',
			vendor: 'Acme',
			invoice_no: 'A-1',
			currency: 'CHF',
		});
		const reasons = String(held.json.review_reason);
		expect(reasons).toMatch(/^the books take EUR; this invoice is in CHF; /);
		expect(reasons).toContain('the total (5.001) has more than 2 decimals');
		expect(build({}, {}).json).toMatchObject({
			document_id: null,
			vendor: null,
			invoice_no: null,
			currency: null,
		});
	});

	it('cannot book an invoice whose number has no letter or digit, and says why', () => {
		for (const number of ['#', '/', '-']) {
			const held = build(
				{ document_id: 'doc_1', vendor: 'Acme', invoice_no: number, total: 5 },
				{},
			);
			expect(held.ready, number).toBe(false);
			expect(String(held.json.review_reason)).toContain(
				`the invoice number ("${number}") has no letter or digit`,
			);
		}
		expect(
			String(build({ vendor: 'Acme', invoice_no: '№ 7', total: 5 }, {}).json.review_reason),
		).not.toContain('no letter or digit');
	});
});
