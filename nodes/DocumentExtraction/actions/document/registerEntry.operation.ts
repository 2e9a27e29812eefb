/**
 * Register Entry (docs/spec-decisions.md#n105): the invoice register's row for an invoice whose
 * execution ends, decided in the package (register/registerEntry.ts) from whichever item reaches the
 * end, so a template needs one node where it had one Set node per outcome; also saved as the
 * execution's custom data, as n8n's Execution Data node does. Data only.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { fieldsOf, jsonParameter, NOT_JSON } from '../../jsonObject.ts';
import { executionRecord, registerEntry } from '../../register/registerEntry.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Books',
		name: 'books',
		type: 'options',
		options: [
			{ name: 'QuickBooks', value: 'QuickBooks' },
			{ name: 'Xero', value: 'Xero' },
		],
		default: 'Xero',
		description: 'The books the bill goes to, as the register names them',
	},
	{
		displayName: 'Invoice',
		name: 'invoice',
		type: 'json',
		default: '',
		required: true,
		placeholder: "{{ $('Settings').first().json }}",
		description:
			'The invoice this execution is about: where the item reaching this node is not the invoice (a look-up of the register, the books answer), its fields and why it stopped come from here',
	},
	{
		displayName: 'Approval',
		name: 'approval',
		type: 'json',
		default: '',
		placeholder:
			"{{ $('Next approval step').isExecuted ? $('Next approval step').last().json.approval : {} }}",
		description: "The last approval step's approval field (Next Approval Step), if one ran",
	},
	{
		displayName: 'Booked Bill',
		name: 'bookedBill',
		type: 'json',
		default: '',
		placeholder:
			"{{ $('Judge the new bill').isExecuted ? $('Judge the new bill').first().json : {} }}",
		description:
			"Judge Books Answer's item for the create, if it ran: when it says Created, the invoice is booked and the item reaching this node is the books answer to attaching the original",
	},
	{
		displayName: 'Record on the Execution',
		name: 'recordOnExecution',
		type: 'boolean',
		default: true,
		description:
			"Whether to save the outcome, the invoice, the decision and the reason as the execution's custom data, to find it under Executions",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['registerEntry'] } },
	properties,
);

const LABELS: Record<string, string> = {
	invoice: 'Invoice',
	approval: 'Approval',
	bookedBill: 'Booked Bill',
};

/** A JSON object parameter (blank: empty); typed text that is not a JSON object fails with what to set. */
function objectParameter(context: IExecuteFunctions, name: string, itemIndex: number): IDataObject {
	const value = jsonParameter(context.getNodeParameter(name, itemIndex, ''));
	if (value === null || value === undefined) return {};
	if (value !== NOT_JSON && typeof value === 'object' && !Array.isArray(value))
		return value as IDataObject;
	throw new NodeOperationError(
		context.getNode(),
		`${LABELS[name]} is not a JSON object: set it to an expression such as ${String(
			properties.find((property) => property.name === name)?.placeholder,
		)}`,
		{ itemIndex },
	);
}

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const entry = registerEntry({
		item: fieldsOf(context.getInputData()[itemIndex].json),
		invoice: objectParameter(context, 'invoice', itemIndex),
		approval: objectParameter(context, 'approval', itemIndex),
		bookedBill: objectParameter(context, 'bookedBill', itemIndex),
		books: String(context.getNodeParameter('books', itemIndex, 'Xero')),
	});
	if (context.getNodeParameter('recordOnExecution', itemIndex, true) === true)
		context.customData.setAll(executionRecord(entry));
	return [[{ json: entry as unknown as IDataObject, pairedItem: { item: itemIndex } }]];
}
