import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { API_PATHS, CREDENTIAL_TYPE } from '../../../shared/constants';
import type { OutputMode } from '../../../shared/invoiceMapping';
import { documentFields, invoiceOutput } from '../../../shared/invoiceMapping';
import { fileSizeProblem } from '../../../shared/tierLimits';
import {
	CONTENT_TYPE_BY_KIND,
	documentKind,
	httpsUrlProblem,
	SUPPORTED_TYPES_LABEL,
	uploadFileName,
} from '../../../shared/validation';
import { apiRequest } from '../../transport';
import { extractForm, uploadSource } from '../../transport/upload';
import { outputModeProperty } from '../../../shared/outputMode.description';

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
				placeholder: 'https://example.com/webhook/invoices',
				description:
					'HTTPS address that receives the result when a human reviewer finishes this document (only documents that need review are delivered later)',
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

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const binaryPropertyName = String(this.getNodeParameter('binaryPropertyName', itemIndex) ?? '').trim();
	const outputMode = this.getNodeParameter('outputMode', itemIndex, 'simplified') as OutputMode;
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		webhookUrl?: string;
		rateLimitRetries?: number;
	};

	const binary = this.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	const kind = documentKind(binary.fileName, binary.mimeType);
	if (!kind) {
		throw new NodeOperationError(
			this.getNode(),
			`The file "${binary.fileName ?? 'without a name'}" (${binary.mimeType || 'unknown type'}) is not a type the service reads`,
			{ itemIndex, description: `Supported types: ${SUPPORTED_TYPES_LABEL}. Convert the file first, or route other files elsewhere with an IF node.` },
		);
	}

	const webhookUrl = options.webhookUrl?.trim() || undefined;
	const urlProblem = webhookUrl ? httpsUrlProblem(webhookUrl, 'The Webhook URL option') : undefined;
	if (urlProblem) throw new NodeOperationError(this.getNode(), urlProblem, { itemIndex });

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

	this.logger.debug(`Document Extraction: uploading "${fileName}" (${source.byteLength} bytes) for item ${itemIndex}`);
	const response = await apiRequest.call(this, {
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

	const extracted = response.status === 'verified' ? (response.extracted_json ?? null) : null;
	return invoiceOutput(outputMode, response, documentFields(response), extracted as IDataObject | null).map(
		(json) => ({ json, pairedItem: { item: itemIndex } }),
	);
}
