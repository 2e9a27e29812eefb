/**
 * The trigger's option Ignore Duplicates: an event already accepted for a document starts no second
 * execution (spec: "duplicate deliveries are possible"). The memory covers the whole replay window by
 * time (docs/spec-decisions.md#n41): every copy signed inside the window is recognised, every one
 * outside it is stale (freshness.ts). Two memories answer together: the trigger's memory in the
 * workflow's static data (kept across restarts; saved by n8n after the webhook call), and this
 * process's recent memory, which sees a copy arriving before that save and is merged into every save,
 * so that of several calls saving at once the last one still carries what the others accepted.
 */
import { processMemory } from '../memory/processMemory.ts';

/** Accepted deliveries by key, oldest first: the signed time in ms, or null for a body without one. */
export interface AcceptedDeliveries {
	entries: Record<string, number | null>;
	/**
	 * The newest signed time forgotten before the window ended (the memory was full): deliveries
	 * signed at or before it are refused as stale.
	 */
	forgottenUpTo?: number;
}

/** At most this many accepted events per trigger (the window is covered up to this many). */
export const MAX_REMEMBERED_DELIVERIES = 5000;

/** What this process accepted a moment ago, by scope (mode, workflow, node) and key. */
const acceptedByThisProcess = processMemory<{ key: string; at: number | null }>({
	maxEntries: 5000,
	ttlMs: 10 * 60_000,
});

export function deliveryKey(event: unknown, documentId: unknown): string | undefined {
	if (typeof event !== 'string' || typeof documentId !== 'string' || documentId === '')
		return undefined;
	return `${event}:${documentId}`;
}

/**
 * Records the delivery under `scope` (test listening and production, workflow and node apart) and
 * returns the memory to save, with what this process accepted merged in; undefined when the
 * workflow's memory or this process already had it.
 */
export function acceptDelivery(
	stored: AcceptedDeliveries | undefined,
	key: string,
	at: number | null,
	scope: string,
	windowMs: number,
	now = Date.now(),
): AcceptedDeliveries | undefined {
	if (stored?.entries[key] !== undefined) return undefined;
	if (!acceptedByThisProcess.addIfNew(`${scope}:${key}`, { key, at }, now)) return undefined;
	const entries: Record<string, number | null> = { ...(stored?.entries ?? {}) };
	for (const [entryKey, accepted] of acceptedByThisProcess.entries(now)) {
		if (entryKey.startsWith(`${scope}:`) && !(accepted.key in entries))
			entries[accepted.key] = accepted.at;
	}
	return bounded({ entries, forgottenUpTo: stored?.forgottenUpTo }, now - windowMs);
}

/**
 * Forgets entries signed before `expiredBefore` (their copies are stale anyway), then the oldest over
 * the bound, raising `forgottenUpTo` for those still inside the window.
 */
function bounded(memory: AcceptedDeliveries, expiredBefore: number): AcceptedDeliveries {
	let forgottenUpTo = memory.forgottenUpTo ?? 0;
	const kept = Object.entries(memory.entries).filter(
		([, at]) => at === null || at >= expiredBefore,
	);
	const over = Math.max(0, kept.length - MAX_REMEMBERED_DELIVERIES);
	for (const [, at] of kept.slice(0, over))
		if (at !== null) forgottenUpTo = Math.max(forgottenUpTo, at);
	return {
		entries: Object.fromEntries(kept.slice(over)),
		...(forgottenUpTo > 0 ? { forgottenUpTo } : {}),
	};
}
