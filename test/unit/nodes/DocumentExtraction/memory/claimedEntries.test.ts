/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the virtual clock lets promise continuations run with setImmediate */
/**
 * The duplicate guard's claim-and-confirm protocol (N12) against a store that behaves like n8n's
 * deduplication store under concurrency: every call reads the row, then writes the whole row back a
 * little later (last writer wins; the first INSERT of the row fails on its primary key when another
 * got there first). Time is virtual and every delay comes from a seeded generator, so each
 * interleaving is reproducible; thousands of them run in a second.
 */
import { describe, expect, it } from 'vitest';

import type {
	ClaimOutcome,
	ClaimTiming,
	ProcessedStore,
} from '../../../../../nodes/DocumentExtraction/memory/claimedEntries.ts';
import { claimEntry } from '../../../../../nodes/DocumentExtraction/memory/claimedEntries.ts';

/** A file's claim, keyed as Skip Files Already Submitted keys it. */
const claimSubmission = async (store: ProcessedStore, sha256: string, timing: ClaimTiming) =>
	await claimEntry(store, `sha256:${sha256}`, `claim:${sha256}`, timing);

const SETTLE = 1000;

/** xorshift32: the same seed gives the same schedule. */
function generator(seed: number): () => number {
	let state = seed >>> 0 || 1;
	return () => {
		state ^= state << 13;
		state >>>= 0;
		state ^= state >>> 17;
		state ^= state << 5;
		state >>>= 0;
		return state / 0x1_0000_0000;
	};
}

/** A virtual clock: timers run in time order, each followed by every promise continuation it caused. */
class Clock {
	now = 0;
	private timers: Array<{ at: number; order: number; run: () => void }> = [];
	private order = 0;

	at(time: number, run: () => void): void {
		this.timers.push({ at: Math.max(time, this.now), order: this.order++, run });
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((resolve) => this.at(this.now + ms, resolve));
	}

	async runAll(): Promise<void> {
		await settleMicrotasks();
		while (this.timers.length > 0) {
			this.timers.sort((a, b) => a.at - b.at || a.order - b.order);
			const next = this.timers.shift()!;
			this.now = next.at;
			next.run();
			await settleMicrotasks();
		}
	}
}

const settleMicrotasks = async () => await new Promise<void>((resolve) => setImmediate(resolve));

/**
 * n8n's DeduplicationHelper in mode "entries", with time between its findOne and its write: the
 * delay before the read and the read-to-write gap are drawn per call (or fixed by `stall`).
 */
class LastWriterWinsRow {
	row: string[] | undefined;
	insertConflicts = 0;

	private readonly clock: Clock;
	private readonly gap: () => number;

	constructor(clock: Clock, gap: () => number) {
		this.clock = clock;
		this.gap = gap;
	}

	store(stall?: { readAt: number; writeAt: number }): ProcessedStore {
		return {
			record: async (values) =>
				await this.readModifyWrite((snapshot) => {
					const seen = new Set(values.filter((value) => snapshot.includes(value)));
					return {
						next: [...snapshot, ...values.filter((value) => !seen.has(value))],
						result: seen,
					};
				}, stall),
			remove: async (values) => {
				await this.readModifyWrite<undefined>(
					(snapshot) => ({
						next: snapshot.filter((value) => !values.includes(value)),
						result: undefined,
					}),
					stall,
				);
			},
		};
	}

	private async readModifyWrite<T>(
		change: (snapshot: string[]) => { next: string[]; result: T },
		stall?: { readAt: number; writeAt: number },
	): Promise<T | 'conflict'> {
		return await new Promise<T | 'conflict'>((resolve) => {
			const readAt = stall?.readAt ?? this.clock.now + this.gap();
			this.clock.at(readAt, () => {
				const existed = this.row !== undefined;
				const { next, result } = change([...(this.row ?? [])]);
				this.clock.at(stall?.writeAt ?? this.clock.now + this.gap(), () => {
					if (!existed && this.row !== undefined) {
						this.insertConflicts++;
						resolve('conflict');
						return;
					}
					this.row = next.slice(-10_000);
					resolve(result);
				});
			});
		});
	}
}

interface Race {
	outcomes: Array<ClaimOutcome | Error>;
	winners: number;
	insertConflicts: number;
}

/** `contenders` executions claim the same content, starting within `spreadMs`; others write other content. */
async function race(
	seed: number,
	options: { contenders: number; spreadMs: number; maxGapMs: number; unrelated?: number },
): Promise<Race> {
	const random = generator(seed);
	const clock = new Clock();
	const row = new LastWriterWinsRow(clock, () => random() * options.maxGapMs);
	let nonce = 0;
	const timing = {
		settleMs: SETTLE,
		sleep: async (ms: number) => await clock.sleep(ms),
		nonce: () => `n${nonce++}`,
	};
	const claims: Array<Promise<ClaimOutcome | Error>> = [];
	for (let i = 0; i < options.contenders; i++) {
		const start = random() * options.spreadMs;
		claims.push(
			clock
				.sleep(start)
				.then(async () => await claimSubmission(row.store(), 'same', timing))
				.catch((error: Error) => error),
		);
	}
	for (let i = 0; i < (options.unrelated ?? 0); i++) {
		const start = random() * options.spreadMs;
		void clock
			.sleep(start)
			.then(async () => await claimSubmission(row.store(), `other${i}`, timing))
			.catch(() => undefined);
	}
	await clock.runAll();
	const outcomes = await Promise.all(claims);
	return {
		outcomes,
		winners: outcomes.filter(
			(outcome) => !(outcome instanceof Error) && 'won' in outcome && outcome.won,
		).length,
		insertConflicts: row.insertConflicts,
	};
}

