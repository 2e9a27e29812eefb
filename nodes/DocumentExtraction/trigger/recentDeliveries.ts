/**
 * Deliveries accepted by this n8n process in the last minutes. Static data is read per request, so
 * two copies of one event arriving at the same moment would both pass it; this closes that window.
 */
const recentlyAccepted = new Map<string, number>();
const RECENT_WINDOW_MS = 10 * 60_000;
const RECENT_MAX = 5000;

/** True the first time `key` is seen within the window by this process. */
export function acceptOnce(key: string, now = Date.now()): boolean {
	for (const [seenKey, at] of recentlyAccepted) {
		if (now - at < RECENT_WINDOW_MS && recentlyAccepted.size <= RECENT_MAX) break;
		recentlyAccepted.delete(seenKey);
	}
	if (recentlyAccepted.has(key)) return false;
	recentlyAccepted.set(key, now);
	return true;
}
