/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up test signing secrets, never real ones */
// Registering with the service only what it does not hold yet (docs/spec-decisions.md#n32): the
// events not delivered to this URL with this secret (or one the webhook also accepts).
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CREDENTIAL_TYPE } from '../../../../../nodes/DocumentExtraction/constants.ts';
import { secretFingerprint } from '../../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import type { HeldRegistration } from '../../../../../nodes/DocumentExtraction/trigger/registration.ts';
import { registerMissingEvents } from '../../../../../nodes/DocumentExtraction/trigger/registerEvents.ts';
import { STATIC_DATA_KEY } from '../../../../../nodes/DocumentExtraction/trigger/triggerMemory.ts';

const URL = 'https://n8n.example/webhook/abc/webhook';
const OTHER_URL = 'https://n8n.example/webhook/other/webhook';
const TEST_URL = 'https://n8n.example/webhook-test/abc/webhook';
const CREDENTIAL_SECRET = 'whsec_UNITTEST_register_credential_1';
const NEW_CREDENTIAL_SECRET = 'whsec_UNITTEST_register_credential_2';
const OWN_SECRET = 'a1'.repeat(32);
const BOTH = ['document.verified', 'document.rejected'];
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

interface SentRequest {
	credentialType: string;
	method: string;
	baseURL: string;
	url: string;
	body: { url: string; events: string[]; secret: string };
}

interface Answer {
	statusCode: number;
	body: unknown;
}

/** One node of one workflow: static data, the requests it sent, what it logged. */
function fakeNode(
	options: {
		mode?: string;
		nodeId?: string;
		workflowId?: string;
		staticData?: Record<string, IDataObject>;
	} = {},
) {
	const staticData = options.staticData ?? {};
	const sent: SentRequest[] = [];
	const logs: string[] = [];
	/** Answers to give, in order; when empty: 200 with webhook id wh_<n>. */
	const answers: Array<Answer | (() => Promise<Answer>)> = [];
	const context = {
		getMode: () => options.mode ?? 'trigger',
		getWorkflowStaticData: (type: string) => {
			staticData[type] ??= {};
			return staticData[type];
		},
		getWorkflow: () => ({ id: options.workflowId ?? 'wf-1', name: 'register', active: true }),
		getNode: () => ({
			id: options.nodeId ?? 'node-id-1',
			name: 'Review finished',
			type: 'trigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getCredentials: async () => ({
			baseUrl: 'https://api.example.com/',
			apiKey: 'k',
			signingSecret: 'not read by registerEvents',
			tier: 'pilot',
		}),
		logger: {
			info: (message: string) => logs.push(message),
			warn: (message: string) => logs.push(message),
			debug: () => undefined,
			error: () => undefined,
		},
		helpers: {
			httpRequestWithAuthentication: async (
				credentialType: string,
				request: Omit<SentRequest, 'credentialType'>,
			) => {
				sent.push({
					credentialType,
					method: request.method,
					baseURL: request.baseURL,
					url: request.url,
					body: request.body,
				});
				const next = answers.shift();
				const answer =
					typeof next === 'function'
						? await next()
						: (next ?? {
								statusCode: 200,
								body: { webhook_id: `wh_${sent.length}`, status: 'active' },
							});
				return { ...answer, headers: {} };
			},
		},
	};
	const held = (): HeldRegistration[] =>
		(
			(staticData.global?.[STATIC_DATA_KEY] as IDataObject | undefined)?.[
				options.nodeId ?? 'node-id-1'
			] as { registrations: HeldRegistration[] } | undefined
		)?.registrations ?? [];
	return { context: context as unknown as IHookFunctions, staticData, sent, logs, answers, held };
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(NOW);
});

afterEach(() => {
	vi.useRealTimers();
});

