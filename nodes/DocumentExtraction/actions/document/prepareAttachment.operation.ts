/**
 * Prepare Attachment (docs/spec-decisions.md#n109): the item QuickBooks' upload takes for a bill the
 * books created, its original and the Attachable that links it (bill/attachment.ts), so a template
 * needs no Set, Convert to File and Merge to build a multipart body. Data only; Xero takes the file
 * itself as the body and needs nothing prepared.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { quickBooksAttachable } from '../../bill/attachment.ts';
import { fieldsOf, jsonParameter, NOT_JSON } from '../../jsonObject.ts';
import { itemWith } from '../itemWith.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Bill',
		name: 'bill',
		type: 'json',
		default: '={{ $json }}',
		description: "Judge Books Answer's Created item for the bill (Answer To: Create Bill)",
	},
	{
		displayName: 'Original File',
		name: 'originalFile',
		type: 'json',
		default: '',
		required: true,
		placeholder: "{{ $('Settings').first().binary.data }}",
		description:
			"The invoice's original file, from any node of the execution that holds it: the file goes on the item as data",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['prepareAttachment'] } },
	properties,
);

function jsonParameterOf(context: IExecuteFunctions, name: string, itemIndex: number): unknown {
	const value = jsonParameter(context.getNodeParameter(name, itemIndex, ''));
	if (value !== NOT_JSON) return value;
	throw new NodeOperationError(
		context.getNode(),
		`${name === 'bill' ? 'Bill' : 'Original File'} is not JSON: set it to an expression such as ${name === 'bill' ? '{{ $json }}' : "{{ $('Settings').first().binary.data }}"}`,
		{ itemIndex },
	);
}

/** A file as n8n keeps it on an item: stored (id) or inline (data), with its type. */
function fileOf(value: unknown): IBinaryData | null {
	const file = fieldsOf(value);
	const stored = typeof file.id === 'string' || typeof file.data === 'string';
	return stored && typeof file.mimeType === 'string' ? (file as unknown as IBinaryData) : null;
}

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const item = context.getInputData()[itemIndex];
	const bill = fieldsOf(jsonParameterOf(context, 'bill', itemIndex));
	const original = fileOf(jsonParameterOf(context, 'originalFile', itemIndex));
	const attachable = original ? quickBooksAttachable(bill, original.mimeType) : null;
	if (!original || !attachable) return [[], [itemWith(item, itemIndex, bill)]];
	const metadata = await context.helpers.prepareBinaryData(
		Buffer.from(JSON.stringify(attachable)),
		'attachable.json',
		'application/json',
	);
	const json: IDataObject = {
		bill_id: String(fieldsOf(bill.books_bill).id),
		attachment_name: attachable.FileName,
	};
	return [
		[
			{
				json,
				binary: { file_metadata: metadata, data: original },
				pairedItem: { item: itemIndex },
			},
		],
		[],
	];
}
