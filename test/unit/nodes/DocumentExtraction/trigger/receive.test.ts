/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up test signing secrets, never real ones */
/**
 * A delivery to the trigger (trigger/receive.ts) with a mocked webhook context, the way
 * n8n-nodes-base tests its Stripe and Cal triggers: what starts a run and what is answered without
 * one; and the trigger as a person builds with it: test listening and production apart (N30), a
 * changed signing secret with both secrets in flight (N34), copies through a replaced registration
 * (N35), refused deliveries counted (N36), the sample event (N37). The same rows run in a real n8n in
 * test/e2e/trigger.test.ts and test/e2e/trigger-editing.test.ts.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { forgetProcessMemories } from '../../../../../nodes/DocumentExtraction/memory/processMemory.ts';

import { DocumentExtractionTrigger } from '../../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import { CREDENTIAL_TYPE } from '../../../../../nodes/DocumentExtraction/constants.ts';
import { rememberKnownSecret } from '../../../../../nodes/DocumentExtraction/delivery/knownSecrets.ts';
import { computeSignature } from '../../../../../nodes/DocumentExtraction/delivery/signature.ts';
import {
	REMEMBER_SECRET_MS,
	signingKeys,
	triggerOwnSecret,
} from '../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts';
import { STATIC_DATA_KEY } from '../../../../../nodes/DocumentExtraction/trigger/triggerMemory.ts';
import type { Registration } from '../../../harness/fakeHookContext.ts';
import {
	acceptingRegistrations,
	credentialData,
	fakeNode,
	heldRegistration,
	recordingResponse,
	silentLogger,
	staticDataByType,
} from '../../../harness/fakeHookContext.ts';
import { n8nCore } from '../../../harness/n8nModules.ts';

/** The trigger's own secret (N5) for the API key 'k' of these tests and the registered URL. */
const GENERATED_SECRET = triggerOwnSecret(
	await signingKeys({ getCredentials: async () => ({ apiKey: 'k' }) }),
	'https://n8n.example/webhook/abc/webhook',
);

/** A minute ago: inside the replay window (N41) whenever the tests run. */
const SIGNED_AT = new Date(Date.now() - 60_000).toISOString();

