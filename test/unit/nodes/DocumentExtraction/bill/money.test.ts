// Money in whole cents (bill/money.ts): decimals as written, lines as the books round them, tax
// spread to the cent.
import { describe, expect, it } from 'vitest';

import {
	centsOf,
	decimalsOf,
	fromCents,
	lineCentsOf,
	moneyText,
	spreadTax,
} from '../../../../../nodes/DocumentExtraction/bill/money.ts';
import { prng } from '../../../accounting/generatedInvoices.ts';

describe('money', () => {
	it('counts decimals as written, exponents included', () => {
		expect([decimalsOf(12), decimalsOf(12.5), decimalsOf(0.0372), decimalsOf(1.5e-7)]).toEqual([
			0, 1, 4, 8,
		]);
	});

	it('cents of an amount, or why not', () => {
		expect(centsOf(1487.5, 'the total')).toEqual({ cents: 148750 });
		expect(centsOf(-0.07, 'the tax')).toEqual({ cents: -7 });
		expect(centsOf(1.005, 'the tax')).toEqual({
			problem: 'the tax (1.005) has more than 2 decimals',
		});
		expect(centsOf('12.50', 'the total')).toEqual({ problem: 'the total is not a number' });
		expect(centsOf(Number.NaN, 'the total').problem).toBe('the total is not a number');
		expect([fromCents(148750), moneyText(-7)]).toEqual([1487.5, '-0.07']);
	});

	it('a line: quantity × unit price rounded half away from zero, exactly', () => {
		expect(lineCentsOf(1250, 0.0372)).toBe(4650);
		expect(lineCentsOf(3, 0.005)).toBe(2); // 1.5 cents → 2
		expect(lineCentsOf(-3, 0.005)).toBe(-2);
		expect(lineCentsOf(0.3333, 3)).toBe(100); // 0.9999 → 1.00
	});

	it('the tax shares always add up to the tax, each within a cent of its exact share (2,000 random cases)', () => {
		const random = prng(42);
		for (let round = 0; round < 2000; round++) {
			const lines = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
				Math.round((random() - 0.15) * 100_000),
			);
			const tax = Math.round(random() * 30_000);
			const shares = spreadTax(tax, lines);
			const subtotal = lines.reduce((sum, value) => sum + value, 0);
			expect(shares.reduce((sum, value) => sum + value, 0)).toBe(tax);
			if (subtotal !== 0)
				for (const [index, share] of shares.entries())
					expect(Math.abs(share - (tax * lines[index]) / subtotal)).toBeLessThan(1);
		}
	});

	it('no subtotal: the whole tax on the first line', () => {
		expect(spreadTax(500, [100, -100])).toEqual([500, 0]);
	});
});
