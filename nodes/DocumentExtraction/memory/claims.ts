/**
 * "Seen before", decided once across every execution and process of a workflow (docs/memory.md): a
 * run claims its keys (files, invoices, events) in n8n's deduplication store of the workflow, in its
 * database. The store is read row, add, write row (last writer wins), so a claim is confirmed: the
 * run writes its keys with a token of its own, waits one settle delay and writes them again; its
 * token still there means its keys are its own. One settle delay per call, whatever the key count.
 */
import { randomBytes } from 'crypto';
import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { triggerMode } from '../trigger/triggerMemory.ts';

const SCOPE = 'workflow';

/**
 * How many keys a workflow remembers: a contract stated in the nodes' texts and docs/memory.md.
 * Every node of the package writes the row with this bound (n8n trims it to the last writer's).
 */
export const REMEMBERED_KEYS = 100_000;

/** One more than remembered: a claim's token, while it is there, never pushes a key out. */
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: REMEMBERED_KEYS + 1 };

/**
 * Long enough for every writer that read the row before our write to have written too (a read and
 * its write are one database round trip each).
 */
const SETTLE_MS = 1000;
const MAX_ROUNDS = 10;

/** n8n's deduplication store as a claim uses it: record values, learn which were already there. */
export interface KeyStore {
	/** The values already there, or `conflict` when the row's first INSERT lost to a concurrent one. */
	record(values: string[]): Promise<ReadonlySet<string> | 'conflict'>;
	remove(values: string[]): Promise<void>;
}

/** The clock and the randomness of a claim: n8n's in the nodes, virtual ones in the simulation. */
export interface ClaimClock {
	sleep(ms: number): Promise<void>;
	token(): string;
}

export interface Claimed {
	/** Keys this run claimed first. */
	won: Set<string>;
	/** Keys that were there before this run. */
	already: Set<string>;
	/** Keys another execution claimed while this one was claiming. */
	concurrent: Set<string>;
}

/** A failed claim whose keys could not be removed either: a retry finds them. */
class ClaimKept extends Error {}

/** A first INSERT of the store's row that lost to a concurrent one (primary key), worth retrying. */
function isConcurrentFirstWrite(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /duplicate key|unique constraint|primary key|SQLITE_CONSTRAINT/i.test(message);
}

/**
 * Claims `keys` with one token. Round 1 sorts out the keys already there; after each settle delay
 * the run writes token and open keys again: token there → the open keys are its own; token gone →
 * keys present now were won by the writer that replaced the row, keys absent were clobbered and are
 * claimed anew by this very write. The token is removed at the end; a claim that fails removes it
 * and the keys nobody had before it and no other writer won, so a retry claims them anew. The store
 * and the clock are parameters (the boundary): the nodes pass n8n's, the tests a simulated store.
 */
export async function claimAll(
	store: KeyStore,
	keys: string[],
	clock: ClaimClock,
	settleMs = SETTLE_MS,
): Promise<Claimed> {
	const claimed: Claimed = { won: new Set(), already: new Set(), concurrent: new Set() };
	let open = [...new Set(keys)];
	if (open.length === 0) return claimed;
	const token = `run:${clock.token()}`;
	let firstWrite = true;
	const rounds = async (): Promise<Claimed> => {
		for (let round = 0; round < MAX_ROUNDS && open.length > 0; round++) {
			const seen = await store.record([token, ...open]);
			if (seen === 'conflict') {
				await clock.sleep(Math.round(settleMs / 4));
				continue;
			}
			if (firstWrite) {
				for (const key of open) if (seen.has(key)) claimed.already.add(key);
				firstWrite = false;
			} else if (seen.has(token)) {
				for (const key of open) claimed.won.add(key);
				open = [];
				break;
			} else {
				for (const key of open) if (seen.has(key)) claimed.concurrent.add(key);
			}
			open = open.filter((key) => !claimed.already.has(key) && !claimed.concurrent.has(key));
			if (open.length > 0) await clock.sleep(settleMs);
		}
		if (open.length > 0)
			throw new Error(`it kept changing under concurrent executions for ${MAX_ROUNDS} rounds`);
		await store.remove([token]);
		return claimed;
	};
	return await rounds().catch(async (error: Error) => {
		// Before the first answer, which keys were someone else's is unknown: only the token is ours.
		const written = firstWrite ? [] : [...claimed.won, ...open];
		await store.remove([token, ...written]).catch(() => {
			throw new ClaimKept(error.message, { cause: error });
		});
		throw error;
	});
}

/**
 * n8n's deduplication store of this workflow (scope "workflow"). A manual (editor) run's keys are
 * stored with `test:` before them, so a test and production never take the other's for seen before;
 * production keys stay as users' stores hold them.
 */
