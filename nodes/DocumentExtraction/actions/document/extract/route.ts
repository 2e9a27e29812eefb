/**
 * The last step of Extract: the service's answer to the output it belongs on (extractOutputs.ts), or
 * the execution put to wait for the review. A verified invoice this workflow saw before goes to
 * Possible Duplicate (Detect Same Invoice); one not ready to post is held when asked
 * (docs/spec-decisions.md#n18).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { invoiceIdentity } from '../../../invoice/invoiceIdentity.ts';
import { documentFields, invoiceOutput, simplifyInvoice } from '../../../invoice/invoiceMapping.ts';
import type { ExtractOutput } from '../extractOutputs.ts';
import { outputIndex } from '../extractOutputs.ts';
import { claimInvoice, possibleDuplicateItem } from '../sameInvoice.ts';
import { DEFAULT_TIMEOUT_MINUTES, timedOutItems, waitForReview } from '../waitForReview.ts';
import type { ExtractSettings } from './settings.ts';

export async function routeAnswer(
	context: IExecuteFunctions,
	itemIndex: number,
	response: IDataObject,
	settings: ExtractSettings,
	outputs: INodeExecutionData[][],
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

	const duplicate = settings.detectSameInvoice
		? await sameInvoiceItem(context, itemIndex, response, extracted)
		: undefined;
	if (duplicate) return void to('possibleDuplicate').push(duplicate);
	if (settings.holdNotReady && items.some((item) => item.json.ready_to_post !== true)) {
		// Verified by the service, yet not ready to post: a person completes it.
		return void to(settings.waitForReview ? 'notReady' : 'needsReview').push(...items);
	}
	to('verified').push(...items);
}

/** The Possible Duplicate item when the verified invoice is one this workflow saw before. */
async function sameInvoiceItem(
	context: IExecuteFunctions,
	itemIndex: number,
	response: IDataObject,
	extracted: IDataObject | null,
): Promise<INodeExecutionData | undefined> {
	const identity = invoiceIdentity(simplifyInvoice(extracted));
	if (!identity) return undefined;
	const documentId = typeof response.document_id === 'string' ? response.document_id : null;
	const claim = await claimInvoice(context, identity, documentId, itemIndex);
	if (!claim.duplicate) return undefined;
	context.logger.info(
		`Document Extraction: document ${documentId ?? '?'} (item ${itemIndex}) is an invoice this workflow saw before`,
	);
	const fields = invoiceOutput('simplified', response, documentFields(response), extracted)[0];
	return { json: possibleDuplicateItem(fields, identity, claim), pairedItem: { item: itemIndex } };
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
	// The file travels on with the result (from version 1.2), after the review or the timeout.
	const file = settings.keepsFile ? context.getInputData()[itemIndex].binary : undefined;
	const onTimeout = timedOutItems(settings.outputMode, response, timeoutMinutes, itemIndex).map(
		(item) => (file ? { ...item, binary: file } : item),
	);
	await waitForReview(context, documentId, timeoutMinutes, onTimeout, settings, file);
}
