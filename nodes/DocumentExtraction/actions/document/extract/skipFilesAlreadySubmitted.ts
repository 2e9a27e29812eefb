/**
 * Extract's option Skip Files Already Submitted (docs/memory.md): a file whose content this workflow
 * already submitted is not extracted again, also when executions on several queue-mode workers
 * submit it at the same moment. A run claims the SHA-256 of all its files at once (memory/claims.ts)
 * and releases the claim of every file whose result it did not deliver.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { UploadSource } from '../../../transport/upload.ts';

/** The file's key in the workflow's memory of what was seen before. */
export function fileKey(sha256: string): string {
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

/** Who submitted the content first: an earlier run, another execution right now, or this run. */
export type FirstSubmission =
	| { by: 'earlierRun' }
	| { by: 'concurrentRun' }
	| { by: 'thisRun'; documentId: string | null; fileName: string };

/** The output item of a skipped file: which document it repeats, if known, and what to do next. */
export function alreadySubmittedItem(
	fileName: string,
	sha256: string,
	first: FirstSubmission,
): IDataObject {
	const documentId = first.by === 'thisRun' ? first.documentId : null;
	return {
		document_id: documentId,
		status: 'already_submitted',
		duplicate: true,
		submitted_concurrently: first.by === 'concurrentRun',
		file_name: fileName,
		content_sha256: sha256,
		message: alreadySubmittedMessage(fileName, first),
	};
}

function alreadySubmittedMessage(fileName: string, first: FirstSubmission): string {
	const notAgain = 'it was not extracted again';
	switch (first.by) {
		case 'thisRun':
			return first.documentId
				? `"${fileName}" has the same content as "${first.fileName}" in this run (document ${first.documentId}); ${notAgain}.`
				: `"${fileName}" has the same content as "${first.fileName}" in this run; ${notAgain}.`;
		case 'concurrentRun':
			return `"${fileName}" has the same content as a file another execution of this workflow submitted at the same moment; ${notAgain}. Its result is on that execution's output; if it is not there, turn Skip Files Already Submitted off for one run to extract it again.`;
		case 'earlierRun':
			return `"${fileName}" has the same content as a file an earlier execution of this workflow submitted; ${notAgain}. Its result is on that execution's output; if that execution was stopped before passing it on (n8n restarted), turn Skip Files Already Submitted off for one run to extract it again.`;
	}
}
