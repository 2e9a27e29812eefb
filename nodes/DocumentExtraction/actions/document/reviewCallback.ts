/**
 * Extract and wait for review (docs/spec-decisions.md#n9), the resume side: the service's delivery to the waiting
 * execution's resume URL. Only a delivery signed with the account's signing secret, for the document
 * this execution waits for, resumes it; anything else is answered and the execution keeps waiting.
 */
import type {
	IBinaryKeyData,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { eventOutput } from '../../delivery/eventMapping.ts';
import type { OutputMode } from '../../invoice/invoiceMapping.ts';
import { answerWithoutRun, readSignedDelivery } from '../../delivery/signedDelivery.ts';
import { addressSecrets } from '../../delivery/signingSecret.ts';
import { extractOutputNames, outputIndex, outputSettingsFrom } from './extractOutputs.ts';
import { AWAITED_DOCUMENT_KEY, AWAITED_FILE_KEY, awaitedDocumentValue } from './waitForReview.ts';

/**
 * The document this execution waits for, from the node's execution context. A webhook context offers
 * no getContext(), so it is read the way n8n evaluates any parameter: as an expression over the
 * execution's data (the node has no such parameter; the expression is the fallback value).
 */
const AWAITED_DOCUMENT_PARAMETER = 'awaitedDocument';

function awaitedDocumentExpression(nodeName: string): string {
	return `={{ $node[${JSON.stringify(nodeName)}].context[${JSON.stringify(AWAITED_DOCUMENT_KEY)}] ?? "" }}`;
}

/** The waiting item's file (Extract 1.2), read the same way; null when none was kept. */
function awaitedFile(context: IWebhookFunctions): IBinaryKeyData | undefined {
	const expression = `={{ $node[${JSON.stringify(context.getNode().name)}].context[${JSON.stringify(AWAITED_FILE_KEY)}] ?? null }}`;
	const file = context.getNodeParameter(AWAITED_FILE_PARAMETER, expression);
	return typeof file === 'object' && file !== null ? (file as IBinaryKeyData) : undefined;
}

const AWAITED_FILE_PARAMETER = 'awaitedFile';

export async function receiveReviewResult(
	context: IWebhookFunctions,
): Promise<IWebhookResponseData> {
	// Signed with the account's secret (D13), the only one the service signs a resume URL's deliveries with.
	const delivery = await readSignedDelivery(context, await addressSecrets(context));
	if (delivery.refusal) {
		context.logger.warn(
			`Document Extraction: refused a review callback (${delivery.refusal.reason}); the execution keeps waiting`,
		);
		return answerWithoutRun(context, delivery.refusal.status, delivery.refusal.body);
	}
	const { payload } = delivery;

	const event = payload.event;
	if (event !== 'document.verified' && event !== 'document.rejected') {
		return answerWithoutRun(context, 200, { received: true, ignored: 'not a review result' });
	}
	const awaited = String(
		context.getNodeParameter(
			AWAITED_DOCUMENT_PARAMETER,
			awaitedDocumentExpression(context.getNode().name),
		) ?? '',
	);
	const documentId = typeof payload.document_id === 'string' ? payload.document_id : '';
	if (!documentId || awaitedDocumentValue(documentId) !== awaited) {
		// A validly signed result for another document (e.g. a late copy of the previous document's
		// result in a loop): acknowledged so that the service stops retrying, and not taken for this one.
		context.logger.info(
			`Document Extraction: ignored a review result for ${documentId || 'no document'}; this execution waits for ${awaited || 'no document'}`,
		);
		return answerWithoutRun(context, 200, {
			received: true,
			ignored: 'not the document this execution waits for',
		});
	}

	const outputMode = context.getNodeParameter('outputMode', 'simplified') as OutputMode;
	const settings = outputSettingsFrom((name, fallback) => context.getNodeParameter(name, fallback));
	const outputs: INodeExecutionData[][] = extractOutputNames(settings).map(() => []);
	const file = awaitedFile(context);
	const items = eventOutput(outputMode, payload).map((json) => ({
		json,
		...(file ? { binary: file } : {}),
		pairedItem: { item: 0 },
	}));
	const verified = event === 'document.verified';
	const held =
		verified && settings.holdNotReady && items.some((item) => item.json.ready_to_post !== true);
	outputs[outputIndex(settings, held ? 'notReady' : verified ? 'verified' : 'rejected')] = items;

	context.logger.info(
		`Document Extraction: review result ${event} for ${documentId}; the execution resumes`,
	);
	context.getResponseObject().status(200).json({ received: true, resumed: true });
	return { noWebhookResponse: true, workflowData: outputs };
}
