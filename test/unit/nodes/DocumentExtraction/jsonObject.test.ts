// The one home of "is this a JSON object" (a service answer, a delivery body, an extracted field).
import { describe, expect, it } from 'vitest';

import {
	fieldsOf,
	jsonObject,
	jsonParameter,
	NOT_JSON,
} from '../../../../nodes/DocumentExtraction/jsonObject.ts';

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

describe('jsonParameter: a JSON parameter as n8n gives it', () => {
	it("an expression's value is taken as it is", () => {
		const rows = [{ state: 'booked' }];
		expect(jsonParameter(rows)).toBe(rows);
		expect(jsonParameter(undefined)).toBeUndefined();
	});

	it('typed text is parsed; blank text is null; text that is not JSON says so', () => {
		expect(jsonParameter('{"USD": 0.92}')).toEqual({ USD: 0.92 });
		expect(jsonParameter('  ')).toBeNull();
		expect(jsonParameter('{USD: 0.92}')).toBe(NOT_JSON);
	});
});
