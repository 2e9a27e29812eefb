/**
 * The last step of Extract: the service's answer to the output it belongs on (extractOutputs.ts), or
 * the execution put to wait for the review. A verified invoice this workflow saw before (Detect Same
 * Invoice, decided for the whole run in parallelUploads.ts) goes to Possible Duplicate; one not ready
 * to post is held when asked (docs/spec-decisions.md#n18).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { documentFields, invoiceOutput } from '../../../invoice/invoiceMapping.ts';
import type { ExtractOutput } from '../extractOutputs.ts';
import { outputIndex } from '../extractOutputs.ts';
import type { Sighting } from '../sameInvoice.ts';
import { possibleDuplicateFields } from '../sameInvoice.ts';
import { DEFAULT_TIMEOUT_MINUTES, timedOutItems, waitForReview } from '../waitForReview.ts';
import type { ExtractSettings } from './settings.ts';

export async function routeAnswer(
	context: IExecuteFunctions,
	itemIndex: number,
	response: IDataObject,
	settings: ExtractSettings,
	outputs: INodeExecutionData[][],
	seenBefore?: Sighting,
): Promise<void> {
	const to = (output: ExtractOutput) => outputs[outputIndex(settings, output)];
	const verified = response.status === 'verified';
	const extracted = verified ? ((response.extracted_json ?? null) as IDataObject | null) : null;
	const items = invoiceOutput(
		settings.outputMode,
		response,
		documentFields(response),
		extracted,
	).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
	if (!verified && settings.waitForReview)
		return await waitForTheReview(context, itemIndex, response, settings);
	if (!verified) return void to('needsReview').push(...items);

	if (seenBefore)
		return void to('possibleDuplicate').push(
			duplicateItem(itemIndex, response, extracted, seenBefore),
		);
	if (settings.holdNotReady && items.some((item) => item.json.ready_to_post !== true)) {
		// Verified by the service, yet not ready to post: a person completes it.
		return void to(settings.waitForReview ? 'notReady' : 'needsReview').push(...items);
	}
	to('verified').push(...items);
}

/** The Possible Duplicate item of a verified invoice this workflow saw before. */
function duplicateItem(
	itemIndex: number,
	response: IDataObject,
	extracted: IDataObject | null,
	{ identity, first }: Sighting,
): INodeExecutionData {
	const fields = invoiceOutput('simplified', response, documentFields(response), extracted)[0];
	const documentId = typeof response.document_id === 'string' ? response.document_id : null;
	return {
		json: { ...fields, ...possibleDuplicateFields(documentId, identity, first) },
		pairedItem: { item: itemIndex },
	};
}

async function waitForTheReview(
	context: IExecuteFunctions,
	itemIndex: number,
	response: IDataObject,
	settings: ExtractSettings,
): Promise<void> {
	const documentId = typeof response.document_id === 'string' ? response.document_id : undefined;
	if (!documentId) {
		throw new NodeOperationError(
			context.getNode(),
			'The service answered without a document_id, so there is no review to wait for',
			{
				itemIndex,
				description:
					'Turn Wait for Review off to see the whole answer (Output: Raw), or contact the service.',
			},
		);
	}
	const timeoutMinutes = context.getNodeParameter(
		'reviewTimeout',
		itemIndex,
		DEFAULT_TIMEOUT_MINUTES,
	) as number;
	// The file travels on with the result (from version 1.2), after the review or the timeout; one
	// file of an item with several (a file pattern) alone as `data`, as on the outputs without waiting.
	const input = settings.keepsFile ? context.getInputData()[itemIndex].binary : undefined;
	const ofPattern = settings.filePattern ? input?.[settings.binaryPropertyName] : undefined;
	const file = settings.filePattern ? ofPattern && { data: ofPattern } : input;
	const onTimeout = timedOutItems(settings.outputMode, response, timeoutMinutes, itemIndex).map(
		(item) => (file ? { ...item, binary: file } : item),
	);
	await waitForReview(context, documentId, timeoutMinutes, onTimeout, settings, file);
}
