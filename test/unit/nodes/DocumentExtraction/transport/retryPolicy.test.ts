import { describe, expect, it } from 'vitest';

import {
	retryAfterMs,
	retryDelayMs,
} from '../../../../../nodes/DocumentExtraction/transport/retryPolicy.ts';

describe('retryDelayMs (D11)', () => {
	const now = Date.parse('2024-03-15T12:00:00Z');

	it.each([
		['0', 0],
		['5', 5000],
		[' 12 ', 12_000],
		['1.5', 1500],
		[3, 3000],
		[['2', '9'], 2000],
	])('Retry-After %j -> %i ms', (header, expected) => {
		expect(retryDelayMs(header, 4, 1000, now)).toBe(expected);
	});

	it('an HTTP date: the time until then, never negative', () => {
		expect(retryDelayMs('Fri, 15 Mar 2024 12:00:07 GMT', 1, 1000, now)).toBe(7000);
		expect(retryDelayMs('Fri, 15 Mar 2024 11:59:00 GMT', 1, 1000, now)).toBe(0);
	});

	it('without a usable header: base x 2^(attempt-1)', () => {
		expect([1, 2, 3, 4].map((attempt) => retryDelayMs(undefined, attempt, 1000, now))).toEqual([
			1000, 2000, 4000, 8000,
		]);
		expect(retryDelayMs('soon', 2, 1000, now)).toBe(2000);
		expect(retryDelayMs(null, 3, 250, now)).toBe(1000);
		expect(retryDelayMs({}, 1, 500, now)).toBe(500);
	});

	// Regression guard: V8's lenient Date.parse reads "-5" as May 2001 and "later 2" as February 2001,
	// so a malformed header means "retry at once" instead of backing off.
	it.each(['-5', 'later 2', '1 2'])(
		'a header that is neither seconds nor an HTTP date (%j) backs off',
		(header) => {
			expect(retryDelayMs(header, 2, 1000, now)).toBe(2000);
		},
	);

	it('never waits more than 2 minutes', () => {
		expect(retryDelayMs('3600', 1, 1000, now)).toBe(120_000);
		expect(retryDelayMs('Sat, 16 Mar 2024 12:00:00 GMT', 1, 1000, now)).toBe(120_000);
		expect(retryDelayMs(undefined, 20, 1000, now)).toBe(120_000);
	});
});

describe('retryAfterMs: the wait asked for, not capped', () => {
	const now = Date.parse('2024-03-15T12:00:00Z');

	it('seconds and HTTP dates beyond the cap come out whole', () => {
		expect(retryAfterMs('3600', now)).toBe(3_600_000);
		expect(retryAfterMs('Sat, 16 Mar 2024 12:00:00 GMT', now)).toBe(86_400_000);
	});

	it.each([undefined, null, '', 'soon', '-5', {}])('nothing usable in %j: null', (header) => {
		expect(retryAfterMs(header, now)).toBeNull();
	});
});
