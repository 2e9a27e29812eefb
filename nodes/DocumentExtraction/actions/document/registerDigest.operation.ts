/**
 * Register Digest: the invoice register's rows become the morning digest (register/registerDigest.ts):
 * what needs a person and what was booked since the last digest, with totals per currency and an
 * email's subject, text and HTML. Data only: the Data Table node reads the rows, n8n's Send Email
 * sends it.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { RegisterRow } from '../../register/registerDigest.ts';
import { registerDigest, timeOf } from '../../register/registerDigest.ts';
import { jsonParameter } from '../../jsonObject.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Register Rows',
		name: 'registerRows',
		type: 'json',
		default: '={{ $json.rows }}',
		required: true,
		description:
			"The Invoice register's rows as a list: the Data Table node's rows, aggregated into one item's field (Aggregate node, All Item Data)",
	},
	{
		displayName: 'Awaiting Approval Longer Than (Hours)',
		name: 'awaitingApprovalHours',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 24,
		description: 'A row in state "awaiting approval" is listed once it has waited longer than this',
	},
	{
		displayName: 'Received, Not Finished, Longer Than (Hours)',
		name: 'unfinishedHours',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 24,
		description:
			'A row still in state "received" (being extracted, or with the reviewer) is listed once it is older than this',
	},
	{
		displayName: 'Last Digest At',
		name: 'lastDigestAt',
		type: 'string',
		default: '',
		placeholder: '2026-11-02T08:00:00.000Z',
		description:
			'When the last digest was made: rows booked after it are listed and totalled. Empty: the last 24 hours.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['registerDigest'] } },
	properties,
);

function rowsOf(context: IExecuteFunctions, itemIndex: number): RegisterRow[] {
	const given = jsonParameter(context.getNodeParameter('registerRows', itemIndex, []));
	const rows = given === null ? [] : given;
	if (!Array.isArray(rows) || rows.some((row) => typeof row !== 'object' || row === null))
		throw new NodeOperationError(
			context.getNode(),
			'Register Rows is not a list of rows: aggregate the Data Table rows into one field (Aggregate node, All Item Data, field "rows") and set Register Rows to {{ $json.rows }}',
			{ itemIndex },
		);
	return rows as RegisterRow[];
}

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const lastDigestText = String(context.getNodeParameter('lastDigestAt', itemIndex, '') ?? '');
	const lastDigestAt = timeOf(lastDigestText);
	if (lastDigestText.trim() !== '' && !lastDigestAt)
		throw new NodeOperationError(
			context.getNode(),
			`Last Digest At (${lastDigestText.slice(0, 40)}) is not a date: give an ISO date such as 2026-11-02T08:00:00Z, or leave it empty`,
			{ itemIndex },
		);
	const digest = registerDigest(rowsOf(context, itemIndex), {
		now: new Date(),
		awaitingApprovalHours: Number(context.getNodeParameter('awaitingApprovalHours', itemIndex, 24)),
		unfinishedHours: Number(context.getNodeParameter('unfinishedHours', itemIndex, 24)),
		lastDigestAt,
	});
	return [[{ json: digest as unknown as IDataObject, pairedItem: { item: itemIndex } }]];
}
