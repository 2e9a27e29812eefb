import { describe, expect, it } from 'vitest';

import { addDays, oneLine, shorten } from '../../../../../nodes/DocumentExtraction/bill/text.ts';

describe('text for the books', () => {
	it('one line, single spaces; shortened with an ellipsis; dates moved by days', () => {
		expect(oneLine('  Acme\n Supplies\tGmbH ')).toBe('Acme Supplies GmbH');
		expect(oneLine(undefined)).toBe('');
		expect(shorten('abcdef', 4)).toBe('abc…');
		expect(shorten('abc', 4)).toBe('abc');
		expect(addDays('2026-12-15', 30)).toBe('2027-01-14');
		expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
	});
});
