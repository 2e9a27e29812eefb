/** Waiting rules for retries: pure, so they are tested without n8n. */

/**
 * The longest the node waits before a retry. A longer Retry-After is not waited out within the run
 * (docs/spec-decisions.md#n2): the request fails at once, saying when to try again.
 */
export const MAX_RETRY_WAIT_MS = 120_000;

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
 * Milliseconds to wait before retry number `attempt` (1-based): `Retry-After` when present, otherwise
 * an exponential back-off from `baseMs`; never more than MAX_RETRY_WAIT_MS.
 */
export function retryDelayMs(
	retryAfter: unknown,
	attempt: number,
	baseMs = 1000,
	now = Date.now(),
): number {
	const asked = retryAfterMs(retryAfter, now);
	return Math.min(asked ?? baseMs * 2 ** (attempt - 1), MAX_RETRY_WAIT_MS);
}
