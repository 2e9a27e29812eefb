/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up test signing secrets, never real ones */
// The one receive path of signed deliveries: verified against the secret before anything is parsed,
// with the credential's secret remembered for REMEMBER_SECRET_MS (delivery/signingSecret.ts).
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { forgetProcessMemories } from '../../../../../nodes/DocumentExtraction/memory/processMemory.ts';

import { CREDENTIAL_TYPE } from '../../../../../nodes/DocumentExtraction/constants.ts';
import { computeSignature } from '../../../../../nodes/DocumentExtraction/delivery/signature.ts';
import {
	answerWithoutRun,
	readSignedDelivery,
} from '../../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import {
	REMEMBER_SECRET_MS,
	rememberedKeys,
} from '../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts';
import type { SigningKeys } from '../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts';

const CREDENTIAL_SECRET = 'whsec_UNITTEST_delivery_credential_1';
const NEW_CREDENTIAL_SECRET = 'whsec_UNITTEST_delivery_credential_2';
const GENERATED_SECRET = 'whsec_UNITTEST_delivery_generated';
const EARLIER_SECRET = 'whsec_UNITTEST_delivery_earlier';
const T0 = 1_700_000_000_000;

/** The secret the delivery is checked with: the credential's, else `secret` (as the trigger's own). */
const fallbackTo = (secret: string) => (keys: SigningKeys) => keys.signingSecret || secret;

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
function fakeNode(options: { secret?: unknown; credentialId?: string | null } = {}) {
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

beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(T0);
});

afterEach(() => {
	forgetProcessMemories();
	vi.useRealTimers();
});

