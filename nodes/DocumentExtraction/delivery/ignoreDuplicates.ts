/**
 * The trigger's option Ignore Duplicates: an event already accepted for a document starts no second
 * execution (spec: "duplicate deliveries are possible"). Two memories answer together: the trigger's
 * memory in the workflow's static data (kept across restarts; saved by n8n only after the webhook
 * call), and this process's recent memory, which also sees a copy arriving before that save.
 */
import { RecentMemory } from '../memory/recentMemory.ts';
import { addKey } from '../memory/workflowMemory.ts';

/** How many accepted events the workflow's memory keeps (the option's description says so). */
export const MAX_REMEMBERED_DELIVERIES = 1000;

const acceptedByThisProcess = new RecentMemory<true>({ maxEntries: 5000, ttlMs: 10 * 60_000 });

export function deliveryKey(event: unknown, documentId: unknown): string | undefined {
	if (typeof event !== 'string' || typeof documentId !== 'string' || documentId === '')
		return undefined;
	return `${event}:${documentId}`;
}

/**
 * Records the delivery in `seen` (the workflow's memory, oldest first, changed in place) and in this
 * process's memory under `scope` (test listening and production, workflow and node apart), and says
 * whether neither had it.
 */
export function isNewDelivery(
	seen: string[],
	key: string,
	scope: string,
	now = Date.now(),
): boolean {
	const newToWorkflow = addKey(seen, key, MAX_REMEMBERED_DELIVERIES);
	const newToProcess = acceptedByThisProcess.addIfNew(`${scope}:${key}`, true, now);
	return newToWorkflow && newToProcess;
}

/** Forgets what this process accepted (tests; a restart does the same). */
export function forgetAcceptedDeliveries(): void {
	acceptedByThisProcess.clear();
}
