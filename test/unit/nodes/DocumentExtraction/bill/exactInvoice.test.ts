// The invoice in cents, checked to the cent, with reasons a person can act on.
import { describe, expect, it } from 'vitest';

import { exactInvoice } from '../../../../../nodes/DocumentExtraction/bill/exactInvoice.ts';

const invoice = {
	vendor: 'Acme',
	invoice_no: 'INV-1',
	invoice_date: '2026-11-02',
	subtotal: 100,
	tax: 19,
	total: 119,
	line_items: [
		{ description: 'A', quantity: 2, unit_price: 25, amount: 50 },
		{ description: 'Consulting, September', amount: 50 },
	],
};

describe('the exact invoice', () => {
	it('in cents, amount-only lines included', () => {
		const { exact, reasons } = exactInvoice(invoice);
		expect(reasons).toEqual([]);
		expect(exact).toMatchObject({
			creditNote: false,
			sign: 1,
			subtotal: 10000,
			tax: 1900,
			total: 11900,
		});
		expect(exact.lines.map((line) => line.cents)).toEqual([5000, 5000]);
	});

	it('a negative total is a credit note with the signs turned', () => {
		const { exact } = exactInvoice({
			...invoice,
			subtotal: -100,
			tax: -19,
			total: -119,
			line_items: [{ description: 'Refund', amount: -100 }],
		});
		expect(exact).toMatchObject({ creditNote: true, sign: -1, subtotal: 10000, total: 11900 });
	});

	it('reasons: a cent off, no lines, no vendor or number, a date not YYYY-MM-DD, more than 2 decimals', () => {
		expect(exactInvoice({ ...invoice, total: 119.01 }).reasons).toEqual([
			'the subtotal 100.00 plus tax 19.00 is not the total 119.01',
		]);
		expect(exactInvoice({ ...invoice, line_items: [] }).reasons).toContain(
			'the invoice has no lines',
		);
		expect(exactInvoice({ ...invoice, vendor: ' ', invoice_no: '' }).reasons).toEqual([
			'no vendor name',
			'no invoice number',
		]);
		expect(exactInvoice({ ...invoice, invoice_date: '02.11.2026' }).reasons).toEqual([
			'the date "02.11.2026" is not YYYY-MM-DD',
		]);
		expect(exactInvoice({ ...invoice, tax: 19.001, total: 119.001 }).reasons[0]).toBe(
			'the total (119.001) has more than 2 decimals',
		);
	});
});
