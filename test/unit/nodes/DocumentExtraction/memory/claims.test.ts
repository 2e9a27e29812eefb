/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the virtual clock lets promise continuations run with setImmediate */
/**
 * The claim protocol of "seen before" (docs/memory.md) against a store that behaves like n8n's
 * deduplication store under concurrency: every call reads the row, then writes the whole row back a
 * little later (last writer wins; the first INSERT of the row fails on its primary key when another
 * got there first). Time is virtual and every delay comes from a seeded generator, so each
 * interleaving is reproducible; thousands of them run in a second.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Claimed, KeyStore } from '../../../../../nodes/DocumentExtraction/memory/claims.ts';
import {
	claimAll,
	claimKeys,
	releaseKeys,
} from '../../../../../nodes/DocumentExtraction/memory/claims.ts';
import { fakeExecuteContext } from '../../../harness/fakeExecuteContext.ts';

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

	store(stall?: { readAt: number; writeAt: number }): KeyStore {
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
	results: Array<Claimed | Error>;
	/** How many runs won each key. */
	winnersByKey: Map<string, number>;
	row: string[];
	insertConflicts: number;
}

/**
 * `runs` executions each claim `keysOf(run)` at once, starting within `spreadMs`; `unrelated` more
 * claim keys of their own on the same row (their writes clobber claims in flight).
 */
async function race(
	seed: number,
	options: {
		runs: number;
		keysOf: (run: number) => string[];
		spreadMs: number;
		maxGapMs: number;
		unrelated?: number;
	},
): Promise<Race> {
	const random = generator(seed);
	const clock = new Clock();
	const row = new LastWriterWinsRow(clock, () => random() * options.maxGapMs);
	let tokens = 0;
	const claimClock = {
		sleep: async (ms: number) => await clock.sleep(ms),
		token: () => `t${tokens++}`,
	};
	const claim = async (keys: string[]) =>
		await clock
			.sleep(random() * options.spreadMs)
			.then(async () => await claimAll(row.store(), keys, claimClock, SETTLE))
			.catch((error: Error) => error);
	const runs = Array.from(
		{ length: options.runs },
		async (_, run) => await claim(options.keysOf(run)),
	);
	for (let i = 0; i < (options.unrelated ?? 0); i++) void claim([`other:${i}`]);
	await clock.runAll();
	const results = await Promise.all(runs);
	const winnersByKey = new Map<string, number>();
	for (const result of results) {
		if (result instanceof Error) continue;
		for (const key of result.won) winnersByKey.set(key, (winnersByKey.get(key) ?? 0) + 1);
	}
	return { results, winnersByKey, row: row.row ?? [], insertConflicts: row.insertConflicts };
}

/** The guard without a confirmation: one record call, "new" means upload. */
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

const errorsOf = (race: Race) => race.results.filter((result) => result instanceof Error).length;

/** An empty row whose calls take 5 ms unless a test stalls them, and claims with named tokens. */
function stallScene() {
	const clock = new Clock();
	const row = new LastWriterWinsRow(clock, () => 5);
	row.row = [];
	const claimClock = (name: string) => ({
		sleep: async (ms: number) => await clock.sleep(ms),
		token: () => name,
	});
	return { clock, row, claimClock };
}

