// The trigger's webhook lifecycle at its edges, with a mocked hook context (the full lifecycle runs
// in a real n8n in test/e2e/trigger.test.ts and test/e2e/trigger-editing.test.ts): HTTPS required,
// registrations reused across delete (deactivate, publish, restart), a rename, test listening apart,
// its own secret (N61), none for Sent by This Workflow (N62); and its execution step (N63).
import type { IDataObject, IExecuteFunctions, IHookFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtractionTrigger } from '../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import { secretFingerprint } from '../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import { STATIC_DATA_KEY } from '../../../../nodes/DocumentExtraction/trigger/triggerMemory.ts';
import { fakeExecuteContext } from '../../harness/fakeExecuteContext.ts';
import type { Registration } from '../../harness/fakeHookContext.ts';
import {
	acceptingRegistrations,
	credentialData,
	fakeNode,
	silentLogger,
	staticDataByType,
} from '../../harness/fakeHookContext.ts';

const URL = 'https://n8n.example/webhook/abc/webhook';
const TEST_URL = 'https://n8n.example/webhook-test/abc/webhook';

interface Options {
	url?: string;
	events?: string[];
	secret?: string;
	/** The credential's API key (default 'k'). */
	apiKey?: string;
	/** The workflow's static data: { global, 'node:<name>' } as n8n keeps it. */
	staticData?: Record<string, IDataObject>;
	nodeName?: string;
	/** n8n's execution mode of the hook: 'trigger' (activation), 'internal' (delete), 'manual' (test listening). */
	mode?: string;
	workflowId?: string;
	registered?: Registration[];
	options?: IDataObject;
	typeVersion?: number;
	/** The Documents parameter (unset: the version's default). */
	documents?: string;
}

let workflowCounter = 0;

function hookContext(options: Options = {}) {
	const staticData = options.staticData ?? {};
	const registered = options.registered ?? [];
	const nodeName = options.nodeName ?? 'Review finished';
	// A workflow of its own unless the test shares one: what this process remembers never carries over.
	const workflowId = options.workflowId ?? `wf-lifecycle-${++workflowCounter}`;
	const context = {
		getMode: () => options.mode ?? 'trigger',
		getActivationMode: () => 'activate',
		getNodeWebhookUrl: () => options.url ?? URL,
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'events'
				? (options.events ?? ['document.verified', 'document.rejected'])
				: name === 'options'
					? (options.options ?? {})
					: name === 'documents' && options.documents
						? options.documents
						: fallback,
		getCredentials: async () => ({
			...credentialData(options.secret ?? ''),
			...(options.apiKey ? { apiKey: options.apiKey } : {}),
		}),
		getWorkflowStaticData: staticDataByType(staticData, nodeName),
		getWorkflow: () => ({ id: workflowId, name: 'lifecycle', active: true }),
		getNode: () =>
			fakeNode({ id: 'node-id-1', name: nodeName, typeVersion: options.typeVersion ?? 1.1 }),
		logger: silentLogger(),
		helpers: {
			httpRequestWithAuthentication: acceptingRegistrations(
				registered,
				() => `wh_${registered.length}`,
			),
		},
	};
	return { context: context as unknown as IHookFunctions, staticData, registered, workflowId };
}

const methods = new DocumentExtractionTrigger().webhookMethods.default;

/** What n8n does on activation: checkExists, then create when it says false. */
async function activate(context: IHookFunctions): Promise<void> {
	if (!(await methods.checkExists.call(context))) await methods.create.call(context);
}

function held(staticData: Record<string, IDataObject>) {
	return (
		(
			(staticData.global?.[STATIC_DATA_KEY] as IDataObject)?.['node-id-1'] as {
				registrations: Array<Record<string, unknown>>;
			}
		)?.registrations ?? []
	);
}

