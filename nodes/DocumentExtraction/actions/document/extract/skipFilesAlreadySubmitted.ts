/**
 * Extract's option Skip Files Already Submitted (docs/spec-decisions.md#n10, #n12): a file whose content
 * this workflow already submitted is not extracted again, also when executions on several queue-mode
 * workers submit it at the same moment. Whether it was submitted is claimed in n8n's deduplication
 * store (the SHA-256 of the content); the document it became is remembered in the workflow's memory.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { claimInWorkflow, releaseEntry } from '../../../memory/claimedEntries.ts';
import { readEntry, writeEntry } from '../../../memory/workflowMemory.ts';
import type { UploadSource } from '../../../transport/upload.ts';

const SUBMISSIONS_RECORD = 'documentExtractionSubmissions';
const REMEMBERED_SUBMISSIONS = 1000;

export interface EarlierSubmission {
	document_id: string;
	submitted_at: string;
}

export type FileClaim =
	| { alreadySubmitted: false; claimKey: string }
	| { alreadySubmitted: true; concurrent: boolean; earlier?: EarlierSubmission };

function entryKey(sha256: string): string {
	return `sha256:${sha256}`;
}

/** SHA-256 of the file's content, read as a stream (the file is never held in memory here). */
export async function contentSha256(source: UploadSource): Promise<string> {
	const hash = createHash('sha256');
	const file = await source.open();
	for await (const chunk of file.stream() as unknown as AsyncIterable<Uint8Array>)
		hash.update(chunk);
	return hash.digest('hex');
}

/**
 * Records the content as submitted and says whether it was already. Recording before the upload
 * means two items with the same content in one run are extracted once; `releaseFile` undoes the
 * record when the extraction then fails, so a failed attempt never blocks a retry.
 */
export async function claimFile(
	context: IExecuteFunctions,
	sha256: string,
	itemIndex: number,
): Promise<FileClaim> {
	const outcome = await claimInWorkflow(context, itemIndex, entryKey(sha256), {
		message: 'Could not check whether this file was already submitted',
		description: 'Run the execution again, or turn Skip Files Already Submitted off.',
	});
	if (outcome.won) return { alreadySubmitted: false, claimKey: outcome.claimKey };
	return {
		alreadySubmitted: true,
		concurrent: outcome.concurrent,
		earlier: readEntry<EarlierSubmission>(
			context.getWorkflowStaticData('global'),
			SUBMISSIONS_RECORD,
			sha256,
		),
	};
}

export async function releaseFile(
	context: IExecuteFunctions,
	sha256: string,
	claimKey: string,
): Promise<void> {
	await releaseEntry(context, entryKey(sha256), claimKey);
}

export function rememberSubmission(
	context: IExecuteFunctions,
	sha256: string,
	documentId: string,
	now = new Date(),
): void {
	const submission: EarlierSubmission = {
		document_id: documentId,
		submitted_at: now.toISOString(),
	};
	writeEntry(
		context.getWorkflowStaticData('global'),
		SUBMISSIONS_RECORD,
		sha256,
		{ ...submission },
		REMEMBERED_SUBMISSIONS,
	);
}

/** The output item of a skipped file: the earlier document, and what to do next. */
export function alreadySubmittedItem(
	fileName: string,
	sha256: string,
	claim: { concurrent: boolean; earlier?: EarlierSubmission },
): IDataObject {
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