describe('claiming keys on a last-writer-wins store', () => {
	it('the store reproduces the problem: one record call per execution lets several of 10 simultaneous executions upload', async () => {
		const uploads = await Promise.all(
			Array.from({ length: 20 }, async (_, seed) => await naiveRace(seed + 1, 10)),
		);
		expect(Math.max(...uploads)).toBeGreaterThan(1);
	});

	it('10 executions claiming one file at the same moment, from an empty store (the first INSERTs collide): exactly one wins, in every schedule', async () => {
		let insertConflicts = 0;
		for (let seed = 1; seed <= 300; seed++) {
			const result = await race(seed, {
				runs: 10,
				keysOf: () => ['sha256:same'],
				spreadMs: 30,
				maxGapMs: 40,
			});
			expect({
				seed,
				errors: errorsOf(result),
				winners: result.winnersByKey.get('sha256:same'),
			}).toEqual({ seed, errors: 0, winners: 1 });
			insertConflicts += result.insertConflicts;
		}
		expect(insertConflicts).toBeGreaterThan(0);
	});

	// Read-to-write gaps up to a quarter of the settle delay (250 ms for one database round trip).
	it('batches of overlapping files claimed at once, beside writers of other files: every file won by exactly one run', async () => {
		let concurrent = 0;
		for (let seed = 1; seed <= 200; seed++) {
			const result = await race(seed, {
				runs: 6,
				// Run r holds files r … r+4 of 10: every file is in several batches.
				keysOf: (run) => Array.from({ length: 5 }, (_, i) => `sha256:${(run + i) % 10}`),
				spreadMs: 2 * SETTLE,
				maxGapMs: SETTLE / 4,
				unrelated: 6,
			});
			expect({
				seed,
				errors: result.results.filter((r) => r instanceof Error).map((e) => (e as Error).message),
			}).toEqual({ seed, errors: [] });
			for (let file = 0; file < 10; file++)
				expect({ seed, file, winners: result.winnersByKey.get(`sha256:${file}`) }).toEqual({
					seed,
					file,
					winners: 1,
				});
			concurrent += result.results.reduce(
				(sum, result) => sum + (result instanceof Error ? 0 : result.concurrent.size),
				0,
			);
		}
		expect(concurrent).toBeGreaterThan(0);
	});

	it('a claim leaves only its keys in the store: one entry per file, no token', async () => {
		const result = await race(7, {
			runs: 3,
			keysOf: (run) => [`sha256:${run}`, `invoice:${run}`],
			spreadMs: 50,
			maxGapMs: 20,
		});
		expect(errorsOf(result)).toBe(0);
		expect([...result.row].sort()).toEqual([
			'invoice:0',
			'invoice:1',
			'invoice:2',
			'sha256:0',
			'sha256:1',
			'sha256:2',
		]);
	});

	it('a batch of 200 new files waits one settle delay, not one per file', async () => {
		const clock = new Clock();
		const row = new LastWriterWinsRow(clock, () => 5);
		const keys = Array.from({ length: 200 }, (_, i) => `sha256:${i}`);
		const claim = claimAll(
			row.store(),
			keys,
			{ sleep: async (ms) => await clock.sleep(ms), token: () => 'only' },
			SETTLE,
		);
		await clock.runAll();
		expect((await claim).won.size).toBe(200);
		expect(clock.now).toBeLessThan(2 * SETTLE);
	});

	it('keys already there are told apart from new ones, and a repeat run waits no settle delay', async () => {
		const clock = new Clock();
		const row = new LastWriterWinsRow(clock, () => 5);
		const claimClock = { sleep: async (ms: number) => await clock.sleep(ms), token: () => 'x' };
		const first = claimAll(row.store(), ['sha256:a'], claimClock, SETTLE);
		await clock.runAll();
		expect([...(await first).won]).toEqual(['sha256:a']);
		const startedAt = clock.now;
		const second = claimAll(row.store(), ['sha256:a', 'sha256:a'], claimClock, SETTLE);
		await clock.runAll();
		expect(await second).toEqual({
			won: new Set(),
			already: new Set(['sha256:a']),
			concurrent: new Set(),
		});
		expect(clock.now - startedAt).toBeLessThan(SETTLE);
	});

	it('the remaining window: a write stalled for longer than the settle delay lets a second execution win', async () => {
		const { clock, row, claimClock } = stallScene();
		let call = 0;
		const stalledFirstWrite: KeyStore = {
			record: async (values) =>
				call++ === 0
					? await row.store({ readAt: clock.now, writeAt: clock.now + 3 * SETTLE }).record(values)
					: await row.store().record(values),
			remove: async (values) => await row.store().remove(values),
		};
		const a = claimAll(row.store(), ['sha256:same'], claimClock('a'), SETTLE);
		const b = claimAll(stalledFirstWrite, ['sha256:same'], claimClock('b'), SETTLE);
		await clock.runAll();
		expect([await a, await b].filter((claimed) => claimed.won.size === 1)).toHaveLength(2);
	});

	it('the other window: a third writer stalled for longer than the settle delay can make both contenders conclude the other won', async () => {
		// A writes [a, k]; B's write, from an older read, replaces it with [b, k]; a writer of another
		// key read [a, k] meanwhile and writes it back only after A looked (no a: concurrent) and
		// before B looks (no b: concurrent). Neither claimed k: the window docs/memory.md states.
		const { clock, row, claimClock } = stallScene();
		/** A store whose first record reads and writes at the given times. */
		const firstAt = (readAt: number, writeAt: number, thenReadAt?: number): KeyStore => {
			let calls = 0;
			return {
				record: async (values) =>
					calls++ === 0
						? await row.store({ readAt, writeAt }).record(values)
						: await row
								.store(thenReadAt ? { readAt: thenReadAt, writeAt: thenReadAt + 5 } : undefined)
								.record(values),
				remove: async (values) => await row.store().remove(values),
			};
		};
		const a = claimAll(firstAt(0, 5), ['sha256:same'], claimClock('a'), SETTLE);
		const bStore = firstAt(1, 8, 1200);
		const b = claimAll(bStore, ['sha256:same'], claimClock('b'), SETTLE);
		const other = claimAll(
			row.store({ readAt: 6, writeAt: 1100 }),
			['sha256:other'],
			claimClock('u'),
			SETTLE,
		).catch((error: Error) => error);
		await clock.runAll();
		expect([(await a).concurrent, (await b).concurrent]).toEqual([
			new Set(['sha256:same']),
			new Set(['sha256:same']),
		]);
		expect([(await a).won.size, (await b).won.size]).toEqual([0, 0]);
		await other;
	});
});

