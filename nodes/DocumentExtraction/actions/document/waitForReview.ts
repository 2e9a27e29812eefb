/**
 * Extract and wait for review (docs/spec-decisions.md#n9), the execute side. The document is uploaded with this
 * execution's resume URL as its webhook_url, and the execution is put to wait the way n8n's Wait and
 * send-and-wait nodes do: nothing is held while a reviewer works. The review callback (see
 * reviewCallback.ts) verifies the delivery and resumes the execution.
 *
 * n8n ends a wait that reaches its time limit by running the node again as disabled, which forwards
 * the stack entry's data. The node therefore stores, before waiting, what a timeout must output: the
 * document on the Timed Out output (forwarding all outputs, not only the first).
 */
import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import type { OutputMode } from '../../invoice/invoiceMapping.ts';
import { documentFields, invoiceOutput } from '../../invoice/invoiceMapping.ts';
import { credentialSigningSecret } from '../../delivery/signingSecret.ts';
import { refusals } from '../../refusals.ts';
import { httpsUrlProblem } from '../validation.ts';
import type { ExtractOutputSettings } from './extractOutputs.ts';
import { extractOutputNames, outputIndex } from './extractOutputs.ts';

/** Names the document the execution waits for, in the node's context and the execution's custom data. */
export const AWAITED_DOCUMENT_KEY = 'documentExtractionAwaiting';

/** The waiting item's file, in the node's context, put back on the result when the execution resumes. */
export const AWAITED_FILE_KEY = 'documentExtractionAwaitingFile';

/** n8n keeps custom data values up to 255 characters. */
export function awaitedDocumentValue(documentId: string): string {
	return documentId.slice(0, 255);
}

export const DEFAULT_TIMEOUT_MINUTES = 15;

/** Checks made before the upload, so that a document is never submitted for a wait that cannot work. */
export async function waitPrerequisites(
	context: IExecuteFunctions,
	itemCount: number,
): Promise<string> {
	const refusal = refusals(context);
	if (context.getNode().type.endsWith('Tool')) {
		throw refusal(
			'Wait for Review is not available when the node is used as an AI tool',
			'Turn Wait for Review off; the agent can look up the result later with Get Status.',
		);
	}
	if (context.getNodeParameter('outputMode', 0, 'simplified') === 'splitLineItems') {
		throw refusal(
			'Wait for Review gives one item per document: choose Output "Simplified" or "Raw"',
			'To get one item per line item after the review, add a Split Out node on the field "line_items".',
		);
	}
	if (itemCount > 1) {
		throw refusal(
			`Wait for Review handles one document per execution, and this node received ${itemCount} items`,
			'Put a Loop Over Items node (batch size 1) before this node so each document waits in turn, or turn Wait for Review off and receive review results with the Document Extraction Trigger.',
		);
	}
	if (!(await credentialSigningSecret(context, 0))) {
		throw refusal(
			'Wait for Review needs the Webhook Signing Secret of your account',
			'Open the Document Extraction API credential and enter the Webhook Signing Secret: the node uses it to check that the review result really comes from the service.',
		);
	}
	const resumeUrl = String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0));
	const problem = httpsUrlProblem(resumeUrl, "n8n's resume address for this execution");
	if (problem) {
		throw refusal(
			'Wait for Review needs n8n to be reachable over HTTPS',
			`${problem} Set n8n's WEBHOOK_URL to its public https:// address.`,
		);
	}
	return resumeUrl;
}

export function timedOutItems(
	mode: OutputMode,
	response: IDataObject,
	timeoutMinutes: number,
	itemIndex: number,
): INodeExecutionData[] {
	const message =
		`No review result arrived within ${timeoutMinutes} minute(s). The document is still ${String(response.status ?? 'pending')} at the service: ` +
		'look it up later with Get Status using this document_id, or receive the result with the Document Extraction Trigger.';
	const marker = { timed_out: true, waited_minutes: timeoutMinutes, message };
	return invoiceOutput(
		mode,
		{ ...response, ...marker },
		{ ...documentFields(response), ...marker },
		null,
	).map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/** Puts the execution to wait for the document's review; a timeout outputs `onTimeout` on Timed Out. */
export async function waitForReview(
	context: IExecuteFunctions,
	documentId: string,
	timeoutMinutes: number,
	onTimeout: INodeExecutionData[],
	settings: ExtractOutputSettings,
	file?: IBinaryKeyData,
): Promise<void> {
	const outputs: INodeExecutionData[][] = extractOutputNames(settings).map(() => []);
	outputs[outputIndex(settings, 'timedOut')] = onTimeout;
	const executeData = context.getExecuteData();
	executeData.data = { main: outputs };
	context.setMetadata({ forwardAllOutputs: true });
	// When the node resumes, n8n links each forwarded item to the "input" with its output's index;
	// every such input is this node's one real input, so the items keep their lineage (pairedItem).
	const source = executeData.source?.main?.[0];
	if (source) executeData.source = { main: outputs.map(() => source) };
	// The awaited document, kept in the node's execution context (saved with the waiting execution and
	// read by the review callback), and as custom data, which n8n's executions list shows.
	context.getContext('node')[AWAITED_DOCUMENT_KEY] = awaitedDocumentValue(documentId);
	if (file) context.getContext('node')[AWAITED_FILE_KEY] = file;
	context
		.getWorkflowDataProxy(0)
		.$execution.customData.set(AWAITED_DOCUMENT_KEY, awaitedDocumentValue(documentId));
	context.logger.info(
		`Document Extraction: document ${documentId} is in review; execution ${context.getExecutionId()} waits up to ${timeoutMinutes} minute(s) for the result`,
	);
	await context.putExecutionToWait(new Date(Date.now() + timeoutMinutes * 60_000));
}
