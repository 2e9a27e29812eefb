/**
 * Where the trigger keeps what it knows, apart for production and for "Listen for test event"
 * (docs/spec-decisions.md#n30, #n31, #n33):
 * - production: the workflow's global static data, under the node's id (a rename keeps it; n8n keys
 *   'node' static data by the node's name). n8n saves it after the activation hooks and after a
 *   webhook call that starts no run or answers before the run starts.
 * - test listening: n8n gives test hooks and test webhooks an empty static data that it never saves,
 *   so this process keeps it, per workflow and node, until it stops.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { AcceptedDeliveries } from '../delivery/ignoreDuplicates.ts';
import type { RefusalRecord } from '../delivery/refusals.ts';
import { processMemory } from '../memory/processMemory.ts';
import type { HeldRegistration } from './registration.ts';

export type TriggerMode = 'production' | 'test';

export interface TriggerMemory {
	/** Everything the service holds for this node, oldest first. `delete` keeps it (the service cannot unregister). */
	registrations: HeldRegistration[];
	/** Accepted events over the replay window (docs/spec-decisions.md#n6, #n41). */
	accepted?: AcceptedDeliveries;
	/** Deliveries answered 401 or 400 (docs/spec-decisions.md#n36): no secret, no delivered content. */
	refused?: RefusalRecord;
}

/** The key in the workflow's global static data. */
export const STATIC_DATA_KEY = 'documentExtractionTrigger';

type Context = IHookFunctions | IWebhookFunctions;

/** Test listeners' memories by workflow and node; a process listens for few of them at a time. */
const testMemories = processMemory<TriggerMemory>({ maxEntries: 1000 });

/** n8n runs test hooks and test webhooks in mode 'manual'; production in 'trigger', 'webhook' or 'internal'. */
export function triggerMode(context: Context): TriggerMode {
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
	const node = context.getNode();
	if (triggerMode(context) === 'test') {
		const key = nodeKey(context);
		let memory = testMemories.get(key);
		if (!memory) {
			memory = { registrations: [] };
			testMemories.set(key, memory);
		}
		return memory;
	}
	const global = context.getWorkflowStaticData('global');
	const byNode = (global[STATIC_DATA_KEY] ?? {}) as IDataObject;
	const stored = byNode[node.id] as TriggerMemory | undefined;
	if (!stored) return { registrations: [] };
	return {
		...stored,
		registrations: Array.isArray(stored.registrations) ? stored.registrations : [],
	};
}

export function saveTriggerMemory(context: Context, memory: TriggerMemory): void {
	const node = context.getNode();
	if (triggerMode(context) === 'test') {
		testMemories.set(nodeKey(context), memory);
		return;
	}
	const global = context.getWorkflowStaticData('global');
	const byNode = { ...((global[STATIC_DATA_KEY] ?? {}) as IDataObject) };
	byNode[node.id] = memory as unknown as IDataObject;
	global[STATIC_DATA_KEY] = byNode;
}
