/**
 * Webhook signature of the spec (Events > Signature): lowercase hex HMAC-SHA256 of the raw request
 * body, keyed with the registration's secret, compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Tells secrets apart in the trigger's records (static data, exported with the workflow). Its 32 bits
 * under a public key can confirm a guessed secret offline, which is harmless only because the secrets
 * are never guessable: the service's generated account secret or 32 random bytes
 * (docs/spec-decisions.md#n5).
 */
export function secretFingerprint(secret: string): string {
	return createHmac('sha256', 'document-extraction-trigger')
		.update(secret)
		.digest('hex')
		.slice(0, 8);
}

export function computeSignature(rawBody: Buffer | string, secret: string): string {
	return createHmac('sha256', secret).update(rawBody).digest('hex');
}

export type SignatureVerdict = 'valid' | 'missing' | 'malformed' | 'mismatch';

/**
 * Checks a received header value. Only the exact lowercase 64-hex form of the spec is valid:
 * prefixes ("sha256=") and uppercase hex are refused as malformed.
 */
export function verifySignature(
	rawBody: Buffer | string,
	received: string | string[] | undefined,
	secret: string,
): SignatureVerdict {
	const value = Array.isArray(received) ? received[0] : received;
	if (value === undefined || value === '') return 'missing';
	if (!HEX_SHA256.test(value)) return 'malformed';
	const expected = Buffer.from(computeSignature(rawBody, secret), 'hex');
	return timingSafeEqual(expected, Buffer.from(value, 'hex')) ? 'valid' : 'mismatch';
}

/** The header's value, whatever the case of its name. */
export function signatureHeader(
	headers: Record<string, unknown>,
	name: string,
): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		if (typeof value === 'string') return value;
		if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
	}
	return undefined;
}
