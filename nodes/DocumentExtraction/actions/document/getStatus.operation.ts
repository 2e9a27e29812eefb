import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { API_PATHS } from '../../constants.ts';
import { asNumber } from '../../invoice/invoiceMapping.ts';
import { documentIdProblem } from '../validation.ts';
import { apiRequest } from '../../transport/index.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'doc_abc123',
		hint: 'Map the document_id of an earlier Extract, e.g. {{ $json.document_id }}',
		description: 'Identifier returned by Extract, shaped "doc_…"',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Retries',
				name: 'retries',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 20 },
				default: 3,
				description:
					'How often to retry after a rate limit (429), a service error (5xx) or a broken connection. A status lookup changes nothing, so retrying is safe.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['getStatus'] } },
	properties,
);

/** The status fields of the spec, null when absent, followed by anything else the service sent. */
function statusOutput(response: IDataObject): IDataObject {
	const text = (value: unknown) => (typeof value === 'string' ? value : null);
	const fields: IDataObject = {
		document_id: text(response.document_id),
		status: text(response.status),
		confidence: asNumber(response.confidence),
		review_id: text(response.review_id),
		estimated_time: text(response.estimated_time),
		created_at: text(response.created_at),
	};
	return {
		...fields,
		...Object.fromEntries(Object.entries(response).filter(([key]) => !Object.hasOwn(fields, key))),
	};
}

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const documentId = context.getNodeParameter('documentId', itemIndex) as string;
	const options = context.getNodeParameter('options', itemIndex, {}) as { retries?: number };

	const problem = documentIdProblem(documentId);
	if (problem) throw new NodeOperationError(context.getNode(), problem, { itemIndex });
	const id = documentId.trim();

	const response = await apiRequest(context, {
		method: 'GET',
		path: API_PATHS.status(id),
		operation: `get the status of ${id}`,
		itemIndex,
		idempotent: true,
		retries: options.retries ?? 3,
	});
	return [[{ json: statusOutput(response), pairedItem: { item: itemIndex } }]];
}
