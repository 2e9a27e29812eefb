import { describe, expect, it } from 'vitest';

import {
	RequestPacer,
	type PacedStart,
} from '../../../../../nodes/DocumentExtraction/transport/pacer.ts';

function clockAt(start = 0) {
	const clock = { now: start, read: () => clock.now };
	return clock;
}

const started = (result: ReturnType<RequestPacer['tryStart']>): PacedStart => {
	if (!('sequence' in result))
		throw new Error(`expected a start, got a wait of ${result.waitMs} ms`);
	return result;
};

describe('RequestPacer', () => {
	it('lets the tier rate start at once, then waits until the first start is a minute old', () => {
		const clock = clockAt(1_000);
		const pacer = new RequestPacer(3, clock.read);
		for (let index = 0; index < 3; index++) started(pacer.tryStart());
		expect(pacer.tryStart()).toEqual({ waitMs: 60_000 });
		clock.now += 59_999;
		expect(pacer.tryStart()).toEqual({ waitMs: 1 });
		clock.now += 1;
		expect(started(pacer.tryStart()).sequence).toBe(3);
	});

	it('never lets more than the rate start in any minute (sliding)', () => {
		const clock = clockAt();
		const pacer = new RequestPacer(10, clock.read);
		const starts: number[] = [];
		while (clock.now < 300_000) {
			const result = pacer.tryStart();
			if ('sequence' in result) starts.push(clock.now);
			else clock.now += Math.min(result.waitMs, 137);
		}
		for (const at of starts)
			expect(
				starts.filter((other) => other >= at && other < at + 60_000).length,
			).toBeLessThanOrEqual(10);
		expect(starts.length).toBeGreaterThanOrEqual(50);
	});

	it('unlimited tiers are not paced', () => {
		const pacer = new RequestPacer(null, clockAt().read);
		for (let index = 0; index < 1_000; index++) started(pacer.tryStart());
	});

	it("follows the service's window when its answers say it (a shorter window is used to the full)", () => {
		const clock = clockAt();
		const pacer = new RequestPacer(10, clock.read);
		const first = started(pacer.tryStart());
		pacer.observe(first, {
			'x-ratelimit-limit': '10',
			'x-ratelimit-remaining': '2',
			'x-ratelimit-reset': '15',
		});
		started(pacer.tryStart());
		started(pacer.tryStart());
		expect(pacer.tryStart()).toEqual({ waitMs: 15_000 });
		clock.now = 15_000;
		// A fresh window of 10, not the sliding minute's 7 left.
		for (let index = 0; index < 10; index++) started(pacer.tryStart());
		expect('waitMs' in pacer.tryStart()).toBe(true);
	});

	it('an older answer does not undo what a newer one said', () => {
		const clock = clockAt();
		const pacer = new RequestPacer(100, clock.read);
		const a = started(pacer.tryStart());
		const b = started(pacer.tryStart());
		pacer.observe(b, {
			'x-ratelimit-limit': 5,
			'x-ratelimit-remaining': 0,
			'x-ratelimit-reset': 10,
		});
		pacer.observe(a, {
			'x-ratelimit-limit': 5,
			'x-ratelimit-remaining': 4,
			'x-ratelimit-reset': 10,
		});
		expect(pacer.tryStart()).toEqual({ waitMs: 10_000 });
	});

	it("a 429's wait holds every request", () => {
		const clock = clockAt();
		const pacer = new RequestPacer(null, clock.read);
		started(pacer.tryStart());
		pacer.hold(5_000);
		expect(pacer.tryStart()).toEqual({ waitMs: 5_000 });
		clock.now = 5_000;
		started(pacer.tryStart());
	});

	it("counts the run's requests that are waiting, for the error of Extract's Rate Limit Wait (N69)", () => {
		const pacer = new RequestPacer(3, clockAt().read);
		expect(pacer.waitingRequests()).toBe(0);
		pacer.waitStarted();
		pacer.waitStarted();
		pacer.waitStarted();
		pacer.waitEnded();
		expect(pacer.waitingRequests()).toBe(2);
	});

	it('ignores headers that are missing or not numbers', () => {
		const clock = clockAt();
		const pacer = new RequestPacer(2, clock.read);
		const first = started(pacer.tryStart());
		pacer.observe(first, { 'x-ratelimit-limit': 'many', 'x-ratelimit-remaining': '1' });
		started(pacer.tryStart());
		expect(pacer.tryStart()).toEqual({ waitMs: 60_000 });
	});
});
