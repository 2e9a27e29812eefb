import type { INodeProperties } from 'n8n-workflow';

/** Output mode shared by Extract and the trigger. */
export const outputModeProperty: INodeProperties = {
	displayName: 'Output',
	name: 'outputMode',
	type: 'options',
	options: [
		{
			name: 'Simplified',
			value: 'simplified',
			description:
				'One item per document with flat fields: vendor, invoice_date, invoice_no, currency, subtotal, tax, total, line_items, checks, ready_to_post, not_ready_because',
		},
		{
			name: 'Split Line Items',
			value: 'splitLineItems',
			description: 'One item per line item, each with the invoice header and document ID',
		},
		{
			name: 'Raw',
			value: 'raw',
			description:
				"The service's response, untouched, with currency, ready_to_post and not_ready_because beside it",
		},
	],
	default: 'simplified',
	description: 'Shape of the output items',
};