describe('registerMissingEvents', () => {
	it("registers the wanted events with the credential's secret and records a fingerprint, never the secret", async () => {
		const { context, sent, held, staticData, logs } = fakeNode();
		const registration = await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET);
		expect(sent).toEqual([
			{
				credentialType: CREDENTIAL_TYPE,
				method: 'POST',
				baseURL: 'https://api.example.com',
				url: '/webhooks/register',
				body: {
					url: URL,
					events: ['document.rejected', 'document.verified'],
					secret: CREDENTIAL_SECRET,
				},
			},
		]);
		const expected: HeldRegistration = {
			webhookId: 'wh_1',
			url: URL,
			events: ['document.rejected', 'document.verified'],
			secretFingerprint: secretFingerprint(CREDENTIAL_SECRET),
			registeredAt: new Date(NOW).toISOString(),
		};
		expect(registration).toEqual(expected);
		expect(registration).not.toHaveProperty('generatedSecret');
		expect(held()).toEqual([expected]);
		expect(JSON.stringify(staticData)).not.toContain(CREDENTIAL_SECRET);
		expect(logs).toEqual([
			`Document Extraction Trigger: registered ${URL} for document.rejected, document.verified as wh_1`,
		]);
	});

	it('registers nothing when nothing is missing, and answers undefined', async () => {
		const { context, sent, held } = fakeNode();
		await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET);
		expect(await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET)).toBeUndefined();
		expect(
			await registerMissingEvents(context, URL, ['document.verified'], CREDENTIAL_SECRET),
		).toBeUndefined();
		expect(sent).toHaveLength(1);
		expect(held()).toHaveLength(1);
	});

	it('registers nothing for no events (or only non-string events)', async () => {
		const { context, sent, held } = fakeNode();
		expect(await registerMissingEvents(context, URL, [], CREDENTIAL_SECRET)).toBeUndefined();
		expect(
			await registerMissingEvents(
				context,
				URL,
				[1, null] as unknown as string[],
				CREDENTIAL_SECRET,
			),
		).toBeUndefined();
		expect(sent).toHaveLength(0);
		expect(held()).toEqual([]);
	});

	it('sends each event once, sorted', async () => {
		const { context, sent } = fakeNode();
		await registerMissingEvents(
			context,
			URL,
			['document.verified', 'document.rejected', 'document.verified'],
			CREDENTIAL_SECRET,
		);
		expect(sent[0].body.events).toEqual(['document.rejected', 'document.verified']);
	});

	it('registers only the missing event; the older registration is kept', async () => {
		const { context, sent, held } = fakeNode();
		await registerMissingEvents(context, URL, ['document.verified'], CREDENTIAL_SECRET);
		const registration = await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET);
		expect(registration?.events).toEqual(['document.rejected']);
		expect(sent[1].body).toEqual({
			url: URL,
			events: ['document.rejected'],
			secret: CREDENTIAL_SECRET,
		});
		expect(held().map((entry) => [entry.webhookId, entry.events])).toEqual([
			['wh_1', ['document.verified']],
			['wh_2', ['document.rejected']],
		]);
	});

	it('a new secret or a new URL registers every wanted event again; going back to a held pair registers nothing', async () => {
		const { context, sent } = fakeNode();
		await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET);
		await registerMissingEvents(context, URL, BOTH, NEW_CREDENTIAL_SECRET);
		expect(sent[1].body).toEqual({
			url: URL,
			events: ['document.rejected', 'document.verified'],
			secret: NEW_CREDENTIAL_SECRET,
		});
		await registerMissingEvents(context, OTHER_URL, BOTH, NEW_CREDENTIAL_SECRET);
		expect(sent[2].body.url).toBe(OTHER_URL);
		expect(await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET)).toBeUndefined();
		expect(sent).toHaveLength(3);
	});

	it("the trigger's own secret (no signing secret in the credential) is registered and never kept: only its fingerprint", async () => {
		const { context, sent, held, staticData } = fakeNode();
		const registration = await registerMissingEvents(context, URL, BOTH, OWN_SECRET);
		expect(sent[0].body.secret).toBe(OWN_SECRET);
		expect(registration?.secretFingerprint).toBe(secretFingerprint(OWN_SECRET));
		expect(Object.keys(held()[0]).sort()).toEqual([
			'events',
			'registeredAt',
			'secretFingerprint',
			'url',
			'webhookId',
		]);
		expect(JSON.stringify(staticData)).not.toContain(OWN_SECRET);
		expect(await registerMissingEvents(context, URL, BOTH, OWN_SECRET)).toBeUndefined();
		expect(sent).toHaveLength(1);
	});

	it('a webhook id that is not a string is recorded as null', async () => {
		const { context, answers, logs } = fakeNode();
		answers.push({ statusCode: 200, body: { webhook_id: 42, status: 'active' } });
		expect(
			(await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET))?.webhookId,
		).toBeNull();
		expect(logs).toEqual([
			`Document Extraction Trigger: registered ${URL} for document.rejected, document.verified as an unnamed webhook`,
		]);
	});

	it('a refused registration throws and records nothing; the next call tries again', async () => {
		const { context, answers, held, sent } = fakeNode();
		answers.push({ statusCode: 400, body: { error: 'bad url' } });
		await expect(
			registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET),
		).rejects.toMatchObject({ name: 'NodeApiError', httpCode: '400' });
		expect(held()).toEqual([]);
		expect((await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET))?.webhookId).toBe(
			'wh_2',
		);
		expect(sent).toHaveLength(2);
	});

	it('a refused registration keeps nothing: the next try registers every event again', async () => {
		const { context, answers, sent, held } = fakeNode();
		answers.push({ statusCode: 400, body: { error: 'bad url' } });
		await expect(registerMissingEvents(context, URL, BOTH, OWN_SECRET)).rejects.toThrow();
		expect(held()).toEqual([]);
		await registerMissingEvents(context, URL, BOTH, OWN_SECRET);
		expect(sent[1].body).toEqual(sent[0].body);
		expect(held()).toHaveLength(1);
	});

	it('a registration with a secret the webhook also accepts counts: nothing registered (N61)', async () => {
		const { context, sent } = fakeNode();
		await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET);
		expect(
			await registerMissingEvents(context, URL, BOTH, OWN_SECRET, [CREDENTIAL_SECRET]),
		).toBeUndefined();
		expect(
			(await registerMissingEvents(context, URL, BOTH, OWN_SECRET, [NEW_CREDENTIAL_SECRET]))
				?.events,
		).toEqual([...BOTH].sort());
		expect(sent.map((request) => request.body.secret)).toEqual([CREDENTIAL_SECRET, OWN_SECRET]);
	});

	it('a failing registration records nothing; the next activation registers', async () => {
		const { context, answers, sent, held } = fakeNode();
		answers.push({ statusCode: 400, body: { error: 'no' } });
		await expect(registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET)).rejects.toThrow();
		expect(held()).toEqual([]);
		expect((await registerMissingEvents(context, URL, BOTH, CREDENTIAL_SECRET))?.webhookId).toBe(
			'wh_2',
		);
		expect(sent).toHaveLength(2);
	});

	it('different nodes do not wait for each other', async () => {
		const staticData: Record<string, IDataObject> = {};
		const slow = fakeNode({ nodeId: 'slow', staticData });
		const fast = fakeNode({ nodeId: 'fast', staticData });
		let release: () => void = () => undefined;
		slow.answers.push(
			async () =>
				await new Promise<Answer>((resolve) => {
					release = () => resolve({ statusCode: 200, body: { webhook_id: 'wh_slow' } });
				}),
		);
		const slowCall = registerMissingEvents(slow.context, URL, BOTH, CREDENTIAL_SECRET);
		expect(
			(await registerMissingEvents(fast.context, OTHER_URL, BOTH, CREDENTIAL_SECRET))?.webhookId,
		).toBe('wh_1');
		release();
		expect((await slowCall)?.webhookId).toBe('wh_slow');
		expect(Object.keys(staticData.global[STATIC_DATA_KEY] as IDataObject).sort()).toEqual([
			'fast',
			'slow',
		]);
	});

	it('test listening registers in this process only: static data untouched, production registers on its own', async () => {
		const staticData: Record<string, IDataObject> = {};
		const test = fakeNode({ mode: 'manual', staticData });
		await registerMissingEvents(test.context, TEST_URL, BOTH, CREDENTIAL_SECRET);
		expect(staticData).toEqual({});
		expect(
			await registerMissingEvents(
				fakeNode({ mode: 'manual', staticData }).context,
				TEST_URL,
				BOTH,
				CREDENTIAL_SECRET,
			),
		).toBeUndefined();

		const production = fakeNode({ staticData });
		expect(
			(await registerMissingEvents(production.context, URL, BOTH, CREDENTIAL_SECRET))?.url,
		).toBe(URL);
		expect(production.held().map((entry) => entry.url)).toEqual([URL]);
	});

	it('keeps at most the newest 50 registrations per node', async () => {
		const { context, held } = fakeNode();
		for (let index = 0; index < 51; index++)
			await registerMissingEvents(
				context,
				`${URL}/${index}`,
				['document.verified'],
				CREDENTIAL_SECRET,
			);
		expect(held()).toHaveLength(50);
		expect(held()[0].url).toBe(`${URL}/1`);
		expect(held()[49].url).toBe(`${URL}/50`);
	});
});