function workflowStore(context: IExecuteFunctions): KeyStore {
	const prefix = triggerMode(context) === 'test' ? 'test:' : '';
	const stored = (values: string[]) => values.map((value) => prefix + value);
	return {
		record: async (values) => {
			const recorded = await context.helpers
				.checkProcessedAndRecord(stored(values), SCOPE, STORE_OPTIONS)
				.catch((error: Error) => {
					if (!isConcurrentFirstWrite(error)) throw error;
				});
			return recorded
				? new Set(recorded.processed.map((value) => String(value).slice(prefix.length)))
				: 'conflict';
		},
		remove: async (values) =>
			await context.helpers.removeProcessed(stored(values), SCOPE, STORE_OPTIONS),
	};
}

const n8nClock: ClaimClock = {
	sleep: async (ms) => await sleep(ms),
	token: () => randomBytes(12).toString('hex'),
};

/** What a claimant says when its claim fails; `ifKept`: what a retry does if its keys stay. */
export interface ClaimAdvice {
	message: string;
	description: string;
	ifKept: string;
}

/** A run of this process asking for keys; a batch is the askers its one claim is written for. */
interface Asker {
	keys: string[];
	resolve: (claimed: Claimed) => void;
	reject: (error: unknown) => void;
}

/**
 * How long a claim waits for others of this process to join it, after the batch before it ended.
 * One batch at a time per workflow and process: a burst of executions (a stream of deliveries, a
 * month-end of emails) writes the workflow's row from one claim at a time instead of one each, so
 * their writes do not replace one another's (a thousand deliveries claimed one by one never
 * settled), and every batch settles in one round unless another process writes the row.
 */
const GATHER_MS = 25;

/** The batch still gathering, and the one being claimed, by workflow and mode. */
const gathering = new Map<string, Asker[]>();
const claiming = new Map<string, Promise<void>>();

/** The keys each run (one node execution) won: a failed run releases exactly these, and nothing it found there. */
const wonByRun = new WeakMap<IExecuteFunctions, Set<string>>();

/**
 * Claims `keys` in this workflow's store, together with the claims other runs of this process ask
 * for meanwhile; a failed claim is a node error with the claimant's advice. Among runs of one batch,
 * the first to ask for a key claims it; later ones learn it was claimed concurrently.
 */
export async function claimKeys(
	context: IExecuteFunctions,
	keys: string[],
	advice: ClaimAdvice,
): Promise<Claimed> {
	// A batch writes with the store of the run that opened it: one per mode.
	const batchKey = `${triggerMode(context)}:${context.getWorkflow().id ?? ''}`;
	const claimed = new Promise<Claimed>((resolve, reject) => {
		let batch = gathering.get(batchKey);
		if (!batch) {
			batch = [];
			gathering.set(batchKey, batch);
			const after = claiming.get(batchKey) ?? Promise.resolve();
			const run = claimBatch(context, batchKey, batch, after);
			claiming.set(batchKey, run);
			void run.finally(() => {
				if (claiming.get(batchKey) === run) claiming.delete(batchKey);
			});
		}
		batch.push({ keys: [...new Set(keys)], resolve, reject });
	});
	try {
		const own = await claimed;
		wonByRun.set(context, new Set([...(wonByRun.get(context) ?? []), ...own.won]));
		return own;
	} catch (error) {
		const kept = error instanceof ClaimKept;
		const failure = (kept ? error.cause : error) as Error;
		const ifKept = kept ? ` It could not remove this run's claim either. ${advice.ifKept}` : '';
		throw new NodeOperationError(context.getNode(), failure, {
			message: advice.message,
			description: `n8n's deduplication store failed: ${failure.message}. ${advice.description}${ifKept}`,
		});
	}
}

async function claimBatch(
	context: IExecuteFunctions,
	batchKey: string,
	batch: Asker[],
	after: Promise<void>,
): Promise<void> {
	await after;
	await n8nClock.sleep(GATHER_MS);
	gathering.delete(batchKey);
	const keys = batch.flatMap((asker) => asker.keys);
	const claimed = await claimAll(workflowStore(context), keys, n8nClock).catch((error) => {
		for (const asker of batch) asker.reject(error);
	});
	if (!claimed) return;
	const given = new Set<string>();
	for (const asker of batch) {
		const own: Claimed = { won: new Set(), already: new Set(), concurrent: new Set() };
		for (const key of asker.keys) {
			if (claimed.already.has(key)) own.already.add(key);
			else if (claimed.concurrent.has(key) || given.has(key)) own.concurrent.add(key);
			else {
				own.won.add(key);
				given.add(key);
			}
		}
		asker.resolve(own);
	}
}

/** Removes keys this run won (all unless told): a retry claims them anew. */
export async function releaseKeys(context: IExecuteFunctions, keys?: string[]): Promise<void> {
	const won = wonByRun.get(context) ?? new Set<string>();
	const released = [...(keys ?? won)].filter((key) => won.delete(key));
	if (released.length > 0) await workflowStore(context).remove(released);
}
