// Money compared at the precision of an invoice: within one cent, plus floating-point noise.
import { describe, expect, it } from 'vitest';

import { withinACent } from '../../../../../nodes/DocumentExtraction/invoice/cents.ts';

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
