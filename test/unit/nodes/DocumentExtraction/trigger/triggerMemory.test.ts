// Where the trigger keeps what it knows: production in the workflow's global static data under the
// node id, test listening in this process only.
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { secretFingerprint } from '../../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import type { HeldRegistration } from '../../../../../nodes/DocumentExtraction/trigger/registration.ts';
import type * as TriggerMemoryModule from '../../../../../nodes/DocumentExtraction/trigger/triggerMemory.ts';

let { saveTriggerMemory, STATIC_DATA_KEY, triggerMemory, triggerMode, triggerScope } =
	{} as typeof TriggerMemoryModule;

/** Loads the module as a newly started n8n process does: a fresh module graph, nothing remembered. */
async function startProcess(): Promise<void> {
	vi.resetModules();
	({ saveTriggerMemory, STATIC_DATA_KEY, triggerMemory, triggerMode, triggerScope } = await import(
		'../../../../../nodes/DocumentExtraction/trigger/triggerMemory.ts'
	));
}

const URL = 'https://n8n.example/webhook/abc/webhook';

interface Options {
	mode?: string | null;
	nodeId?: string;
	nodeName?: string;
	workflowId?: string | undefined;
	/** The workflow's static data as n8n keeps it: { global, 'node:<name>' }. */
	staticData?: Record<string, IDataObject>;
}

