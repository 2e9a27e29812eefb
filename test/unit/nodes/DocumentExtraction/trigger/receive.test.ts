/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up test signing secrets, never real ones */
/**
 * A delivery to the trigger (trigger/receive.ts) with a mocked webhook context, the way
 * n8n-nodes-base tests its Stripe and Cal triggers: addressed to this trigger (N40, decided before the
 * signature), signed (the trigger's own secret, N61, or the credential's) and fresh (N41), subscribed,
 * run. Whatever starts no run is answered and logged, and writes nothing: no static data, no credential
 * read beyond the remembered one. Whether a copy runs again is the execution step's
 * (delivery/ignoreDuplicates.ts): the webhook hands every signed, subscribed copy to n8n, which answers
 * once the run is queued. The same rows run in a real n8n in test/e2e/trigger.test.ts,
 * forged-deliveries.test.ts, replays.test.ts and documents-per-workflow.test.ts.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type * as TriggerNodeModule from '../../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import { CREDENTIAL_TYPE } from '../../../../../nodes/DocumentExtraction/constants.ts';
import { computeSignature } from '../../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import {
	signingKeys,
	triggerOwnSecret,
} from '../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts';
import type * as TriggerMemoryModule from '../../../../../nodes/DocumentExtraction/trigger/triggerMemory.ts';
import { credentialData, fakeNode, recordingResponse } from '../../../harness/fakeHookContext.ts';
import { n8nCore } from '../../../harness/n8nModules.ts';

// The trigger and its memories, loaded anew for every test as a newly started n8n process loads them:
// nothing remembered, nothing counted.
let { DocumentExtractionTrigger } = {} as typeof TriggerNodeModule;
let { saveTriggerMemory } = {} as typeof TriggerMemoryModule;
beforeEach(async () => {
	vi.resetModules();
	({ DocumentExtractionTrigger } = await import(
		'../../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts'
	));
	({ saveTriggerMemory } = await import(
		'../../../../../nodes/DocumentExtraction/trigger/triggerMemory.ts'
	));
});

const URL = 'https://n8n.example/webhook/abc/webhook';
const TEST_URL = 'https://n8n.example/webhook-test/abc/webhook';
const CREDENTIAL_SECRET = 'whsec_UNITTEST_trigger_credential_0123456789';
const keysOfK = await signingKeys({ getCredentials: async () => ({ apiKey: 'k' }) });
/** The trigger's own secret (N5, N61) for the API key 'k' of these tests. */
const OWN_SECRET = triggerOwnSecret(keysOfK, URL);
const OWN_TEST_SECRET = triggerOwnSecret(keysOfK, TEST_URL);
/** The own secret of a new API key 'k2' (N68). */
const NEW_KEY_OWN_SECRET = triggerOwnSecret(
	await signingKeys({ getCredentials: async () => ({ apiKey: 'k2' }) }),
	URL,
);
/** A minute ago: inside the replay window (N41) whenever the tests run. */
const SIGNED_AT = new Date(Date.now() - 60_000).toISOString();
const HOUR = 3_600_000;

interface Delivery {
	body: string;
	headers?: IDataObject;
	/** The credential's signing secret ('' = none). */
	credentialSecret?: string;
	/** The credential's API key ('' = none; default 'k'). */
	apiKey?: string;
	/** More fields of the credential (the previous secret and key, N68). */
	credential?: IDataObject;
	events?: string[];
	options?: IDataObject;
	typeVersion?: number;
	documents?: string;
	/** The trigger's webhook the delivery came to (default: the registered one). */
	webhookName?: 'default' | 'setup';
	/** n8n's mode: 'webhook' (production) or 'manual' (test listening). */
	mode?: string;
	/** Shared between deliveries of one test: credential reads and static data reads. */
	counts?: { reads: number; staticData: number };
	credentialId?: string;
}

let workflowCounter = 0;
let workflowId = 'wf-0';