describe('trigger lifecycle', () => {
	it('refuses to activate on an http webhook URL, saying how to fix it, without calling the service', async () => {
		const { context, registered } = hookContext({
			url: 'http://localhost:5678/webhook/abc/webhook',
		});
		const error = await methods.create
			.call(context)
			.catch((caught: Error & { description?: string }) => caught);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toContain('delivers only to HTTPS');
		expect((error as { description?: string }).description).toMatch(/WEBHOOK_URL/);
		expect(registered).toHaveLength(0);
	});

	it("registers its own secret, not the credential's (N61), under the node id in global static data, with a fingerprint, never a secret", async () => {
		const { context, staticData, registered } = hookContext({ secret: 'credential-secret-value' });
		await activate(context);
		const { secret } = registered[0];
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(held(staticData)).toEqual([
			expect.objectContaining({
				webhookId: 'wh_1',
				url: URL,
				events: ['document.rejected', 'document.verified'],
				secretFingerprint: secretFingerprint(secret),
			}),
		]);
		expect(JSON.stringify(staticData)).not.toContain('credential-secret-value');
		expect(JSON.stringify(staticData)).not.toContain(secret);
		expect(await methods.checkExists.call(context)).toBe(true);
	});

	it("N61: the credential's signing secret changed while active registers nothing; a registration an earlier version made with it counts", async () => {
		const { context, staticData, registered } = hookContext({ secret: 'one' });
		await activate(context);
		await activate(hookContext({ secret: 'two', staticData, registered }).context);
		expect(registered).toHaveLength(1);
		// Made by an earlier version with the credential's secret: still delivering, still verified.
		const earlier = hookContext({ secret: 'one' });
		earlier.staticData.global = {
			[STATIC_DATA_KEY]: {
				'node-id-1': {
					registrations: [
						{
							webhookId: 'wh_0',
							url: URL,
							events: ['document.rejected', 'document.verified'],
							secretFingerprint: secretFingerprint('one'),
							registeredAt: '',
						},
					],
				},
			},
		};
		await activate(earlier.context);
		expect(earlier.registered).toEqual([]);
	});

	it('without a signing secret in the credential, registers its own secret and keeps none of it (N5)', async () => {
		const { context, staticData, registered } = hookContext();
		await activate(context);
		const secret = (registered[0] as { secret: string }).secret;
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(JSON.stringify(staticData)).not.toContain(secret);
		expect(await methods.checkExists.call(context)).toBe(true);
		// A restarted n8n (the same credential, nothing in memory) derives the same secret: nothing new.
		await activate(hookContext({ staticData, registered }).context);
		expect(registered).toHaveLength(1);
	});

	it('N32: deactivate/activate 3 times, publish, restart: delete keeps the record and nothing registers again', async () => {
		const { context, staticData, registered } = hookContext({ secret: 's' });
		await activate(context);
		for (let toggle = 0; toggle < 3; toggle++) {
			expect(
				await methods.delete.call(
					hookContext({ secret: 's', staticData, mode: 'internal', registered }).context,
				),
			).toBe(true);
			await activate(hookContext({ secret: 's', staticData, registered }).context);
		}
		expect(registered).toHaveLength(1);
		expect(held(staticData)).toHaveLength(1);
	});

	it('N31: a renamed trigger keeps its registration (static data under the node id, not the name)', async () => {
		const { context, staticData, registered } = hookContext({ secret: 's' });
		await activate(context);
		for (const name of ['Renamed once', 'Renamed twice', 'Renamed thrice']) {
			await methods.delete.call(
				hookContext({ secret: 's', staticData, registered, nodeName: name, mode: 'internal' })
					.context,
			);
			await activate(hookContext({ secret: 's', staticData, registered, nodeName: name }).context);
		}
		expect(registered).toHaveLength(1);
	});

	it('N32: a new URL or a new API key registers once; a new event registers only that event; removing and re-adding an event registers nothing', async () => {
		const { context, staticData, registered } = hookContext({ events: ['document.verified'] });
		await activate(context);
		const own = registered[0].secret;
		/** Activates again in the same workflow, against the same service, with these settings. */
		const activateAgain = async (options: Options) =>
			await activate(hookContext({ ...options, staticData, registered }).context);
		await activateAgain({ events: ['document.verified', 'document.rejected'] });
		expect(registered[1]).toEqual({ url: URL, events: ['document.rejected'], secret: own });
		await activateAgain({ events: ['document.verified'] });
		await activateAgain({ events: ['document.verified', 'document.rejected'] });
		expect(registered).toHaveLength(2);
		await activateAgain({ apiKey: 'k2' });
		expect(registered[2]).toEqual({
			url: URL,
			events: ['document.rejected', 'document.verified'],
			secret: expect.not.stringMatching(own),
		});
		await activateAgain({ apiKey: 'k2', url: 'https://n8n.example/webhook/other/webhook' });
		expect(registered).toHaveLength(4);
		// Back to the first key: the service still holds its registrations.
		await activateAgain({});
		expect(registered).toHaveLength(4);
	});

	it('N33: "Listen for test event" registers the test URL once per workflow and node, and never touches the production record', async () => {
		const production = hookContext({ secret: 's' });
		await activate(production.context);
		const { staticData, registered, workflowId } = production;
		for (let listen = 0; listen < 3; listen++) {
			const test = hookContext({
				secret: 's',
				mode: 'manual',
				url: TEST_URL,
				staticData: {},
				registered,
				workflowId,
			});
			await activate(test.context);
			await methods.delete.call(
				hookContext({
					secret: 's',
					mode: 'internal',
					url: TEST_URL,
					staticData: {},
					registered,
					workflowId,
				}).context,
			);
			expect(test.staticData).toEqual({});
		}
		expect(registered.map((registration) => registration.url)).toEqual([URL, TEST_URL]);
		expect(held(staticData)).toHaveLength(1);
		// A new API key (a new own secret): the test URL is registered once more with it.
		await activate(
			hookContext({
				secret: 's',
				apiKey: 'k2',
				mode: 'manual',
				url: TEST_URL,
				staticData: {},
				registered,
				workflowId,
			}).context,
		);
		expect(registered).toHaveLength(3);
	});
});

