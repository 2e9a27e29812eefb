/**
 * Bill Account (docs/spec-decisions.md#n113): the account an invoice's bill is coded to, and whether
 * it becomes the supplier's rule, decided in the package (bill/billAccount.ts) where each template
 * had a Set of expression chains and an If. Data only: the rule, the books' accounts and the
 * person's choice come from the template's nodes.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { billAccount } from '../../bill/billAccount.ts';
import { fileParameter, originalFileProperty } from '../fileParameter.ts';
import { itemWith } from '../itemWith.ts';
import { objectParameterOf } from '../jsonParameters.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Books',
		name: 'books',
		type: 'options',
		options: [
			{ name: 'QuickBooks', value: 'quickBooks' },
			{ name: 'Xero', value: 'xero' },
		],
		default: 'xero',
		description:
			'Xero: the account code and tax type go on as bill_account_code and bill_tax_type. QuickBooks: the account ID as bill_expense_account_id.',
	},
	{
		displayName: 'Invoice',
		name: 'invoice',
		type: 'json',
		default: '',
		placeholder: "={{ $('Next approval step').last().json }}",
		description:
			"The invoice the bill is for, when the item reaching this node is not it (a form's answer); empty: the item",
	},
	{
		displayName: 'Supplier Rule',
		name: 'rule',
		type: 'json',
		default: '',
		placeholder: "={{ $('Supplier rule').first().json }}",
		description:
			"The supplier's rule row (account_code and tax_type for Xero, expense_account_id for QuickBooks); empty when it has none",
	},
	{
		displayName: 'Rule Refused',
		name: 'ruleRefused',
		type: 'boolean',
		default: false,
		description: "Whether the books refused the rule's account: it is then not used",
	},
	{
		displayName: 'Books Accounts',
		name: 'accounts',
		type: 'json',
		default: '',
		placeholder:
			"={{ $('Accounts in Xero').isExecuted ? $('Accounts in Xero').first().json : {} }}",
		description:
			"The books' answer listing the accounts a person chose from; the chosen name is looked up in it",
	},
	{
		displayName: 'Chosen Account',
		name: 'chosen',
		type: 'string',
		default: '',
		placeholder: '={{ $json.data?.Account }}',
		description: "The account's name as a person chose it in the form; empty when nobody chose",
	},
	{
		displayName: 'Default Account',
		name: 'defaultAccount',
		type: 'string',
		default: '',
		description:
			'The account used when the supplier has no rule and nobody chose one (Xero: code; QuickBooks: ID)',
	},
	{
		displayName: 'Default Tax Type',
		name: 'defaultTaxType',
		type: 'string',
		default: '',
		displayOptions: { show: { books: ['xero'] } },
		description: 'Xero: the tax type used when neither the rule nor the chosen account gives one',
	},
	originalFileProperty('it goes on the item as data, for Build Bill'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['billAccount'] } },
	properties,
);

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const item = context.getInputData()[itemIndex];
	const books =
		context.getNodeParameter('books', itemIndex, 'xero') === 'quickBooks' ? 'quickBooks' : 'xero';
	const invoice = objectParameterOf(context, itemIndex, properties, 'invoice');
	const file = fileParameter(objectParameterOf(context, itemIndex, properties, 'originalFile'));
	const decided = billAccount({
		books,
		rule: objectParameterOf(context, itemIndex, properties, 'rule'),
		ruleRefused: context.getNodeParameter('ruleRefused', itemIndex, false) === true,
		accounts: objectParameterOf(context, itemIndex, properties, 'accounts'),
		chosen: String(context.getNodeParameter('chosen', itemIndex, '') ?? ''),
		defaultAccount: String(context.getNodeParameter('defaultAccount', itemIndex, '') ?? ''),
		defaultTaxType: String(context.getNodeParameter('defaultTaxType', itemIndex, '') ?? ''),
	});
	const json: IDataObject = {
		...(Object.keys(invoice).length ? invoice : item.json),
		...(books === 'xero'
			? { bill_account_code: decided.account, bill_tax_type: decided.taxType }
			: { bill_expense_account_id: decided.account }),
		learned_rule: decided.learned,
	};
	const out = itemWith(item, itemIndex, json, file);
	return [[out], decided.learned ? [out] : []];
}
