/** Extract's upload: the file goes to the service once (an upload is never repeated, N19). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { API_PATHS } from '../../../constants.ts';
import { apiRequest } from '../../../transport/index.ts';
import type { RequestPacer } from '../../../transport/pacer.ts';
import { extractForm } from '../../../transport/upload.ts';
import type { PreparedFile } from './prepareFile.ts';

/** Large files on slow links: long enough for 100 MB, yet a hung request still ends. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export async function submitFile(
	context: IExecuteFunctions,
	itemIndex: number,
	file: PreparedFile,
	rateLimitWaitMs: number,
	pacer?: RequestPacer,
): Promise<IDataObject> {
	context.logger.debug(
		`Document Extraction: uploading "${file.fileName}" (${file.source.byteLength} bytes) for item ${itemIndex}`,
	);
	return await apiRequest(context, {
		method: 'POST',
		path: API_PATHS.extract,
		body: async () => await extractForm(file.source, file.webhookUrl),
		operation: `extract "${file.fileName}"`,
		itemIndex,
		idempotent: false,
		// No 5xx or broken connection is retried (not idempotent); a 429 waits up to rateLimitWaitMs.
		retries: 0,
		rateLimitWaitMs,
		timeoutMs: UPLOAD_TIMEOUT_MS,
		pacer,
	});
}
