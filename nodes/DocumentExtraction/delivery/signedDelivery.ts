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
import type { DeliverySecrets } from './signingSecret.ts';

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
 * The verdict on a received header value with these secrets ('' skipped): only the exact lowercase
 * 64-hex form of the spec is valid (prefixes such as "sha256=" and uppercase hex are malformed), and
 * only when the digest of one of the secrets equals it, each compared in constant time.
 */
function verdictOf(
	rawBody: Buffer,
	header: string | undefined,
	secrets: string[],
): SignatureVerdict {
	const keys = secrets.filter((secret) => secret !== '');
	if (keys.length === 0 || header === undefined || header === '') return 'missing';
	if (!HEX_SHA256.test(header)) return 'malformed';
	const received = Buffer.from(header, 'hex');
	const digests = keys.map((key) => Buffer.from(computeSignature(rawBody, key), 'hex'));
	return digests.map((digest) => timingSafeEqual(digest, received)).includes(true)
		? 'valid'
		: 'mismatch';
}

/**
 * The longest a previous secret may still verify from now: a rotation takes hours or days, and a
 * time set years ahead by a typo would keep a leaked secret valid (docs/spec-decisions.md#n68).
 */
const MAX_PREVIOUS_WINDOW_MS = 30 * 86_400_000;

/**
 * Why a delivery signed with a previous secret is not accepted now and what to do, or null when it
 * is accepted.
 */
function previousWindowProblem(until: number | undefined, now: number): string | null {
	const setting = '"Accept Previous Until (UTC)"';
	if (until === undefined)
		return `no ${setting} set): to accept it for longer, set a later ${setting} in the credential`;
	if (until - now > MAX_PREVIOUS_WINDOW_MS)
		return `${setting} ${new Date(until).toISOString()} is more than 30 days ahead): set a time within 30 days in the credential`;
	if (now >= until)
		return `accepted until ${new Date(until).toISOString()}): to accept it for longer, set a later ${setting} in the credential`;
	return null;
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
	 * 'stale: …' for a body signed outside the replay window, or what to do about a previous secret.
	 */
	reason:
		| Exclude<SignatureVerdict, 'valid'>
		| 'not a JSON object'
		| `stale: ${string}`
		| `signed ${string}`;
}

type SignedDelivery =
	/** `previousUntil`: verified by a previous secret, accepted until then (docs/spec-decisions.md#n68). */
	| { payload: IDataObject; refusal?: undefined; previousUntil?: number }
	| { payload?: undefined; refusal: Refusal };

/**
 * The verified, fresh payload, or the refusal to answer with. `secrets`: those that may sign a
 * delivery to this address (delivery/signingSecret.ts); `windowHours`: the replay window. A previous
 * secret verifies only before `secrets.previousUntil`; after, it is refused as any wrong signature is,
 * the reason saying what to do (docs/spec-decisions.md#n68).
 */
export async function readSignedDelivery(
	context: IWebhookFunctions,
	secrets: DeliverySecrets,
	windowHours = DEFAULT_REPLAY_WINDOW_HOURS,
): Promise<SignedDelivery> {
	const request = context.getRequestObject();
	if (request.rawBody === undefined) await request.readRawBody();
	const rawBody: Buffer = request.rawBody ?? Buffer.alloc(0);
	const header = signatureHeader(context.getHeaderData() as IDataObject, SIGNATURE_HEADER);
	const verdict = verdictOf(rawBody, header, secrets.current);
	const previous = verdict !== 'valid' && verdictOf(rawBody, header, secrets.previous) === 'valid';
	const until = secrets.previousUntil;
	const refused = (status: Refusal['status'], error: string, reason: Refusal['reason']) => ({
		refusal: { status, body: { error }, reason },
	});
	const previousProblem = previous ? previousWindowProblem(until, Date.now()) : null;
	if (verdict !== 'valid' && (!previous || previousProblem)) {
		return refused(
			401,
			'Invalid or missing X-Service-Signature',
			previousProblem
				? `signed with a previous secret of the credential (${previousProblem}; after a new API key, publish the workflow again`
				: verdict,
		);
	}
	const payload = parseJsonObject(rawBody);
	if (!payload) return refused(400, 'Body is not a JSON object', 'not a JSON object');
	const stale = staleness(payload.timestamp, windowHours);
	if (stale) {
		return refused(
			400,
			`Stale delivery: ${stale}; a copy of an old delivery is not run`,
			`stale: ${stale}`,
		);
	}
	return previous ? { payload, previousUntil: until } : { payload };
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

/**
 * Why a delivery signed at `timestamp` may not start a run now, if it may not. A body without a
 * signed time in ISO 8601 UTC is accepted: the claim of its event still recognises a copy.
 */
function staleness(timestamp: unknown, windowHours: number): string | undefined {
	const at =
		typeof timestamp === 'string' && ISO_8601_UTC.test(timestamp) ? Date.parse(timestamp) : NaN;
	if (at > Date.now() + MAX_CLOCK_SKEW_MS) return 'signed in the future';
	if (at < Date.now() - windowHours * HOUR_MS) return `signed more than ${windowHours} h ago`;
	return undefined;
}

/** A delivery body as a JSON object, or undefined: parsed from the raw bytes that were signed. */
function parseJsonObject(rawBody: Buffer): IDataObject | undefined {
	try {
		return jsonObject(JSON.parse(rawBody.toString('utf8')));
	} catch {
		return undefined;
	}
}
