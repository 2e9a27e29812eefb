import type { INodeProperties } from 'n8n-workflow';

import * as buildBill from './buildBill.operation.ts';
import * as checkInvoiceDuplicate from './checkInvoiceDuplicate.operation.ts';
import * as extract from './extract/extract.operation.ts';
import * as getStatus from './getStatus.operation.ts';
import * as judgeBooksAnswer from './judgeBooksAnswer.operation.ts';

export { buildBill, checkInvoiceDuplicate, extract, getStatus, judgeBooksAnswer };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Build Bill',
				value: 'buildBill',
				description:
					'Turn a ready invoice into the exact request body of a Xero or QuickBooks bill, to post with an HTTP Request node',
				// Brand names as their owners spell them (the rule would lowercase them, as in n8n's own nodes' GitHub).
				// eslint-disable-next-line n8n-nodes-base/node-param-operation-option-action-miscased
				action: 'Build a bill for Xero or QuickBooks',
			},
			{
				name: 'Check Invoice Duplicate',
				value: 'checkInvoiceDuplicate',
				description:
					'Check verified invoices (from the trigger or after Wait for Review) against those this workflow already saw, so no invoice is paid twice',
				action: 'Check whether an invoice is a duplicate',
			},
			{
				name: 'Extract',
				value: 'extract',
				description:
					'Upload an invoice file and get its structured fields (verified at once above 95% confidence, otherwise sent to human review)',
				action: 'Extract an invoice',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Get the processing or review status of a document by its ID',
				action: 'Get the status of a document',
			},
			{
				name: 'Judge Books Answer',
				value: 'judgeBooksAnswer',
				description:
					"Judge the books' answer to a bill's lookup or create: new, already booked, created, or a person decides and why",
				action: 'Judge the books answer for a bill',
			},
		],
		default: 'extract',
	},
	...extract.description,
	...getStatus.description,
	...checkInvoiceDuplicate.description,
	...buildBill.description,
	...judgeBooksAnswer.description,
];
