/**
 * Extract's upload: the file goes to the service once. A claimed file (Skip Files Already Submitted)
 * is released when the upload fails, so a later run may try it again, and remembered with its
 * document when it succeeds.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { API_PATHS } from '../../../constants.ts';
import { apiRequest } from '../../../transport/index.ts';
import type { RequestPacer } from '../../../transport/pacer.ts';
import { extractForm } from '../../../transport/upload.ts';
import type { PreparedFile } from './prepareFile.ts';
import { releaseFile, rememberSubmission } from './skipFilesAlreadySubmitted.ts';

/** Large files on slow links: long enough for 100 MB, yet a hung request still ends. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export interface FileClaimHeld {
	sha256: string;
	claimKey: string;
}

export async function submitFile(
	context: IExecuteFunctions,
	itemIndex: number,
	file: PreparedFile,
	rateLimitRetries: number,
	claim?: FileClaimHeld,
	pacer?: RequestPacer,
): Promise<IDataObject> {
	context.logger.debug(
		`Document Extraction: uploading "${file.fileName}" (${file.source.byteLength} bytes) for item ${itemIndex}`,
	);
	let response: IDataObject | undefined;
	try {
		response = await apiRequest(context, {
			method: 'POST',
			path: API_PATHS.extract,
			body: async () => await extractForm(file.source, file.webhookUrl),
			operation: `extract "${file.fileName}"`,
			itemIndex,
			idempotent: false,
			retries: rateLimitRetries,
			timeoutMs: UPLOAD_TIMEOUT_MS,
			pacer,
		});
	} finally {
		// Not submitted after all (as far as the node can tell): a later run may try this file again.
		if (claim && response === undefined) await releaseFile(context, claim.sha256, claim.claimKey);
	}
	const documentId = typeof response.document_id === 'string' ? response.document_id : undefined;
	if (claim && documentId) rememberSubmission(context, claim.sha256, documentId);
	return response;
}
