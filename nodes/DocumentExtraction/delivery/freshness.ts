/**
 * Replays refused (docs/spec-decisions.md#n41): a delivery is a signed body that anyone who saw it can
 * send again, so the body's signed `timestamp` must be recent. Older than the replay window, or
 * further ahead than a small clock skew, it is refused; inside the window the trigger's claim of the
 * event (ignoreDuplicates.ts) recognises a copy. Pure: tested without n8n.
 */

/** The default replay window: long enough for the service's three retries with backoff. */
export const DEFAULT_REPLAY_WINDOW_HOURS = 24;

/** How far a timestamp may be ahead of this machine's clock (clocks disagree a little). */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const HOUR_MS = 3_600_000;

/** ISO 8601 in UTC, as the contract gives it: `2026-11-02T10:15:00Z` (fractions allowed). */
const ISO_8601_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|\+00:?00)$/;

/** The signed time in ms, or undefined when the body has none in ISO 8601 UTC. */
export function signedTime(timestamp: unknown): number | undefined {
	if (typeof timestamp !== 'string' || !ISO_8601_UTC.test(timestamp)) return undefined;
	const at = Date.parse(timestamp);
	return Number.isNaN(at) ? undefined : at;
}

export type Freshness =
	/** `at`: the signed time; undefined when the body has none (accepted: the claim still holds it). */
	{ stale: false; at?: number } | { stale: true; reason: string };

/** Whether a delivery signed at `timestamp` may start a run now. */
export function freshness(
	timestamp: unknown,
	windowHours = DEFAULT_REPLAY_WINDOW_HOURS,
	now = Date.now(),
): Freshness {
	const at = signedTime(timestamp);
	if (at === undefined) return { stale: false };
	if (at > now + MAX_CLOCK_SKEW_MS) return { stale: true, reason: 'signed in the future' };
	if (at < now - windowHours * HOUR_MS)
		return { stale: true, reason: `signed more than ${windowHours} h ago` };
	return { stale: false, at };
}
