/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up test signing secrets, never real ones */
/**
 * The trigger as a person builds with it, with a mocked webhook context: test listening and
 * production apart (N30), a changed signing secret with both secrets in flight (N34), copies through a
 * replaced registration (N35), refused deliveries counted (N36), the sample event (N37). The same
 * rows run in a real n8n in test/e2e/trigger-editing.test.ts.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import { DocumentExtractionTrigger } from '../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import { forgetKnownSecrets, rememberKnownSecret } from '../../../nodes/DocumentExtraction/trigger/knownSecrets.ts';
import { secretFingerprint } from '../../../nodes/DocumentExtraction/trigger/registration.ts';
import { forgetTestMemories, STATIC_DATA_KEY } from '../../../nodes/DocumentExtraction/trigger/triggerMemory.ts';
import { NODE_TYPES } from '../../../nodes/shared/nodeTypes.ts';
import { forgetSecrets } from '../../../nodes/shared/recentSigningSecrets.ts';
import { computeSignature } from '../../../nodes/shared/signature.ts';
import { n8nCore } from '../harness/n8nModules.ts';

const OLD_SECRET = 'whsec_UNITTEST_editing_old_0123456789';
const NEW_SECRET = 'whsec_UNITTEST_editing_new_9876543210';
const URL = 'https://n8n.example/webhook/abc/webhook';

let workflowCounter = 0;

interface Workflow {
	id: string;
	/** The workflow's static data as n8n keeps it: { global, 'node:<name>' }. */
	staticData: Record<string, IDataObject>;
	registered: Array<{ url: string; events: string[]; secret: string }>;
}

function workflowWith(registeredSecret: string, events = ['document.rejected', 'document.verified']): Workflow {
	const staticData: Record<string, IDataObject> = {
		global: {
			[STATIC_DATA_KEY]: {
				n1: { registrations: [{ webhookId: 'wh_1', url: URL, events, secretFingerprint: secretFingerprint(registeredSecret), registeredAt: '' }] },
			},
		},
	};
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
	const answer: { status?: number; body?: IDataObject } = {};
	const parameters: IDataObject = { events: ['document.verified', 'document.rejected'], options: delivery.options ?? {}, outputMode: 'simplified' };
	const context = {
		getMode: () => delivery.mode ?? 'webhook',
		getRequestObject: () => ({ rawBody: Buffer.from(body), readRawBody: async () => undefined }),
		getHeaderData: () => delivery.headers ?? { 'x-service-signature': computeSignature(body, delivery.secret) },
		getCredentials: async () => ({ baseUrl: 'https://api.example.com', apiKey: 'k', signingSecret: delivery.credentialSecret, tier: 'pilot' }),
		getWorkflowStaticData: (type: string) => {
			const key = type === 'global' ? 'global' : 'node:Review finished';
			workflow.staticData[key] ??= {};
			return workflow.staticData[key];
		},
		getResponseObject: () => ({
			status(code: number) {
				answer.status = code;
				return this;
			},
			json(json: IDataObject) {
				answer.body = json;
				return this;
			},
		}),
		getNodeParameter: (name: string, fallback: unknown) => (name in parameters ? parameters[name] : fallback),
		getWorkflow: () => ({ id: workflow.id, name: 'editing', active: true }),
		getNode: () => ({ id: 'n1', name: 'Review finished', type: NODE_TYPES.trigger, typeVersion: 1.1, position: [0, 0], parameters }),
		logger: { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined },
		helpers: {
			returnJsonArray: n8nCore.returnJsonArray,
			httpRequestWithAuthentication: async (_type: string, request: { body: { url: string; events: string[]; secret: string } }) => {
				workflow.registered.push(request.body);
				return { statusCode: 200, headers: {}, body: { webhook_id: `wh_${workflow.registered.length + 1}`, url: request.body.url, status: 'active' } };
			},
		},
	} as unknown as IWebhookFunctions;
	const result = await new DocumentExtractionTrigger().webhook.call(context);
	const started = (result.workflowData?.[0]?.length ?? 0) > 0;
	return { result, answer, started, items: result.workflowData?.[0] ?? [] };
}

const verified = (documentId: string, extra: IDataObject = {}): IDataObject => ({
	event: 'document.verified',
	timestamp: '2026-11-23T10:00:00Z',
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
	forgetKnownSecrets();
	forgetSecrets();
	forgetTestMemories();
});

describe('N30: test listening and production keep their memories apart', () => {
	it('the test copy first: the production copy still runs, and the test listener ran its own', async () => {
		const workflow = workflowWith(OLD_SECRET);
		const test = await deliver(workflow, { payload: verified('doc_mode_1'), secret: OLD_SECRET, credentialSecret: OLD_SECRET, mode: 'manual' });
		const production = await deliver(workflow, { payload: verified('doc_mode_1'), secret: OLD_SECRET, credentialSecret: OLD_SECRET });
		expect([test.started, production.started]).toEqual([true, true]);
		// The test delivery left nothing in the production memory.
		expect(memoryOf(workflow).seenDeliveries).toEqual(['document.verified:doc_mode_1']);
	});

	it('the production copy first: the test listener still gets its copy; each memory still stops its own duplicate', async () => {
		const workflow = workflowWith(OLD_SECRET);
		const send = async (mode: 'webhook' | 'manual') => await deliver(workflow, { payload: verified('doc_mode_2'), secret: OLD_SECRET, credentialSecret: OLD_SECRET, mode });
		const runs = [await send('webhook'), await send('manual'), await send('webhook'), await send('manual')].map((answer) => answer.started);
		expect(runs).toEqual([true, true, false, false]);
	});
});

