/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up test signing secrets, never real ones */
// The first steps of every signed delivery: verified against the secret before anything is parsed,
// fresh by its signed time, with the credential's keys remembered for REMEMBER_SECRET_MS
// (delivery/signingSecret.ts) whatever the deliveries bring.
import { createHmac } from 'node:crypto';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Every signature comparison of the module, in order: whether it matched. */
const timingSafeEqualCalls: string[] = [];
vi.mock('crypto', async (importOriginal) => {
	const crypto = await importOriginal<typeof import('crypto')>();
	return {
		...crypto,
		timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
			const equal = crypto.timingSafeEqual(a, b);
			timingSafeEqualCalls.push(equal ? 'valid' : 'mismatch');
			return equal;
		},
	};
});

import { CREDENTIAL_TYPE } from '../../../../../nodes/DocumentExtraction/constants.ts';
import {
	answerWithoutRun,
	computeSignature,
	DEFAULT_REPLAY_WINDOW_HOURS,
	readSignedDelivery,
} from '../../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import type * as SigningSecretModule from '../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts';

// Loaded anew for every test, as a newly started n8n process loads it: no keys remembered.
let { addressSecrets, REMEMBER_SECRET_MS } = {} as typeof SigningSecretModule;

const CREDENTIAL_SECRET = 'whsec_UNITTEST_delivery_credential_1';
const NEW_CREDENTIAL_SECRET = 'whsec_UNITTEST_delivery_credential_2';
const GENERATED_SECRET = 'whsec_UNITTEST_delivery_generated';
const T0 = 1_700_000_000_000;

/**
 * A delivery's first steps as the trigger and Wait for Review take them: the secrets of the node's
 * credential as this process remembers (or reads) them, after `extraSecrets` (as the trigger puts
 * its own secret first), then verify and check the window.
 */
async function read(context: IWebhookFunctions, extraSecrets: string[] = [], windowHours?: number) {
	const secrets = await addressSecrets(context);
	return await readSignedDelivery(
		context,
		{ ...secrets, current: [...extraSecrets, ...secrets.current] },
		windowHours,
	);
}

const UNSIGNED = { error: 'Invalid or missing X-Service-Signature' };
const NOT_AN_OBJECT = { error: 'Body is not a JSON object' };

const EVENT = {
	event: 'document.verified',
	document_id: 'doc_1',
	extracted_json: { vendor: 'Müller GmbH', total: 10.5 },
};
const BODY = JSON.stringify(EVENT);

interface Delivery {
	body?: string | Buffer;
	/** The signature header's value; omitted: no header at all. */
	signature?: string | string[];
	headerName?: string;
	/** The body only arrives through readRawBody (n8n has not read it yet). */
	lazyBody?: boolean;
}

/** A webhook context whose credential can be changed between deliveries; counts credential reads. */
function fakeNode(
	options: { secret?: unknown; credentialId?: string | null; more?: IDataObject } = {},
) {
	const state = {
		secret: 'secret' in options ? options.secret : CREDENTIAL_SECRET,
		reads: 0,
		readRawBodyCalls: 0,
	};
	const credentialId = options.credentialId === undefined ? 'cred-1' : options.credentialId;

	function context(delivery: Delivery) {
		const raw =
			delivery.body === undefined
				? Buffer.from(BODY)
				: Buffer.isBuffer(delivery.body)
					? delivery.body
					: Buffer.from(delivery.body);
		const request: { rawBody?: Buffer; readRawBody: () => Promise<void> } = {
			rawBody: delivery.lazyBody ? undefined : raw,
			async readRawBody() {
				state.readRawBodyCalls++;
				this.rawBody = raw;
			},
		};
		return {
			getRequestObject: () => request,
			getHeaderData: () =>
				delivery.signature === undefined
					? {}
					: { [delivery.headerName ?? 'x-service-signature']: delivery.signature },
			getNode: () => ({
				id: 'node-1',
				name: 'Wait for review',
				type: 'test',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
				...(credentialId
					? {
							credentials: {
								[CREDENTIAL_TYPE]: { id: credentialId, name: 'Document Extraction account' },
							},
						}
					: {}),
			}),
			getCredentials: async (type: string) => {
				expect(type).toBe(CREDENTIAL_TYPE);
				state.reads++;
				return {
					baseUrl: 'https://api.example.com',
					apiKey: 'k',
					...(state.secret === undefined ? {} : { signingSecret: state.secret }),
					...options.more,
				};
			},
		} as unknown as IWebhookFunctions;
	}

	return { state, context };
}

