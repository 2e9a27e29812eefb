/**
 * Claim and confirm in n8n's deduplication store (docs/spec-decisions.md#n12): for what must be decided
 * once across every execution and queue-mode worker of a workflow (a file submitted, an invoice seen).
 * The store is n8n's, in its database, scope "workflow"; what each entry became (a document_id) is kept
 * beside it in the workflow's static data (workflowMemory.ts).
 */
import { randomBytes } from 'crypto';
import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

const SCOPE = 'workflow';
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };

/**
 * Long enough for every contender that read the store before our write to have written too (a read
 * and its write are one database round trip each); docs/spec-decisions.md#n12 explains why this makes one claim survive.
 */
export const SETTLE_MS = 1000;
export const MAX_ROUNDS = 6;

/**
 * The one operation n8n gives a node on its deduplication store: record values and learn which were
 * already there. n8n implements it as read row, add, write row: the last writer wins.
 */
export interface ProcessedStore {
	/** The values already there, or `conflict` when the row's first INSERT lost to a concurrent one. */
	record(values: string[]): Promise<ReadonlySet<string> | 'conflict'>;
	remove(values: string[]): Promise<void>;
}

export interface ClaimTiming {
	settleMs: number;
	sleep(ms: number): Promise<void>;
	/** A value no other contender picks. */
	nonce(): string;
}

export type ClaimOutcome =
	| { won: true; claimKey: string }
	/** `concurrent`: another execution claimed it while this one was claiming. */
	| { won: false; concurrent: boolean }
	/** The row kept changing under concurrent writers for every round. */
	| { unsettled: true };

/** A first INSERT of the store's row that lost to a concurrent one (primary key), worth retrying. */
function isConcurrentFirstWrite(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /duplicate key|unique constraint|primary key|SQLITE_CONSTRAINT/i.test(message);
}

/**
 * Claim and confirm (docs/spec-decisions.md#n12) of one store entry (`entryKey`, e.g. the content key). Every write carries
 * the entry together with this contender's claim (`<claimPrefix>:<nonce>`); a write whose snapshot
 * already held the entry means someone else claimed first. After the settle delay the contender
 * writes both again: if its claim is still there it won; if the entry is there without its claim,
 * another contender's write replaced it and that one won; if the entry is gone (an unrelated write
 * clobbered the row), this write was a new claim: settle and look again.
 */
export async function claimEntry(
	store: ProcessedStore,
	entryKey: string,
	claimPrefix: string,
	timing: ClaimTiming,
): Promise<ClaimOutcome> {
	const claimKey = `${claimPrefix}:${timing.nonce()}`;
	for (let round = 0; round < MAX_ROUNDS; round++) {
		const seen = await store.record([claimKey, entryKey]);
		if (seen === 'conflict') {
			await timing.sleep(Math.round(timing.settleMs / 4));
			continue;
		}
		if (seen.has(entryKey)) {
			if (seen.has(claimKey)) return { won: true, claimKey };
			return { won: false, concurrent: round > 0 };
		}
		await timing.sleep(timing.settleMs);
	}
	return { unsettled: true };
}

/** n8n's deduplication store of this workflow (scope "workflow"), as the claim protocol uses it. */
export function nodeStore(context: IExecuteFunctions, itemIndex: number): ProcessedStore {
	return {
		record: async (values) => {
			try {
				return new Set(
					(
						await context.helpers.checkProcessedAndRecord(values, SCOPE, STORE_OPTIONS)
					).processed.map(String),
				);
			} catch (error) {
				if (isConcurrentFirstWrite(error)) return 'conflict';
				throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
			}
		},
		remove: async (values) => await context.helpers.removeProcessed(values, SCOPE, STORE_OPTIONS),
	};
}

export const nodeTiming: ClaimTiming = {
	settleMs: SETTLE_MS,
	sleep: async (ms) => await sleep(ms),
	nonce: () => randomBytes(12).toString('hex'),
};

/** Removes an entry and its claim: a later execution may claim it again. */
export async function releaseEntry(
	context: IExecuteFunctions,
	entryKey: string,
	claimKey: string,
): Promise<void> {
	await context.helpers.removeProcessed([claimKey, entryKey], SCOPE, STORE_OPTIONS);
}

/** What a caller says when the store never settled: the error's message and what the user can do. */
export interface UnsettledAdvice {
	message: string;
	description: string;
}

/** Claim and confirm in this workflow's store, as a node error when the store never settles. */
export async function claimInWorkflow(
	context: IExecuteFunctions,
	itemIndex: number,
	entryKey: string,
	unsettled: UnsettledAdvice,
): Promise<{ won: true; claimKey: string } | { won: false; concurrent: boolean }> {
	const outcome = await claimEntry(
		nodeStore(context, itemIndex),
		entryKey,
		`claim:${entryKey}`,
		nodeTiming,
	);
	if ('unsettled' in outcome) {
		throw new NodeOperationError(context.getNode(), unsettled.message, {
			itemIndex,
			description: `n8n's deduplication store kept changing under concurrent executions for ${MAX_ROUNDS} rounds. ${unsettled.description}`,
		});
	}
	return outcome;
}
