/**
 * Paces one node run's requests to the tier's per-minute rate on the client side
 * (docs/spec-decisions.md#n44), so that parallel uploads do not run into 429s. At most `perMinute`
 * requests start in any 60 seconds (a sliding log: every fixed window of the service then stays
 * within the rate too). When the service's answers carry `X-RateLimit-Limit`, `-Remaining` and
 * `-Reset` (the contract does not show them; the sandbox sends them), that window is followed
 * instead, so a shorter or already half-used window is used to the full. A 429's wait holds every
 * request of the run. It counts the run's requests that are waiting, for the error of Extract's Rate
 * Limit Wait. Pure apart from the clock, which tests pass in.
 */

const MINUTE_MS = 60_000;

/** A request that may start: hand it back to `observe` with the answer's headers. */
export interface PacedStart {
	/** How many requests had started before this one. */
	sequence: number;
}

interface ServiceWindow {
	limit: number;
	/** Requests the service still takes in this window, as of `asOfSequence` starts. */
	remaining: number;
	asOfSequence: number;
	resetAt: number;
}

function headerNumber(headers: Record<string, unknown> | undefined, name: string): number | null {
	const raw = headers?.[name];
	const value = Number(Array.isArray(raw) ? raw[0] : raw);
	return raw === undefined || raw === null || raw === '' || !Number.isFinite(value) || value < 0
		? null
		: value;
}

export class RequestPacer {
	private readonly startTimes: number[] = [];
	private started = 0;
	private heldUntil = 0;
	private window?: ServiceWindow;
	private waiting = 0;

	private readonly perMinute: number | null;
	private readonly clock: () => number;

	/** `perMinute`: the tier's documented rate; null: unlimited (only a 429 paces). */
	constructor(perMinute: number | null, clock: () => number = Date.now) {
		this.perMinute = perMinute;
		this.clock = clock;
	}

	/** A start, or how many milliseconds to wait before asking again. */
	tryStart(): PacedStart | { waitMs: number } {
		const now = this.clock();
		while (this.startTimes.length > 0 && this.startTimes[0] <= now - MINUTE_MS)
			this.startTimes.shift();
		if (now < this.heldUntil) return { waitMs: this.heldUntil - now };
		const waitMs = this.window ? this.serviceWindowWait(now) : this.slidingLogWait(now);
		// A window whose end is not known yet ends at the latest after a minute.
		if (waitMs > 0) return { waitMs: Math.min(waitMs, MINUTE_MS) };
		this.startTimes.push(now);
		return { sequence: this.started++ };
	}

	/** What an answer says about the service's window. */
	observe(start: PacedStart, headers: Record<string, unknown> | undefined): void {
		const limit = headerNumber(headers, 'x-ratelimit-limit');
		const remaining = headerNumber(headers, 'x-ratelimit-remaining');
		const resetSeconds = headerNumber(headers, 'x-ratelimit-reset');
		if (limit === null || remaining === null || resetSeconds === null) return;
		const resetAt = this.clock() + resetSeconds * 1000;
		// An answer that left before later ones knows less: keep the newest view of the window.
		if (this.window && this.window.asOfSequence > start.sequence && this.window.resetAt <= resetAt)
			return;
		this.window = { limit, remaining, asOfSequence: start.sequence + 1, resetAt };
	}

	/** A 429: nothing starts before `waitMs` has passed. */
	hold(waitMs: number): void {
		this.heldUntil = Math.max(this.heldUntil, this.clock() + waitMs);
		if (this.window) this.window.remaining = 0;
	}

	/** A request of the run is waiting (a 429's wait or the pacer's) until `waitEnded`. */
	waitStarted(): void {
		this.waiting++;
	}

	waitEnded(): void {
		this.waiting--;
	}

	/** How many requests of the run are waiting right now. */
	waitingRequests(): number {
		return this.waiting;
	}

	private serviceWindowWait(now: number): number {
		if (now >= this.window!.resetAt) {
			// A fresh window: its end is known from the next answer.
			const { limit } = this.window!;
			this.window = { limit, remaining: limit, asOfSequence: this.started, resetAt: Infinity };
		}
		const window = this.window!;
		const startedSince = this.started - window.asOfSequence;
		return window.remaining - startedSince > 0 ? 0 : window.resetAt - now;
	}

	private slidingLogWait(now: number): number {
		if (this.perMinute === null) return 0;
		return this.startTimes.length < this.perMinute ? 0 : this.startTimes[0] + MINUTE_MS - now;
	}
}
