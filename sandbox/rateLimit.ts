/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * The per-key rate limit of the tiers (docs/spec-decisions.md#d11, #n69): requests per minute per
 * account (settings.requestsPerMinute), counted in a fixed window of settings.minuteMs from its
 * first request, or, with settings.rateLimitWindow 'rolling', among the requests of the last
 * minuteMs. A refused request is not counted. The headers say when a place frees up: the window's
 * start plus minuteMs, which is a fixed window's end, and when the oldest counted request leaves a
 * rolling one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { sendError } from './http.ts';
import type { Account, SandboxState } from './state.ts';

export interface RateLimitVerdict {
	/** The x-ratelimit-* headers every answer to this key carries (none for unlimited tiers). */
	headers: Record<string, string | number>;
	limited: boolean;
	/** Seconds until a place frees up (Retry-After). */
	retryAfter: number;
	/** The account's requests per minute; null: unlimited. */
	limit: number | null;
}

/** An account's window as the state keeps it: when it began and how many requests it counts. */
interface CountedWindow {
	startedAt: number;
	count: number;
}

/** A rolling window also keeps when each counted request came; `startedAt` is the oldest's. */
interface RollingWindow extends CountedWindow {
	admitted: number[];
}

function fixedWindow(state: SandboxState, accountId: string, now: number): CountedWindow {
	const window = state.windows.get(accountId);
	if (window && now - window.startedAt < state.settings.minuteMs) return window;
	const fresh = { startedAt: now, count: 0 };
	state.windows.set(accountId, fresh);
	return fresh;
}

function rollingWindow(state: SandboxState, accountId: string, now: number): RollingWindow {
	const kept = state.windows.get(accountId);
	const window: RollingWindow =
		kept && 'admitted' in kept
			? (kept as RollingWindow)
			: { startedAt: now, count: 0, admitted: [] };
	state.windows.set(accountId, window);
	while (window.admitted.length > 0 && now - window.admitted[0] >= state.settings.minuteMs)
		window.admitted.shift();
	window.count = window.admitted.length;
	window.startedAt = window.admitted[0] ?? now;
	return window;
}

/** Counts one request of `account` in its window. */
export function countRequest(state: SandboxState, account: Account): RateLimitVerdict {
	const limit = state.settings.requestsPerMinute[account.tier];
	if (limit === null) return { headers: {}, limited: false, retryAfter: 0, limit };
	const now = Date.now();
	const rolling = state.settings.rateLimitWindow === 'rolling';
	const window = rolling
		? rollingWindow(state, account.id, now)
		: fixedWindow(state, account.id, now);
	const limited = window.count >= limit;
	if (!limited) {
		window.count++;
		if (rolling) {
			const { admitted } = window as RollingWindow;
			admitted.push(now);
			window.startedAt = admitted[0];
		}
	}
	const resetSeconds = Math.max(
		1,
		Math.ceil((window.startedAt + state.settings.minuteMs - now) / 1000),
	);
	return {
		headers: {
			'x-ratelimit-limit': limit,
			'x-ratelimit-remaining': Math.max(0, limit - window.count),
			'x-ratelimit-reset': resetSeconds,
		},
		limited,
		retryAfter: resetSeconds,
		limit,
	};
}

/**
 * The 429 of a request over the limit, sent once its body has arrived: answering while the client
 * still sends makes Node close the connection, and the client would see a broken connection (after
 * which an upload is not repeated) instead of the 429 that says nothing was done.
 */
export async function refuseOverLimit(
	request: IncomingMessage,
	response: ServerResponse,
	account: Account,
	verdict: RateLimitVerdict,
): Promise<void> {
	if (!request.readableEnded)
		await new Promise<void>((resolve) => {
			request.once('end', resolve);
			request.once('error', () => resolve());
			request.once('close', resolve);
			request.resume();
		});
	sendError(
		response,
		429,
		'rate_limited',
		`The ${account.tier} tier allows ${verdict.limit} requests per minute.`,
		{ ...verdict.headers, 'retry-after': verdict.retryAfter },
	);
}