function hookContext(options: Options = {}) {
	const staticData = options.staticData ?? {};
	const staticDataReads: string[] = [];
	const nodeName = options.nodeName ?? 'Review finished';
	const context = {
		...(options.mode === null ? {} : { getMode: () => options.mode ?? 'trigger' }),
		getWorkflowStaticData: (type: string) => {
			staticDataReads.push(type);
			const key = type === 'global' ? 'global' : `node:${nodeName}`;
			staticData[key] ??= {};
			return staticData[key];
		},
		getWorkflow: () => ({
			id: 'workflowId' in options ? options.workflowId : 'wf-1',
			name: 'memory',
			active: true,
		}),
		getNode: () => ({
			id: options.nodeId ?? 'node-id-1',
			name: nodeName,
			type: 'trigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
	};
	return { context: context as unknown as IHookFunctions, staticData, staticDataReads };
}

const registration = (overrides: Partial<HeldRegistration> = {}): HeldRegistration => ({
	webhookId: 'wh_1',
	url: URL,
	events: ['document.verified'],
	secretFingerprint: secretFingerprint('whsec_UNITTEST_credential'),
	registeredAt: '2026-11-01T00:00:00.000Z',
	...overrides,
});

const stored = (staticData: Record<string, IDataObject>) =>
	staticData.global?.[STATIC_DATA_KEY] as IDataObject | undefined;

beforeEach(startProcess);

describe('triggerMode', () => {
	it("'manual' (test hooks and test webhooks) is test", () => {
		expect(triggerMode(hookContext({ mode: 'manual' }).context)).toBe('test');
	});

	it.each(['trigger', 'webhook', 'internal', 'integrated', 'Manual', ''])(
		"'%s' is production",
		(mode) => {
			expect(triggerMode(hookContext({ mode }).context)).toBe('production');
		},
	);

	it('a context without getMode is production', () => {
		expect(triggerMode(hookContext({ mode: null }).context)).toBe('production');
	});
});

describe('production memory', () => {
	it('is empty at first, and reading it writes nothing (not even the node static data)', () => {
		const { context, staticData } = hookContext();
		expect(triggerMemory(context)).toEqual({ registrations: [] });
		expect(stored(staticData)).toBeUndefined();
		expect(staticData['node:Review finished']).toBeUndefined();
	});

	it('is saved in global static data under STATIC_DATA_KEY by node id, and read back', () => {
		const { context, staticData } = hookContext();
		const memory = { registrations: [registration()] };
		saveTriggerMemory(context, memory);
		expect(STATIC_DATA_KEY).toBe('documentExtractionTrigger');
		expect(stored(staticData)).toEqual({ 'node-id-1': memory });
		expect(triggerMemory(context)).toEqual(memory);
	});

	it('a save replaces the stored object (so n8n notices the change)', () => {
		const { context, staticData } = hookContext();
		saveTriggerMemory(context, { registrations: [] });
		const before = stored(staticData);
		saveTriggerMemory(context, { registrations: [registration()] });
		expect(stored(staticData)).not.toBe(before);
		expect(before).toEqual({ 'node-id-1': { registrations: [] } });
	});

	it('a rename keeps it (same node id, another name)', () => {
		const staticData: Record<string, IDataObject> = {};
		saveTriggerMemory(hookContext({ staticData }).context, { registrations: [registration()] });
		expect(triggerMemory(hookContext({ staticData, nodeName: 'Renamed' }).context)).toEqual({
			registrations: [registration()],
		});
	});

	it('keeps nodes apart by id, and saving one keeps the others', () => {
		const staticData: Record<string, IDataObject> = {};
		saveTriggerMemory(hookContext({ staticData, nodeId: 'a' }).context, {
			registrations: [registration({ webhookId: 'wh_a' })],
		});
		saveTriggerMemory(hookContext({ staticData, nodeId: 'b' }).context, {
			registrations: [registration({ webhookId: 'wh_b' })],
		});
		expect(Object.keys(stored(staticData)!)).toEqual(['a', 'b']);
		expect(
			triggerMemory(hookContext({ staticData, nodeId: 'a' }).context).registrations[0].webhookId,
		).toBe('wh_a');
		expect(
			triggerMemory(hookContext({ staticData, nodeId: 'b' }).context).registrations[0].webhookId,
		).toBe('wh_b');
		expect(triggerMemory(hookContext({ staticData, nodeId: 'c' }).context)).toEqual({
			registrations: [],
		});
	});

	it('is the same for every production mode (activation, webhook, deactivation)', () => {
		const staticData: Record<string, IDataObject> = {};
		saveTriggerMemory(hookContext({ staticData, mode: 'trigger' }).context, {
			registrations: [registration()],
		});
		expect(
			triggerMemory(hookContext({ staticData, mode: 'webhook' }).context).registrations,
		).toHaveLength(1);
		expect(
			triggerMemory(hookContext({ staticData, mode: 'internal' }).context).registrations,
		).toHaveLength(1);
	});

	it('a stored memory without a registrations array reads with none', () => {
		const staticData: Record<string, IDataObject> = {
			global: {
				[STATIC_DATA_KEY]: {
					'node-id-1': { registrations: 'garbage', accepted: { entries: { k: 1 } } },
				},
			},
		};
		expect(triggerMemory(hookContext({ staticData }).context)).toEqual({ registrations: [] });
	});

	it('a save keeps only the registrations: what earlier versions kept beside them goes', () => {
		const staticData: Record<string, IDataObject> = {
			global: {
				[STATIC_DATA_KEY]: {
					'node-id-1': {
						registrations: [],
						accepted: { entries: { k: 1 } },
						refused: { count: 3, lastAt: '', lastReason: '' },
					},
				},
			},
		};
		saveTriggerMemory(hookContext({ staticData }).context, { registrations: [registration()] });
		expect(stored(staticData)).toEqual({ 'node-id-1': { registrations: [registration()] } });
	});

	it('keeps other keys of global static data', () => {
		const staticData: Record<string, IDataObject> = { global: { somethingElse: 1 } };
		saveTriggerMemory(hookContext({ staticData }).context, { registrations: [] });
		expect(staticData.global.somethingElse).toBe(1);
	});
});

describe('test memory ("Listen for test event")', () => {
	it('is kept in this process, never in static data', () => {
		const { context, staticDataReads } = hookContext({ mode: 'manual' });
		expect(triggerMemory(context)).toEqual({ registrations: [] });
		saveTriggerMemory(context, { registrations: [registration()] });
		expect(triggerMemory(context)).toEqual({ registrations: [registration()] });
		expect(staticDataReads).toEqual([]);
	});

	it('a fresh context of the same workflow and node reads it (n8n gives each test call an empty static data)', () => {
		saveTriggerMemory(hookContext({ mode: 'manual' }).context, { registrations: [registration()] });
		const { context, staticData } = hookContext({ mode: 'manual', staticData: {} });
		expect(triggerMemory(context).registrations).toHaveLength(1);
		expect(staticData).toEqual({});
	});

	it('is kept per workflow and per node', () => {
		saveTriggerMemory(hookContext({ mode: 'manual' }).context, { registrations: [registration()] });
		expect(triggerMemory(hookContext({ mode: 'manual', workflowId: 'wf-2' }).context)).toEqual({
			registrations: [],
		});
		expect(triggerMemory(hookContext({ mode: 'manual', nodeId: 'node-id-2' }).context)).toEqual({
			registrations: [],
		});
		expect(
			triggerMemory(hookContext({ mode: 'manual', nodeName: 'Renamed' }).context).registrations,
		).toHaveLength(1);
	});

	it('a workflow without an id still has its own memory', () => {
		saveTriggerMemory(hookContext({ mode: 'manual', workflowId: undefined }).context, {
			registrations: [registration()],
		});
		expect(
			triggerMemory(hookContext({ mode: 'manual', workflowId: undefined }).context).registrations,
		).toHaveLength(1);
		expect(triggerMemory(hookContext({ mode: 'manual' }).context)).toEqual({ registrations: [] });
	});

	it('test and production are apart both ways', () => {
		const staticData: Record<string, IDataObject> = {};
		saveTriggerMemory(hookContext({ staticData }).context, {
			registrations: [registration({ webhookId: 'wh_production' })],
		});
		expect(triggerMemory(hookContext({ mode: 'manual', staticData }).context)).toEqual({
			registrations: [],
		});
		saveTriggerMemory(hookContext({ mode: 'manual', staticData }).context, {
			registrations: [registration({ webhookId: 'wh_test' })],
		});
		expect(
			triggerMemory(hookContext({ staticData }).context).registrations.map(
				(held) => held.webhookId,
			),
		).toEqual(['wh_production']);
	});

	it("a restart forgets every test listener's memory, not production's", async () => {
		const staticData: Record<string, IDataObject> = {};
		saveTriggerMemory(hookContext({ staticData }).context, { registrations: [registration()] });
		saveTriggerMemory(hookContext({ mode: 'manual' }).context, { registrations: [registration()] });
		saveTriggerMemory(hookContext({ mode: 'manual', workflowId: 'wf-2' }).context, {
			registrations: [registration()],
		});
		expect(triggerMemory(hookContext({ mode: 'manual' }).context).registrations).toHaveLength(1);
		await startProcess();
		expect(triggerMemory(hookContext({ mode: 'manual' }).context)).toEqual({ registrations: [] });
		expect(triggerMemory(hookContext({ mode: 'manual', workflowId: 'wf-2' }).context)).toEqual({
			registrations: [],
		});
		expect(triggerMemory(hookContext({ staticData }).context).registrations).toHaveLength(1);
	});
});

describe('triggerScope', () => {
	it('keeps test listening and production, workflows and nodes apart', () => {
		expect(triggerScope(hookContext({ mode: 'trigger' }).context)).toBe(
			'production:wf-1:node-id-1',
		);
		expect(triggerScope(hookContext({ mode: 'manual' }).context)).toBe('test:wf-1:node-id-1');
		expect(triggerScope(hookContext({ workflowId: 'wf-2', nodeId: 'n2' }).context)).toBe(
			'production:wf-2:n2',
		);
	});
});
