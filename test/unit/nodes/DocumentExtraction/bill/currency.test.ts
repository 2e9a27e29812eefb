// The currency a bill is booked in (N42).
import { describe, expect, it } from 'vitest';

import { billCurrency } from '../../../../../nodes/DocumentExtraction/bill/currency.ts';

describe('the currency of a bill', () => {
	it("an invoice that names none is booked in the books' own currency (none in the request), not in a default", () => {
		expect(billCurrency(null, {})).toEqual({ code: null });
		expect(billCurrency('', { allowedCurrencies: 'EUR, USD' })).toEqual({ code: null });
	});

	it('an invoice that names one keeps it, whatever the setting', () => {
		expect(billCurrency('gbp', { currency: 'EUR' })).toEqual({ code: 'GBP' });
	});

	it('the Currency setting, when set, books an invoice that names none, whatever Allowed Currencies says', () => {
		expect(billCurrency(undefined, { currency: ' chf ' })).toEqual({ code: 'CHF' });
		expect(billCurrency(null, { currency: 'CAD', allowedCurrencies: 'EUR, USD' })).toEqual({
			code: 'CAD',
		});
	});

	it('only currencies the books take; a malformed code is a reason', () => {
		expect(billCurrency('JPY', { allowedCurrencies: 'EUR; USD,GBP' })).toEqual({
			code: 'JPY',
			reason: 'the books take EUR, USD, GBP; this invoice is in JPY',
		});
		expect(billCurrency('Euro', {}).reason).toBe('the currency "Euro" is not a 3-letter code');
		expect(billCurrency(null, { currency: '€' }).reason).toBe(
			'the Currency setting "€" is not a 3-letter code',
		);
	});
});