const signedWith = (secret: string, body: string | Buffer = BODY): Delivery => ({
	body,
	signature: computeSignature(body, secret),
});

beforeEach(async () => {
	vi.resetModules();
	({ addressSecrets, REMEMBER_SECRET_MS } = await import(
		'../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts'
	));
	vi.useFakeTimers();
	vi.setSystemTime(T0);
});

afterEach(() => {
	vi.useRealTimers();
});

describe('readSignedDelivery, after the remembered keys', () => {
	it("a body signed with the credential's secret: the parsed payload", async () => {
		const { context, state } = fakeNode();
		const delivery = await read(context(signedWith(CREDENTIAL_SECRET)));
		expect(delivery).toEqual({ payload: EVENT });
		expect(state.reads).toBe(1);
	});

	it('the header is found whatever the case of its name, and the first of repeated headers counts', async () => {
		const { context } = fakeNode();
		const signature = computeSignature(BODY, CREDENTIAL_SECRET);
		expect((await read(context({ signature, headerName: 'X-Service-Signature' }))).payload).toEqual(
			EVENT,
		);
		expect((await read(context({ signature: [signature, 'f'.repeat(64)] }))).payload).toEqual(
			EVENT,
		);
		expect((await read(context({ signature: ['f'.repeat(64), signature] }))).refusal?.reason).toBe(
			'mismatch',
		);
	});

	it('reads the raw body when n8n has not yet, and verifies those bytes', async () => {
		const { context, state } = fakeNode();
		const delivery = await read(context({ ...signedWith(CREDENTIAL_SECRET), lazyBody: true }));
		expect(delivery.payload).toEqual(EVENT);
		expect(state.readRawBodyCalls).toBe(1);
	});

	it('does not read the raw body again when it is already there', async () => {
		const { context, state } = fakeNode();
		await read(context(signedWith(CREDENTIAL_SECRET)));
		expect(state.readRawBodyCalls).toBe(0);
	});

	it('verifies the exact bytes: multibyte UTF-8 signed as bytes verifies, the same text re-encoded does not', async () => {
		const { context } = fakeNode();
		const raw = Buffer.from(BODY, 'utf8');
		expect((await read(context(signedWith(CREDENTIAL_SECRET, raw)))).payload).toEqual(EVENT);
		const latin1 = Buffer.from(BODY, 'latin1');
		const refused = await read(
			context({ body: latin1, signature: computeSignature(raw, CREDENTIAL_SECRET) }),
		);
		expect(refused.refusal?.reason).toBe('mismatch');
	});

	describe('refused 401, with the reason', () => {
		it.each([
			['no signature header', {}, 'missing'],
			['an empty signature header', { signature: '' }, 'missing'],
			[
				'a signature made with another secret',
				{ signature: computeSignature(BODY, 'whsec_UNITTEST_wrong') },
				'mismatch',
			],
			[
				'a signature of another body',
				{ signature: computeSignature(`${BODY} `, CREDENTIAL_SECRET) },
				'mismatch',
			],
			[
				'a "sha256=" prefixed signature',
				{ signature: `sha256=${computeSignature(BODY, CREDENTIAL_SECRET)}` },
				'malformed',
			],
			[
				'an uppercase signature',
				{ signature: computeSignature(BODY, CREDENTIAL_SECRET).toUpperCase() },
				'malformed',
			],
			[
				'a truncated signature',
				{ signature: computeSignature(BODY, CREDENTIAL_SECRET).slice(0, 63) },
				'malformed',
			],
		])('%s', async (_case, delivery: Delivery, reason) => {
			const { context } = fakeNode();
			expect(await read(context(delivery))).toEqual({
				refusal: { status: 401, body: UNSIGNED, reason },
			});
		});

		it('a wrongly signed body that is not JSON: 401, not 400 (the signature is checked before the body is read)', async () => {
			const { context } = fakeNode();
			const delivery = await read(context({ body: 'not json', signature: 'f'.repeat(64) }));
			expect(delivery.refusal).toEqual({ status: 401, body: UNSIGNED, reason: 'mismatch' });
		});

		it('no secret at all (credential has none, no fallback): refused as missing, even a body signed with the empty key', async () => {
			const { context } = fakeNode({ secret: '' });
			const delivery = await read(context(signedWith('')), ['']);
			expect(delivery).toEqual({ refusal: { status: 401, body: UNSIGNED, reason: 'missing' } });
		});
	});

	describe('signed, but not a JSON object: 400', () => {
		it.each([
			['an array', '[1,2]'],
			['null', 'null'],
			['a number', '42'],
			['a string', '"text"'],
			['invalid JSON', '{"event":'],
			['an empty body', ''],
		])('%s', async (_case, body) => {
			const { context } = fakeNode();
			expect(await read(context(signedWith(CREDENTIAL_SECRET, body)))).toEqual({
				refusal: { status: 400, body: NOT_AN_OBJECT, reason: 'not a JSON object' },
			});
		});

		it('a body n8n never read (readRawBody leaves it unset) counts as empty: signed empty body, 400', async () => {
			const { context } = fakeNode();
			const ctx = context({ signature: computeSignature('', CREDENTIAL_SECRET) });
			const request = ctx.getRequestObject() as unknown as {
				rawBody?: Buffer;
				readRawBody: () => Promise<void>;
			};
			request.rawBody = undefined;
			request.readRawBody = async () => undefined;
			expect((await read(ctx)).refusal).toEqual({
				status: 400,
				body: NOT_AN_OBJECT,
				reason: 'not a JSON object',
			});
		});
	});

	describe("a second secret (the trigger's own)", () => {
		it.each([
			['has no signingSecret', undefined],
			["has ''", ''],
			['has a non-string signingSecret', 12345],
		])('verifies when the credential %s', async (_case, secret) => {
			const { context } = fakeNode({ secret });
			expect(await read(context(signedWith(GENERATED_SECRET)), [GENERATED_SECRET])).toEqual({
				payload: EVENT,
			});
		});

		it("verifies beside the credential's: either one verifies", async () => {
			const { context } = fakeNode();
			for (const secret of [GENERATED_SECRET, CREDENTIAL_SECRET])
				expect((await read(context(signedWith(secret)), [GENERATED_SECRET])).payload).toEqual(
					EVENT,
				);
		});

		it('none verifying: 401 with the verdict of the first secret', async () => {
			const { context } = fakeNode();
			const delivery = await read(context(signedWith('whsec_UNITTEST_unknown')), [
				GENERATED_SECRET,
			]);
			expect(delivery.refusal).toEqual({ status: 401, body: UNSIGNED, reason: 'mismatch' });
		});

		it("a remembered 'has none' uses the other secret without reading the credential again", async () => {
			const { context, state } = fakeNode({ secret: '' });
			await read(context(signedWith(GENERATED_SECRET)), [GENERATED_SECRET]);
			const second = await read(context(signedWith(GENERATED_SECRET)), [GENERATED_SECRET]);
			expect(second.payload).toEqual(EVENT);
			expect(state.reads).toBe(1);
		});
	});

	describe('fresh (N41): by the signed time only', () => {
		const at = (ms: number) => JSON.stringify({ ...EVENT, timestamp: new Date(ms).toISOString() });

		it('signed a minute ago: the payload; signed longer ago than the window, or hours ahead: 400, stale', async () => {
			const { context } = fakeNode();
			expect(
				(await read(context(signedWith(CREDENTIAL_SECRET, at(T0 - 60_000))))).payload,
			).toMatchObject(EVENT);
			for (const [signedAt, reason] of [
				[T0 - 25 * 3_600_000, 'stale: signed more than 24 h ago'],
				[T0 + 2 * 3_600_000, 'stale: signed in the future'],
			] as const) {
				const delivery = await read(context(signedWith(CREDENTIAL_SECRET, at(signedAt))));
				expect(delivery.refusal?.status).toBe(400);
				expect(delivery.refusal?.reason).toBe(reason);
				expect(String(delivery.refusal?.body.error)).toContain('Stale delivery');
			}
		});

		it('the window is the caller’s', async () => {
			const { context } = fakeNode();
			const twoHoursAgo = signedWith(CREDENTIAL_SECRET, at(T0 - 2 * 3_600_000));
			expect((await read(context(twoHoursAgo), undefined, 1)).refusal?.status).toBe(400);
			expect((await read(context(twoHoursAgo), undefined, 3)).payload).toBeDefined();
		});

		it('a stale body with a wrong signature is refused for the signature (401): nothing unsigned is read', async () => {
			const { context } = fakeNode();
			const delivery = await read(
				context(signedWith('whsec_UNITTEST_unknown', at(T0 - 72 * 3_600_000))),
			);
			expect(delivery.refusal?.status).toBe(401);
		});
	});

	describe('the remembered secret', () => {
		it('a second delivery within REMEMBER_SECRET_MS does not read the credential; at REMEMBER_SECRET_MS it is read again', async () => {
			const { context, state } = fakeNode();
			await read(context(signedWith(CREDENTIAL_SECRET)));
			expect(state.reads).toBe(1);
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS - 1);
			expect((await read(context(signedWith(CREDENTIAL_SECRET)))).payload).toEqual(EVENT);
			expect(state.reads).toBe(1);
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS);
			expect((await read(context(signedWith(CREDENTIAL_SECRET)))).payload).toEqual(EVENT);
			expect(state.reads).toBe(2);
		});

		it('a new secret in the credential verifies once the remembered keys expire, and is remembered in turn', async () => {
			const { context, state } = fakeNode();
			await read(context(signedWith(CREDENTIAL_SECRET)));
			state.secret = NEW_CREDENTIAL_SECRET;
			vi.setSystemTime(T0 + 1);
			expect((await read(context(signedWith(NEW_CREDENTIAL_SECRET)))).refusal?.status).toBe(401);
			expect(state.reads).toBe(1);
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS);
			expect((await read(context(signedWith(NEW_CREDENTIAL_SECRET)))).payload).toEqual(EVENT);
			expect(state.reads).toBe(2);
			vi.setSystemTime(T0 + 2 * REMEMBER_SECRET_MS - 1);
			expect((await read(context(signedWith(NEW_CREDENTIAL_SECRET)))).payload).toEqual(EVENT);
			expect(state.reads).toBe(2);
		});

		it('a replaced secret still verifies while remembered, and stops at REMEMBER_SECRET_MS', async () => {
			const { context, state } = fakeNode();
			await read(context(signedWith(CREDENTIAL_SECRET)));
			state.secret = NEW_CREDENTIAL_SECRET;
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS - 1);
			expect((await read(context(signedWith(CREDENTIAL_SECRET)))).payload).toEqual(EVENT);
			expect(state.reads).toBe(1);
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS);
			expect((await read(context(signedWith(CREDENTIAL_SECRET)))).refusal?.reason).toBe('mismatch');
			expect(state.reads).toBe(2);
		});

		it('1,000 forged deliveries cost the one remembered read, not one each', async () => {
			const { context, state } = fakeNode();
			const answers = await Promise.all(
				Array.from(
					{ length: 1000 },
					async (_, index) =>
						await read(context({ signature: index % 2 ? 'f'.repeat(64) : 'sha256=forged' })),
				),
			);
			expect(answers.every((answer) => answer.refusal?.status === 401)).toBe(true);
			expect(state.reads).toBe(1);
		});

		it('a node without a credential id is never remembered: every delivery reads the credential', async () => {
			const { context, state } = fakeNode({ credentialId: null });
			await read(context(signedWith(CREDENTIAL_SECRET)));
			await read(context(signedWith(CREDENTIAL_SECRET)));
			expect(state.reads).toBe(2);
		});

		it('is kept per credential id', async () => {
			const first = fakeNode({ credentialId: 'cred-a' });
			const second = fakeNode({ credentialId: 'cred-b', secret: NEW_CREDENTIAL_SECRET });
			await read(first.context(signedWith(CREDENTIAL_SECRET)));
			expect((await read(second.context(signedWith(NEW_CREDENTIAL_SECRET)))).payload).toEqual(
				EVENT,
			);
			expect((await read(first.context(signedWith(CREDENTIAL_SECRET)))).payload).toEqual(EVENT);
			expect((await read(second.context(signedWith(NEW_CREDENTIAL_SECRET)))).payload).toEqual(
				EVENT,
			);
			expect([first.state.reads, second.state.reads]).toEqual([1, 1]);
		});
	});
});

