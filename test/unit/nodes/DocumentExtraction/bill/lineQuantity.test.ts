import { describe, expect, it } from 'vitest';

import { bookedQuantity } from '../../../../../nodes/DocumentExtraction/bill/lineQuantity.ts';

describe('bookedQuantity', () => {
	it('keeps quantity × unit price when it gives the amount to the cent', () => {
		expect(bookedQuantity(1250, 0.0372, 4650)).toEqual({ quantity: 1250, unitPrice: 0.0372 });
		expect(bookedQuantity(1, 0, 0)).toEqual({ quantity: 1, unitPrice: 0 });
		expect(bookedQuantity(null, 0, 0)).toEqual({ printed: 'unit price 0' });
	});

	it('books an amount-only line as 1 × the amount with nothing printed', () => {
		expect(bookedQuantity(null, null, 240000)).toEqual({ printed: '' });
		expect(bookedQuantity(undefined, undefined, 240000)).toEqual({ printed: '' });
	});

	it('derives the missing unit price when it is exact at 4 decimals', () => {
		expect(bookedQuantity(3, null, 3000)).toEqual({ quantity: 3, unitPrice: 10 });
		expect(bookedQuantity(8, null, 1)).toEqual({ printed: 'quantity 8' });
	});

	it('derives the missing quantity when it is exact at 4 decimals', () => {
		expect(bookedQuantity(null, 12.5, 3125)).toEqual({ quantity: 2.5, unitPrice: 12.5 });
		expect(bookedQuantity(null, -12.5, -2500)).toEqual({ quantity: 2, unitPrice: -12.5 });
	});

	it('keeps what was printed when the missing one would not be exact', () => {
		expect(bookedQuantity(3, null, 1000)).toEqual({ printed: 'quantity 3' });
		expect(bookedQuantity(null, 0.07, 100)).toEqual({ printed: 'unit price 0.07' });
	});

	it('keeps both in the text when the books would recompute another cent', () => {
		expect(bookedQuantity(3, 0.3316, 100)).toEqual({ printed: '3 × 0.3316' });
		expect(bookedQuantity(0, 5, 0)).toEqual({ printed: '0 × 5' });
		expect(bookedQuantity(1.00001, 5, 500)).toEqual({ printed: '1.00001 × 5' });
	});
});
