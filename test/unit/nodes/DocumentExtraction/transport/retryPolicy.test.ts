import { describe, expect, it } from 'vitest';

import {
	MAX_RETRY_WAIT_MS,
	retryAfterMs,
	retryDelayMs,
	waitWithinDeadline,
} from '../../../../../nodes/DocumentExtraction/transport/retryPolicy.ts';

const now = Date.parse('2024-03-15T12:00:00Z');
const at = (share: number) => () => share;

/** A repeatable stand-in for Math.random (Park–Miller). */
function seeded(seed = 1): () => number {
	let state = seed;
	return () => (state = (state * 16_807) % 2_147_483_647) / 2_147_483_647;
}

describe('retryDelayMs (D11, N69)', () => {
	it.each([
		['5', 5000],
		[' 12 ', 12_000],
		['1.5', 1500],
		[3, 3000],
		[['2', '9'], 2000],
	])('Retry-After %j, no jitter drawn: %i ms', (header, expected) => {
		expect(retryDelayMs(header, 4, at(0), 1000, now)).toBe(expected);
	});

	it('the jitter adds a random share of the wait, up to as much again', () => {
		expect(retryDelayMs('10', 1, at(0.5), 1000, now)).toBe(15_000);
		expect(retryDelayMs('10', 1, at(0.999), 1000, now)).toBe(19_990);
		expect(retryDelayMs(undefined, 3, at(0.25), 1000, now)).toBe(5000);
	});

	it('an HTTP date: the time until then', () => {
		expect(retryDelayMs('Fri, 15 Mar 2024 12:00:07 GMT', 1, at(0), 1000, now)).toBe(7000);
	});

	it('without a usable header, or one that says "now": base x 2^(attempt-1)', () => {
		expect(
			[1, 2, 3, 4].map((attempt) => retryDelayMs(undefined, attempt, at(0), 1000, now)),
		).toEqual([1000, 2000, 4000, 8000]);
		expect(retryDelayMs('soon', 2, at(0), 1000, now)).toBe(2000);
		expect(retryDelayMs(null, 3, at(0), 250, now)).toBe(1000);
		expect(retryDelayMs({}, 1, at(0), 500, now)).toBe(500);
		// "Now", again and again, would be a request a moment until the deadline.
		expect(retryDelayMs('0', 3, at(0), 1000, now)).toBe(4000);
		expect(retryDelayMs('Fri, 15 Mar 2024 11:59:00 GMT', 2, at(0), 1000, now)).toBe(2000);
	});

	// Regression guard: V8's lenient Date.parse reads "-5" as May 2001 and "later 2" as February 2001,
	// so a malformed header means "retry at once" instead of backing off.
	it.each(['-5', 'later 2', '1 2'])(
		'a header that is neither seconds nor an HTTP date (%j) backs off',
		(header) => {
			expect(retryDelayMs(header, 2, at(0), 1000, now)).toBe(2000);
		},
	);

	it('never waits more than 2 minutes, however many attempts', () => {
		expect(retryDelayMs('120', 1, at(0.9), 1000, now)).toBe(MAX_RETRY_WAIT_MS);
		expect(retryDelayMs('3600', 1, at(0), 1000, now)).toBe(MAX_RETRY_WAIT_MS);
		expect(retryDelayMs('Sat, 16 Mar 2024 12:00:00 GMT', 1, at(0), 1000, now)).toBe(
			MAX_RETRY_WAIT_MS,
		);
		expect(retryDelayMs(undefined, 20, at(0), 1000, now)).toBe(MAX_RETRY_WAIT_MS);
		expect(retryDelayMs(undefined, 100_000, at(0.5), 1000, now)).toBe(MAX_RETRY_WAIT_MS);
	});

	it('requests refused together with the same Retry-After come back spread over as long again, not together', () => {
		const random = seeded(7);
		const waits = Array.from({ length: 20 }, () => retryDelayMs('10', 1, random, 1000, now));
		expect(new Set(waits).size).toBe(20);
		expect(Math.min(...waits)).toBeGreaterThanOrEqual(10_000);
		expect(Math.max(...waits)).toBeLessThan(20_000);
		// Spread over the span, not bunched: each quarter of it holds some.
		const quarters = new Set(waits.map((wait) => Math.floor((wait - 10_000) / 2500)));
		expect(quarters).toEqual(new Set([0, 1, 2, 3]));
	});
});

describe('retryAfterMs: the wait asked for, not capped', () => {
	it('seconds and HTTP dates beyond the cap come out whole', () => {
		expect(retryAfterMs('3600', now)).toBe(3_600_000);
		expect(retryAfterMs('Sat, 16 Mar 2024 12:00:00 GMT', now)).toBe(86_400_000);
	});

	it.each([undefined, null, '', 'soon', '-5', {}])('nothing usable in %j: null', (header) => {
		expect(retryAfterMs(header, now)).toBeNull();
	});
});

describe('waitWithinDeadline (Rate Limit Wait, N69)', () => {
	const deadline = now + 60_000;

	it('well before the deadline: the wait as drawn', () => {
		expect(waitWithinDeadline(15_000, 10_000, now, deadline)).toBe(15_000);
		expect(waitWithinDeadline(1_500, null, now, deadline)).toBe(1_500);
	});

	it('a wait that would end past the deadline is cut short there: the last try is at the deadline', () => {
		expect(waitWithinDeadline(35_000, 20_000, now + 35_000, deadline)).toBe(25_000);
		expect(waitWithinDeadline(30_000, 20_000, now + 40_000, deadline)).toBe(20_000);
	});

	it('null once the deadline has come, or when the service would not take the request before it', () => {
		expect(waitWithinDeadline(1000, null, deadline, deadline)).toBeNull();
		expect(waitWithinDeadline(1000, 0, deadline + 1, deadline)).toBeNull();
		expect(waitWithinDeadline(30_000, 20_001, now + 40_000, deadline)).toBeNull();
	});

	it('a Rate Limit Wait of 0: the first 429 ends the request', () => {
		expect(waitWithinDeadline(1000, 1, now, now)).toBeNull();
	});
});
