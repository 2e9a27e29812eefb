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
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsOf } from '../../jsonObject.ts';
import { executionRecord, registerEntry } from '../../register/registerEntry.ts';
import { objectParameterOf } from '../jsonParameters.ts';

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

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const entry = registerEntry({
		item: fieldsOf(context.getInputData()[itemIndex].json),
		invoice: objectParameterOf(context, itemIndex, properties, 'invoice'),
		approval: objectParameterOf(context, itemIndex, properties, 'approval'),
		bookedBill: objectParameterOf(context, itemIndex, properties, 'bookedBill'),
		books: String(context.getNodeParameter('books', itemIndex, 'Xero')),
	});
	if (context.getNodeParameter('recordOnExecution', itemIndex, true) === true)
		context.customData.setAll(executionRecord(entry));
	return [[{ json: entry as unknown as IDataObject, pairedItem: { item: itemIndex } }]];
}