async function deliver(delivery: Delivery) {
	const { answer, response } = recordingResponse();
	const logs: string[] = [];
	const counts = delivery.counts ?? { reads: 0, staticData: 0 };
	const parameters: IDataObject = {
		events: delivery.events ?? ['document.verified', 'document.rejected'],
		options: delivery.options ?? {},
		outputMode: 'simplified',
		...(delivery.documents ? { documents: delivery.documents } : {}),
	};
	const credentialId = delivery.credentialId ?? 'cred-1';
	const context = {
		getWebhookName: () => delivery.webhookName ?? 'default',
		getRequestObject: () => ({
			rawBody: Buffer.from(delivery.body),
			readRawBody: async () => undefined,
		}),
		getHeaderData: () => delivery.headers ?? {},
		getCredentials: async () => {
			counts.reads++;
			return {
				...credentialData(delivery.credentialSecret ?? CREDENTIAL_SECRET),
				apiKey: delivery.apiKey ?? 'k',
				...delivery.credential,
			};
		},
		getMode: () => delivery.mode ?? 'webhook',
		getNodeWebhookUrl: (name: string) => (name === 'default' ? URL : undefined),
		getWorkflowStaticData: () => {
			counts.staticData++;
			return {};
		},
		getResponseObject: () => response,
		getNodeParameter: (name: string, fallback: unknown) =>
			name in parameters ? parameters[name] : fallback,
		getWorkflow: () => ({ id: workflowId, name: 'trigger test', active: true }),
		getNode: () =>
			fakeNode({
				id: 'n1',
				name: 'Review finished',
				typeVersion: delivery.typeVersion ?? 1,
				parameters,
				credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Document Extraction' } },
			}),
		logger: {
			info: (message: string) => logs.push(`info: ${message}`),
			warn: (message: string) => logs.push(`warn: ${message}`),
			debug: () => undefined,
			error: () => undefined,
		},
		helpers: { returnJsonArray: n8nCore.returnJsonArray },
	} as unknown as IWebhookFunctions;
	const result = await new DocumentExtractionTrigger().webhook.call(context);
	return { result, answer, logs, counts };
}

const event = (overrides: IDataObject = {}) => ({
	event: 'document.verified',
	timestamp: SIGNED_AT,
	document_id: 'doc_trigger_1',
	review_id: 'rev_1',
	verified_by: 'reviewer@example.com',
	confidence: { original: 0.81, final: 1 },
	extracted_json: { vendor: 'Acme Supplies GmbH', total: 1487.5 },
	...overrides,
});

function signed(payload: unknown, secret = OWN_SECRET, headerName = 'X-Service-Signature') {
	const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
	return { body, headers: { [headerName]: computeSignature(body, secret) } };
}

const started = (result: { workflowData?: unknown[][] }) => result.workflowData?.[0]?.length ?? 0;

describe('a delivery that starts a run', () => {
	it('signed with the trigger’s own secret, subscribed: the event as its item; n8n answers once it queued the run', async () => {
		workflowId = `wf-${++workflowCounter}`;
		const { result, answer } = await deliver(signed(event()));
		expect(result.noWebhookResponse).toBeUndefined();
		expect(result.webhookResponse).toEqual({ received: true, started: true });
		expect(answer).toEqual({});
		const [items] = result.workflowData!;
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			event: 'document.verified',
			document_id: 'doc_trigger_1',
			status: 'verified',
			review_id: 'rev_1',
		});
	});

	it("signed with the credential's secret (registrations of earlier versions hold it): runs too", async () => {
		expect(started((await deliver(signed(event(), CREDENTIAL_SECRET))).result)).toBe(1);
	});

	it('a copy of an event that ran is handed to n8n again: its run decides (N63), the webhook keeps nothing', async () => {
		const counts = { reads: 0, staticData: 0 };
		for (let copy = 0; copy < 3; copy++)
			expect(started((await deliver({ ...signed(event()), counts })).result)).toBe(1);
		expect(counts).toEqual({ reads: 1, staticData: 0 });
	});

	it('reads the signature header whatever the case of its name', async () => {
		expect(
			started((await deliver(signed(event(), OWN_SECRET, 'x-service-signature'))).result),
		).toBe(1);
	});

	it("the webhook description lets n8n's deferred answer be the node's webhookResponse (responseData empty, answered on received)", () => {
		const [webhook] = new DocumentExtractionTrigger().description.webhooks!;
		expect(webhook).toMatchObject({ responseMode: 'onReceived', responseData: '' });
	});

	it('without a timestamp (or not ISO 8601 UTC): runs (its claim still recognises a copy)', async () => {
		expect(started((await deliver(signed(event({ timestamp: undefined })))).result)).toBe(1);
		expect(started((await deliver(signed(event({ timestamp: 'yesterday' })))).result)).toBe(1);
	});
});

