import { describe, expect, it } from 'vitest';

import { invoiceCurrency } from '../../../../../nodes/DocumentExtraction/invoice/invoiceCurrency.ts';
import { simplifyInvoice } from '../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';

describe('invoiceCurrency (N14)', () => {
	it.each([
		[{ currency: 'EUR' }, 'EUR'],
		[{ header: { currency: 'usd' } }, 'USD'],
		[{ amounts: { currency: ' GBP ' } }, 'GBP'],
		[{ currency: 'CHF', header: { currency: 'chf' } }, 'CHF'],
	])('%j -> %j, no problem', (extracted, currency) => {
		expect(invoiceCurrency(extracted)).toEqual({ currency, problem: null });
	});

	it.each([
		[null],
		[undefined],
		[{}],
		[{ currency: '' }],
		[{ currency: null, header: { currency: '  ' } }],
		['EUR'],
	])('nothing sent (%j): null, no problem', (extracted) => {
		expect(invoiceCurrency(extracted)).toEqual({ currency: null, problem: null });
	});

	it.each([
		[{ currency: '€' }, '"€"'],
		[{ header: { currency: 'US$' } }, '"US$"'],
		[{ currency: 'EURO' }, '"EURO"'],
		[{ amounts: { currency: 978 } }, '978'],
	])('an unreadable currency %j: null, and a problem naming it', (extracted, shown) => {
		const { currency, problem } = invoiceCurrency(extracted);
		expect(currency).toBeNull();
		expect(problem).toContain(`The currency ${shown} is not a three-letter code`);
		expect(problem).toMatch(/by hand/);
	});

	it('two different currencies: null, and a problem naming both', () => {
		const { currency, problem } = invoiceCurrency({
			currency: 'EUR',
			amounts: { currency: 'USD' },
		});
		expect(currency).toBeNull();
		expect(problem).toContain('more than one currency (EUR, USD)');
	});

	it('simplifyInvoice carries it as `currency`', () => {
		expect(simplifyInvoice({ header: { vendor: 'A', currency: 'eur' } }).currency).toBe('EUR');
		expect(simplifyInvoice({ header: { vendor: 'A' } }).currency).toBeNull();
	});
});