// N68: the credential's previous signing secret (and the own secret of its previous API key, which
// the trigger adds the same way) verifies a delivery until "Accept Previous Until (UTC)", never after.
describe('the previous secret, until the time the credential sets', () => {
	const PREVIOUS_SECRET = 'whsec_UNITTEST_delivery_previous';
	const UNTIL = T0 + 3_600_000;
	const rotated = (until: string = new Date(UNTIL).toISOString()) =>
		fakeNode({
			secret: NEW_CREDENTIAL_SECRET,
			more: { previousSigningSecret: PREVIOUS_SECRET, acceptPreviousUntil: until },
		});
	const refusedReason = (when: string) =>
		`signed with a previous secret of the credential (${when}): to accept it for longer, set a later "Accept Previous Until (UTC)" in the credential; after a new API key, publish the workflow again`;

	it('before that time: the payload, with the time it is accepted until (for the log)', async () => {
		const { context } = rotated();
		vi.setSystemTime(UNTIL - 1);
		expect(await read(context(signedWith(PREVIOUS_SECRET)))).toEqual({
			payload: EVENT,
			previousUntil: UNTIL,
		});
	});

	it('from that time on: 401 as for any wrong signature (the sender learns nothing); the reason says until when and what to do', async () => {
		const { context } = rotated();
		vi.setSystemTime(UNTIL);
		const delivery = await read(context(signedWith(PREVIOUS_SECRET)));
		expect(delivery).toEqual({
			refusal: {
				status: 401,
				body: UNSIGNED,
				reason: refusedReason(`accepted until ${new Date(UNTIL).toISOString()}`),
			},
		});
		expect(JSON.stringify(delivery)).not.toContain(PREVIOUS_SECRET);
		expect(JSON.stringify(delivery)).not.toContain(NEW_CREDENTIAL_SECRET);
	});

	it('a time more than 30 days ahead (a typo of 2062 for 2026): refused, the reason says to set one within 30 days', async () => {
		const farAhead = T0 + 30 * 86_400_000 + 1;
		const { context } = rotated(new Date(farAhead).toISOString());
		vi.setSystemTime(T0);
		expect((await read(context(signedWith(PREVIOUS_SECRET)))).refusal?.reason).toBe(
			`signed with a previous secret of the credential ("Accept Previous Until (UTC)" ${new Date(farAhead).toISOString()} is more than 30 days ahead): set a time within 30 days in the credential; after a new API key, publish the workflow again`,
		);
	});

	it('a time 30 days ahead exactly: accepted', async () => {
		const until = T0 + 30 * 86_400_000;
		const { context } = rotated(new Date(until).toISOString());
		vi.setSystemTime(T0);
		expect(await read(context(signedWith(PREVIOUS_SECRET)))).toEqual({
			payload: EVENT,
			previousUntil: until,
		});
	});

	it.each([
		['no time set', ''],
		['a time that is not a date', 'soon'],
		['a date and time without the ISO "T" (read in local time elsewhere)', '2026-11-27 10:00'],
	])('%s: refused, the reason says so', async (_case, until) => {
		const { context } = rotated(until);
		expect((await read(context(signedWith(PREVIOUS_SECRET)))).refusal?.reason).toBe(
			refusedReason('no "Accept Previous Until (UTC)" set'),
		);
	});

	it('the current secret verifies before and after that time, unmarked; a secret that is neither: mismatch', async () => {
		const { context } = rotated();
		for (const at of [UNTIL - 1, UNTIL + 1]) {
			vi.setSystemTime(at);
			expect(await read(context(signedWith(NEW_CREDENTIAL_SECRET)))).toEqual({ payload: EVENT });
			expect((await read(context(signedWith('whsec_UNITTEST_neither')))).refusal?.reason).toBe(
				'mismatch',
			);
		}
	});

	it('a previous secret equal to the current one counts as the current one', async () => {
		const { context } = fakeNode({
			more: { previousSigningSecret: CREDENTIAL_SECRET, acceptPreviousUntil: '' },
		});
		expect(await read(context(signedWith(CREDENTIAL_SECRET)))).toEqual({ payload: EVENT });
	});

	it('a malformed or missing signature is refused for that, not for the previous secret', async () => {
		const { context } = rotated();
		expect((await read(context({ signature: 'sha256=abc' }))).refusal?.reason).toBe('malformed');
		expect((await read(context({}))).refusal?.reason).toBe('missing');
	});

	it('the previous secret is compared in constant time, as the current one', async () => {
		const { context } = rotated();
		timingSafeEqualCalls.length = 0;
		await read(context(signedWith(PREVIOUS_SECRET)));
		expect(timingSafeEqualCalls).toEqual(['mismatch', 'valid']);
	});
});

