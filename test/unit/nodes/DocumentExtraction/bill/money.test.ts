// Money to the cent (bill/money.ts): decimals as written, lines as the books round them, tax
// spread to the cent; and extracted amounts compared within a cent, plus floating-point noise.
import { describe, expect, it } from 'vitest';

import {
	centsOf,
	decimalsOf,
	fromCents,
	lineCentsOf,
	moneyText,
	spreadTax,
	withinACent,
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

describe('withinACent', () => {
	it('equal amounts', () => {
		expect(withinACent(0, 0)).toBe(true);
		expect(withinACent(1487.5, 1487.5)).toBe(true);
		expect(withinACent(0, -0)).toBe(true);
	});

	it('floating-point sums that are exact on paper', () => {
		expect(0.1 + 0.2).not.toBe(0.3);
		expect(withinACent(0.1 + 0.2, 0.3)).toBe(true);
		expect(withinACent(1500 + 285, 1785)).toBe(true);
		expect(withinACent(1250 * 0.2, 250)).toBe(true);
		expect(withinACent(3 * 33.33, 99.99)).toBe(true);
	});

	it('exactly one cent apart is within, although the difference in floating point is a little over 0.01', () => {
		expect(100.01 - 100).toBeGreaterThan(0.01);
		expect(withinACent(100, 100.01)).toBe(true);
		expect(withinACent(1487.49, 1487.5)).toBe(true);
		expect(withinACent(0, 0.01)).toBe(true);
		expect(withinACent(10_000_000.01, 10_000_000)).toBe(true);
	});

	it('the tolerance is one cent plus 1e-9: just inside and just outside', () => {
		expect(withinACent(0, 0.010000001)).toBe(true);
		expect(withinACent(0, 0.0100000011)).toBe(false);
	});

	it('more than a cent apart is not within', () => {
		expect(withinACent(0, 0.011)).toBe(false);
		expect(withinACent(100, 100.02)).toBe(false);
		expect(withinACent(1487.48, 1487.5)).toBe(false);
		expect(withinACent(1785, 1784.98)).toBe(false);
		expect(withinACent(1, 2)).toBe(false);
	});

	it('is symmetric', () => {
		for (const [a, b] of [
			[100, 100.01],
			[100, 100.02],
			[0.1 + 0.2, 0.3],
			[-5, 5],
		]) {
			expect(withinACent(a, b)).toBe(withinACent(b, a));
		}
	});

	it('negative amounts (credit notes) and amounts across zero', () => {
		expect(withinACent(-5, -5.01)).toBe(true);
		expect(withinACent(-5, -5.02)).toBe(false);
		expect(withinACent(-0.005, 0.005)).toBe(true);
		expect(withinACent(-0.01, 0.01)).toBe(false);
		expect(withinACent(-100, 100)).toBe(false);
	});

	it('very large amounts: one step between doubles can be more than a cent', () => {
		// At 1e15 neighbouring doubles are 0.125 apart: a difference of one step is more than a cent.
		expect(withinACent(1e15, 1e15 + 0.125)).toBe(false);
		// 1e15 + 0.005 rounds to 1e15 itself.
		expect(withinACent(1e15, 1e15 + 0.005)).toBe(true);
	});

	it('non-finite amounts are never within a cent, not even of themselves', () => {
		expect(withinACent(Number.NaN, Number.NaN)).toBe(false);
		expect(withinACent(Number.NaN, 0)).toBe(false);
		expect(withinACent(0, Number.NaN)).toBe(false);
		expect(withinACent(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)).toBe(false);
		expect(withinACent(Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY)).toBe(false);
		expect(withinACent(Number.POSITIVE_INFINITY, 1e308)).toBe(false);
		expect(withinACent(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)).toBe(false);
	});
});
