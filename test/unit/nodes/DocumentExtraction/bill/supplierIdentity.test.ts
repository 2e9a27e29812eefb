// Who a supplier and which number an invoice is for the books' guards: two legal entities stay two.
import { describe, expect, it } from 'vitest';

import {
	invoiceNumberIdentity,
	supplierIdentity,
} from '../../../../../nodes/DocumentExtraction/bill/supplierIdentity.ts';

describe('supplierIdentity', () => {
	it('folds only case, whitespace and Unicode composition', () => {
		expect(supplierIdentity('  ACME   Inc ')).toBe('acme inc');
		expect(supplierIdentity('Cafe\u0301 Mu\u0308ller')).toBe(supplierIdentity('Café Müller'));
		expect(supplierIdentity('')).toBeNull();
		expect(supplierIdentity(null)).toBeNull();
	});

	it('keeps legal forms and "&"/"and": two legal entities are two suppliers', () => {
		const pairs = [
			['Acme Inc', 'ACME GmbH'],
			['Smith & Co', 'Smith'],
			['Smith & Co', 'Smith and Co'],
			['Acme Ltd.', 'Acme Limited'],
			['Müller', 'Muller'],
		];
		for (const [one, other] of pairs)
			expect(supplierIdentity(one), `${one} / ${other}`).not.toBe(supplierIdentity(other));
	});
});

describe('invoiceNumberIdentity', () => {
	it('is the whole number, one line and upper case', () => {
		expect(invoiceNumberIdentity(' inv-0042 ')).toBe('INV-0042');
		expect(invoiceNumberIdentity('INV-42')).not.toBe(invoiceNumberIdentity('INV-0042'));
		expect(invoiceNumberIdentity('A'.repeat(40))).toBe('A'.repeat(40));
	});

	it('is no number without a letter or digit', () => {
		for (const none of ['#', '/', ' - ', '', null]) expect(invoiceNumberIdentity(none)).toBeNull();
		expect(invoiceNumberIdentity('№ 7')).toBe('№ 7');
	});
});
