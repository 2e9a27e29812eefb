// What QuickBooks' answer about a bill's vendor means: found (its Id), missing (create it), or a
// person decides (the vendor exists in another currency, or QuickBooks refused the question).
import { describe, expect, it } from 'vitest';

import { judgeVendor } from '../../../../../nodes/DocumentExtraction/bill/vendorAnswer.ts';

const bill = { vendor_name: 'Acme <b>Inc</b>', currency: 'EUR' };
const vendor = (overrides: Record<string, unknown> = {}) => ({
	Id: '56',
	DisplayName: 'Acme <b>Inc</b>',
	CurrencyRef: { value: 'EUR' },
	...overrides,
});

describe('judgeVendor', () => {
	it("finds the vendor in the query's answer or in the create's, by its Id", () => {
		expect(judgeVendor(bill, { QueryResponse: { Vendor: [vendor()] } })).toEqual({
			verdict: 'found',
			vendor_id: '56',
			review_reason: null,
		});
		expect(judgeVendor(bill, { Vendor: vendor({ Id: 57 }) })).toMatchObject({
			verdict: 'found',
			vendor_id: '57',
		});
	});

	it('is missing when the query finds none', () => {
		expect(judgeVendor(bill, { QueryResponse: {} }).verdict).toBe('missing');
		expect(judgeVendor(bill, { QueryResponse: { Vendor: [] } }).verdict).toBe('missing');
	});

	it('leaves a vendor still missing after its create was asked to a person: no create again, no loop', () => {
		// QuickBooks refuses a name an inactive vendor holds, and its query does not find inactive ones.
		expect(judgeVendor(bill, { QueryResponse: {} }, true)).toEqual({
			verdict: 'personDecides',
			vendor_id: null,
			review_reason:
				'QuickBooks refused to create the vendor "Acme <b>Inc</b>" and finds no active vendor with that name: an inactive vendor may hold it (make it active, or rename one of them)',
		});
		expect(judgeVendor(bill, { QueryResponse: { Vendor: [vendor()] } }, true).verdict).toBe(
			'found',
		);
	});

	it('leaves a vendor in another currency to a person, saying what to do, the name as text', () => {
		const judged = judgeVendor(bill, {
			QueryResponse: { Vendor: [vendor({ CurrencyRef: { value: 'USD' } })] },
		});
		expect(judged).toEqual({
			verdict: 'personDecides',
			vendor_id: null,
			review_reason:
				'the vendor "Acme <b>Inc</b>" exists in QuickBooks in USD, this invoice is in EUR: a QuickBooks vendor has one currency (create a vendor for EUR and post it by hand, or correct the invoice)',
		});
		expect(judgeVendor(bill, { Vendor: vendor({ CurrencyRef: undefined }) }).verdict).toBe(
			'personDecides',
		);
	});

	it('leaves a refused question to a person, never creating the vendor', () => {
		const judged = judgeVendor(bill, { error: { message: 'Unauthorized', httpCode: '401' } });
		expect(judged.verdict).toBe('personDecides');
		expect(judged.review_reason).toBe(
			"QuickBooks refused the vendor's lookup: Unauthorized (HTTP 401)",
		);
	});
});