describe('a delivery', () => {
	const CREDENTIAL_SECRET = 'whsec_UNITTEST_trigger_credential_0123456789';

	let workflowCounter = 0;

	interface Delivery {
		body: string;
		headers?: IDataObject;
		/** The credential's signing secret ('' = none). */
		credentialSecret?: string;
		staticData?: IDataObject;
		events?: string[];
		options?: IDataObject;
		/** Workflow id: each test its own, so this process's memory of deliveries does not leak between tests. */
		workflowId?: string;
		/** The id of the node's credential (none: the node carries no credential reference). */
		credentialId?: string;
		/** Counts the context's credential reads. */
		reads?: { count: number };
		/** Collects the registrations the trigger makes. */
		registered?: Registration[];
		/** The node's version (default 1). */
		typeVersion?: number;
		/** The Documents parameter (unset: the version's default). */
		documents?: string;
		/** The trigger's webhook the delivery came to (default: the registered one). */
		webhookName?: 'default' | 'setup';
	}

	/** The accepted keys the trigger keeps. */
	function seenDeliveries(staticData: IDataObject): unknown {
		const memory = (staticData[STATIC_DATA_KEY] as IDataObject | undefined)?.n1 as
			| { accepted?: { entries: Record<string, unknown> } }
			| undefined;
		return memory?.accepted && Object.keys(memory.accepted.entries);
	}

	/** The static data of a trigger that registered with its own secret (the credential had none). */
	const registeredWithOwnSecret = (events: string[]): IDataObject =>
		heldRegistration('https://n8n.example/webhook/abc/webhook', events, GENERATED_SECRET);

	async function deliver(delivery: Delivery) {
		const { answer, response } = recordingResponse();
		const logs: Array<[string, string]> = [];
		const staticData = delivery.staticData ?? {};
		const workflowId = delivery.workflowId ?? `wf-${++workflowCounter}`;
		const parameters: IDataObject = {
			events: delivery.events ?? ['document.verified', 'document.rejected'],
			options: delivery.options ?? {},
			outputMode: 'simplified',
			...(delivery.documents ? { documents: delivery.documents } : {}),
		};
		const context = {
			getWebhookName: () => delivery.webhookName ?? 'default',
			getRequestObject: () => ({
				rawBody: Buffer.from(delivery.body),
				readRawBody: async () => undefined,
			}),
			getHeaderData: () => delivery.headers ?? {},
			getCredentials: async () => {
				if (delivery.reads) delivery.reads.count++;
				return credentialData(delivery.credentialSecret ?? CREDENTIAL_SECRET);
			},
			getMode: () => 'webhook',
			getWorkflowStaticData: () => staticData,
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
					...(delivery.credentialId
						? {
								credentials: {
									[CREDENTIAL_TYPE]: {
										id: delivery.credentialId,
										name: 'Document Extraction account',
									},
								},
							}
						: {}),
				}),
			logger: {
				info: (message: string) => logs.push(['info', message]),
				warn: (message: string) => logs.push(['warn', message]),
				debug: () => undefined,
				error: () => undefined,
			},
			helpers: {
				returnJsonArray: n8nCore.returnJsonArray,
				httpRequestWithAuthentication: acceptingRegistrations(delivery.registered, () => 'wh_new'),
			},
		} as unknown as IWebhookFunctions;
		const result = await new DocumentExtractionTrigger().webhook.call(context);
		return { result, answer, logs, staticData, workflowId };
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

	function signed(
		payload: unknown,
		secret = CREDENTIAL_SECRET,
		headerName = 'X-Service-Signature',
	) {
		const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
		return { body, headers: { [headerName]: computeSignature(body, secret) } };
	}

	describe('trigger webhook()', () => {
		it('a validly signed, subscribed event starts one run with the event as its item, answered 200 started', async () => {
			const { result, answer } = await deliver(signed(event()));
			expect(answer).toEqual({ status: 200, body: { received: true, started: true } });
			expect(result.noWebhookResponse).toBe(true);
			expect(result.workflowData).toHaveLength(1);
			const [items] = result.workflowData!;
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				event: 'document.verified',
				document_id: 'doc_trigger_1',
				status: 'verified',
				review_id: 'rev_1',
			});
		});

		it('reads the signature header whatever the case of its name', async () => {
			const { result } = await deliver(signed(event(), CREDENTIAL_SECRET, 'x-service-signature'));
			expect(result.workflowData).toHaveLength(1);
		});

		it.each([
			[
				'a wrong signature',
				{
					headers: {
						'X-Service-Signature': computeSignature(JSON.stringify(event()), 'another-secret'),
					},
				},
				'mismatch',
			],
			['no signature', { headers: {} }, 'missing'],
			[
				'a "sha256=" prefixed signature',
				{
					headers: {
						'X-Service-Signature': `sha256=${computeSignature(JSON.stringify(event()), CREDENTIAL_SECRET)}`,
					},
				},
				'malformed',
			],
		])('%s: 401, no run', async (_case, { headers }, verdict) => {
			const { result, answer, logs } = await deliver({ body: JSON.stringify(event()), headers });
			expect(answer).toEqual({
				status: 401,
				body: { error: 'Invalid or missing X-Service-Signature' },
			});
			expect(result).toEqual({ noWebhookResponse: true });
			expect(logs).toContainEqual([
				'warn',
				`Document Extraction Trigger: refused a delivery (signature ${verdict})`,
			]);
		});

		it('a body changed after signing: 401, no run', async () => {
			const { headers } = signed(event());
			const { result, answer } = await deliver({
				body: JSON.stringify(event({ document_id: 'doc_other' })),
				headers,
			});
			expect(answer.status).toBe(401);
			expect(result.workflowData).toBeUndefined();
		});

		it.each([
			['not JSON', 'this is not json'],
			['a JSON array', '[1,2]'],
			['JSON null', 'null'],
		])('a signed body that is %s: 400, no run', async (_case, body) => {
			const { result, answer, logs } = await deliver(signed(body));
			expect(answer).toEqual({ status: 400, body: { error: 'Body is not a JSON object' } });
			expect(result).toEqual({ noWebhookResponse: true });
			expect(logs).toContainEqual([
				'warn',
				'Document Extraction Trigger: refused a signed delivery whose body is not a JSON object',
			]);
		});

		it('an event the trigger is not subscribed to: answered 200 not started, no run', async () => {
			const { result } = await deliver({
				...signed(event({ event: 'document.rejected' })),
				events: ['document.verified'],
			});
			expect(result).toEqual({
				webhookResponse: { received: true, started: false, reason: 'event not subscribed' },
			});
		});

		it('the same event twice in this process: the copy starts no run', async () => {
			const first = await deliver(signed(event()));
			expect(first.result.workflowData).toHaveLength(1);
			// A fresh static data, as if n8n had not saved it yet: this process's memory stops the copy.
			const copy = await deliver({ ...signed(event()), workflowId: first.workflowId });
			expect(copy.result).toEqual({
				webhookResponse: { received: true, started: false, reason: 'duplicate' },
			});
			expect(copy.logs).toContainEqual([
				'info',
				'Document Extraction Trigger: ignored a duplicate document.verified:doc_trigger_1',
			]);
		});

		it('an event remembered in static data (e.g. before a restart): the copy starts no run', async () => {
			const first = await deliver(signed(event()));
			expect(seenDeliveries(first.staticData)).toEqual(['document.verified:doc_trigger_1']);
			// Another workflow id: this process's memory does not know it; only the static data does.
			const copy = await deliver({ ...signed(event()), staticData: first.staticData });
			expect(copy.result).toEqual({
				webhookResponse: { received: true, started: false, reason: 'duplicate' },
			});
		});

		it('with Ignore Duplicates off, a copy starts another run', async () => {
			const first = await deliver({ ...signed(event()), options: { ignoreDuplicates: false } });
			const copy = await deliver({
				...signed(event()),
				options: { ignoreDuplicates: false },
				workflowId: first.workflowId,
				staticData: first.staticData,
			});
			expect(copy.result.workflowData).toHaveLength(1);
		});

		it('with Ignore Duplicates off, the trigger does not answer itself: n8n answers with its webhookResponse once the run is queued', async () => {
			const { result, answer, staticData } = await deliver({
				...signed(event()),
				options: { ignoreDuplicates: false },
			});
			expect(answer).toEqual({});
			expect(result.noWebhookResponse).toBeUndefined();
			expect(result.webhookResponse).toEqual({ received: true, started: true });
			expect(result.workflowData?.[0]).toHaveLength(1);
			expect(result.workflowData?.[0][0].json).toMatchObject({
				event: 'document.verified',
				document_id: 'doc_trigger_1',
			});
			expect(staticData).toEqual({});
		});

		it('with Ignore Duplicates on (the default), the trigger answers before n8n queues the run, so the memory is saved', async () => {
			const { result, answer, staticData } = await deliver(signed(event()));
			expect(answer).toEqual({ status: 200, body: { received: true, started: true } });
			expect(result.noWebhookResponse).toBe(true);
			expect(result.webhookResponse).toBeUndefined();
			expect(seenDeliveries(staticData)).toEqual(['document.verified:doc_trigger_1']);
		});

		it("the webhook description lets n8n's deferred answer be the node's webhookResponse (responseData empty, answered on received)", () => {
			const [webhook] = new DocumentExtractionTrigger().description.webhooks ?? [];
			expect(webhook.responseMode).toBe('onReceived');
			expect(webhook.responseData).toBe('');
		});

		it('the other event of the same document is not a duplicate', async () => {
			const first = await deliver(signed(event()));
			const other = await deliver({
				...signed(event({ event: 'document.rejected' })),
				workflowId: first.workflowId,
				staticData: first.staticData,
			});
			expect(other.result.workflowData).toHaveLength(1);
		});

		it("without a credential secret, the trigger's own secret (derived, nothing stored) verifies deliveries", async () => {
			const staticData = registeredWithOwnSecret([]);
			const accepted = await deliver({
				...signed(event(), GENERATED_SECRET),
				credentialSecret: '',
				staticData,
			});
			expect(accepted.result.workflowData).toHaveLength(1);
			const refused = await deliver({
				...signed(event({ document_id: 'doc_trigger_2' }), CREDENTIAL_SECRET),
				credentialSecret: '',
				staticData,
			});
			expect(refused.answer.status).toBe(401);
		});

		it("after the credential got a secret, a delivery signed with the trigger's own secret the service still holds runs, and the credential secret is registered (N34)", async () => {
			const staticData = registeredWithOwnSecret(['document.verified']);
			const registered: Registration[] = [];
			const accepted = await deliver({
				...signed(event(), GENERATED_SECRET),
				staticData,
				registered,
				events: ['document.verified'],
			});
			expect(accepted.result.workflowData).toHaveLength(1);
			expect(registered).toEqual([
				{
					url: 'https://n8n.example/webhook/abc/webhook',
					events: ['document.verified'],
					secret: CREDENTIAL_SECRET,
				},
			]);
		});

		it('no secret at all (none in the credential, none generated): 401, no run', async () => {
			const { result, answer } = await deliver({ ...signed(event(), ''), credentialSecret: '' });
			expect(answer.status).toBe(401);
			expect(result.workflowData).toBeUndefined();
		});
	});

	describe('N41: a delivery replayed later starts nothing', () => {
		const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

		it('signed three days ago, or two hours ahead: 400, no run, counted with the refusals', async () => {
			const staticData: IDataObject = {};
			for (const timestamp of [hoursAgo(72), hoursAgo(-2)]) {
				const { result, answer } = await deliver({
					...signed(event({ timestamp })),
					staticData,
				});
				expect(answer.status, timestamp).toBe(400);
				expect(String(answer.body?.error)).toMatch(/^Stale delivery/);
				expect(result.workflowData).toBeUndefined();
			}
			const memory = (staticData[STATIC_DATA_KEY] as IDataObject).n1 as IDataObject;
			expect(memory.refused).toMatchObject({
				count: 2,
				lastReason: 'stale: signed in the future (answered 400)',
			});
			expect(memory.accepted).toBeUndefined();
		});

		it('the Replay Window option sets how old is too old', async () => {
			const payload = event({ timestamp: hoursAgo(2) });
			const narrow = await deliver({ ...signed(payload), options: { replayWindowHours: 1 } });
			expect(narrow.answer.status).toBe(400);
			const wide = await deliver({ ...signed(payload), options: { replayWindowHours: 3 } });
			expect(wide.result.workflowData?.[0]).toHaveLength(1);
		});

		it('a retry inside the window is the usual duplicate; accepted with its signed time', async () => {
			const staticData: IDataObject = {};
			const payload = event({ timestamp: hoursAgo(5) });
			const first = await deliver({ ...signed(payload), staticData });
			const retry = await deliver({ ...signed(payload), staticData });
			expect(first.result.workflowData?.[0]).toHaveLength(1);
			expect(retry.result).toEqual({
				webhookResponse: { received: true, started: false, reason: 'duplicate' },
			});
			const memory = (staticData[STATIC_DATA_KEY] as IDataObject).n1 as {
				accepted: { entries: Record<string, number> };
			};
			expect(memory.accepted.entries['document.verified:doc_trigger_1']).toBe(
				Date.parse(payload.timestamp),
			);
		});

		it('without a timestamp (or not ISO 8601 UTC): runs once, remembered without a time', async () => {
			const staticData: IDataObject = {};
			const untimed: IDataObject = event();
			delete untimed.timestamp;
			const first = await deliver({ ...signed(untimed), staticData });
			const copy = await deliver({ ...signed(untimed), staticData });
			expect(first.result.workflowData?.[0]).toHaveLength(1);
			expect(copy.result.webhookResponse).toMatchObject({ reason: 'duplicate' });
			const memory = (staticData[STATIC_DATA_KEY] as IDataObject).n1 as {
				accepted: { entries: Record<string, unknown> };
			};
			expect(memory.accepted.entries['document.verified:doc_trigger_1']).toBeNull();
		});
	});

	describe('N40: Documents, which reviewed documents start the workflow', () => {
		const toThisWorkflow = { webhookName: 'setup' } as const;

		it("version 1.2 (Sent by This Workflow by default): a document this workflow sent, delivered to the workflow's address, runs", async () => {
			const { result } = await deliver({ ...signed(event()), typeVersion: 1.2, ...toThisWorkflow });
			expect(result.workflowData?.[0]).toHaveLength(1);
		});

		it("version 1.2: the account's delivery is answered 200 without a run, counted in the log, and writes no static data", async () => {
			const staticData: IDataObject = {};
			const workflowId = 'wf-not-addressed';
			for (const [count, documentId] of ['doc_other_1', 'doc_other_2'].entries()) {
				const { result, answer, logs } = await deliver({
					...signed(event({ document_id: documentId })),
					typeVersion: 1.2,
					staticData,
					workflowId,
				});
				expect(result.workflowData).toBeUndefined();
				expect(answer.status).toBeUndefined();
				expect(result.webhookResponse).toEqual({
					received: true,
					started: false,
					reason: 'not addressed to this workflow',
				});
				expect(logs.map(([, message]) => message).join('\n')).toContain(
					`no run for document.verified of ${documentId}: not addressed to this workflow (${count + 1} since n8n started)`,
				);
			}
			expect(staticData).toEqual({});
		});

		it("the workflow's address does not replace the signature: a forged body there is refused 401", async () => {
			const { result, answer } = await deliver({
				...signed(event(), 'not-the-secret'),
				typeVersion: 1.2,
				...toThisWorkflow,
			});
			expect(result.workflowData).toBeUndefined();
			expect(answer.status).toBe(401);
		});

		it('Every Document on the Account (and versions 1 and 1.1 by default): the account delivery runs', async () => {
			for (const delivery of [
				{ typeVersion: 1.2, documents: 'account' },
				{ typeVersion: 1.1 },
				{ typeVersion: 1 },
			]) {
				const { result } = await deliver({ ...signed(event()), ...delivery });
				expect(result.workflowData?.[0], JSON.stringify(delivery)).toHaveLength(1);
			}
		});

		it("Every Document on the Account: the document's own copy at the workflow's address starts nothing (the account's delivery runs it)", async () => {
			const { result } = await deliver({
				...signed(event()),
				typeVersion: 1.1,
				...toThisWorkflow,
			});
			expect(result.webhookResponse).toMatchObject({
				started: false,
				reason: "a copy of the account's delivery",
			});
			expect(result.workflowData).toBeUndefined();
		});

		it("a copy of this workflow's document at its address after it ran is still a duplicate", async () => {
			const staticData: IDataObject = {};
			const first = await deliver({
				...signed(event()),
				typeVersion: 1.2,
				...toThisWorkflow,
				staticData,
			});
			const copy = await deliver({
				...signed(event()),
				typeVersion: 1.2,
				...toThisWorkflow,
				staticData,
			});
			expect(first.result.workflowData?.[0]).toHaveLength(1);
			expect(copy.result.workflowData).toBeUndefined();
		});
	});

	describe('trigger webhook(): the signing secret is read from the credential at most every few seconds', () => {
		afterEach(() => {
			forgetProcessMemories();
			vi.useRealTimers();
		});

		it('a second delivery with the same credential does not read the credential again', async () => {
			const reads = { count: 0 };
			const first = await deliver({ ...signed(event()), credentialId: 'cred-1', reads });
			const second = await deliver({
				...signed(event({ document_id: 'doc_trigger_2' })),
				credentialId: 'cred-1',
				reads,
			});
			expect(first.result.workflowData).toHaveLength(1);
			expect(second.result.workflowData).toHaveLength(1);
			expect(reads.count).toBe(1);
		});

		it('a new secret in the credential is used at once: the delivery it signs reads the credential again and runs', async () => {
			const reads = { count: 0 };
			await deliver({ ...signed(event()), credentialId: 'cred-1', reads });
			const NEW_SECRET = 'whsec_UNITTEST_trigger_rotated_9876543210';
			const next = await deliver({
				...signed(event({ document_id: 'doc_trigger_2' }), NEW_SECRET),
				credentialSecret: NEW_SECRET,
				credentialId: 'cred-1',
				reads,
			});
			expect(next.result.workflowData).toHaveLength(1);
			expect(reads.count).toBe(2);
		});

		it('a wrong signature is checked against the credential itself before the 401', async () => {
			const reads = { count: 0 };
			await deliver({ ...signed(event()), credentialId: 'cred-1', reads });
			const forged = await deliver({
				...signed(event({ document_id: 'doc_trigger_2' }), 'another-secret'),
				credentialId: 'cred-1',
				reads,
			});
			expect(forged.answer.status).toBe(401);
			expect(forged.result.workflowData).toBeUndefined();
			expect(reads.count).toBe(2);
		});

		it(`a replaced secret stops verifying once ${REMEMBER_SECRET_MS / 1000} s have passed since the credential was read`, async () => {
			vi.useFakeTimers({ toFake: ['Date'] });
			const reads = { count: 0 };
			await deliver({ ...signed(event()), credentialId: 'cred-1', reads });
			const NEW_SECRET = 'whsec_UNITTEST_trigger_rotated_9876543210';
			vi.setSystemTime(Date.now() + REMEMBER_SECRET_MS);
			const old = await deliver({
				...signed(event({ document_id: 'doc_trigger_2' })),
				credentialSecret: NEW_SECRET,
				credentialId: 'cred-1',
				reads,
			});
			expect(old.answer.status).toBe(401);
			expect(reads.count).toBe(2);
		});

		it('each credential has its own secret: another credential id reads its own', async () => {
			const reads = { count: 0 };
			await deliver({ ...signed(event()), credentialId: 'cred-1', reads });
			const OTHER_SECRET = 'whsec_UNITTEST_trigger_other_account_000';
			const other = await deliver({
				...signed(event({ document_id: 'doc_trigger_2' }), OTHER_SECRET),
				credentialSecret: OTHER_SECRET,
				credentialId: 'cred-2',
				reads,
			});
			expect(other.result.workflowData).toHaveLength(1);
			const wrong = await deliver({
				...signed(event({ document_id: 'doc_trigger_3' })),
				credentialSecret: OTHER_SECRET,
				credentialId: 'cred-2',
				reads,
			});
			expect(wrong.answer.status).toBe(401);
			expect(reads.count).toBe(3);
		});

		it("without a credential secret, the trigger's own secret still verifies when the empty secret is remembered", async () => {
			const staticData = registeredWithOwnSecret([]);
			const reads = { count: 0 };
			const first = await deliver({
				...signed(event(), GENERATED_SECRET),
				credentialSecret: '',
				staticData,
				credentialId: 'cred-3',
				reads,
			});
			const second = await deliver({
				...signed(event({ document_id: 'doc_trigger_2' }), GENERATED_SECRET),
				credentialSecret: '',
				staticData,
				credentialId: 'cred-3',
				reads,
			});
			expect(first.result.workflowData).toHaveLength(1);
			expect(second.result.workflowData).toHaveLength(1);
			expect(reads.count).toBe(1);
		});
	});
});

