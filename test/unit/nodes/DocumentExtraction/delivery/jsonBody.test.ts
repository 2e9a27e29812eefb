// A delivery body read from the raw bytes that were signed: only a JSON object is a payload.
import { describe, expect, it } from 'vitest';

import { parseJsonObject } from '../../../../../nodes/DocumentExtraction/delivery/jsonBody.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('parseJsonObject', () => {
	it('gives back a JSON object with its nested values', () => {
		expect(
			parseJsonObject(
				bytes('{"event":"document.verified","confidence":{"final":1},"tags":["a"],"none":null}'),
			),
		).toEqual({
			event: 'document.verified',
			confidence: { final: 1 },
			tags: ['a'],
			none: null,
		});
	});

	it('gives back the empty object', () => {
		expect(parseJsonObject(bytes('{}'))).toEqual({});
	});

	it('accepts whitespace around the object (JSON allows it)', () => {
		expect(parseJsonObject(bytes(' \r\n\t{"a":1}\n '))).toEqual({ a: 1 });
	});

	it.each([
		['an array', '[{"a":1}]'],
		['the empty array', '[]'],
		['null', 'null'],
		['a number', '42'],
		['zero', '0'],
		['a string', '"{\\"a\\":1}"'],
		['true', 'true'],
		['false', 'false'],
	])('refuses %s (valid JSON, not an object)', (_case, text) => {
		expect(parseJsonObject(bytes(text))).toBeUndefined();
	});

	it.each([
		['truncated JSON', '{"a":1'],
		['a trailing comma', '{"a":1,}'],
		['single quotes', "{'a':1}"],
		['two objects', '{"a":1}{"b":2}'],
		['an object followed by text', '{"a":1} x'],
		['only whitespace', '   '],
	])('refuses %s without throwing', (_case, text) => {
		expect(parseJsonObject(bytes(text))).toBeUndefined();
	});

	it('refuses the empty body', () => {
		expect(parseJsonObject(Buffer.alloc(0))).toBeUndefined();
	});

	it('decodes UTF-8: multibyte characters (2, 3 and 4 bytes) come back intact', () => {
		const text = '{"vendor":"Müller & Søn – 東京 😀"}';
		const raw = bytes(text);
		expect(raw.length).toBeGreaterThan(text.length);
		expect(parseJsonObject(raw)).toEqual({ vendor: 'Müller & Søn – 東京 😀' });
	});

	it('decodes \\u escapes, including a surrogate pair', () => {
		expect(parseJsonObject(bytes('{"v":"\\u00fc\\ud83d\\ude00"}'))).toEqual({ v: 'ü😀' });
	});

	it('refuses a body that starts with a UTF-8 byte order mark (JSON.parse does not skip it)', () => {
		const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{"a":1}')]);
		expect(parseJsonObject(withBom)).toBeUndefined();
	});

	it('invalid UTF-8 inside a string is replaced (U+FFFD), the object is still read', () => {
		const raw = Buffer.concat([bytes('{"a":"'), Buffer.from([0xff]), bytes('"}')]);
		expect(parseJsonObject(raw)).toEqual({ a: '\uFFFD' });
	});

	it('keeps "__proto__" as an own key and does not change the prototype', () => {
		const parsed = parseJsonObject(bytes('{"__proto__":{"polluted":true}}'));
		expect(parsed).toBeDefined();
		expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(parsed, '__proto__')).toBe(true);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('a duplicated key keeps the last value', () => {
		expect(parseJsonObject(bytes('{"a":1,"a":2}'))).toEqual({ a: 2 });
	});
});
