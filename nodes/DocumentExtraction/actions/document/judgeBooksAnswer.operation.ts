/**
 * Judge Books Answer (docs/spec-decisions.md#n71): what the books' answer to a bill's lookup or create,
 * or to QuickBooks' vendor question, means, decided in the package (bill/booksAnswer.ts,
 * bill/vendorAnswer.ts) instead of in a template's expressions. Data only: the answer comes from the
 * template's HTTP Request node. One output per verdict (extractOutputs.ts); each item carries the
 * Build Bill item, its `verdict`, the reason a person decides, and the bill or vendor it names.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { judgeCreated, judgeLookup } from '../../bill/booksAnswer.ts';
import { judgeVendor } from '../../bill/vendorAnswer.ts';
import { judgeOutputCount, judgeOutputIndex } from './extractOutputs.ts';
import { fieldsOf } from '../../jsonObject.ts';
import { itemWith } from '../itemWith.ts';
import { jsonParameterOf } from '../jsonParameters.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Answer To',
		name: 'answerTo',
		type: 'options',
		options: [
			{
				name: 'Find Bill',
				value: 'lookup',
				description:
					"The books' search for this supplier's bill with this number: outputs New, Already Booked and A Person Decides (why in review_reason)",
			},
			{
				name: 'Create Bill',
				value: 'create',
				description:
					"The books' answer to the create (its error output too): outputs Created (the bill asked for), A Person Decides (why in review_reason), Account Refused (the books refused the bill's account: ask for another) and Books Refused (refused otherwise: worth a last try)",
			},
			{
				name: 'Find Vendor',
				value: 'vendor',
				description:
					"QuickBooks' vendor query, or its vendor create's answer: outputs Found (vendor_id), Missing (create it) and A Person Decides (the vendor is in another currency)",
			},
		],
		default: 'lookup',
	},
	{
		displayName: 'Bill',
		name: 'bill',
		type: 'json',
		default: '',
		required: true,
		placeholder: "{{ $('Build Xero bill').item.json }}",
		description: "The item Build Bill's Bill output gave for this invoice",
	},
	{
		displayName: 'Books Answer',
		name: 'booksAnswer',
		type: 'json',
		default: '={{ $json }}',
		description:
			"The HTTP Request node's answer; for QuickBooks every page of the lookup, as a list of its items (e.g. {{ $('Find bill in QuickBooks').all() }})",
	},
	{
		displayName: 'QuickBooks Vendor ID',
		name: 'quickBooksVendorId',
		type: 'string',
		default: '',
		description:
			"QuickBooks only: the vendor's ID, which decides whose bills count; empty: the vendor's display name",
		displayOptions: { hide: { answerTo: ['vendor'] } },
	},
	{
		displayName: 'Account Asked Again',
		name: 'accountAskedAgain',
		type: 'boolean',
		default: false,
		description:
			'Whether the account was already asked again after a refusal: a second refusal then goes to A Person Decides',
		displayOptions: { show: { answerTo: ['create'] } },
	},
	{
		displayName: 'Vendor Create Asked',
		name: 'vendorCreateAsked',
		type: 'boolean',
		default: false,
		description:
			'Whether this execution already asked QuickBooks to create the vendor: a vendor still missing then goes to A Person Decides (an inactive vendor may hold the name), never to Missing again',
		displayOptions: { show: { answerTo: ['vendor'] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['judgeBooksAnswer'] } },
	properties,
);

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const item = context.getInputData()[itemIndex];
	const bill = jsonParameterOf(context, itemIndex, properties, 'bill');
	const given = jsonParameterOf(context, itemIndex, properties, 'booksAnswer');
	// The pages as n8n's items ($('…').all()) or as their JSON.
	const answer = Array.isArray(given)
		? given.map((page: unknown) =>
				page && typeof page === 'object' && 'json' in page
					? (page as { json: unknown }).json
					: page,
			)
		: given;
	const vendorId = String(context.getNodeParameter('quickBooksVendorId', itemIndex, '')).trim();
	const billItem = fieldsOf(bill);
	const answerTo = String(context.getNodeParameter('answerTo', itemIndex, 'lookup'));
	const judged =
		answerTo === 'create'
			? judgeCreated(
					billItem,
					answer,
					vendorId,
					context.getNodeParameter('accountAskedAgain', itemIndex, false) === true,
				)
			: answerTo === 'vendor'
				? judgeVendor(
						billItem,
						answer,
						context.getNodeParameter('vendorCreateAsked', itemIndex, false) === true,
					)
				: judgeLookup(billItem, answer, vendorId);
	const outputs: INodeExecutionData[][] = Array.from(
		{ length: judgeOutputCount(answerTo) },
		() => [],
	);
	outputs[judgeOutputIndex(answerTo, judged.verdict)].push(
		itemWith(item, itemIndex, { ...billItem, ...judged } as unknown as IDataObject),
	);
	return outputs;
}
