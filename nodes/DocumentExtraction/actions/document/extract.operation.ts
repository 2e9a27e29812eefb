import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { API_PATHS, CREDENTIAL_TYPE } from '../../../shared/constants.ts';
import type { OutputMode } from '../../../shared/invoiceMapping.ts';
import { documentFields, invoiceOutput, simplifyInvoice } from '../../../shared/invoiceMapping.ts';
import { invoiceIdentity } from '../../../shared/invoiceIdentity.ts';
import { fileSizeProblem } from '../../../shared/tierLimits.ts';
import {
	CONTENT_TYPE_BY_KIND,
	documentKind,
	httpsUrlProblem,
	SUPPORTED_TYPES_LABEL,
	uploadFileName,
} from '../../../shared/validation.ts';
import { apiRequest } from '../../transport/index.ts';
import { extractForm, uploadSource } from '../../transport/upload.ts';
import { outputModeProperty } from '../../../shared/outputMode.description.ts';
import {
	alreadySubmittedItem,
	claimContent,
	contentSha256,
	rememberSubmission,
	releaseContent,
} from './duplicateGuard.ts';
import type { ExtractOutputSettings } from './extractOutputs.ts';
import { extractOutputNames, outputIndex } from './extractOutputs.ts';
import { HOLD_NOT_READY_PARAMETER, holdNotReadyProperties } from './holdNotReady.description.ts';
import { claimInvoice, possibleDuplicateItem } from './sameInvoiceGuard.ts';
import { DEFAULT_TIMEOUT_MINUTES, timedOutItems, waitForReview, waitPrerequisites } from './waitForReview.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'data',
		hint: 'The name of the input binary field holding the document (PDF, JPG, PNG, JSON or CSV)',
		description:
			'Binary field of the input item that holds the file, e.g. "data" from Read/Write Files from Disk, an HTTP Request download or an email attachment',
	},
	outputModeProperty,
	{
		displayName: 'Wait for Review',
		name: 'waitForReview',
		type: 'boolean',
		default: false,
		description:
			'Whether to pause the workflow until a human reviewer has finished a document that needs review, then continue with the reviewed data. Confident documents pass straight through. With On Error "Continue (using regular output)", a document that fails comes out with its error on Needs Review (on Rejected when waiting), never on Verified.',
	},
	{
		displayName:
			'The workflow pauses (holding no resources) until the signed review result arrives at this execution\'s resume URL, then continues on <b>Verified</b> or <b>Rejected</b>; with no result in time it continues on <b>Timed Out</b>. One document per execution: put a Loop Over Items node before this one for several files. Needs the Webhook Signing Secret in the credential and n8n reachable over HTTPS. With On Error "Continue (using regular output)", a document that fails continues on <b>Rejected</b> with its error, never on Verified. To catch an invoice this workflow already saw in another file, put a Document Extraction node with <b>Check Invoice Duplicate</b> after Verified.',
		name: 'waitForReviewNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { waitForReview: [true] } },
	},
	{
		displayName: 'Timeout (Minutes)',
		name: 'reviewTimeout',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: DEFAULT_TIMEOUT_MINUTES,
		displayOptions: { show: { waitForReview: [true] } },
		hint: 'Review usually takes 1 to 5 minutes',
		description: 'How long to wait for the review result before continuing on the Timed Out output',
	},
	...holdNotReadyProperties(
		'Without Wait for Review they go to Needs Review; with it, to an extra "Not Ready to Post" output.',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Webhook URL',
				name: 'webhookUrl',
				type: 'string',
				default: '',
				displayOptions: { show: { '/waitForReview': [false] } },
				placeholder: 'https://example.com/webhook/invoices',
				description:
					'HTTPS address that receives the result when a human reviewer finishes this document (only documents that need review are delivered later)',
			},
			{
				displayName: 'Skip Files Already Submitted',
				name: 'skipDuplicates',
				type: 'boolean',
				default: false,
				description:
					'Whether to skip a file whose content this workflow already submitted (same SHA-256) and output the earlier document_id on an extra "Already Submitted" output instead of paying for a second extraction',
			},
			{
				displayName: 'Detect Same Invoice',
				name: 'detectSameInvoice',
				type: 'boolean',
				default: false,
				displayOptions: { show: { '/waitForReview': [false] } },
				description:
					'Whether to send an invoice this workflow already extracted from another file (same vendor and invoice number, ignoring case, accents, punctuation and legal forms like GmbH or Ltd; same total) to an extra "Possible Duplicate" output with the earlier document_id, so it is not paid twice',
			},
			{
				displayName: 'Rate Limit Retries',
				name: 'rateLimitRetries',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 20 },
				default: 5,
				description:
					'How often to wait and retry when the tier\'s requests-per-minute limit is reached (429). The wait follows the service\'s Retry-After header.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['extract'] } },
	properties,
);

