// The one home of "is this a JSON object" (a service answer, a delivery body, an extracted field).
import { describe, expect, it } from 'vitest';

import { fieldsOf, jsonObject } from '../../../../nodes/DocumentExtraction/jsonObject.ts';

describe('jsonObject / fieldsOf', () => {
	it('an object is itself for both', () => {
		const value = { total: 10.5, header: { vendor: 'Acme' } };
		expect(jsonObject(value)).toBe(value);
		expect(fieldsOf(value)).toBe(value);
	});

	it.each([
		['null', null],
		['undefined', undefined],
		['an array', [{ total: 1 }]],
		['a string', '{"total":1}'],
		['a number', 42],
		['a boolean', true],
	])('%s is no object: undefined, and no fields ({})', (_case, value) => {
		expect(jsonObject(value)).toBeUndefined();
		expect(fieldsOf(value)).toEqual({});
	});
});
