// The books' own guard against a second bill: one key per invoice and write within both APIs'
// limits, the same for a re-scan of the invoice; one vendor-create key per QuickBooks vendor; and
// lookups whose quoting survives any supplier text.
import { describe, expect, it } from 'vitest';

import {
	IDEMPOTENCY_KEY_MAX,
	idempotencyKeys,
	quickBooksLookupQuery,
	vendorIdempotencyKey,
	xeroLookupWhere,
} from '../../../../../nodes/DocumentExtraction/bill/booksGuard.ts';
import { xeroWhereConditions } from '../../../../../local-n8n/accounting/xeroStandIn.ts';

const invoice = { vendor: 'ACME Ltd.', invoice_no: 'INV-0042', creditNote: false };
const WRITES = ['vendor', 'bill', 'attachment', 'history'] as const;

describe('idempotencyKeys', () => {
	it('gives a re-scan of the same invoice the same keys, another invoice other keys', () => {
		const keys = idempotencyKeys('xero', invoice, WRITES);
		expect(idempotencyKeys('xero', { ...invoice, vendor: 'Acme Limited' }, WRITES)).toEqual(keys);
		expect(idempotencyKeys('xero', { ...invoice, invoice_no: 'inv 42' }, WRITES)).toEqual(keys);
		for (const other of [
			{ ...invoice, invoice_no: 'INV-0043' },
			{ ...invoice, vendor: 'Globex' },
			{ ...invoice, creditNote: true },
		])
			expect(idempotencyKeys('xero', other, WRITES).bill).not.toBe(keys.bill);
		expect(idempotencyKeys('quickBooks', invoice, WRITES).bill).not.toBe(keys.bill);
	});

	it("gives each write its own key, within QuickBooks' 50 characters (Xero takes 128)", () => {
		const keys = Object.values(idempotencyKeys('quickBooks', invoice, WRITES));
		expect(new Set(keys).size).toBe(WRITES.length);
		for (const key of keys) {
			expect(key.length).toBeLessThanOrEqual(IDEMPOTENCY_KEY_MAX);
			expect(key).toMatch(/^[a-z0-9-]+$/);
		}
	});
});

describe('vendorIdempotencyKey', () => {
	const acme = { company: '9130', displayName: 'Acme Inc', currency: 'EUR' };

	it('is one key for every invoice of one vendor in one company, whatever their numbers', () => {
		const key = vendorIdempotencyKey(acme);
		expect(key).toMatch(/^de-[0-9a-f]{32}-vendor$/);
		expect(key.length).toBeLessThanOrEqual(IDEMPOTENCY_KEY_MAX);
		// QuickBooks compares display names trimmed and without regard to case.
		expect(vendorIdempotencyKey({ ...acme, displayName: '  ACME INC ' })).toBe(key);
		expect(vendorIdempotencyKey({ ...acme, company: ' 9130 ', currency: 'eur' })).toBe(key);
	});

	it('keeps two legal entities, two companies and two currencies apart', () => {
		const key = vendorIdempotencyKey(acme);
		for (const other of [
			{ ...acme, displayName: 'ACME GmbH' },
			{ ...acme, displayName: 'Acme' },
			{ ...acme, company: '9131' },
			{ ...acme, currency: 'USD' },
			{ ...acme, currency: null },
			{ displayName: 'Acme Inc', currency: 'EUR' },
		])
			expect(vendorIdempotencyKey(other), JSON.stringify(other)).not.toBe(key);
	});

	it('cannot be made equal by moving text between the company and the name', () => {
		expect(vendorIdempotencyKey({ company: 'a|b', displayName: 'c' })).not.toBe(
			vendorIdempotencyKey({ company: 'a', displayName: 'b|c' }),
		);
	});

	it('is per name and currency only when no company is given', () => {
		expect(vendorIdempotencyKey({ displayName: 'Acme Inc', currency: 'EUR' })).toBe(
			vendorIdempotencyKey({ company: '', displayName: 'acme inc', currency: 'EUR' }),
		);
	});

	it('is not the key of any invoice write', () => {
		const invoiceKeys = Object.values(
			idempotencyKeys('quickBooks', { vendor: 'Acme Inc', invoice_no: '1', creditNote: false }, [
				'vendor',
				'bill',
			]),
		);
		expect(invoiceKeys).not.toContain(vendorIdempotencyKey({ displayName: 'Acme Inc' }));
	});
});

describe('xeroLookupWhere', () => {
	it('asks for the supplier and the number, quoted so that any text reads back as itself', () => {
		const name = 'Quote "Q" \\ Backslash AND Type=="ACCREC" Ltd';
		const number = 'INV "7" \\ 1';
		expect(xeroWhereConditions(xeroLookupWhere(false, name, number))).toEqual([
			['Type', 'ACCPAY'],
			['Contact.Name', name],
			['InvoiceNumber', number],
		]);
		expect(xeroWhereConditions(xeroLookupWhere(true, 'A', '1'))).toEqual([
			['Type', 'ACCPAYCREDIT'],
			['Contact.Name', 'A'],
			['CreditNoteNumber', '1'],
		]);
	});
});

describe('quickBooksLookupQuery', () => {
	it('asks for bills or vendor credits by number, quotes and backslashes escaped', () => {
		expect(quickBooksLookupQuery(false, "O'Brien\\7")).toBe(
			"select * from Bill where DocNumber = 'O\\'Brien\\\\7'",
		);
		expect(quickBooksLookupQuery(true, 'CN-1')).toBe(
			"select * from VendorCredit where DocNumber = 'CN-1'",
		);
	});
});