/** What the guard did before: one record call, "new" means upload. */
async function naiveRace(seed: number, contenders: number): Promise<number> {
	const random = generator(seed);
	const clock = new Clock();
	const row = new LastWriterWinsRow(clock, () => random() * 20);
	row.row = [];
	const uploads: Array<Promise<boolean>> = [];
	for (let i = 0; i < contenders; i++) {
		uploads.push(
			clock.sleep(random() * 10).then(async () => {
				const seen = await row.store().record(['sha256:same']);
				return seen !== 'conflict' && !seen.has('sha256:same');
			}),
		);
	}
	await clock.runAll();
	return (await Promise.all(uploads)).filter(Boolean).length;
}

describe('claim and confirm on a last-writer-wins store', () => {
	it('the store reproduces the problem: one record call per execution lets several of 10 simultaneous executions upload', async () => {
		const uploads = await Promise.all(
			Array.from({ length: 20 }, async (_, seed) => await naiveRace(seed + 1, 10)),
		);
		expect(Math.max(...uploads)).toBeGreaterThan(1);
	});

	it('10 executions at the same moment, from an empty store (the first INSERTs collide): exactly one wins, in every schedule', async () => {
		let insertConflicts = 0;
		for (let seed = 1; seed <= 300; seed++) {
			const result = await race(seed, { contenders: 10, spreadMs: 30, maxGapMs: 40 });
			const errors = result.outcomes.filter(
				(outcome) => outcome instanceof Error || 'unsettled' in outcome,
			).length;
			expect({ seed, errors, winners: result.winners }).toEqual({ seed, errors: 0, winners: 1 });
			insertConflicts += result.insertConflicts;
		}
		expect(insertConflicts).toBeGreaterThan(0);
	});

	// Read-to-write gaps up to a quarter of the settle delay (250 ms for one database round trip); at half
	// of it, about 1 schedule in 80 ends with two winners or none (N12).
	it('with executions for other files writing the same row (clobbering claims): still exactly one winner, losers retry', async () => {
		let retried = 0;
		for (let seed = 1; seed <= 300; seed++) {
			const { outcomes, winners } = await race(seed, {
				contenders: 10,
				spreadMs: 2 * SETTLE,
				maxGapMs: SETTLE / 4,
				unrelated: 10,
			});
			expect({
				seed,
				errors: outcomes.filter((outcome) => outcome instanceof Error || 'unsettled' in outcome)
					.length,
				winners,
			}).toEqual({ seed, errors: 0, winners: 1 });
			retried += outcomes.filter(
				(outcome) =>
					!(outcome instanceof Error) && 'won' in outcome && !outcome.won && outcome.concurrent,
			).length;
		}
		expect(retried).toBeGreaterThan(0);
	});

	it('a later execution finds the content at once and does not wait', async () => {
		const clock = new Clock();
		const row = new LastWriterWinsRow(clock, () => 5);
		const timing = {
			settleMs: SETTLE,
			sleep: async (ms: number) => await clock.sleep(ms),
			nonce: () => 'first',
		};
		const first = claimSubmission(row.store(), 'same', timing);
		await clock.runAll();
		expect(await first).toEqual({ won: true, claimKey: 'claim:same:first' });
		const startedAt = clock.now;
		const second = claimSubmission(row.store(), 'same', { ...timing, nonce: () => 'second' });
		await clock.runAll();
		expect(await second).toEqual({ won: false, concurrent: false });
		expect(clock.now - startedAt).toBeLessThan(SETTLE);
	});

	it('the remaining window: a write stalled for longer than the settle delay lets a second execution win', async () => {
		const clock = new Clock();
		const row = new LastWriterWinsRow(clock, () => 5);
		row.row = [];
		const timing = (name: string) => ({
			settleMs: SETTLE,
			sleep: async (ms: number) => await clock.sleep(ms),
			nonce: () => name,
		});
		// Both read the empty row; `b`'s write comes three settle delays later, after `a` confirmed.
		const late = new LastWriterWinsRow(clock, () => 5);
		late.row = [];
		let call = 0;
		const lateStore: ProcessedStore = {
			record: async (values) =>
				call++ === 0
					? await late.store({ readAt: clock.now, writeAt: clock.now + 3 * SETTLE }).record(values)
					: await late.store().record(values),
			remove: async (values) => await late.store().remove(values),
		};
		const a = claimSubmission(late.store(), 'same', timing('a'));
		const b = claimSubmission(lateStore, 'same', timing('b'));
		await clock.runAll();
		expect([await a, await b].filter((outcome) => 'won' in outcome && outcome.won)).toHaveLength(2);
	});
});
