/**
 * Extract's steps for one file: prepare it (checked, hashed when Skip Files Already Submitted is on),
 * upload it, and finish (route the answer or wait for the review). parallelUploads.ts runs them for
 * every file of a run; decisions that depend on other files (seen before) are taken there, for all
 * files at once, and handed to these steps.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { CONTENT_TYPE_BY_KIND } from '../../validation.ts';
import type { ExtractOutput } from '../extractOutputs.ts';
import { extractOutputNames, outputIndex } from '../extractOutputs.ts';
import type { Sighting } from '../sameInvoice.ts';
import { notAnInvoiceBecause, sourceFields } from './inputFiles.ts';
import { prepareFile, type PreparedFile } from './prepareFile.ts';
import { routeAnswer } from './route.ts';
import type { ExtractSettings } from './settings.ts';
import { contentSha256 } from './skipFilesAlreadySubmitted.ts';

/** A file ready to upload (with its content hash when Skip Files Already Submitted is on), or why not. */
export type Prepared = { skipped: string } | { file: PreparedFile; sha256?: string };

/** What became of a file before routing. */
export type Submitted =
	| { skipped: string }
	| { alreadySubmitted: IDataObject }
	| { response: IDataObject };

/** Opens a file (to hash or to send it) only within the run's budget of bytes in flight, at its memoryCost. */
export interface InFlight {
	use<T>(bytes: number, work: () => Promise<T>): Promise<T>;
}

export async function prepareItemFile(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: ExtractSettings,
	inFlight: InFlight,
): Promise<Prepared> {
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
	if (!settings.skipDuplicates) return { file };
	const sha256 = await inFlight.use(file.source.memoryCost, () => contentSha256(file.source));
	return { file, sha256 };
}

export async function finishItem(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: ExtractSettings,
	submitted: Submitted,
	seenBefore?: Sighting,
): Promise<INodeExecutionData[][]> {
	const outputs: INodeExecutionData[][] = extractOutputNames(settings).map(() => []);
	const put = (output: ExtractOutput, json: IDataObject) =>
		outputs[outputIndex(settings, output)].push({ json, pairedItem: { item: itemIndex } });
	if ('skipped' in submitted) put('skippedFiles', { skipped_because: submitted.skipped });
	else if ('alreadySubmitted' in submitted) put('alreadySubmitted', submitted.alreadySubmitted);
	else await routeAnswer(context, itemIndex, submitted.response, settings, outputs, seenBefore);
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