/** Extracts one item's document and routes it: items per output (see extractOutputs.ts). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[][]> {
	const binaryPropertyName = String(this.getNodeParameter('binaryPropertyName', itemIndex) ?? '').trim();
	const outputMode = this.getNodeParameter('outputMode', itemIndex, 'simplified') as OutputMode;
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		webhookUrl?: string;
		rateLimitRetries?: number;
		skipDuplicates?: boolean;
		detectSameInvoice?: boolean;
	};
	const waitForReviewSetting = this.getNodeParameter('waitForReview', itemIndex, false) as boolean;
	const settings: ExtractOutputSettings = {
		waitForReview: waitForReviewSetting,
		skipDuplicates: options.skipDuplicates === true,
		detectSameInvoice: options.detectSameInvoice === true && !waitForReviewSetting,
		holdNotReady: this.getNodeParameter(HOLD_NOT_READY_PARAMETER, itemIndex, false) === true,
	};
	const outputs: INodeExecutionData[][] = extractOutputNames(settings).map(() => []);

	const binary = this.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	const kind = documentKind(binary.fileName, binary.mimeType);
	if (!kind) {
		throw new NodeOperationError(
			this.getNode(),
			`The file "${binary.fileName ?? 'without a name'}" (${binary.mimeType || 'unknown type'}) is not a type the service reads`,
			{ itemIndex, description: `Supported types: ${SUPPORTED_TYPES_LABEL}. Convert the file first, or route other files elsewhere with an IF node.` },
		);
	}

	let webhookUrl: string | undefined;
	if (settings.waitForReview) {
		webhookUrl = await waitPrerequisites.call(this, this.getInputData().length);
	} else {
		webhookUrl = options.webhookUrl?.trim() || undefined;
		const urlProblem = webhookUrl ? httpsUrlProblem(webhookUrl, 'The Webhook URL option') : undefined;
		if (urlProblem) throw new NodeOperationError(this.getNode(), urlProblem, { itemIndex });
	}

	const fileName = uploadFileName(binary.fileName, kind);
	const source = await uploadSource.call(this, itemIndex, binary, fileName, CONTENT_TYPE_BY_KIND[kind]);
	if (source.byteLength === 0) {
		throw new NodeOperationError(this.getNode(), `The file "${fileName}" is empty (0 bytes)`, {
			itemIndex,
			description: 'Check the step that produced it: the download or read may have failed.',
		});
	}
	const credentials = await this.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const sizeProblem = fileSizeProblem(credentials.tier, source.byteLength);
	if (sizeProblem) {
		throw new NodeOperationError(this.getNode(), `"${fileName}" is too large for your tier`, {
			itemIndex,
			description: sizeProblem,
		});
	}

	let contentHash: string | undefined;
	let claimKey: string | undefined;
	if (settings.skipDuplicates) {
		contentHash = await contentSha256(source);
		const claim = await claimContent.call(this, contentHash, itemIndex);
		if (claim.duplicate) {
			this.logger.info(`Document Extraction: "${fileName}" (item ${itemIndex}) was already submitted by this workflow; not extracted again`);
			outputs[outputIndex(settings, 'alreadySubmitted')].push({
				json: alreadySubmittedItem(fileName, contentHash, claim),
				pairedItem: { item: itemIndex },
			});
			return outputs;
		}
		claimKey = claim.claimKey;
	}

	this.logger.debug(`Document Extraction: uploading "${fileName}" (${source.byteLength} bytes) for item ${itemIndex}`);
	let response: IDataObject | undefined;
	try {
		response = await apiRequest.call(this, {
			method: 'POST',
			path: API_PATHS.extract,
			body: async () => await extractForm(source, webhookUrl),
			operation: `extract "${fileName}"`,
			itemIndex,
			idempotent: false,
			retries: options.rateLimitRetries ?? 5,
			// Large files on slow links: long enough for 100 MB, yet a hung request still ends.
			timeoutMs: 10 * 60_000,
		});
	} finally {
		// Not submitted after all (as far as the node can tell): a later run may try this file again.
		if (contentHash && claimKey && response === undefined) await releaseContent.call(this, contentHash, claimKey);
	}
	const documentId = typeof response.document_id === 'string' ? response.document_id : undefined;
	if (contentHash && documentId) rememberSubmission.call(this, contentHash, documentId);

	const verified = response.status === 'verified';
	const extracted = verified ? (response.extracted_json ?? null) : null;
	const items = invoiceOutput(outputMode, response, documentFields(response), extracted as IDataObject | null).map(
		(json) => ({ json, pairedItem: { item: itemIndex } }),
	);
	const identity = verified && settings.detectSameInvoice ? invoiceIdentity(simplifyInvoice(extracted)) : null;
	const sameInvoice = identity ? await claimInvoice.call(this, identity, documentId ?? null, itemIndex) : undefined;
	if (identity && sameInvoice?.duplicate) {
		this.logger.info(`Document Extraction: document ${documentId ?? '?'} (item ${itemIndex}) is an invoice this workflow saw before`);
		outputs[outputIndex(settings, 'possibleDuplicate')].push({
			json: possibleDuplicateItem(invoiceOutput('simplified', response, documentFields(response), extracted)[0], identity, sameInvoice),
			pairedItem: { item: itemIndex },
		});
	} else if (verified && settings.holdNotReady && items.some((item) => item.json.ready_to_post !== true)) {
		// Verified by the service, yet not ready to post: a person completes it (docs/spec-decisions.md#n18).
		outputs[outputIndex(settings, settings.waitForReview ? 'notReady' : 'needsReview')].push(...items);
	} else if (verified) {
		outputs[outputIndex(settings, 'verified')].push(...items);
	} else if (settings.waitForReview) {
		if (!documentId) {
			throw new NodeOperationError(this.getNode(), 'The service answered without a document_id, so there is no review to wait for', {
				itemIndex,
				description: 'Turn Wait for Review off to see the whole answer (Output: Raw), or contact the service.',
			});
		}
		const timeoutMinutes = this.getNodeParameter('reviewTimeout', itemIndex, DEFAULT_TIMEOUT_MINUTES) as number;
		await waitForReview.call(
			this,
			documentId,
			timeoutMinutes,
			timedOutItems(outputMode, response, timeoutMinutes, itemIndex),
			settings,
		);
	} else {
		outputs[outputIndex(settings, 'needsReview')].push(...items);
	}
	return outputs;
}
