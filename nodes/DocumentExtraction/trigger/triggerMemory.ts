/**
 * Where the trigger keeps what the service holds for it, its registrations (docs/spec-decisions.md#n31,
 * #n33): written only by its activation hooks, never by a delivery or an execution (docs/memory.md).
 * - production: the workflow's global static data, under the node's id (a rename keeps it; n8n keys
 *   'node' static data by the node's name). n8n saves it after the activation hooks.
 * - test listening: n8n gives test hooks an empty static data that it never saves, so this process
 *   keeps it, per workflow and node, until it stops.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { RecentMemory } from '../memory/recentMemory.ts';
import type { HeldRegistration } from './registration.ts';

type TriggerMode = 'production' | 'test';

interface TriggerMemory {
	/** Everything the service holds for this node, oldest first. `delete` keeps it (the service cannot unregister). */
	registrations: HeldRegistration[];
}

/**
 * The key in the workflow's global static data: a contract with the workflows users have saved, which
 * hold their production registrations under it.
 */
export const STATIC_DATA_KEY = 'documentExtractionTrigger';

type Context = IHookFunctions | IWebhookFunctions;

/** Test listeners' memories by workflow and node; a process listens for few of them at a time. */
const testMemories = new RecentMemory<TriggerMemory>({ maxEntries: 1000 });

/** n8n runs test hooks, test webhooks and their executions in mode 'manual'; production in others. */
export function triggerMode(context: { getMode?: () => string }): TriggerMode {
	return context.getMode?.() === 'manual' ? 'test' : 'production';
}

/** This trigger node in its workflow: `<workflow id>:<node id>`. */
function nodeKey(context: Context): string {
	return `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
}

/**
 * What keeps test listening and production apart in this process's memories (docs/spec-decisions.md#n30):
 * `<mode>:<workflow id>:<node id>`.
 */
export function triggerScope(context: Context): string {
	return `${triggerMode(context)}:${nodeKey(context)}`;
}

/**
 * This node's memory for the mode n8n runs it in. Changes are made through `saveTriggerMemory`,
 * which replaces the stored value so that n8n sees the change.
 */
export function triggerMemory(context: Context): TriggerMemory {
	if (triggerMode(context) === 'test') {
		return testMemories.get(nodeKey(context)) ?? { registrations: [] };
	}
	const global = context.getWorkflowStaticData('global');
	const byNode = (global[STATIC_DATA_KEY] ?? {}) as IDataObject;
	const stored = byNode[context.getNode().id] as Partial<TriggerMemory> | undefined;
	return { registrations: Array.isArray(stored?.registrations) ? stored.registrations : [] };
}

/** Saves the registrations; only the activation hooks call it. */
export function saveTriggerMemory(context: IHookFunctions, memory: TriggerMemory): void {
	if (triggerMode(context) === 'test') {
		testMemories.set(nodeKey(context), memory);
		return;
	}
	const global = context.getWorkflowStaticData('global');
	const byNode = { ...((global[STATIC_DATA_KEY] ?? {}) as IDataObject) };
	byNode[context.getNode().id] = { registrations: memory.registrations } as unknown as IDataObject;
	global[STATIC_DATA_KEY] = byNode;
}