describe('N40: Documents', () => {
	it("listens at its workflow's own address too, which it never registers with the service", () => {
		const webhooks = new DocumentExtractionTrigger().description.webhooks ?? [];
		expect(webhooks.map((webhook) => [webhook.name, webhook.path, webhook.isFullPath])).toEqual([
			['default', 'webhook', undefined],
			['setup', '={{ "document-extraction/" + $workflow.id }}', true],
		]);
		expect(Object.keys(new DocumentExtractionTrigger().webhookMethods)).toEqual(['default']);
	});

	it("N62: Sent by This Workflow (1.2's default) activates and registers nothing: its documents come to the workflow's address", async () => {
		for (const mode of ['trigger', 'manual']) {
			const { context, registered, staticData } = hookContext({
				secret: 's',
				typeVersion: 1.2,
				mode,
			});
			expect(await methods.checkExists.call(context)).toBe(true);
			await methods.create.call(context);
			expect(registered).toEqual([]);
			expect(staticData).toEqual({});
		}
	});

	it('version 1.2 without the signing secret in the credential: activation says what to set, nothing is registered', async () => {
		const { context, registered } = hookContext({ typeVersion: 1.2 });
		await expect(activate(context)).rejects.toThrow(/needs the Webhook Signing Secret/);
		expect(registered).toEqual([]);
	});

	it('Every Document on the Account (and version 1.1) activates without the signing secret, as before', async () => {
		for (const options of [{ typeVersion: 1.2, documents: 'account' }, {}]) {
			const { context, registered } = hookContext(options);
			await activate(context);
			expect(registered, JSON.stringify(options)).toHaveLength(1);
		}
	});
});

describe('N63: the run’s first step', () => {
	it('execute() passes on the items of an event run for the first time, and none of a copy', async () => {
		const items = [{ json: { event: 'document.verified', document_id: 'doc_exec_1' } }];
		const first = fakeExecuteContext({ inputItems: items });
		const run = (fake: ReturnType<typeof fakeExecuteContext>) =>
			new DocumentExtractionTrigger().execute.call({
				...fake.context,
				getMode: () => 'webhook',
			} as unknown as IExecuteFunctions);
		expect(await run(first)).toEqual([items]);
		const copy = fakeExecuteContext({ inputItems: items });
		copy.context.helpers = first.context.helpers;
		expect(await run(copy)).toEqual([[]]);
	});
});