const advice = {
	message: 'Could not claim',
	description: 'Run again.',
	ifKept: 'A retry may take these keys for seen before.',
};

/** Three runs of one process asking at once: two for event:a, one for event:b. */
async function askTogether(context: IExecuteFunctions): Promise<Claimed[]> {
	return await Promise.all([
		claimKeys(context, ['event:a'], advice),
		claimKeys(context, ['event:a'], advice),
		claimKeys(context, ['event:b'], advice),
	]);
}

describe('claims of one process at the same moment', () => {
	it('join one batch: the workflow row is written once for all of them, and a key asked twice is won by the first only', async () => {
		const fake = fakeExecuteContext();
		const record = fake.context.helpers.checkProcessedAndRecord;
		let writes = 0;
		fake.context.helpers.checkProcessedAndRecord = async (...call) => {
			writes++;
			return await record(...call);
		};
		const [first, copy, other] = await askTogether(fake.context);
		expect([first.won, copy.won, copy.concurrent, other.won]).toEqual([
			new Set(['event:a']),
			new Set(),
			new Set(['event:a']),
			new Set(['event:b']),
		]);
		// One claim (record, settle, confirm) for the three runs; only their keys stay.
		expect(writes).toBe(2);
		expect([...fake.store].sort()).toEqual(['event:a', 'event:b']);
	});

	it('a key another process won while this batch claimed it is concurrent for every asker of the batch: none runs it again', async () => {
		const fake = fakeExecuteContext();
		const { checkProcessedAndRecord } = fake.context.helpers;
		let calls = 0;
		fake.context.helpers.checkProcessedAndRecord = async (...call) => {
			// Before the confirming write, another process's write replaced the row with its own
			// claim of event:a: this batch's token and event:b are gone.
			if (calls++ === 1)
				for (const value of [...fake.store]) if (value !== 'event:a') fake.store.delete(value);
			return await checkProcessedAndRecord(...call);
		};
		const [first, copy, other] = await askTogether(fake.context);
		expect([first.won, first.concurrent, copy.won, copy.concurrent]).toEqual([
			new Set(),
			new Set(['event:a']),
			new Set(),
			new Set(['event:a']),
		]);
		// event:b, absent after the other write, is claimed anew by this batch and won.
		expect(other.won).toEqual(new Set(['event:b']));
	});

	it('one batch at a time: runs that ask while a batch is being claimed wait for it and join the next, so the row has one writer of this process', async () => {
		const fake = fakeExecuteContext();
		const calls: string[] = [];
		const { checkProcessedAndRecord, removeProcessed } = fake.context.helpers;
		fake.context.helpers.checkProcessedAndRecord = async (...call) => {
			calls.push(
				`record ${call[0].filter((value) => !String(value).startsWith('run:')).join(',')}`,
			);
			return await checkProcessedAndRecord(...call);
		};
		fake.context.helpers.removeProcessed = async (...call) => {
			calls.push('remove token');
			return await removeProcessed(...call);
		};
		const first = claimKeys(fake.context, ['event:a'], advice);
		await new Promise((resolve) => setTimeout(resolve, 200));
		const later = [
			claimKeys(fake.context, ['event:b'], advice),
			claimKeys(fake.context, ['event:c'], advice),
		];
		await Promise.all([first, ...later]);
		expect(calls).toEqual([
			'record event:a',
			'record event:a',
			'remove token',
			'record event:b,event:c',
			'record event:b,event:c',
			'remove token',
		]);
	});
});

