import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
	computeSignature,
	signatureHeader,
	verifySignature,
} from '../../../../../nodes/DocumentExtraction/delivery/signature.ts';

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fake secret, for tests only
const SECRET = 'whsec_test_1234567890';
const BODY =
	'{"event":"document.verified","document_id":"doc_abc","data":{"amounts":{"total":297.5}}}';
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
	it.each(['X-Service-Signature', 'x-service-signature', 'X-SERVICE-SIGNATURE'])(
		'finds %s',
		(name) => {
			expect(
				signatureHeader(
					{ 'content-type': 'application/json', [name]: GOOD },
					'x-service-signature',
				),
			).toBe(GOOD);
		},
	);

	it('takes the first of an array; ignores non-strings and absence', () => {
		expect(signatureHeader({ 'x-service-signature': [GOOD, 'b'] }, 'X-Service-Signature')).toBe(
			GOOD,
		);
		expect(signatureHeader({ 'x-service-signature': 42 }, 'x-service-signature')).toBeUndefined();
		expect(signatureHeader({ 'x-service-signature': [1] }, 'x-service-signature')).toBeUndefined();
		expect(signatureHeader({ 'x-other': GOOD }, 'x-service-signature')).toBeUndefined();
	});
});
