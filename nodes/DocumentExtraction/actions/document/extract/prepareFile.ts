/**
 * The first step of Extract: the item's file, checked before anything is sent (a type the service
 * reads, not empty, within the tier's size), and where the review result is to be delivered.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fileSizeProblem } from '../../../tierLimits.ts';
import { runCredential } from '../../../transport/index.ts';
import type { UploadSource } from '../../../transport/upload.ts';
import { uploadSource } from '../../../transport/upload.ts';
import {
	CONTENT_TYPE_BY_KIND,
	type DocumentKind,
	documentKind,
	httpsUrlProblem,
	SUPPORTED_TYPES_LABEL,
	uploadFileName,
} from '../../validation.ts';
import { workflowDocumentsUrl } from '../../../trigger/documents.ts';
import { refusals } from '../../../refusals.ts';
import { waitPrerequisites } from '../waitForReview.ts';
import type { ExtractSettings } from './settings.ts';

export interface PreparedFile {
	fileName: string;
	kind: DocumentKind;
	source: UploadSource;
	/**
	 * Where the service delivers the review result: this execution's resume URL (Wait for Review), the
	 * Webhook URL option, or this workflow's Document Extraction Trigger.
	 */
	webhookUrl?: string;
}

export async function prepareFile(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: ExtractSettings,
): Promise<PreparedFile> {
	const refusal = refusals(context, itemIndex);
	const binary = context.helpers.assertBinaryData(itemIndex, settings.binaryPropertyName);
	const kind = documentKind(binary.fileName, binary.mimeType);
	if (!kind) {
		throw refusal(
			`The file "${binary.fileName ?? 'without a name'}" (${binary.mimeType || 'unknown type'}) is not a type the service reads`,
			`Supported types: ${SUPPORTED_TYPES_LABEL}. Convert the file first, or route other files elsewhere with an IF node.`,
		);
	}
	const webhookUrl = await reviewWebhookUrl(context, itemIndex, settings);

	const fileName = uploadFileName(binary.fileName, kind);
	const source = await uploadSource(
		context,
		itemIndex,
		binary,
		fileName,
		CONTENT_TYPE_BY_KIND[kind],
	);
	if (source.byteLength === 0) {
		throw refusal(
			`The file "${fileName}" is empty (0 bytes)`,
			'Check the step that produced it: the download or read may have failed.',
		);
	}
	const credentials = await runCredential(context, itemIndex);
	const sizeProblem = fileSizeProblem(credentials.tier, source.byteLength);
	if (sizeProblem) throw refusal(`"${fileName}" is too large for your tier`, sizeProblem);
	return { fileName, kind, source, webhookUrl };
}

async function reviewWebhookUrl(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: ExtractSettings,
): Promise<string | undefined> {
	if (settings.waitForReview)
		return await waitPrerequisites(context, context.getInputData().length);
	const problem = settings.webhookUrl
		? httpsUrlProblem(settings.webhookUrl, 'The Webhook URL option')
		: undefined;
	if (problem) throw new NodeOperationError(context.getNode(), problem, { itemIndex });
	if (settings.webhookUrl) return settings.webhookUrl;
	return settings.reviewResultsToTrigger ? thisWorkflowsTriggerUrl(context) : undefined;
}

/** Per node run: the address of this workflow's trigger (docs/spec-decisions.md#n40). */
const triggerUrlOfRun = new WeakMap<IExecuteFunctions, string | undefined>();

function thisWorkflowsTriggerUrl(context: IExecuteFunctions): string | undefined {
	if (triggerUrlOfRun.has(context)) return triggerUrlOfRun.get(context);
	const resumeUrl = String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0) ?? '');
	const url = workflowDocumentsUrl(
		resumeUrl,
		context.getWorkflow().id ?? '',
		context.getMode() === 'manual',
	);
	if (!url) {
		context.logger.warn(
			"Document Extraction: cannot tell n8n's webhook address from its resume URL (renamed webhook endpoints?); review results go to the account's webhooks only. Set the Webhook URL option to send them to this workflow's trigger.",
		);
	}
	triggerUrlOfRun.set(context, url);
	return url;
}
