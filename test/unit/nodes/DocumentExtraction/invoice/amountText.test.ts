import { describe, expect, it } from 'vitest';

import {
	amountText,
	quantityText,
} from '../../../../../nodes/DocumentExtraction/invoice/amountText.ts';

describe('amountText', () => {
	it.each([
		[1487.5, '1,487.50'],
		[0, '0.00'],
		[-1487.5, '-1,487.50'],
		[1234567.891, '1,234,567.891'],
		[0.0372, '0.0372'],
		[999, '999.00'],
		[1000, '1,000.00'],
		[0.1 + 0.2, '0.30'],
		[1.005, '1.005'],
		[1e-7, '0.0000001'],
	])('%s -> %s', (value, expected) => {
		expect(amountText(value)).toBe(expected);
	});
});

describe('quantityText', () => {
	it.each([
		[50, '50'],
		[2.5, '2.5'],
		[1000, '1,000'],
		[-3, '-3'],
		[0.1 + 0.2, '0.3'],
	])('%s -> %s', (value, expected) => {
		expect(quantityText(value)).toBe(expected);
	});
});