describe('answerWithoutRun', () => {
	it('answers with the status and JSON body and tells n8n not to answer itself', () => {
		const calls: Array<[string, unknown]> = [];
		const response = {
			status(code: number) {
				calls.push(['status', code]);
				return response;
			},
			json(body: IDataObject) {
				calls.push(['json', body]);
				return response;
			},
		};
		const context = { getResponseObject: () => response } as unknown as IWebhookFunctions;
		expect(answerWithoutRun(context, 401, UNSIGNED)).toEqual({ noWebhookResponse: true });
		expect(calls).toEqual([
			['status', 401],
			['json', UNSIGNED],
		]);
	});
});

// Replays refused (N41): the signed timestamp inside the window and not ahead of the clock; by time
// only (a copy inside the window is the event's claim's to recognise).
const NOW = Date.parse('2026-11-26T12:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** What a delivery of `body`, signed with the credential's secret, comes to (`windowHours`: the trigger's). */
async function readSigned(body: string | Buffer, windowHours?: number) {
	const { context } = fakeNode();
	return await read(context(signedWith(CREDENTIAL_SECRET, body)), [], windowHours);
}

/** What a delivery signed at `timestamp` comes to, at NOW. */
async function signedAt(timestamp: unknown, windowHours?: number) {
	vi.setSystemTime(NOW);
	return await readSigned(JSON.stringify({ ...EVENT, timestamp }), windowHours);
}

describe('the signed time', () => {
	it('reads ISO 8601 in UTC, with or without fractions, to the millisecond', async () => {
		for (const old of [
			'2026-11-25T11:59:59Z',
			'2026-11-25T11:59:59.750Z',
			'2026-11-25T11:59:59+00:00',
		])
			expect((await signedAt(old)).refusal?.reason, old).toBe('stale: signed more than 24 h ago');
		expect((await signedAt('2026-11-25T12:00:00.250Z')).payload).toBeDefined();
		// A millisecond past the 5 minutes a clock may be ahead; without its fraction it would not be.
		expect((await signedAt('2026-11-26T12:05:00.001Z')).refusal?.reason).toBe(
			'stale: signed in the future',
		);
	});

	it('none for anything else (missing, another zone, a date only, a number, nonsense): not stale', async () => {
		for (const value of [
			undefined,
			'',
			'2026-11-22T13:00:00+01:00',
			'2026-11-22',
			'22/11/2026 12:00',
			NOW - 72 * HOUR,
			'2026-13-45T99:00:00Z',
			'yesterday',
		])
			expect((await signedAt(value)).payload, String(value)).toBeDefined();
	});
});

describe('the replay window', () => {
	it(`the default window is ${DEFAULT_REPLAY_WINDOW_HOURS} hours`, async () => {
		expect((await signedAt(iso(NOW - 23 * HOUR))).payload).toBeDefined();
		expect((await signedAt(iso(NOW - 24 * HOUR))).payload).toBeDefined();
		expect((await signedAt(iso(NOW - 25 * HOUR))).refusal).toEqual({
			status: 400,
			body: {
				error: 'Stale delivery: signed more than 24 h ago; a copy of an old delivery is not run',
			},
			reason: 'stale: signed more than 24 h ago',
		});
	});

	it('three days old is stale; so is two hours ahead; up to 5 minutes ahead is clock skew', async () => {
		expect((await signedAt(iso(NOW - 72 * HOUR))).refusal?.status).toBe(400);
		expect((await signedAt(iso(NOW + 2 * HOUR))).refusal?.reason).toBe(
			'stale: signed in the future',
		);
		expect((await signedAt(iso(NOW + 5 * 60_000))).payload).toBeDefined();
		expect((await signedAt(iso(NOW + 5 * 60_000 + 1))).refusal?.reason).toBe(
			'stale: signed in the future',
		);
	});

	it('a window set on the trigger', async () => {
		expect((await signedAt(iso(NOW - 2 * HOUR), 1)).refusal?.status).toBe(400);
		expect((await signedAt(iso(NOW - 2 * HOUR), 3)).payload).toBeDefined();
	});
});

// A delivery body read from the raw bytes that were signed: only a JSON object is a payload.
const bytes = (text: string) => Buffer.from(text, 'utf8');
const NOT_AN_OBJECT_REFUSAL = { status: 400, body: NOT_AN_OBJECT, reason: 'not a JSON object' };

describe('the signed body as a JSON object', () => {
	it('gives back a JSON object with its nested values', async () => {
		expect(
			(
				await readSigned(
					'{"event":"document.verified","confidence":{"final":1},"tags":["a"],"none":null}',
				)
			).payload,
		).toEqual({
			event: 'document.verified',
			confidence: { final: 1 },
			tags: ['a'],
			none: null,
		});
	});

	it('gives back the empty object', async () => {
		expect((await readSigned('{}')).payload).toEqual({});
	});

	it('accepts whitespace around the object (JSON allows it)', async () => {
		expect((await readSigned(' \r\n\t{"a":1}\n ')).payload).toEqual({ a: 1 });
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
	])('refuses %s (valid JSON, not an object)', async (_case, text) => {
		expect((await readSigned(text)).refusal).toEqual(NOT_AN_OBJECT_REFUSAL);
	});

	it.each([
		['truncated JSON', '{"a":1'],
		['a trailing comma', '{"a":1,}'],
		['single quotes', "{'a':1}"],
		['two objects', '{"a":1}{"b":2}'],
		['an object followed by text', '{"a":1} x'],
		['only whitespace', '   '],
	])('refuses %s without throwing', async (_case, text) => {
		expect((await readSigned(text)).refusal).toEqual(NOT_AN_OBJECT_REFUSAL);
	});

	it('decodes UTF-8: multibyte characters (2, 3 and 4 bytes) come back intact', async () => {
		const text = '{"vendor":"Müller & Søn – 東京 😀"}';
		const raw = bytes(text);
		expect(raw.length).toBeGreaterThan(text.length);
		expect((await readSigned(raw)).payload).toEqual({ vendor: 'Müller & Søn – 東京 😀' });
	});

	it('decodes \\u escapes, including a surrogate pair', async () => {
		expect((await readSigned('{"v":"\\u00fc\\ud83d\\ude00"}')).payload).toEqual({ v: 'ü😀' });
	});

	it('refuses a body that starts with a UTF-8 byte order mark (JSON.parse does not skip it)', async () => {
		const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{"a":1}')]);
		expect((await readSigned(withBom)).refusal).toEqual(NOT_AN_OBJECT_REFUSAL);
	});

	it('invalid UTF-8 inside a string is replaced (U+FFFD), the object is still read', async () => {
		const raw = Buffer.concat([bytes('{"a":"'), Buffer.from([0xff]), bytes('"}')]);
		expect((await readSigned(raw)).payload).toEqual({ a: '\uFFFD' });
	});

	it('keeps "__proto__" as an own key and does not change the prototype', async () => {
		const parsed = (await readSigned('{"__proto__":{"polluted":true}}')).payload;
		expect(parsed).toBeDefined();
		expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(parsed, '__proto__')).toBe(true);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('a duplicated key keeps the last value', async () => {
		expect((await readSigned('{"a":1,"a":2}')).payload).toEqual({ a: 2 });
	});
});

// The signature itself (spec Events > Signature).
const SIGNATURE_SECRET = 'whsec_test_1234567890';
const SIGNED_BODY =
	'{"event":"document.verified","document_id":"doc_abc","data":{"amounts":{"total":297.5}}}';
const GOOD_SIGNATURE = createHmac('sha256', SIGNATURE_SECRET).update(SIGNED_BODY).digest('hex');

describe('computeSignature (spec: lowercase hex HMAC-SHA256 of the raw body)', () => {
	it('matches a published HMAC-SHA256 test vector', () => {
		expect(computeSignature('The quick brown fox jumps over the lazy dog', 'key')).toBe(
			'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
		);
	});

	it('a Buffer and the same text sign alike; any byte changes it', () => {
		expect(computeSignature(Buffer.from(SIGNED_BODY), SIGNATURE_SECRET)).toBe(GOOD_SIGNATURE);
		expect(computeSignature(`${SIGNED_BODY} `, SIGNATURE_SECRET)).not.toBe(GOOD_SIGNATURE);
		expect(computeSignature(SIGNED_BODY, `${SIGNATURE_SECRET}x`)).not.toBe(GOOD_SIGNATURE);
	});
});

/** Why a delivery of SIGNED_BODY with the signature header `header` (under `name`) is refused, if it is. */
async function signatureVerdict(header: unknown, name = 'X-Service-Signature', body = SIGNED_BODY) {
	const { context } = fakeNode({ secret: SIGNATURE_SECRET });
	const delivery = { body, signature: header as string | string[], headerName: name };
	const result = await read(context(header === undefined ? { body } : delivery));
	return result.refusal?.reason ?? 'valid';
}

describe('the signature header', () => {
	it('valid: the exact digest, and the first of repeated headers', async () => {
		expect(await signatureVerdict(GOOD_SIGNATURE)).toBe('valid');
		expect(await signatureVerdict([GOOD_SIGNATURE, 'ignored'])).toBe('valid');
	});

	it.each([[undefined], [''], [[]]])('missing: %j', async (header) => {
		expect(await signatureVerdict(header)).toBe('missing');
	});

	it.each([
		['uppercase hex', GOOD_SIGNATURE.toUpperCase()],
		['sha256= prefix', `sha256=${GOOD_SIGNATURE}`],
		['too short', GOOD_SIGNATURE.slice(0, 63)],
		['too long', `${GOOD_SIGNATURE}0`],
		['not hex', `${GOOD_SIGNATURE.slice(0, 63)}g`],
		['whitespace', ` ${GOOD_SIGNATURE}`],
	])('malformed: %s', async (_label, header) => {
		expect(await signatureVerdict(header)).toBe('malformed');
	});

	it('mismatch: another secret, another body, one digit off', async () => {
		expect(await signatureVerdict(computeSignature(SIGNED_BODY, 'other'))).toBe('mismatch');
		expect(
			await signatureVerdict(GOOD_SIGNATURE, undefined, SIGNED_BODY.replace('297.5', '297.6')),
		).toBe('mismatch');
		const oneOff = GOOD_SIGNATURE.slice(0, -1) + (GOOD_SIGNATURE.endsWith('0') ? '1' : '0');
		expect(await signatureVerdict(oneOff)).toBe('mismatch');
	});

	it.each(['X-Service-Signature', 'x-service-signature', 'X-SERVICE-SIGNATURE'])(
		'is found as %s',
		async (name) => {
			expect(await signatureVerdict(GOOD_SIGNATURE, name)).toBe('valid');
		},
	);

	it('ignores non-strings and other headers', async () => {
		expect(await signatureVerdict(42)).toBe('missing');
		expect(await signatureVerdict([1])).toBe('missing');
		expect(await signatureVerdict(GOOD_SIGNATURE, 'x-other')).toBe('missing');
	});
});
