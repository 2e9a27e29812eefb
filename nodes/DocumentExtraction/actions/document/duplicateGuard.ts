/**
 * Duplicate-submission guard (docs/spec-decisions.md#n10, #n12): a file whose content this workflow already submitted is not
 * extracted again, also when executions on several queue-mode workers submit it at the same moment.
 * Membership lives in n8n's deduplication store (scope "workflow", the SHA-256 of the content); the
 * earlier document_id is remembered in the workflow's static data.
 */
import { createHash, randomBytes } from 'crypto';
import type { ICheckProcessedOptions, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { UploadSource } from '../../transport/upload.ts';

const SCOPE = 'workflow';
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };
const STATIC_DATA_KEY = 'documentExtractionSubmissions';
const REMEMBERED_SUBMISSIONS = 1000;

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
export interface SubmissionStore {
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

export interface EarlierSubmission {
	document_id: string;
	submitted_at: string;
}

export type ClaimResult =
	| { duplicate: false; claimKey: string }
	| { duplicate: true; concurrent: boolean; earlier?: EarlierSubmission };

function storeKey(sha256: string): string {
	return `sha256:${sha256}`;
}

/** SHA-256 of the file's content, read as a stream (the file is never held in memory here). */
export async function contentSha256(source: UploadSource): Promise<string> {
	const hash = createHash('sha256');
	const file = await source.open();
	for await (const chunk of file.stream() as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
	return hash.digest('hex');
}

/**
 * Reads without writing: touching the static data would make n8n save this execution's (older)
 * copy of it when the execution ends, over what a concurrent execution saved.
 */
function rememberedSubmission(context: IExecuteFunctions, sha256: string): EarlierSubmission | undefined {
	const remembered = context.getWorkflowStaticData('global')[STATIC_DATA_KEY] as Record<string, EarlierSubmission> | undefined;
	return typeof remembered === 'object' && remembered !== null ? remembered[sha256] : undefined;
}

function submissions(context: IExecuteFunctions): Record<string, EarlierSubmission> {
	const staticData = context.getWorkflowStaticData('global');
	if (typeof staticData[STATIC_DATA_KEY] !== 'object' || staticData[STATIC_DATA_KEY] === null) {
		staticData[STATIC_DATA_KEY] = {};
	}
	return staticData[STATIC_DATA_KEY] as Record<string, EarlierSubmission> & IDataObject;
}

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
export async function claimEntry(store: SubmissionStore, entryKey: string, claimPrefix: string, timing: ClaimTiming): Promise<ClaimOutcome> {
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

/** Claim and confirm of a file's content (see claimEntry). */
export async function claimSubmission(store: SubmissionStore, sha256: string, timing: ClaimTiming): Promise<ClaimOutcome> {
	return await claimEntry(store, storeKey(sha256), `claim:${sha256}`, timing);
}

/** n8n's deduplication store of this workflow (scope "workflow"), as the claim protocol uses it. */
export function nodeStore(context: IExecuteFunctions, itemIndex: number): SubmissionStore {
	return {
		record: async (values) => {
			try {
				return new Set((await context.helpers.checkProcessedAndRecord(values, SCOPE, STORE_OPTIONS)).processed.map(String));
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

/**
 * Records the content as submitted and says whether it was already. Recording before the upload
 * means two items with the same content in one run are extracted once; `releaseContent` undoes the
 * record when the extraction then fails, so a failed attempt never blocks a retry.
 */
export async function claimContent(this: IExecuteFunctions, sha256: string, itemIndex: number): Promise<ClaimResult> {
	const outcome = await claimSubmission(nodeStore(this, itemIndex), sha256, nodeTiming);
	if ('unsettled' in outcome) {
		throw new NodeOperationError(this.getNode(), 'Could not check whether this file was already submitted', {
			itemIndex,
			description: `n8n's deduplication store kept changing under concurrent executions for ${MAX_ROUNDS} rounds. Run the execution again, or turn Skip Files Already Submitted off.`,
		});
	}
	if (outcome.won) return { duplicate: false, claimKey: outcome.claimKey };
	return { duplicate: true, concurrent: outcome.concurrent, earlier: rememberedSubmission(this, sha256) };
}

export async function releaseContent(this: IExecuteFunctions, sha256: string, claimKey: string): Promise<void> {
	await this.helpers.removeProcessed([claimKey, storeKey(sha256)], SCOPE, STORE_OPTIONS);
}

export function rememberSubmission(this: IExecuteFunctions, sha256: string, documentId: string, now = new Date()): void {
	const remembered = submissions(this);
	delete remembered[sha256];
	remembered[sha256] = { document_id: documentId, submitted_at: now.toISOString() };
	const keys = Object.keys(remembered);
	for (const oldest of keys.slice(0, Math.max(0, keys.length - REMEMBERED_SUBMISSIONS))) delete remembered[oldest];
}

/** The output item of a skipped file: the earlier document, and what to do next. */
export function alreadySubmittedItem(fileName: string, sha256: string, claim: { concurrent: boolean; earlier?: EarlierSubmission }): IDataObject {
	const { earlier, concurrent } = claim;
	return {
		document_id: earlier?.document_id ?? null,
		status: 'already_submitted',
		duplicate: true,
		submitted_concurrently: concurrent,
		file_name: fileName,
		content_sha256: sha256,
		first_submitted_at: earlier?.submitted_at ?? null,
		message: earlier
			? `"${fileName}" has the same content as document ${earlier.document_id}, submitted by this workflow on ${earlier.submitted_at}; it was not extracted again. Use Get Status with that document_id for its result.`
			: concurrent
				? `"${fileName}" has the same content as a file another execution of this workflow submitted at the same moment; it was not extracted again. Its document_id is on that execution's output.`
				: `"${fileName}" has the same content as a file this workflow submitted before (in a manual test run, whose document ID n8n does not keep, or in an execution still running); it was not extracted again.`,
	};
}
