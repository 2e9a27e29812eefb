// Replays refused (N41): the signed timestamp inside the window and not ahead of the clock; by time
// only (a copy inside the window is the event's claim's to recognise).
import { describe, expect, it } from 'vitest';

import {
	DEFAULT_REPLAY_WINDOW_HOURS,
	freshness,
	MAX_CLOCK_SKEW_MS,
	signedTime,
} from '../../../../../nodes/DocumentExtraction/delivery/freshness.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('the signed time', () => {
	it('reads ISO 8601 in UTC, with or without fractions', () => {
		expect(signedTime('2026-11-26T12:00:00Z')).toBe(NOW);
		expect(signedTime('2026-11-26T12:00:00.250Z')).toBe(NOW + 250);
		expect(signedTime('2026-11-26T12:00:00+00:00')).toBe(NOW);
	});

	it('none for anything else: missing, another zone, a date only, a number, nonsense', () => {
		for (const value of [
			undefined,
			'',
			'2026-11-26T13:00:00+01:00',
			'2026-11-26',
			'26/11/2026 12:00',
			NOW,
			'2026-13-45T99:00:00Z',
		])
			expect(signedTime(value), String(value)).toBeUndefined();
	});
});

describe('freshness', () => {
	it(`the default window is ${DEFAULT_REPLAY_WINDOW_HOURS} hours`, () => {
		expect(freshness(iso(NOW - 23 * HOUR), undefined, NOW)).toEqual({
			stale: false,
			at: NOW - 23 * HOUR,
		});
		expect(freshness(iso(NOW - 25 * HOUR), undefined, NOW)).toEqual({
			stale: true,
			reason: 'signed more than 24 h ago',
		});
	});

	it('three days old is stale; so is two hours ahead; a few minutes ahead is clock skew', () => {
		expect(freshness(iso(NOW - 72 * HOUR), 24, NOW).stale).toBe(true);
		expect(freshness(iso(NOW + 2 * HOUR), 24, NOW)).toEqual({
			stale: true,
			reason: 'signed in the future',
		});
		expect(freshness(iso(NOW + MAX_CLOCK_SKEW_MS - 1000), 24, NOW).stale).toBe(false);
	});

	it('a window set on the trigger', () => {
		expect(freshness(iso(NOW - 2 * HOUR), 1, NOW).stale).toBe(true);
		expect(freshness(iso(NOW - 2 * HOUR), 3, NOW).stale).toBe(false);
	});

	it('without a signed time in ISO 8601 UTC: not stale, no time (the claim still recognises a copy)', () => {
		expect(freshness(undefined, 24, NOW)).toEqual({ stale: false });
		expect(freshness('yesterday', 24, NOW)).toEqual({ stale: false });
	});
});
