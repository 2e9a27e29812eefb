/**
 * Extract's two steps for one item: submit (prepare and check the file, skip it if already
 * submitted, upload it) and finish (route the answer or wait for the review). One at a time they run
 * back to back; in a batch the submits run in parallel and the finishes in input order
 * (parallelUploads.ts), so decisions that depend on earlier items are taken as one at a time.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { RequestPacer } from '../../../transport/pacer.ts';
import { CONTENT_TYPE_BY_KIND } from '../../validation.ts';
import { extractOutputNames, outputIndex } from '../extractOutputs.ts';
import { notAnInvoiceBecause, sourceFields } from './inputFiles.ts';
import { prepareFile, type PreparedFile } from './prepareFile.ts';
import { routeAnswer } from './route.ts';
import type { ExtractSettings } from './settings.ts';
import { alreadySubmittedItem, claimFile, contentSha256 } from './skipFilesAlreadySubmitted.ts';
import type { FileClaimHeld } from './submit.ts';
import { submitFile } from './submit.ts';

export type Submitted =
	| { alreadySubmitted: IDataObject; response?: undefined; skipped?: undefined }
	| { response: IDataObject; alreadySubmitted?: undefined; skipped?: undefined }
	| { skipped: string; response?: undefined; alreadySubmitted?: undefined };

/** How a batch runs one file's submit step: the run's pacer and the waits between files. */
export interface BatchHooks {
	pacer: RequestPacer;
	/** Claims go in input order: waits until every earlier file has claimed (or failed before). */
	claimTurn: () => Promise<void>;
	/** This file has claimed: the next may. */
	claimed: () => void;
	/** Before the claim: waits while an item of this run with the same content is being uploaded. */
	sameContentSettled: (sha256: string) => Promise<() => void>;
	/** Around the upload: holds the file's bytes within the run's ceiling. */
	withinBytes: <T>(bytes: number, upload: () => Promise<T>) => Promise<T>;
}

export async function submitItem(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: ExtractSettings,
	batch?: BatchHooks,
): Promise<Submitted> {
	if (settings.filePattern) {
		const binary = context.helpers.assertBinaryData(itemIndex, settings.binaryPropertyName);
		const skipped = notAnInvoiceBecause(binary);
		if (skipped) return { skipped };
	}
	const file = await prepareFile(context, itemIndex, settings);
	if (settings.filePattern) {
		const skipped = notAnInvoiceBecause({
			fileName: file.fileName,
			mimeType: CONTENT_TYPE_BY_KIND[file.kind],
			bytes: file.source.byteLength,
		});
		if (skipped) return { skipped };
	}
	if (!settings.skipDuplicates)
		return { response: await upload(context, itemIndex, file, settings, batch) };

	const sha256 = await contentSha256(file.source);
	await batch?.claimTurn();
	const settled = batch ? await batch.sameContentSettled(sha256) : () => {};
	try {
		const fileClaim = await claimFile(context, sha256, itemIndex);
		batch?.claimed();
		if (fileClaim.alreadySubmitted) {
			context.logger.info(
				`Document Extraction: "${file.fileName}" (item ${itemIndex}) was already submitted by this workflow; not extracted again`,
			);
			return { alreadySubmitted: alreadySubmittedItem(file.fileName, sha256, fileClaim) };
		}
		const claim: FileClaimHeld = { sha256, claimKey: fileClaim.claimKey };
		return { response: await upload(context, itemIndex, file, settings, batch, claim) };
	} finally {
		settled();
	}
}

async function upload(
	context: IExecuteFunctions,
	itemIndex: number,
	file: PreparedFile,
	settings: ExtractSettings,
	batch?: BatchHooks,
	claim?: FileClaimHeld,
): Promise<IDataObject> {
	const send = async () =>
		await submitFile(context, itemIndex, file, settings.rateLimitRetries, claim, batch?.pacer);
	return batch ? await batch.withinBytes(file.source.byteLength, send) : await send();
}

export async function finishItem(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: ExtractSettings,
	submitted: Submitted,
): Promise<INodeExecutionData[][]> {
	const outputs: INodeExecutionData[][] = extractOutputNames(settings).map(() => []);
	if (submitted.skipped) {
		outputs[outputIndex(settings, 'skippedFiles')].push({
			json: { skipped_because: submitted.skipped },
			pairedItem: { item: itemIndex },
		});
	} else if (submitted.alreadySubmitted) {
		outputs[outputIndex(settings, 'alreadySubmitted')].push({
			json: submitted.alreadySubmitted,
			pairedItem: { item: itemIndex },
		});
	} else if (submitted.response) {
		await routeAnswer(context, itemIndex, submitted.response, settings, outputs);
	}
	return settings.filePattern
		? outputs.map((items) => items.map((item) => asFileOfItem(context, itemIndex, settings, item)))
		: withInputFile(context, itemIndex, settings, outputs);
}

/** From version 1.2 the file travels on with its result (e.g. to Build Bill, which attaches it). */
function withInputFile(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: ExtractSettings,
	outputs: INodeExecutionData[][],
): INodeExecutionData[][] {
	const binary = context.getInputData()[itemIndex].binary;
	if (!settings.keepsFile || !binary) return outputs;
	return outputs.map((items) => items.map((item) => ({ ...item, binary })));
}

/**
 * One file of an item with several (docs/spec-decisions.md#n45): which file, the input's fields a
 * flow routes on, and from version 1.2 that file alone as `data`.
 */
function asFileOfItem(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: ExtractSettings,
	item: INodeExecutionData,
): INodeExecutionData {
	const input = context.getInputData()[itemIndex];
	const file = input.binary?.[settings.binaryPropertyName];
	return {
		...item,
		json: {
			...item.json,
			file_name: file?.fileName ?? null,
			binary_field: settings.binaryPropertyName,
			source: sourceFields(input.json),
		},
		...(settings.keepsFile && file ? { binary: { data: file } } : {}),
	};
}
