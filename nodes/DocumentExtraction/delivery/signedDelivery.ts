/**
 * The first steps every signed delivery of the service takes (trigger and Wait for Review): the raw
 * body is verified against the signing secrets before it is parsed, so nothing unsigned is ever read,
 * and its signed time must be inside the replay window (docs/spec-decisions.md#n41: a delivery is a
 * signed body that anyone who saw it can send again; inside the window the trigger's claim of the
 * event recognises a copy). Pure but for the request it reads; a refused delivery writes nothing.
 */
import { createHmac, timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { SIGNATURE_HEADER } from '../constants.ts';
import { jsonObject } from '../jsonObject.ts';

/*
 * The signature of the spec (Events > Signature): lowercase hex HMAC-SHA256 of the raw request body,
 * keyed with the registration's secret, compared in constant time.
 */
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

type SignatureVerdict = 'valid' | 'missing' | 'malformed' | 'mismatch';

/**
 * Checks a received header value. Only the exact lowercase 64-hex form of the spec is valid:
 * prefixes ("sha256=") and uppercase hex are refused as malformed.
 */
function verifySignature(
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
function signatureHeader(headers: Record<string, unknown>, name: string): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		if (typeof value === 'string') return value;
		if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
	}
	return undefined;
}

interface Refusal {
	status: 400 | 401;
	body: IDataObject;
	/**
	 * Why, for the log: the signature's verdict, 'not a JSON object' for a signed but unreadable body,
	 * or 'stale: …' for a body signed outside the replay window.
	 */
	reason: Exclude<SignatureVerdict, 'valid'> | 'not a JSON object' | `stale: ${string}`;
}

type SignedDelivery =
	| { payload: IDataObject; refusal?: undefined }
	| { payload?: undefined; refusal: Refusal };

/** The verdict of the first secret that verifies the body, else that of the first secret. */
function verdictOf(
	rawBody: Buffer,
	header: string | undefined,
	secrets: string[],
): SignatureVerdict {
	const verdicts = secrets
		.filter((secret) => secret !== '')
		.map((secret) => verifySignature(rawBody, header, secret));
	return verdicts.find((verdict) => verdict === 'valid') ?? verdicts[0] ?? 'missing';
}

/**
 * The verified, fresh payload, or the refusal to answer with. `secrets`: those that may sign a
 * delivery to this address (delivery/signingSecret.ts); `windowHours`: the replay window.
 */
export async function readSignedDelivery(
	context: IWebhookFunctions,
	secrets: string[],
	windowHours = DEFAULT_REPLAY_WINDOW_HOURS,
): Promise<SignedDelivery> {
	const request = context.getRequestObject();
	if (request.rawBody === undefined) await request.readRawBody();
	const rawBody: Buffer = request.rawBody ?? Buffer.alloc(0);
	const header = signatureHeader(context.getHeaderData() as IDataObject, SIGNATURE_HEADER);
	const verdict = verdictOf(rawBody, header, secrets);
	if (verdict !== 'valid') {
		return {
			refusal: {
				status: 401,
				body: { error: 'Invalid or missing X-Service-Signature' },
				reason: verdict,
			},
		};
	}
	const payload = parseJsonObject(rawBody);
	if (!payload) {
		return {
			refusal: {
				status: 400,
				body: { error: 'Body is not a JSON object' },
				reason: 'not a JSON object',
			},
		};
	}
	const fresh = freshness(payload.timestamp, windowHours);
	if (fresh.stale) {
		return {
			refusal: {
				status: 400,
				body: { error: `Stale delivery: ${fresh.reason}; a copy of an old delivery is not run` },
				reason: `stale: ${fresh.reason}`,
			},
		};
	}
	return { payload };
}

/** Answers the delivery with `status` and `body`, starting or resuming nothing. */
export function answerWithoutRun(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	context.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/** The default replay window: long enough for the service's three retries with backoff. */
export const DEFAULT_REPLAY_WINDOW_HOURS = 24;

/** How far a timestamp may be ahead of this machine's clock (clocks disagree a little). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const HOUR_MS = 3_600_000;

/** ISO 8601 in UTC, as the contract gives it: `2026-11-02T10:15:00Z` (fractions allowed). */
const ISO_8601_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|\+00:?00)$/;

/** The signed time in ms, or undefined when the body has none in ISO 8601 UTC. */
function signedTime(timestamp: unknown): number | undefined {
	if (typeof timestamp !== 'string' || !ISO_8601_UTC.test(timestamp)) return undefined;
	const at = Date.parse(timestamp);
	return Number.isNaN(at) ? undefined : at;
}

type Freshness =
	/** `at`: the signed time; undefined when the body has none (accepted: the claim still holds it). */
	{ stale: false; at?: number } | { stale: true; reason: string };

/** Whether a delivery signed at `timestamp` may start a run now. */
function freshness(timestamp: unknown, windowHours: number): Freshness {
	const now = Date.now();
	const at = signedTime(timestamp);
	if (at === undefined) return { stale: false };
	if (at > now + MAX_CLOCK_SKEW_MS) return { stale: true, reason: 'signed in the future' };
	if (at < now - windowHours * HOUR_MS)
		return { stale: true, reason: `signed more than ${windowHours} h ago` };
	return { stale: false, at };
}

/** A delivery body as a JSON object, or undefined: parsed from the raw bytes that were signed. */
function parseJsonObject(rawBody: Buffer): IDataObject | undefined {
	try {
		return jsonObject(JSON.parse(rawBody.toString('utf8')));
	} catch {
		return undefined;
	}
}