describe('as a person builds with the trigger', () => {
	const OLD_SECRET = 'whsec_UNITTEST_editing_old_0123456789';
	const NEW_SECRET = 'whsec_UNITTEST_editing_new_9876543210';
	const URL = 'https://n8n.example/webhook/abc/webhook';

	let workflowCounter = 0;

	interface Workflow {
		id: string;
		/** The workflow's static data as n8n keeps it: { global, 'node:<name>' }. */
		staticData: Record<string, IDataObject>;
		registered: Registration[];
	}

	function workflowWith(
		registeredSecret: string,
		events = ['document.rejected', 'document.verified'],
	): Workflow {
		const staticData = { global: heldRegistration(URL, events, registeredSecret) };
		return { id: `wf-editing-${++workflowCounter}`, staticData, registered: [] };
	}

	interface Delivery {
		payload: IDataObject;
		secret: string;
		credentialSecret: string;
		mode?: 'webhook' | 'manual';
		options?: IDataObject;
		headers?: IDataObject;
	}

	async function deliver(workflow: Workflow, delivery: Delivery) {
		const body = JSON.stringify(delivery.payload);
		const { answer, response } = recordingResponse();
		const parameters: IDataObject = {
			events: ['document.verified', 'document.rejected'],
			options: delivery.options ?? {},
			outputMode: 'simplified',
		};
		const context = {
			getMode: () => delivery.mode ?? 'webhook',
			getWebhookName: () => 'default',
			getRequestObject: () => ({ rawBody: Buffer.from(body), readRawBody: async () => undefined }),
			getHeaderData: () =>
				delivery.headers ?? { 'x-service-signature': computeSignature(body, delivery.secret) },
			getCredentials: async () => credentialData(delivery.credentialSecret),
			getWorkflowStaticData: staticDataByType(workflow.staticData, 'Review finished'),
			getResponseObject: () => response,
			getNodeParameter: (name: string, fallback: unknown) =>
				name in parameters ? parameters[name] : fallback,
			getWorkflow: () => ({ id: workflow.id, name: 'editing', active: true }),
			getNode: () => fakeNode({ id: 'n1', name: 'Review finished', typeVersion: 1.1, parameters }),
			logger: silentLogger(),
			helpers: {
				returnJsonArray: n8nCore.returnJsonArray,
				httpRequestWithAuthentication: acceptingRegistrations(
					workflow.registered,
					() => `wh_${workflow.registered.length + 1}`,
				),
			},
		} as unknown as IWebhookFunctions;
		const result = await new DocumentExtractionTrigger().webhook.call(context);
		const started = (result.workflowData?.[0]?.length ?? 0) > 0;
		return { result, answer, started, items: result.workflowData?.[0] ?? [] };
	}

	const verified = (documentId: string, extra: IDataObject = {}): IDataObject => ({
		event: 'document.verified',
		timestamp: SIGNED_AT,
		document_id: documentId,
		review_id: 'rev_1',
		verified_by: 'human_reviewer',
		confidence: { original: 0.7, final: 1 },
		...extra,
	});

	function memoryOf(workflow: Workflow): IDataObject {
		return (workflow.staticData.global[STATIC_DATA_KEY] as IDataObject).n1 as IDataObject;
	}

	afterEach(() => {
		forgetProcessMemories();
	});

	describe('N30: test listening and production keep their memories apart', () => {
		it('the test copy first: the production copy still runs, and the test listener ran its own', async () => {
			const workflow = workflowWith(OLD_SECRET);
			const test = await deliver(workflow, {
				payload: verified('doc_mode_1'),
				secret: OLD_SECRET,
				credentialSecret: OLD_SECRET,
				mode: 'manual',
			});
			const production = await deliver(workflow, {
				payload: verified('doc_mode_1'),
				secret: OLD_SECRET,
				credentialSecret: OLD_SECRET,
			});
			expect([test.started, production.started]).toEqual([true, true]);
			// The test delivery left nothing in the production memory.
			expect(
				Object.keys(
					(memoryOf(workflow).accepted as { entries: IDataObject } | undefined)?.entries ?? {},
				),
			).toEqual(['document.verified:doc_mode_1']);
		});

		it('the production copy first: the test listener still gets its copy; each memory still stops its own duplicate', async () => {
			const workflow = workflowWith(OLD_SECRET);
			const send = async (mode: 'webhook' | 'manual') =>
				await deliver(workflow, {
					payload: verified('doc_mode_2'),
					secret: OLD_SECRET,
					credentialSecret: OLD_SECRET,
					mode,
				});
			const runs = [
				await send('webhook'),
				await send('manual'),
				await send('webhook'),
				await send('manual'),
			].map((answer) => answer.started);
			expect(runs).toEqual([true, true, false, false]);
		});
	});

	describe('N34/N35: a changed signing secret loses no event and doubles none', () => {
		it('old-secret deliveries run until the new secret is registered (registered with the first of them), then old copies are answered without a run', async () => {
			const workflow = workflowWith(OLD_SECRET);
			rememberKnownSecret(OLD_SECRET); // this process read it at activation
			// The person changed the credential's secret; the service still signs with the old one.
			const first = await deliver(workflow, {
				payload: verified('doc_rotate_1'),
				secret: OLD_SECRET,
				credentialSecret: NEW_SECRET,
			});
			expect(first.started).toBe(true);
			expect(workflow.registered).toEqual([
				{ url: URL, events: ['document.rejected', 'document.verified'], secret: NEW_SECRET },
			]);
			expect(first.answer).toEqual({ status: 200, body: { received: true, started: true } });
			expect(JSON.stringify(workflow.staticData)).not.toContain(NEW_SECRET);
			expect(JSON.stringify(workflow.staticData)).not.toContain(OLD_SECRET);

			// Both secrets in flight for the next event (the old and the new registration), Ignore Duplicates off: one run.
			const options = { ignoreDuplicates: false };
			const both = await Promise.all([
				deliver(workflow, {
					payload: verified('doc_rotate_2'),
					secret: OLD_SECRET,
					credentialSecret: NEW_SECRET,
					options,
				}),
				deliver(workflow, {
					payload: verified('doc_rotate_2'),
					secret: NEW_SECRET,
					credentialSecret: NEW_SECRET,
					options,
				}),
			]);
			expect(both.map((answer) => answer.started)).toEqual([false, true]);
			expect(both[0].result.webhookResponse).toEqual({
				received: true,
				started: false,
				reason: 'sent through a replaced registration',
			});
			expect(workflow.registered).toHaveLength(1);
		});

		it('an old-secret delivery that arrives before the new secret is registered, with Ignore Duplicates off, is answered by the trigger itself so n8n saves the new registration', async () => {
			const workflow = workflowWith(OLD_SECRET);
			rememberKnownSecret(OLD_SECRET);
			const first = await deliver(workflow, {
				payload: verified('doc_rotate_3'),
				secret: OLD_SECRET,
				credentialSecret: NEW_SECRET,
				options: { ignoreDuplicates: false },
			});
			expect(first.started).toBe(true);
			expect(first.answer.status).toBe(200);
			expect(first.result.noWebhookResponse).toBe(true);
			expect((memoryOf(workflow).registrations as unknown[]).length).toBe(2);
		});

		it('a secret this process never read (e.g. after a restart) cannot verify: 401, counted', async () => {
			const workflow = workflowWith(OLD_SECRET);
			const refused = await deliver(workflow, {
				payload: verified('doc_rotate_4'),
				secret: OLD_SECRET,
				credentialSecret: NEW_SECRET,
			});
			expect(refused.answer.status).toBe(401);
			expect(refused.started).toBe(false);
			expect(workflow.registered).toHaveLength(0);
		});

		it('test listening never registers from a delivery (the next listen does)', async () => {
			const workflow = workflowWith(OLD_SECRET);
			rememberKnownSecret(OLD_SECRET);
			const test = await deliver(workflow, {
				payload: verified('doc_rotate_5'),
				secret: OLD_SECRET,
				credentialSecret: NEW_SECRET,
				mode: 'manual',
			});
			// The test memory holds no registration of its own: the old secret is not among its secrets.
			expect(test.answer.status).toBe(401);
			expect(workflow.registered).toHaveLength(0);
		});
	});

	describe('N36: refused deliveries are counted for the owner, without a secret or delivered content', () => {
		it('counts 401 and 400 answers with the last time and reason', async () => {
			const workflow = workflowWith(OLD_SECRET);
			await deliver(workflow, {
				payload: verified('doc_FORGED_CONTENT'),
				secret: 'not-the-secret',
				credentialSecret: OLD_SECRET,
			});
			await deliver(workflow, {
				payload: verified('doc_FORGED_CONTENT'),
				secret: OLD_SECRET,
				credentialSecret: OLD_SECRET,
				headers: {},
			});
			const refused = memoryOf(workflow).refused as IDataObject;
			expect(refused).toMatchObject({ count: 2, lastReason: 'signature missing (answered 401)' });
			expect(typeof refused.lastAt).toBe('string');
			const text = JSON.stringify(workflow.staticData);
			for (const secret of [OLD_SECRET, 'not-the-secret', 'doc_FORGED_CONTENT'])
				expect(text).not.toContain(secret);
		});

		it('test listening counts nothing in the production memory', async () => {
			const workflow = workflowWith(OLD_SECRET);
			await deliver(workflow, {
				payload: verified('doc_x'),
				secret: 'not-the-secret',
				credentialSecret: OLD_SECRET,
				mode: 'manual',
			});
			expect(memoryOf(workflow).refused).toBeUndefined();
		});
	});

	describe('N37: the sample event', () => {
		const sample = verified('doc_sample_0123456789abcdef', { sample: true });

		it('runs in test listening, marked sample: true', async () => {
			const workflow = workflowWith(OLD_SECRET);
			const { started, items } = await deliver(workflow, {
				payload: sample,
				secret: OLD_SECRET,
				credentialSecret: OLD_SECRET,
				mode: 'manual',
			});
			expect(started).toBe(true);
			expect(items[0].json).toMatchObject({
				sample: true,
				document_id: 'doc_sample_0123456789abcdef',
			});
		});

		it('never runs in production, even correctly signed', async () => {
			const workflow = workflowWith(OLD_SECRET);
			const { started, result } = await deliver(workflow, {
				payload: sample,
				secret: OLD_SECRET,
				credentialSecret: OLD_SECRET,
			});
			expect(started).toBe(false);
			expect(result.webhookResponse).toEqual({
				received: true,
				started: false,
				reason: 'sample event (test listening only)',
			});
		});
	});
});