describe('a delivery that starts nothing: answered, logged, counted in this process, nothing written', () => {
	it.each([
		['a wrong signature', signed(event(), 'another-secret').headers, 'signature mismatch'],
		['no signature', {}, 'signature missing'],
		[
			'a "sha256=" prefixed signature',
			{ 'X-Service-Signature': `sha256=${computeSignature(JSON.stringify(event()), OWN_SECRET)}` },
			'signature malformed',
		],
	])('%s: 401, no run', async (_case, headers, reason) => {
		const { result, answer, logs, counts } = await deliver({
			body: JSON.stringify(event()),
			headers,
		});
		expect(result).toEqual({ noWebhookResponse: true });
		expect(answer).toEqual({
			status: 401,
			body: { error: 'Invalid or missing X-Service-Signature' },
		});
		expect(logs).toEqual([
			`warn: Document Extraction Trigger: refused a delivery without a run (${reason}; 1 since n8n started)`,
		]);
		expect(counts.staticData).toBe(0);
	});

	it('a body changed after signing: 401', async () => {
		const { headers } = signed(event());
		const { answer } = await deliver({
			body: JSON.stringify(event({ document_id: 'doc_other' })),
			headers,
		});
		expect(answer.status).toBe(401);
	});

	it('signed, but not a JSON object: 400', async () => {
		for (const body of ['[1,2]', '"text"', 'null'])
			expect((await deliver(signed(body))).answer).toEqual({
				status: 400,
				body: { error: 'Body is not a JSON object' },
			});
	});

	it('1,000 forged deliveries: one credential read (the remembered one), no static data touched, each counted', async () => {
		workflowId = `wf-${++workflowCounter}`;
		const counts = { reads: 0, staticData: 0 };
		const answers = await Promise.all(
			Array.from({ length: 1000 }, async (_, index) => {
				const forged = signed(event({ document_id: `doc_forged_${index}` }), `guess-${index}`);
				return await deliver({ ...forged, counts });
			}),
		);
		expect(answers.every(({ answer }) => answer.status === 401)).toBe(true);
		expect(counts).toEqual({ reads: 1, staticData: 0 });
		expect(answers.at(-1)?.logs[0]).toContain('1000 since n8n started');
	});

	it('an event the trigger is not subscribed to: 200 not started', async () => {
		const { result, answer } = await deliver({
			...signed(event({ event: 'document.rejected' })),
			events: ['document.verified'],
		});
		expect(started(result)).toBe(0);
		expect(answer).toEqual({
			status: 200,
			body: { received: true, started: false, reason: 'event not subscribed' },
		});
	});

	it('N41: signed three days ago, or two hours ahead: 400 stale; the Replay Window option sets how old is too old', async () => {
		for (const at of [Date.now() - 72 * HOUR, Date.now() + 2 * HOUR]) {
			const { answer, logs } = await deliver(
				signed(event({ timestamp: new Date(at).toISOString() })),
			);
			expect(answer.status).toBe(400);
			expect(String(answer.body?.error)).toMatch(/^Stale delivery: signed /);
			expect(logs[0]).toMatch(/refused a delivery without a run \(stale: signed /);
		}
		const twoHoursAgo = signed(event({ timestamp: new Date(Date.now() - 2 * HOUR).toISOString() }));
		expect(
			(await deliver({ ...twoHoursAgo, options: { replayWindowHours: 1 } })).answer.status,
		).toBe(400);
		expect(
			started((await deliver({ ...twoHoursAgo, options: { replayWindowHours: 3 } })).result),
		).toBe(1);
	});

	it('no secret at all (no API key, none in the credential): 401', async () => {
		const { answer } = await deliver({
			...signed(event(), ''),
			credentialSecret: '',
			apiKey: '',
		});
		expect(answer.status).toBe(401);
	});
});

describe('N68: a new signing secret or API key, the previous one accepted until the time the credential sets', () => {
	const NEW_CREDENTIAL_SECRET = 'whsec_UNITTEST_trigger_credential_rotated_9876';
	let rotations = 0;
	/**
	 * The credential after the change: API key 'k2' (was 'k'), a new signing secret, the previous ones
	 * kept until `until`; a credential of its own each time (none remembered from another delivery).
	 */
	const rotated = (until?: string): Partial<Delivery> => ({
		credentialId: `cred-rotated-${++rotations}`,
		apiKey: 'k2',
		credentialSecret: NEW_CREDENTIAL_SECRET,
		credential: {
			previousApiKey: 'k',
			previousSigningSecret: CREDENTIAL_SECRET,
			...(until === undefined ? {} : { acceptPreviousUntil: until }),
		},
	});
	const inAnHour = new Date(Date.now() + HOUR).toISOString();
	const anHourAgo = new Date(Date.now() - HOUR).toISOString();

	it("before that time, a delivery through the previous key's registration (its own secret) runs; the log says to publish again", async () => {
		const { result, logs } = await deliver({
			...signed(event(), OWN_SECRET),
			...rotated(inAnHour),
		});
		expect(started(result)).toBe(1);
		expect(logs).toEqual([
			`warn: Document Extraction Trigger: accepted a delivery signed with a previous secret of the credential (accepted until ${inAnHour}); after a new API key, publish the workflow again before then, so that the service signs with the new one`,
		]);
	});

	it('before that time the previous signing secret verifies too, and the current ones always do', async () => {
		for (const secret of [CREDENTIAL_SECRET, NEW_CREDENTIAL_SECRET, NEW_KEY_OWN_SECRET])
			expect(
				started((await deliver({ ...signed(event(), secret), ...rotated(inAnHour) })).result),
				secret,
			).toBe(1);
		for (const until of [anHourAgo, undefined])
			expect(
				started(
					(await deliver({ ...signed(event(), NEW_KEY_OWN_SECRET), ...rotated(until) })).result,
				),
			).toBe(1);
		// At the workflow's address only the account's secrets sign (D13), the previous one included.
		const v12 = { typeVersion: 1.2, webhookName: 'setup' as const };
		const atTheWorkflow = await deliver({
			...signed(event(), CREDENTIAL_SECRET),
			...rotated(inAnHour),
			...v12,
		});
		expect(started(atTheWorkflow.result)).toBe(1);
		expect(
			(await deliver({ ...signed(event(), OWN_SECRET), ...rotated(inAnHour), ...v12 })).answer
				.status,
		).toBe(401);
	});

	it.each([
		['after that time', anHourAgo, `accepted until ${anHourAgo}`],
		['with no time set', undefined, 'no "Accept Previous Until (UTC)" set'],
		['with a time that is not a date', 'next week', 'no "Accept Previous Until (UTC)" set'],
	])(
		'%s, a delivery signed with a previous secret is refused 401; the log says what to do and names no secret',
		async (_case, until, when) => {
			for (const secret of [OWN_SECRET, CREDENTIAL_SECRET]) {
				const { result, answer, logs } = await deliver({
					...signed(event(), secret),
					...rotated(until),
				});
				expect(result).toEqual({ noWebhookResponse: true });
				expect(answer).toEqual({
					status: 401,
					body: { error: 'Invalid or missing X-Service-Signature' },
				});
				expect(logs).toHaveLength(1);
				expect(logs[0]).toMatch(
					/^warn: Document Extraction Trigger: refused a delivery without a run \(signed with a previous secret of the credential/,
				);
				expect(logs[0]).toContain(
					`(${when}): to accept it for longer, set a later "Accept Previous Until (UTC)" in the credential; after a new API key, publish the workflow again`,
				);
				for (const value of [OWN_SECRET, CREDENTIAL_SECRET, NEW_CREDENTIAL_SECRET, 'k2'])
					expect(logs[0].includes(value), 'a secret in the log').toBe(false);
			}
		},
	);

	it('a secret that is neither the current nor the previous one: 401 signature mismatch, as before', async () => {
		const { answer, logs } = await deliver({
			...signed(event(), 'whsec_UNITTEST_neither'),
			...rotated(inAnHour),
		});
		expect(answer.status).toBe(401);
		expect(logs[0]).toContain('(signature mismatch; 1 since n8n started)');
	});
});

describe('N40: Documents, decided by the address before the signature', () => {
	const v12 = { typeVersion: 1.2 };

	it("Sent by This Workflow (1.2's default): a document this workflow sent, at the workflow's address, signed with the account secret, runs", async () => {
		const { result } = await deliver({
			...signed(event(), CREDENTIAL_SECRET),
			...v12,
			webhookName: 'setup',
		});
		expect(started(result)).toBe(1);
	});

	it('Sent by This Workflow: anything at the registered address is answered 200 without reading the credential, forged or not', async () => {
		const counts = { reads: 0, staticData: 0 };
		for (const delivery of [signed(event()), { body: 'forged', headers: {} }]) {
			const { answer, logs } = await deliver({ ...delivery, ...v12, counts });
			expect(answer).toEqual({
				status: 200,
				body: { received: true, started: false, reason: 'not addressed to this workflow' },
			});
			expect(logs[0]).toMatch(/^info: .*not addressed to this workflow/);
		}
		expect(counts).toEqual({ reads: 0, staticData: 0 });
	});

	it("the workflow's address does not replace the signature: a forged body there is refused 401", async () => {
		const { answer } = await deliver({
			...signed(event(), 'forged-secret'),
			...v12,
			webhookName: 'setup',
		});
		expect(answer.status).toBe(401);
	});

	it("Every Document on the Account (1 and 1.1 by default): the account's delivery runs; the document's own copy at the workflow's address is answered without reading the credential", async () => {
		const counts = { reads: 0, staticData: 0 };
		expect(
			started(
				(await deliver({ ...signed(event(), CREDENTIAL_SECRET), webhookName: 'setup', counts }))
					.result,
			),
		).toBe(0);
		expect(counts.reads).toBe(0);
		for (const documents of ['account', undefined])
			expect(
				started(
					(await deliver({ ...signed(event()), documents, typeVersion: documents ? 1.2 : 1.1 }))
						.result,
				),
			).toBe(1);
	});
});

describe('test listening', () => {
	const listening = { mode: 'manual' };

	function registerTestUrl(): void {
		saveTriggerMemory(
			{
				getMode: () => 'manual',
				getWorkflow: () => ({ id: workflowId }),
				getNode: () => ({ id: 'n1' }),
			} as unknown as IHookFunctions,
			{
				registrations: [
					{
						webhookId: 'wh_test',
						url: TEST_URL,
						events: ['document.verified'],
						secretFingerprint: '',
						registeredAt: '',
					},
				],
			},
		);
	}

	it("verifies with the trigger's own secret for the test URL this process registered", async () => {
		workflowId = `wf-${++workflowCounter}`;
		registerTestUrl();
		expect(
			started((await deliver({ ...signed(event(), OWN_TEST_SECRET), ...listening })).result),
		).toBe(1);
		expect((await deliver({ ...signed(event(), OWN_SECRET), ...listening })).answer.status).toBe(
			401,
		);
	});

	it('N37: the sample event runs in test listening, marked sample: true; never in production', async () => {
		workflowId = `wf-${++workflowCounter}`;
		registerTestUrl();
		const sample = event({ sample: true, document_id: 'doc_sample_1' });
		const { result } = await deliver({ ...signed(sample, OWN_TEST_SECRET), ...listening });
		expect(result.workflowData?.[0][0].json).toMatchObject({ sample: true });
		const production = await deliver(signed(sample));
		expect(started(production.result)).toBe(0);
		expect(production.answer.body).toEqual({
			received: true,
			started: false,
			reason: 'sample event (test listening only)',
		});
	});
});
