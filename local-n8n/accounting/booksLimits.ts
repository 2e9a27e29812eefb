/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The books' documented rate limits, kept by the stand-ins per organisation (Xero tenant) or company
// (QuickBooks realm): calls started in the last minute and calls in progress, a call over either
// answered 429 with Retry-After in seconds; and an optional delay before each answer, so a test or a
// benchmark can make the books slow. Month-end (many executions at once) is only honest against
// books that throttle and answer slowly as the real ones do.

import type { ServerResponse } from 'node:http';

export interface BooksLimits {
	/** Calls one tenant may start in any 60 seconds. */
	perMinute: number;
	/** Calls of one tenant in progress at once. */
	inProgress: number;
}

/**
 * Xero, per tenant (developer.xero.com/documentation/guides/oauth2/limits: "Concurrent Limit: 5 calls
 * in progress at one time", "Minute Limit: 60 calls per minute"; its daily 5,000 is not kept here).
 */
export const XERO_LIMITS: Readonly<BooksLimits> = { perMinute: 60, inProgress: 5 };

/**
 * QuickBooks Online, per realm and app (Intuit: "500 requests per minute per realmId", "more than 10
 * concurrent … requests to the same realmId will get a 429").
 */
export const QUICKBOOKS_LIMITS: Readonly<BooksLimits> = { perMinute: 500, inProgress: 10 };

const MINUTE_MS = 60_000;

export type Admission =
	| { admitted: true; remainingThisMinute: number; done(): void }
	| { admitted: false; problem: 'minute' | 'concurrent'; retryAfterSeconds: number };

/**
 * Whether a tenant's call may start now. The minute is a sliding window of the calls admitted in the
 * last 60 s: Retry-After is the whole seconds until the oldest of them leaves it. Calls in progress
 * free a place when they end, so Retry-After is 1 s for them. Refused calls count for neither limit.
 */
export class RateLimiter {
	private readonly started = new Map<string, number[]>();
	private readonly running = new Map<string, number>();
	private readonly limits: BooksLimits;
	private readonly now: () => number;

	constructor(limits: BooksLimits, now: () => number = Date.now) {
		this.limits = limits;
		this.now = now;
	}

	admit(tenant: string): Admission {
		const now = this.now();
		const recent = (this.started.get(tenant) ?? []).filter((at) => at > now - MINUTE_MS);
		this.started.set(tenant, recent);
		if (recent.length >= this.limits.perMinute) {
			const retryAfterSeconds = Math.max(1, Math.ceil((recent[0] + MINUTE_MS - now) / 1000));
			return { admitted: false, problem: 'minute', retryAfterSeconds };
		}
		const running = this.running.get(tenant) ?? 0;
		if (running >= this.limits.inProgress)
			return { admitted: false, problem: 'concurrent', retryAfterSeconds: 1 };
		recent.push(now);
		this.running.set(tenant, running + 1);
		let ended = false;
		return {
			admitted: true,
			remainingThisMinute: this.limits.perMinute - recent.length,
			done: () => {
				if (ended) return;
				ended = true;
				this.running.set(tenant, (this.running.get(tenant) ?? 1) - 1);
			},
		};
	}
}

/** How loaded and how slow a stand-in is; every field optional, defaults from the environment. */
export interface StandInLoad {
	/**
	 * The limits per tenant: the books' documented ones by default, some of them changed, or `false`
	 * for none. `BOOKS_STAND_IN_LIMITS=off` in the environment makes the default none.
	 */
	limits?: Partial<BooksLimits> | false;
	/** Each API call waits this long before it is handled (in progress meanwhile). Default: `BOOKS_STAND_IN_DELAY_MS`, else 0. */
	responseDelayMs?: number;
	/** The delay times this, e.g. 4 for books answering four times slower. Default: the stand-in's `*_STAND_IN_SLOWDOWN`, else 1. */
	slowdown?: number;
	/** The clock of the minute window (for tests). */
	now?: () => number;
}

/** A non-negative number from the environment; undefined when unset or not one. */
function fromEnvironment(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) && number >= 0 ? number : undefined;
}

/**
 * The limits and the delay a stand-in keeps: its options first, then the environment
 * (`BOOKS_STAND_IN_LIMITS`, `BOOKS_STAND_IN_DELAY_MS`, `slowdownVariable`), then the documented limits
 * and no delay. Pure.
 */
export function standInLoad(
	documented: Readonly<BooksLimits>,
	options: StandInLoad,
	slowdownVariable: string,
	env: Record<string, string | undefined> = process.env,
): { limits: BooksLimits | undefined; delayMs: number } {
	const off = /^(off|false|0|no)$/i.test(env.BOOKS_STAND_IN_LIMITS?.trim() ?? '');
	const limits =
		options.limits === false || (options.limits === undefined && off)
			? undefined
			: { ...documented, ...options.limits };
	const base = options.responseDelayMs ?? fromEnvironment(env.BOOKS_STAND_IN_DELAY_MS) ?? 0;
	const slowdown = options.slowdown ?? fromEnvironment(env[slowdownVariable]) ?? 1;
	return { limits, delayMs: Math.max(0, base * slowdown) };
}

/** What a stand-in does with each API call's load: admit it or say why not, then wait its delay. */
export class BooksLoad {
	readonly limits: BooksLimits | undefined;
	readonly delayMs: number;
	private readonly limiter: RateLimiter | undefined;
	private readonly remainingHeader: string | undefined;

	/** `remainingHeader`: the header that tells an admitted call how many calls this minute has left. */
	constructor(
		documented: Readonly<BooksLimits>,
		options: StandInLoad,
		slowdownVariable: string,
		remainingHeader?: string,
	) {
		({ limits: this.limits, delayMs: this.delayMs } = standInLoad(
			documented,
			options,
			slowdownVariable,
		));
		this.limiter = this.limits && new RateLimiter(this.limits, options.now);
		this.remainingHeader = remainingHeader;
	}

	/**
	 * Called as a call of `tenant` arrives: undefined when admitted (in progress until `res` is
	 * closed), else the refusal to answer with 429.
	 */
	admit(tenant: string, res: ServerResponse): Extract<Admission, { admitted: false }> | undefined {
		if (!this.limiter) return undefined;
		const admission = this.limiter.admit(tenant);
		if (!admission.admitted) return admission;
		res.once('close', admission.done);
		if (this.remainingHeader)
			res.setHeader(this.remainingHeader, String(admission.remainingThisMinute));
		return undefined;
	}

	/** Waits the call's delay. */
	async pause(): Promise<void> {
		if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
	}
}
