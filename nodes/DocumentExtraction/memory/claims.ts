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

/** The row kept changing under concurrent writers for every round. */
class UnsettledClaim extends Error {}

/** A first INSERT of the store's row that lost to a concurrent one (primary key), worth retrying. */
function isConcurrentFirstWrite(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /duplicate key|unique constraint|primary key|SQLITE_CONSTRAINT/i.test(message);
}

/**
 * Claims `keys` with one token. Round 1 sorts out the keys already there; after each settle delay
 * the run writes token and open keys again: token there → the open keys are its own; token gone →
 * keys present now were won by the writer that replaced the row, keys absent were clobbered and are
 * claimed anew by this very write. The token is removed at the end. The store and the clock are
 * parameters (the boundary): the nodes pass n8n's, the tests a simulated store of racing writers.
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
	await store.remove([token]);
	if (open.length > 0) throw new UnsettledClaim(`${open.length} keys never settled`);
	return claimed;
}

/** n8n's deduplication store of this workflow (scope "workflow"). */
function workflowStore(context: IExecuteFunctions): KeyStore {
	return {
		record: async (values) => {
			try {
				const { processed } = await context.helpers.checkProcessedAndRecord(
					values,
					SCOPE,
					STORE_OPTIONS,
				);
				return new Set(processed.map(String));
			} catch (error) {
				if (isConcurrentFirstWrite(error)) return 'conflict';
				throw new NodeOperationError(context.getNode(), error as Error);
			}
		},
		remove: async (values) => await context.helpers.removeProcessed(values, SCOPE, STORE_OPTIONS),
	};
}

const n8nClock: ClaimClock = {
	sleep: async (ms) => await sleep(ms),
	token: () => randomBytes(12).toString('hex'),
};

/** What a caller says when the store never settled: the error's message and what the user can do. */
export interface UnsettledAdvice {
	message: string;
	description: string;
}

/** One claim written for every run of this process that asked while it was forming. */
interface Batch {
	keys: Set<string>;
	askers: Array<{
		keys: string[];
		resolve: (claimed: Claimed) => void;
		reject: (error: unknown) => void;
	}>;
}

/**
 * How long a claim waits for others of this process to join it, after the batch before it ended.
 * One batch at a time per workflow and process: a burst of executions (a stream of deliveries, a
 * month-end of emails) writes the workflow's row from one claim at a time instead of one each, so
 * their writes do not replace one another's (a thousand deliveries claimed one by one never
 * settled), and every batch settles in one round unless another process writes the row.
 */
const GATHER_MS = 25;

/** The batch still gathering, and the one being claimed, by workflow. */
const gathering = new Map<string, Batch>();
const claiming = new Map<string, Promise<void>>();

/**
 * Claims `keys` in this workflow's store, together with the claims other runs of this process ask
 * for meanwhile; a store that never settles is a node error. Among runs of one batch, the first to
 * ask for a key claims it; later ones learn it was claimed concurrently.
 */
export async function claimKeys(
	context: IExecuteFunctions,
	keys: string[],
	unsettled: UnsettledAdvice,
): Promise<Claimed> {
	const workflowId = context.getWorkflow().id ?? '';
	const claimed = new Promise<Claimed>((resolve, reject) => {
		let batch = gathering.get(workflowId);
		if (!batch) {
			batch = { keys: new Set(), askers: [] };
			gathering.set(workflowId, batch);
			const after = claiming.get(workflowId) ?? Promise.resolve();
			const run = claimBatch(context, workflowId, batch, after);
			claiming.set(workflowId, run);
			void run.finally(() => {
				if (claiming.get(workflowId) === run) claiming.delete(workflowId);
			});
		}
		for (const key of keys) batch.keys.add(key);
		batch.askers.push({ keys: [...new Set(keys)], resolve, reject });
	});
	try {
		return await claimed;
	} catch (error) {
		const description =
			error instanceof UnsettledClaim
				? `n8n's deduplication store kept changing under concurrent executions for ${MAX_ROUNDS} rounds. ${unsettled.description}`
				: unsettled.description;
		throw new NodeOperationError(context.getNode(), error as Error, {
			message: unsettled.message,
			description,
		});
	}
}

async function claimBatch(
	context: IExecuteFunctions,
	workflowId: string,
	batch: Batch,
	after: Promise<void>,
): Promise<void> {
	await after;
	await n8nClock.sleep(GATHER_MS);
	gathering.delete(workflowId);
	let claimed: Claimed;
	try {
		claimed = await claimAll(workflowStore(context), [...batch.keys], n8nClock);
	} catch (error) {
		for (const asker of batch.askers) asker.reject(error);
		return;
	}
	const given = new Set<string>();
	for (const asker of batch.askers) {
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

/** Removes keys: a later run claims them anew (a claim whose run did not deliver its result). */
export async function releaseKeys(context: IExecuteFunctions, keys: string[]): Promise<void> {
	if (keys.length > 0) await workflowStore(context).remove([...new Set(keys)]);
}
