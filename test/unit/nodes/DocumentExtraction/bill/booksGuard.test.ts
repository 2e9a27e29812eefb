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
		expect(idempotencyKeys('xero', { ...invoice, vendor: ' acme  ltd.' }, WRITES)).toEqual(keys);
		expect(idempotencyKeys('xero', { ...invoice, invoice_no: 'inv-0042 ' }, WRITES)).toEqual(keys);
		for (const other of [
			{ ...invoice, invoice_no: 'INV-0043' },
			{ ...invoice, vendor: 'Globex' },
			{ ...invoice, creditNote: true },
		])
			expect(idempotencyKeys('xero', other, WRITES).bill).not.toBe(keys.bill);
		expect(idempotencyKeys('quickBooks', invoice, WRITES).bill).not.toBe(keys.bill);
	});

	it('keeps two legal entities with one number apart: legal forms and "&"/"and" are not dropped', () => {
		const pairs = [
			['Acme Inc', 'ACME GmbH'],
			['Smith & Co', 'Smith'],
			['Smith & Co', 'Smith and Co'],
			['ACME Ltd.', 'Acme Limited'],
		];
		for (const [one, other] of pairs)
			expect(
				idempotencyKeys('xero', { ...invoice, vendor: one, invoice_no: '1001' }, WRITES).bill,
				`${one} / ${other}`,
			).not.toBe(
				idempotencyKeys('xero', { ...invoice, vendor: other, invoice_no: '1001' }, WRITES).bill,
			);
	});

	it('keeps numbers apart that differ in separators or leading zeros', () => {
		expect(idempotencyKeys('xero', { ...invoice, invoice_no: 'INV 42' }, WRITES).bill).not.toBe(
			idempotencyKeys('xero', invoice, WRITES).bill,
		);
	});

	it('is scoped to the organisation: one invoice in two Xero tenants or QuickBooks companies, two keys', () => {
		for (const target of ['xero', 'quickBooks'] as const) {
			const one = idempotencyKeys(target, { ...invoice, organisation: 'org-1' }, WRITES).bill;
			expect(idempotencyKeys(target, { ...invoice, organisation: ' org-1 ' }, WRITES).bill).toBe(
				one,
			);
			expect(idempotencyKeys(target, { ...invoice, organisation: 'org-2' }, WRITES).bill).not.toBe(
				one,
			);
			expect(idempotencyKeys(target, invoice, WRITES).bill).not.toBe(one);
		}
	});

	it('cannot be made equal by moving text between the parts', () => {
		expect(
			idempotencyKeys(
				'xero',
				{ organisation: 'a', vendor: 'b|c', invoice_no: '1', creditNote: false },
				WRITES,
			).bill,
		).not.toBe(
			idempotencyKeys(
				'xero',
				{ organisation: 'a|b', vendor: 'c', invoice_no: '1', creditNote: false },
				WRITES,
			).bill,
		);
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
	const lookup = { creditNote: false, docNumber: "O'Brien\\7" };

	it('asks for bills or vendor credits by number, quotes and backslashes escaped, one page at a time', () => {
		expect(quickBooksLookupQuery(lookup)).toBe(
			"select * from Bill where DocNumber = 'O\\'Brien\\\\7' STARTPOSITION 1 MAXRESULTS 1000",
		);
		expect(quickBooksLookupQuery({ creditNote: true, docNumber: 'CN-1', page: 3 })).toBe(
			"select * from VendorCredit where DocNumber = 'CN-1' STARTPOSITION 2001 MAXRESULTS 1000",
		);
	});

	it("filters by the vendor's VendorRef when it is known", () => {
		expect(quickBooksLookupQuery({ ...lookup, docNumber: 'A-1', vendorId: '56' })).toBe(
			"select * from Bill where DocNumber = 'A-1' and VendorRef = '56' STARTPOSITION 1 MAXRESULTS 1000",
		);
	});

	it('asks by the 21 characters QuickBooks keeps of a longer number', () => {
		expect(
			quickBooksLookupQuery({ creditNote: false, docNumber: 'INV-2026-0000000000001-A' }),
		).toBe(
			"select * from Bill where DocNumber = 'INV-2026-000000000000' STARTPOSITION 1 MAXRESULTS 1000",
		);
	});
});
