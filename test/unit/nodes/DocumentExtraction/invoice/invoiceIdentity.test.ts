import { describe, expect, it } from 'vitest';
import {
	describeMatch,
	invoiceIdentity,
	normaliseInvoiceNumber,
	normaliseVendor,
} from '../../../../../nodes/DocumentExtraction/invoice/invoiceIdentity.ts';

describe('normaliseVendor', () => {
	it.each([
		['Café Müller & Söhne GmbH', 'cafe muller and sohne'],
		['CAFE MULLER AND SOHNE', 'cafe muller and sohne'],
		['Acme Supplies GmbH', 'acme supplies'],
		['ACME Supplies', 'acme supplies'],
		['Acme Ltd.', 'acme'],
		['Acme Limited', 'acme'],
		['Acme, Inc.', 'acme'],
		['Müller GmbH & Co. KG', 'muller'],
		['Straße AG', 'strasse'],
		['Limited Editions Ltd', 'limited editions'],
		['  Globex   Corporation ', 'globex'],
	])('%s → %s', (vendor, normalised) => {
		expect(normaliseVendor(vendor)).toBe(normalised);
	});

	it('keeps a name that is only a legal form, and has nothing for no name', () => {
		expect(normaliseVendor('Inc')).toBe('inc');
		expect(normaliseVendor('')).toBeNull();
		expect(normaliseVendor(null)).toBeNull();
		expect(normaliseVendor('—')).toBeNull();
	});

	it('tells different vendors apart', () => {
		expect(normaliseVendor('Acme Supplies GmbH')).not.toBe(normaliseVendor('Acme Tools GmbH'));
	});
});

describe('normaliseInvoiceNumber', () => {
	it.each([
		['INV-2026-0042', 'INV 2026 42'],
		['inv 2026/42', 'INV 2026 42'],
		['INV.2026.00042', 'INV 2026 42'],
		['0007', '7'],
		['000', '0'],
	])('%s → %s', (number, normalised) => {
		expect(normaliseInvoiceNumber(number)).toBe(normalised);
	});

	it('keeps different numbers apart', () => {
		expect(normaliseInvoiceNumber('INV-2026-0042')).not.toBe(
			normaliseInvoiceNumber('INV-2026-0043'),
		);
		expect(normaliseInvoiceNumber('')).toBeNull();
		expect(normaliseInvoiceNumber('--')).toBeNull();
	});
});

describe('invoiceIdentity', () => {
	it('is the same for one invoice written two ways, the total in exact cents', () => {
		const a = invoiceIdentity({
			vendor: 'Acme Supplies GmbH',
			invoice_no: 'INV-2026-0042',
			total: 0.1 + 0.2,
		});
		const b = invoiceIdentity({ vendor: 'ACME SUPPLIES', invoice_no: 'inv 2026/42', total: 0.3 });
		expect(a).not.toBeNull();
		expect(a).toEqual(b);
		expect(a!.total_cents).toBe(30);
		expect(describeMatch(a!)).toBe(
			'same vendor ("acme supplies"), same invoice number ("INV 2026 42") and total 0.30',
		);
	});

	it('differs when the vendor, the number or the total differ', () => {
		const base = { vendor: 'Acme Supplies GmbH', invoice_no: 'INV-1', total: 10 };
		const key = invoiceIdentity(base)!.key;
		expect(invoiceIdentity({ ...base, vendor: 'Globex' })!.key).not.toBe(key);
		expect(invoiceIdentity({ ...base, invoice_no: 'INV-2' })!.key).not.toBe(key);
		expect(invoiceIdentity({ ...base, total: 10.01 })!.key).not.toBe(key);
	});

	it('has no identity without a vendor or an invoice number', () => {
		expect(invoiceIdentity({ vendor: null, invoice_no: 'INV-1', total: 1 })).toBeNull();
		expect(invoiceIdentity({ vendor: 'Acme', invoice_no: null, total: 1 })).toBeNull();
		expect(
			invoiceIdentity({ vendor: 'Acme', invoice_no: 'INV-1', total: null })!.total_cents,
		).toBeNull();
	});

	it('reads totals by their decimals', () => {
		const identity = (total: number) =>
			invoiceIdentity({ vendor: 'Acme', invoice_no: 'INV-1', total })!.total_cents;
		expect(identity(1487.5)).toBe(148750);
		expect(identity(Number.NaN)).toBeNull();
	});
});