/**
 * One row in a set, whose calls can fail (a database pool timeout): `failRecords` and `failRemoves`
 * are 1-based call numbers; `committed` writes a failing record before it throws (the answer lost);
 * `beforeRecord` is another writer's work before a record call.
 */
function faultyStore(
	before: string[],
	faults: {
		failRecords?: number[];
		failRemoves?: number[] | 'all';
		committed?: boolean;
		beforeRecord?: (row: Set<string>, call: number) => void;
	},
) {
	const row = new Set(before);
	let records = 0;
	let removes = 0;
	const store: KeyStore = {
		record: async (values) => {
			records++;
			faults.beforeRecord?.(row, records);
			const fails = faults.failRecords?.includes(records);
			const seen = new Set(values.filter((value) => row.has(value)));
			if (!fails || faults.committed) for (const value of values) row.add(value);
			if (fails) throw new Error('timeout exceeded when trying to connect');
			return seen;
		},
		remove: async (values) => {
			removes++;
			if (faults.failRemoves === 'all' || faults.failRemoves?.includes(removes))
				throw new Error('timeout exceeded when trying to connect');
			for (const value of values) row.delete(value);
		},
	};
	return { row, store };
}

const instantClock = { sleep: async () => {}, token: () => 'mine' };
const KEYS = ['sha256:old', 'sha256:a', 'invoice:acme|A 1|100', 'document:doc_1'];

