/**
 * Prepare Attachment (docs/spec-decisions.md#n109): the item QuickBooks' upload takes for a bill the
 * books created, its original and the Attachable that links it (bill/attachment.ts), so a template
 * needs no Set, Convert to File and Merge to build a multipart body. Data only; Xero takes the file
 * itself as the body and needs nothing prepared.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { quickBooksAttachable } from '../../bill/attachment.ts';
import { fieldsOf } from '../../jsonObject.ts';
import { fileParameter, originalFileProperty } from '../fileParameter.ts';
import { objectParameterOf } from '../jsonParameters.ts';
import { itemWith } from '../itemWith.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Bill',
		name: 'bill',
		type: 'json',
		default: '={{ $json }}',
		description: "Judge Books Answer's Created item for the bill (Answer To: Create Bill)",
	},
	originalFileProperty('the file goes on the item as data', true),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['prepareAttachment'] } },
	properties,
);

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const item = context.getInputData()[itemIndex];
	const bill = objectParameterOf(context, itemIndex, properties, 'bill');
	const original = fileParameter(objectParameterOf(context, itemIndex, properties, 'originalFile'));
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
