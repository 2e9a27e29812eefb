/**
 * Duplicate-submission guard (N10): a file whose content this workflow already submitted is not
 * extracted again. Membership lives in n8n's deduplication store (scope "workflow", the SHA-256 of
 * the content); the earlier document_id is remembered in the workflow's static data, which n8n keeps
 * for production runs (active workflows), not for manual test runs.
 */
import { createHash } from 'crypto';
import type { ICheckProcessedOptions, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { UploadSource } from '../../transport/upload.ts';

const SCOPE = 'workflow';
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };
const STATIC_DATA_KEY = 'documentExtractionSubmissions';
const REMEMBERED_SUBMISSIONS = 1000;

export interface EarlierSubmission {
	document_id: string;
	submitted_at: string;
}

export type ClaimResult = { duplicate: false } | { duplicate: true; earlier?: EarlierSubmission };

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

function submissions(context: IExecuteFunctions): Record<string, EarlierSubmission> {
	const staticData = context.getWorkflowStaticData('global');
	if (typeof staticData[STATIC_DATA_KEY] !== 'object' || staticData[STATIC_DATA_KEY] === null) {
		staticData[STATIC_DATA_KEY] = {};
	}
	return staticData[STATIC_DATA_KEY] as Record<string, EarlierSubmission> & IDataObject;
}

/**
 * Records the content as submitted and says whether it was already. Recording before the upload
 * means two items with the same content in one run are extracted once; `releaseContent` undoes the
 * record when the extraction then fails, so a failed attempt never blocks a retry.
 */
export async function claimContent(this: IExecuteFunctions, sha256: string): Promise<ClaimResult> {
	const result = await this.helpers.checkProcessedAndRecord([storeKey(sha256)], SCOPE, STORE_OPTIONS);
	if (result.new.length > 0) return { duplicate: false };
	return { duplicate: true, earlier: submissions(this)[sha256] };
}

export async function releaseContent(this: IExecuteFunctions, sha256: string): Promise<void> {
	await this.helpers.removeProcessed([storeKey(sha256)], SCOPE, STORE_OPTIONS);
}

export function rememberSubmission(this: IExecuteFunctions, sha256: string, documentId: string, now = new Date()): void {
	const remembered = submissions(this);
	delete remembered[sha256];
	remembered[sha256] = { document_id: documentId, submitted_at: now.toISOString() };
	const keys = Object.keys(remembered);
	for (const oldest of keys.slice(0, Math.max(0, keys.length - REMEMBERED_SUBMISSIONS))) delete remembered[oldest];
}

/** The output item of a skipped file: the earlier document, and what to do next. */
export function alreadySubmittedItem(fileName: string, sha256: string, earlier: EarlierSubmission | undefined): IDataObject {
	return {
		document_id: earlier?.document_id ?? null,
		status: 'already_submitted',
		duplicate: true,
		file_name: fileName,
		content_sha256: sha256,
		first_submitted_at: earlier?.submitted_at ?? null,
		message: earlier
			? `"${fileName}" has the same content as document ${earlier.document_id}, submitted by this workflow on ${earlier.submitted_at}; it was not extracted again. Use Get Status with that document_id for its result.`
			: `"${fileName}" has the same content as a file this workflow submitted before (in a manual test run, whose document ID n8n does not keep); it was not extracted again.`,
	};
}
