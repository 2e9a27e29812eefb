/** The per-key rate limit of the tiers (docs/spec-decisions.md#d11): a fixed window of settings.minuteMs per account. */
import { TIERS } from './config.ts';
import type { Account, SandboxState } from './state.ts';

export interface RateLimitVerdict {
	/** The x-ratelimit-* headers every answer to this key carries (none for unlimited tiers). */
	headers: Record<string, string | number>;
	limited: boolean;
	/** Seconds until the window resets (Retry-After). */
	retryAfter: number;
}

/** Counts one request of `account` in its window. */
export function countRequest(state: SandboxState, account: Account): RateLimitVerdict {
	const limit = TIERS[account.tier].requestsPerMinute;
	if (limit === null) return { headers: {}, limited: false, retryAfter: 0 };
	const now = Date.now();
	let window = state.windows.get(account.id);
	if (!window || now - window.startedAt >= state.settings.minuteMs) {
		window = { startedAt: now, count: 0 };
		state.windows.set(account.id, window);
	}
	const resetSeconds = Math.max(
		1,
		Math.ceil((window.startedAt + state.settings.minuteMs - now) / 1000),
	);
	const limited = window.count >= limit;
	if (!limited) window.count++;
	return {
		headers: {
			'x-ratelimit-limit': limit,
			'x-ratelimit-remaining': Math.max(0, limit - window.count),
			'x-ratelimit-reset': resetSeconds,
		},
		limited,
		retryAfter: resetSeconds,
	};
}
