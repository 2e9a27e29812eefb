import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { deliveryKey, MAX_REMEMBERED_DELIVERIES, rememberDelivery } from '../../../nodes/shared/deliveryDedupe.ts';
import { computeSignature, signatureHeader, verifySignature } from '../../../nodes/shared/signature.ts';

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fake secret, for tests only
const SECRET = 'whsec_test_1234567890';
const BODY = '{"event":"document.verified","document_id":"doc_abc","data":{"amounts":{"total":297.5}}}';
const GOOD = createHmac('sha256', SECRET).update(BODY).digest('hex');

describe('computeSignature (spec: lowercase hex HMAC-SHA256 of the raw body)', () => {
	it('matches a published HMAC-SHA256 test vector', () => {
		expect(computeSignature('The quick brown fox jumps over the lazy dog', 'key')).toBe(
			'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
		);
	});

	it('a Buffer and the same text sign alike; any byte changes it', () => {
		expect(computeSignature(Buffer.from(BODY), SECRET)).toBe(GOOD);
		expect(computeSignature(`${BODY} `, SECRET)).not.toBe(GOOD);
		expect(computeSignature(BODY, `${SECRET}x`)).not.toBe(GOOD);
	});
});

describe('verifySignature', () => {
	it('valid: the exact digest, for text or raw bytes, and the first of repeated headers', () => {
		expect(verifySignature(BODY, GOOD, SECRET)).toBe('valid');
		expect(verifySignature(Buffer.from(BODY), GOOD, SECRET)).toBe('valid');
		expect(verifySignature(BODY, [GOOD, 'ignored'], SECRET)).toBe('valid');
	});

	it.each([[undefined], [''], [[]]])('missing: %j', (header) => {
		expect(verifySignature(BODY, header as string | string[] | undefined, SECRET)).toBe('missing');
	});

	it.each([
		['uppercase hex', GOOD.toUpperCase()],
		['sha256= prefix', `sha256=${GOOD}`],
		['too short', GOOD.slice(0, 63)],
		['too long', `${GOOD}0`],
		['not hex', `${GOOD.slice(0, 63)}g`],
		['whitespace', ` ${GOOD}`],
	])('malformed: %s', (_label, header) => {
		expect(verifySignature(BODY, header, SECRET)).toBe('malformed');
	});

	it('mismatch: another secret, another body, one digit off', () => {
		expect(verifySignature(BODY, computeSignature(BODY, 'other'), SECRET)).toBe('mismatch');
		expect(verifySignature(BODY.replace('297.5', '297.6'), GOOD, SECRET)).toBe('mismatch');
		const oneOff = GOOD.slice(0, -1) + (GOOD.endsWith('0') ? '1' : '0');
		expect(verifySignature(BODY, oneOff, SECRET)).toBe('mismatch');
	});
});

describe('signatureHeader (compared case-insensitively)', () => {
	it.each(['X-Service-Signature', 'x-service-signature', 'X-SERVICE-SIGNATURE'])('finds %s', (name) => {
		expect(signatureHeader({ 'content-type': 'application/json', [name]: GOOD }, 'x-service-signature')).toBe(GOOD);
	});

	it('takes the first of an array; ignores non-strings and absence', () => {
		expect(signatureHeader({ 'x-service-signature': [GOOD, 'b'] }, 'X-Service-Signature')).toBe(GOOD);
		expect(signatureHeader({ 'x-service-signature': 42 }, 'x-service-signature')).toBeUndefined();
		expect(signatureHeader({ 'x-service-signature': [1] }, 'x-service-signature')).toBeUndefined();
		expect(signatureHeader({ 'x-other': GOOD }, 'x-service-signature')).toBeUndefined();
	});
});

describe('deliveryKey and rememberDelivery (spec: duplicates possible; N6)', () => {
	it('key = event:document_id; none without both', () => {
		expect(deliveryKey('document.verified', 'doc_1')).toBe('document.verified:doc_1');
		expect(deliveryKey('document.rejected', 'doc_1')).not.toBe(deliveryKey('document.verified', 'doc_1'));
		expect(deliveryKey('document.verified', '')).toBeUndefined();
		expect(deliveryKey(undefined, 'doc_1')).toBeUndefined();
		expect(deliveryKey('document.verified', 7)).toBeUndefined();
	});

	it('new once, then a duplicate; the list is changed in place', () => {
		const seen: string[] = [];
		expect(rememberDelivery(seen, 'a')).toBe(true);
		expect(rememberDelivery(seen, 'a')).toBe(false);
		expect(rememberDelivery(seen, 'b')).toBe(true);
		expect(seen).toEqual(['a', 'b']);
	});

	it('forgets the oldest beyond the limit', () => {
		const seen: string[] = [];
		for (const key of ['a', 'b', 'c', 'd']) rememberDelivery(seen, key, 3);
		expect(seen).toEqual(['b', 'c', 'd']);
		expect(rememberDelivery(seen, 'd', 3)).toBe(false);
		expect(rememberDelivery(seen, 'a', 3)).toBe(true);
		expect(seen).toEqual(['c', 'd', 'a']);
	});

	it('keeps 1000 keys by default', () => {
		const seen: string[] = [];
		for (let i = 0; i <= MAX_REMEMBERED_DELIVERIES; i++) rememberDelivery(seen, `k${i}`);
		expect(MAX_REMEMBERED_DELIVERIES).toBe(1000);
		expect(seen).toHaveLength(1000);
		expect(seen[0]).toBe('k1');
		expect(rememberDelivery(seen, 'k1000')).toBe(false);
		expect(rememberDelivery(seen, 'k0')).toBe(true);
	});

	it('a list that already holds more than the limit is trimmed at the next new key', () => {
		const seen = ['a', 'b', 'c', 'd', 'e'];
		expect(rememberDelivery(seen, 'f', 2)).toBe(true);
		expect(seen).toEqual(['e', 'f']);
	});
});