describe('a failed claim releases what it wrote', () => {
	it.each([false, true])(
		'its confirming write fails (committed before the answer was lost: %s): the store keeps only the keys that were there before',
		async (committed) => {
			const { row, store } = faultyStore(['sha256:old'], { failRecords: [2], committed });
			await expect(claimAll(store, KEYS, instantClock, SETTLE)).rejects.toThrow('timeout');
			expect([...row]).toEqual(['sha256:old']);
		},
	);

	it("its third write fails after another writer won one key: that writer's key and the old one stay, the claim's are gone", async () => {
		const { row, store } = faultyStore(['sha256:old'], {
			failRecords: [3],
			committed: true,
			// Before the 2nd write, another writer's write from an older read replaced the row with its
			// own claim of sha256:a: this claim's token and other keys are gone.
			beforeRecord: (current, call) => {
				if (call !== 2) return;
				current.clear();
				current.add('sha256:old').add('sha256:a');
			},
		});
		await expect(claimAll(store, KEYS, instantClock, SETTLE)).rejects.toThrow('timeout');
		expect([...row].sort()).toEqual(['sha256:a', 'sha256:old']);
	});

	it('its token cannot be removed once confirmed: the keys it won are removed with it', async () => {
		const { row, store } = faultyStore(['sha256:old'], { failRemoves: [1] });
		await expect(claimAll(store, KEYS, instantClock, SETTLE)).rejects.toThrow('timeout');
		expect([...row]).toEqual(['sha256:old']);
	});

	it('it never settles (another writer replaces the row every round): its keys and token are removed', async () => {
		const { row, store } = faultyStore(['sha256:old'], {
			beforeRecord: (current, call) => {
				if (call === 1) return;
				current.clear();
				current.add('sha256:old');
			},
		});
		await expect(claimAll(store, KEYS, instantClock, SETTLE)).rejects.toThrow('kept changing');
		expect([...row]).toEqual(['sha256:old']);
	});

	it('its first write fails: nothing is known of the keys, only its token is removed', async () => {
		const { row, store } = faultyStore(['sha256:old'], { failRecords: [1], committed: true });
		await expect(claimAll(store, KEYS, instantClock, SETTLE)).rejects.toThrow('timeout');
		expect([...row].sort()).toEqual([...KEYS].sort());
	});

	it('the removal fails too: the error says what a retry then does and how to undo it', async () => {
		const fake = fakeExecuteContext();
		const { checkProcessedAndRecord } = fake.context.helpers;
		let calls = 0;
		fake.context.helpers.checkProcessedAndRecord = async (...call) => {
			if (calls++ === 1) throw new Error('timeout exceeded when trying to connect');
			return await checkProcessedAndRecord(...call);
		};
		fake.context.helpers.removeProcessed = async () => {
			throw new Error('timeout exceeded when trying to connect');
		};
		const failure = await claimKeys(fake.context, ['sha256:a'], {
			...advice,
			ifKept: 'A retry may put these files on Already Submitted.',
		}).catch((error: NodeOperationError) => error);
		expect(failure).toBeInstanceOf(NodeOperationError);
		expect((failure as NodeOperationError).message).toBe(advice.message);
		expect((failure as NodeOperationError).description).toMatch(
			/could not remove this run's claim either.*A retry may put these files on Already Submitted\./,
		);
	});
});

describe('editor runs and production runs keep separate memories', () => {
	/** One of every kind of key, for `run`. */
	const kinds = (run: string) => [
		`sha256:${run}`,
		`invoice:acme|${run}|100`,
		`document:doc_${run}`,
		`event:production:document.verified:doc_${run}`,
	];
	const modes = (fake: ReturnType<typeof fakeExecuteContext>) => ({
		manual: { ...fake.context, getMode: () => 'manual' } as IExecuteFunctions,
		production: { ...fake.context, getMode: () => 'webhook' } as IExecuteFunctions,
	});

	it('every kind of key claimed by one is new to the other, in either order and at the same moment; production keys stay as they are', async () => {
		const fake = fakeExecuteContext();
		const run = modes(fake);
		const [inEditor, inProduction] = [kinds('m'), kinds('p')];
		expect((await claimKeys(run.manual, inEditor, advice)).won).toEqual(new Set(inEditor));
		expect((await claimKeys(run.production, inProduction, advice)).won).toEqual(
			new Set(inProduction),
		);
		// Each now claims the other's keys, both at once in this process: each wins them.
		const [manual, production] = await Promise.all([
			claimKeys(run.manual, inProduction, advice),
			claimKeys(run.production, inEditor, advice),
		]);
		expect([manual.won, production.won]).toEqual([new Set(inProduction), new Set(inEditor)]);
		for (const mode of [run.manual, run.production])
			expect((await claimKeys(mode, [...inEditor, ...inProduction], advice)).already.size).toBe(8);
		const both = [...inEditor, ...inProduction];
		expect([...fake.store].sort()).toEqual([...both, ...both.map((key) => `test:${key}`)].sort());
	});

	it('a release removes the key of its own mode only', async () => {
		const fake = fakeExecuteContext();
		const run = modes(fake);
		await claimKeys(run.production, ['sha256:0f1e2d'], advice);
		expect((await claimKeys(run.manual, ['sha256:0f1e2d'], advice)).won.size).toBe(1);
		await releaseKeys(run.manual, ['sha256:0f1e2d']);
		expect([...fake.store]).toEqual(['sha256:0f1e2d']);
	});
});
