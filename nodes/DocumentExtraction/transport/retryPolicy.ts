/** Waiting rules for retries: pure, so they are tested without n8n. */

const MAX_WAIT_MS = 120_000;

/**
 * Milliseconds to wait before retry number `attempt` (1-based). Honours `Retry-After` (seconds or an
 * HTTP date, docs/spec-decisions.md#d11) when present; otherwise backs off exponentially from `baseMs`.
 */
export function retryDelayMs(
	retryAfter: unknown,
	attempt: number,
	baseMs = 1000,
	now = Date.now(),
): number {
	const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
	if (typeof header === 'string' || typeof header === 'number') {
		const text = String(header).trim();
		if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Number(text) * 1000, MAX_WAIT_MS);
		// Only an HTTP date: Date.parse also reads "-5" or "1 2" as dates and would mean "retry now".
		const date = /^[A-Za-z]{3}.*\d{2}:\d{2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
		if (!Number.isNaN(date)) return Math.min(Math.max(date - now, 0), MAX_WAIT_MS);
	}
	return Math.min(baseMs * 2 ** (attempt - 1), MAX_WAIT_MS);
}