describe('readSignedDelivery', () => {
	it("a body signed with the credential's secret: the parsed payload, the secret, not earlier", async () => {
		const { context, state } = fakeNode();
		const delivery = await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)));
		expect(delivery).toEqual({ payload: EVENT, secret: CREDENTIAL_SECRET, earlier: false });
		expect(state.reads).toBe(1);
	});

	it('the header is found whatever the case of its name, and the first of repeated headers counts', async () => {
		const { context } = fakeNode();
		const signature = computeSignature(BODY, CREDENTIAL_SECRET);
		expect(
			(await readSignedDelivery(context({ signature, headerName: 'X-Service-Signature' }))).payload,
		).toEqual(EVENT);
		expect(
			(await readSignedDelivery(context({ signature: [signature, 'f'.repeat(64)] }))).payload,
		).toEqual(EVENT);
		expect(
			(await readSignedDelivery(context({ signature: ['f'.repeat(64), signature] }))).refusal
				?.reason,
		).toBe('mismatch');
	});

	it('reads the raw body when n8n has not yet, and verifies those bytes', async () => {
		const { context, state } = fakeNode();
		const delivery = await readSignedDelivery(
			context({ ...signedWith(CREDENTIAL_SECRET), lazyBody: true }),
		);
		expect(delivery.payload).toEqual(EVENT);
		expect(state.readRawBodyCalls).toBe(1);
	});

	it('does not read the raw body again when it is already there', async () => {
		const { context, state } = fakeNode();
		await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)));
		expect(state.readRawBodyCalls).toBe(0);
	});

	it('verifies the exact bytes: multibyte UTF-8 signed as bytes verifies, the same text re-encoded does not', async () => {
		const { context } = fakeNode();
		const raw = Buffer.from(BODY, 'utf8');
		expect((await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET, raw)))).payload).toEqual(
			EVENT,
		);
		const latin1 = Buffer.from(BODY, 'latin1');
		const refused = await readSignedDelivery(
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
			expect(await readSignedDelivery(context(delivery))).toEqual({
				refusal: { status: 401, body: UNSIGNED, reason },
			});
		});

		it('a wrongly signed body that is not JSON: 401, not 400 (the signature is checked before the body is read)', async () => {
			const { context } = fakeNode();
			const delivery = await readSignedDelivery(
				context({ body: 'not json', signature: 'f'.repeat(64) }),
			);
			expect(delivery.refusal).toEqual({ status: 401, body: UNSIGNED, reason: 'mismatch' });
		});

		it('no secret at all (credential has none, no fallback): refused as missing, even a body signed with the empty key', async () => {
			const { context } = fakeNode({ secret: '' });
			const delivery = await readSignedDelivery(context(signedWith('')), undefined, () => ['']);
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
			expect(await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET, body)))).toEqual({
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
			expect((await readSignedDelivery(ctx)).refusal).toEqual({
				status: 400,
				body: NOT_AN_OBJECT,
				reason: 'not a JSON object',
			});
		});
	});

	describe("the fallback (the trigger's own) secret", () => {
		it.each([
			['has no signingSecret', undefined],
			["has ''", ''],
			['has a non-string signingSecret', 12345],
		])('verifies when the credential %s', async (_case, secret) => {
			const { context } = fakeNode({ secret });
			expect(
				await readSignedDelivery(
					context(signedWith(GENERATED_SECRET)),
					fallbackTo(GENERATED_SECRET),
				),
			).toEqual({
				payload: EVENT,
				secret: GENERATED_SECRET,
				earlier: false,
			});
		});

		it("is not used when the credential has a secret: the credential's wins", async () => {
			const { context } = fakeNode();
			const delivery = await readSignedDelivery(
				context(signedWith(GENERATED_SECRET)),
				fallbackTo(GENERATED_SECRET),
			);
			expect(delivery.refusal?.reason).toBe('mismatch');
		});

		it("a remembered 'has none' uses the fallback without reading the credential again", async () => {
			const { context, state } = fakeNode({ secret: '' });
			await readSignedDelivery(context(signedWith(GENERATED_SECRET)), fallbackTo(GENERATED_SECRET));
			expect(rememberedKeys('cred-1')?.signingSecret).toBe('');
			const second = await readSignedDelivery(
				context(signedWith(GENERATED_SECRET)),
				fallbackTo(GENERATED_SECRET),
			);
			expect(second.payload).toEqual(EVENT);
			expect(state.reads).toBe(1);
		});
	});

	describe('earlier secrets', () => {
		it('a body signed with an earlier secret verifies, marked earlier, with that secret', async () => {
			const { context } = fakeNode();
			const earlierSecrets = vi.fn(() => ['whsec_UNITTEST_other', EARLIER_SECRET]);
			const delivery = await readSignedDelivery(
				context(signedWith(EARLIER_SECRET)),
				undefined,
				earlierSecrets,
			);
			expect(delivery).toEqual({ payload: EVENT, secret: EARLIER_SECRET, earlier: true });
			expect(earlierSecrets).toHaveBeenCalledTimes(1);
		});

		it('are not asked for when the current secret verifies', async () => {
			const { context } = fakeNode();
			const earlierSecrets = vi.fn(() => [EARLIER_SECRET]);
			const delivery = await readSignedDelivery(
				context(signedWith(CREDENTIAL_SECRET)),
				undefined,
				earlierSecrets,
			);
			expect(delivery.earlier).toBe(false);
			expect(earlierSecrets).not.toHaveBeenCalled();
		});

		it('none verifying: 401 with the verdict of the current secret', async () => {
			const { context } = fakeNode();
			const delivery = await readSignedDelivery(
				context(signedWith('whsec_UNITTEST_unknown')),
				undefined,
				() => [EARLIER_SECRET],
			);
			expect(delivery.refusal).toEqual({ status: 401, body: UNSIGNED, reason: 'mismatch' });
		});

		it('an earlier secret that verifies a body that is not an object: 400', async () => {
			const { context } = fakeNode();
			const delivery = await readSignedDelivery(
				context(signedWith(EARLIER_SECRET, '[]')),
				undefined,
				() => [EARLIER_SECRET],
			);
			expect(delivery.refusal).toEqual({
				status: 400,
				body: NOT_AN_OBJECT,
				reason: 'not a JSON object',
			});
		});

		it('a delivery that an earlier secret verified is not remembered as the credential secret', async () => {
			const { context } = fakeNode();
			await readSignedDelivery(context(signedWith(EARLIER_SECRET)), undefined, () => [
				EARLIER_SECRET,
			]);
			expect(rememberedKeys('cred-1')?.signingSecret).toBe(CREDENTIAL_SECRET);
		});
	});

	describe('the remembered secret', () => {
		it('a second delivery within REMEMBER_SECRET_MS does not read the credential; at REMEMBER_SECRET_MS it is read again', async () => {
			const { context, state } = fakeNode();
			await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)));
			expect(state.reads).toBe(1);
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS - 1);
			expect((await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)))).payload).toEqual(
				EVENT,
			);
			expect(state.reads).toBe(1);
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS);
			expect((await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)))).payload).toEqual(
				EVENT,
			);
			expect(state.reads).toBe(2);
		});

		it('a delivery that fails with the remembered secret reads the credential again: a new secret works at once', async () => {
			const { context, state } = fakeNode();
			await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)));
			state.secret = NEW_CREDENTIAL_SECRET;
			vi.setSystemTime(T0 + 1);
			const delivery = await readSignedDelivery(context(signedWith(NEW_CREDENTIAL_SECRET)));
			expect(delivery).toEqual({ payload: EVENT, secret: NEW_CREDENTIAL_SECRET, earlier: false });
			expect(state.reads).toBe(2);
			expect(rememberedKeys('cred-1')?.signingSecret).toBe(NEW_CREDENTIAL_SECRET);
			// Then remembered in turn.
			await readSignedDelivery(context(signedWith(NEW_CREDENTIAL_SECRET)));
			expect(state.reads).toBe(2);
		});

		it('a replaced secret still verifies while remembered, and stops at REMEMBER_SECRET_MS', async () => {
			const { context, state } = fakeNode();
			await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)));
			state.secret = NEW_CREDENTIAL_SECRET;
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS - 1);
			expect((await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)))).secret).toBe(
				CREDENTIAL_SECRET,
			);
			expect(state.reads).toBe(1);
			vi.setSystemTime(T0 + REMEMBER_SECRET_MS);
			expect(
				(await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)))).refusal?.reason,
			).toBe('mismatch');
			expect(state.reads).toBe(2);
		});

		it('every refused delivery reads the credential again (a forged delivery never verifies with the remembered secret)', async () => {
			const { context, state } = fakeNode();
			await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)));
			for (let index = 0; index < 3; index++)
				await readSignedDelivery(context({ signature: 'f'.repeat(64) }));
			expect(state.reads).toBe(4);
		});

		it('a node without a credential id is never remembered: every delivery reads the credential', async () => {
			const { context, state } = fakeNode({ credentialId: null });
			await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)));
			await readSignedDelivery(context(signedWith(CREDENTIAL_SECRET)));
			expect(state.reads).toBe(2);
		});

		it('is kept per credential id', async () => {
			const first = fakeNode({ credentialId: 'cred-a' });
			const second = fakeNode({ credentialId: 'cred-b', secret: NEW_CREDENTIAL_SECRET });
			await readSignedDelivery(first.context(signedWith(CREDENTIAL_SECRET)));
			expect(
				(await readSignedDelivery(second.context(signedWith(NEW_CREDENTIAL_SECRET)))).payload,
			).toEqual(EVENT);
			expect(second.state.reads).toBe(1);
			expect(rememberedKeys('cred-a')?.signingSecret).toBe(CREDENTIAL_SECRET);
			expect(rememberedKeys('cred-b')?.signingSecret).toBe(NEW_CREDENTIAL_SECRET);
		});
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
