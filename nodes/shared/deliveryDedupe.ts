/**
 * Memory of accepted deliveries, so a duplicate (spec: "duplicate deliveries are possible") starts no
 * second execution. Kept in the workflow's static data, which n8n persists across restarts; bounded
 * so a busy workflow's static data stays small: the oldest keys are forgotten first.
 */
export const MAX_REMEMBERED_DELIVERIES = 1000;

export function deliveryKey(event: unknown, documentId: unknown): string | undefined {
	if (typeof event !== 'string' || typeof documentId !== 'string' || documentId === '') return undefined;
	return `${event}:${documentId}`;
}

/**
 * Records `key` in `seen` (oldest first) and says whether it was new. Mutates `seen` in place
 * because n8n saves static data by reference.
 */
export function rememberDelivery(seen: string[], key: string, limit = MAX_REMEMBERED_DELIVERIES): boolean {
	if (seen.includes(key)) return false;
	seen.push(key);
	if (seen.length > limit) seen.splice(0, seen.length - limit);
	return true;
}
