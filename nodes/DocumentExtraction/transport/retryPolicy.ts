/** Waiting rules for retries: pure, so they are tested without n8n. */

/**
 * The longest the node waits before a retry. A longer Retry-After is not waited out within the run
 * (docs/spec-decisions.md#n2): the request fails at once, saying when to try again.
 */
export const MAX_RETRY_WAIT_MS = 120_000;

/** Past this many doublings the back-off is above MAX_RETRY_WAIT_MS anyway. */
const MAX_DOUBLINGS = 20;

/**
 * The wait `Retry-After` asks for (seconds or an HTTP date, docs/spec-decisions.md#d11), in
 * milliseconds and not capped, or null when the header is absent or says nothing usable.
 */
export function retryAfterMs(retryAfter: unknown, now = Date.now()): number | null {
	const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
	if (typeof header !== 'string' && typeof header !== 'number') return null;
	const text = String(header).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
	// Only an HTTP date: Date.parse also reads "-5" or "1 2" as dates and would mean "retry now".
	const date = /^[A-Za-z]{3}.*\d{2}:\d{2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
	return Number.isNaN(date) ? null : Math.max(date - now, 0);
}

/**
 * Milliseconds to wait before retry number `attempt` (1-based): what `Retry-After` asks for (without
 * one, or when it says "now", an exponential back-off from `baseMs`), plus a random share of as much
 * again (`random()` in [0, 1)), so that requests refused at the same moment do not come back at the
 * same moment (docs/spec-decisions.md#n69); never more than MAX_RETRY_WAIT_MS.
 */
export function retryDelayMs(
	retryAfter: unknown,
	attempt: number,
	random: () => number,
	baseMs = 1000,
	now = Date.now(),
): number {
	const asked = retryAfterMs(retryAfter, now);
	const doublings = Math.min(Math.max(attempt - 1, 0), MAX_DOUBLINGS);
	const wait = asked ? asked : baseMs * 2 ** doublings;
	return Math.min(Math.round(wait * (1 + random())), MAX_RETRY_WAIT_MS);
}

/**
 * The wait before retrying a 429 within a deadline (Extract's Rate Limit Wait,
 * docs/spec-decisions.md#n69): `waitMs` cut short at the deadline, so the last try is made there;
 * null when the deadline has passed or comes before the service would take the request (`askedMs`).
 */
export function waitWithinDeadline(
	waitMs: number,
	askedMs: number | null,
	now: number,
	deadline: number,
): number | null {
	const left = deadline - now;
	if (left <= 0 || (askedMs ?? 0) > left) return null;
	return Math.min(waitMs, left);
}