describe('N34/N35: a changed signing secret loses no event and doubles none', () => {
	it('old-secret deliveries run until the new secret is registered (registered with the first of them), then old copies are answered without a run', async () => {
		const workflow = workflowWith(OLD_SECRET);
		rememberKnownSecret(OLD_SECRET); // this process read it at activation
		// The person changed the credential's secret; the service still signs with the old one.
		const first = await deliver(workflow, { payload: verified('doc_rotate_1'), secret: OLD_SECRET, credentialSecret: NEW_SECRET });
		expect(first.started).toBe(true);
		expect(workflow.registered).toEqual([{ url: URL, events: ['document.rejected', 'document.verified'], secret: NEW_SECRET }]);
		expect(first.answer).toEqual({ status: 200, body: { received: true, started: true } });
		expect(JSON.stringify(workflow.staticData)).not.toContain(NEW_SECRET);
		expect(JSON.stringify(workflow.staticData)).not.toContain(OLD_SECRET);

		// Both secrets in flight for the next event (the old and the new registration), Ignore Duplicates off: one run.
		const options = { ignoreDuplicates: false };
		const both = await Promise.all([
			deliver(workflow, { payload: verified('doc_rotate_2'), secret: OLD_SECRET, credentialSecret: NEW_SECRET, options }),
			deliver(workflow, { payload: verified('doc_rotate_2'), secret: NEW_SECRET, credentialSecret: NEW_SECRET, options }),
		]);
		expect(both.map((answer) => answer.started)).toEqual([false, true]);
		expect(both[0].result.webhookResponse).toEqual({ received: true, started: false, reason: 'sent through a replaced registration' });
		expect(workflow.registered).toHaveLength(1);
	});

	it('an old-secret delivery that arrives before the new secret is registered, with Ignore Duplicates off, is answered by the trigger itself so n8n saves the new registration', async () => {
		const workflow = workflowWith(OLD_SECRET);
		rememberKnownSecret(OLD_SECRET);
		const first = await deliver(workflow, { payload: verified('doc_rotate_3'), secret: OLD_SECRET, credentialSecret: NEW_SECRET, options: { ignoreDuplicates: false } });
		expect(first.started).toBe(true);
		expect(first.answer.status).toBe(200);
		expect(first.result.noWebhookResponse).toBe(true);
		expect((memoryOf(workflow).registrations as unknown[]).length).toBe(2);
	});

	it('a secret this process never read (e.g. after a restart) cannot verify: 401, counted', async () => {
		const workflow = workflowWith(OLD_SECRET);
		const refused = await deliver(workflow, { payload: verified('doc_rotate_4'), secret: OLD_SECRET, credentialSecret: NEW_SECRET });
		expect(refused.answer.status).toBe(401);
		expect(refused.started).toBe(false);
		expect(workflow.registered).toHaveLength(0);
	});

	it('test listening never registers from a delivery (the next listen does)', async () => {
		const workflow = workflowWith(OLD_SECRET);
		rememberKnownSecret(OLD_SECRET);
		const test = await deliver(workflow, { payload: verified('doc_rotate_5'), secret: OLD_SECRET, credentialSecret: NEW_SECRET, mode: 'manual' });
		// The test memory holds no registration of its own: the old secret is not among its secrets.
		expect(test.answer.status).toBe(401);
		expect(workflow.registered).toHaveLength(0);
	});
});

describe('N36: refused deliveries are counted for the owner, without a secret or delivered content', () => {
	it('counts 401 and 400 answers with the last time and reason', async () => {
		const workflow = workflowWith(OLD_SECRET);
		await deliver(workflow, { payload: verified('doc_FORGED_CONTENT'), secret: 'not-the-secret', credentialSecret: OLD_SECRET });
		await deliver(workflow, { payload: verified('doc_FORGED_CONTENT'), secret: OLD_SECRET, credentialSecret: OLD_SECRET, headers: {} });
		const refused = memoryOf(workflow).refused as IDataObject;
		expect(refused).toMatchObject({ count: 2, lastReason: 'signature missing (answered 401)' });
		expect(typeof refused.lastAt).toBe('string');
		const text = JSON.stringify(workflow.staticData);
		for (const secret of [OLD_SECRET, 'not-the-secret', 'doc_FORGED_CONTENT']) expect(text).not.toContain(secret);
	});

	it('test listening counts nothing in the production memory', async () => {
		const workflow = workflowWith(OLD_SECRET);
		await deliver(workflow, { payload: verified('doc_x'), secret: 'not-the-secret', credentialSecret: OLD_SECRET, mode: 'manual' });
		expect(memoryOf(workflow).refused).toBeUndefined();
	});
});

describe('N37: the sample event', () => {
	const sample = verified('doc_sample_0123456789abcdef', { sample: true });

	it('runs in test listening, marked sample: true', async () => {
		const workflow = workflowWith(OLD_SECRET);
		const { started, items } = await deliver(workflow, { payload: sample, secret: OLD_SECRET, credentialSecret: OLD_SECRET, mode: 'manual' });
		expect(started).toBe(true);
		expect(items[0].json).toMatchObject({ sample: true, document_id: 'doc_sample_0123456789abcdef' });
	});

	it('never runs in production, even correctly signed', async () => {
		const workflow = workflowWith(OLD_SECRET);
		const { started, result } = await deliver(workflow, { payload: sample, secret: OLD_SECRET, credentialSecret: OLD_SECRET });
		expect(started).toBe(false);
		expect(result.webhookResponse).toEqual({ received: true, started: false, reason: 'sample event (test listening only)' });
	});
});
