import type { IDataObject } from 'n8n-workflow';

/** `value` when it is a JSON object (not null, not an array); otherwise undefined. */
export function jsonObject(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** `value`'s fields to read from: {} when it is not a JSON object, so a missing field reads as undefined. */
export function fieldsOf(value: unknown): IDataObject {
	return jsonObject(value) ?? {};
}

/** A value that was sent: not undefined, null or blank text. */
export function isPresent(value: unknown): boolean {
	return (
		value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '')
	);
}

/** What `jsonParameter` gives for typed text that is not JSON. */
export const NOT_JSON = Symbol('not JSON');

/** A JSON parameter's value as n8n gives it: an expression's value as is, typed text parsed (blank: null). */
export function jsonParameter(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return null;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return NOT_JSON;
	}
}
