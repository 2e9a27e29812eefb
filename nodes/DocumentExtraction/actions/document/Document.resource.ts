import type { INodeProperties } from 'n8n-workflow';

import * as billAccount from './billAccount.operation.ts';
import * as buildBill from './buildBill.operation.ts';
import * as checkInvoiceDuplicate from './checkInvoiceDuplicate.operation.ts';
import * as extract from './extract/extract.operation.ts';
import * as getStatus from './getStatus.operation.ts';
import * as judgeBooksAnswer from './judgeBooksAnswer.operation.ts';
import * as nextApprovalStep from './nextApprovalStep.operation.ts';
import * as prepareAttachment from './prepareAttachment.operation.ts';
import * as registerDigest from './registerDigest.operation.ts';
import * as registerEntry from './registerEntry.operation.ts';

export {
	billAccount,
	buildBill,
	checkInvoiceDuplicate,
	extract,
	getStatus,
	judgeBooksAnswer,
	nextApprovalStep,
	prepareAttachment,
	registerDigest,
	registerEntry,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Bill Account',
				value: 'billAccount',
				description:
					"Decide the account an invoice's bill is coded to: the supplier's rule, else the account a person chose (which becomes the rule), else your default",
				action: 'Decide the account of a bill',
			},
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
			{
				name: 'Next Approval Step',
				value: 'nextApprovalStep',
				description:
					"Decide from your team's Approval policy table who approves an invoice next and by when, or that it is approved or rejected",
				action: 'Decide the next approval step of an invoice',
			},
			{
				name: 'Prepare Attachment',
				value: 'prepareAttachment',
				description:
					"Prepare a created QuickBooks bill's original for QuickBooks' upload: the file and the Attachable that links it, to post with an HTTP Request node",
				action: 'Prepare the original of a bill for upload',
			},
			{
				name: 'Register Digest',
				value: 'registerDigest',
				description:
					"Turn the invoice register's rows into a digest email: what waits for a person, what failed, what was booked (totals per currency)",
				action: 'Build a digest of the invoice register',
			},
			{
				name: 'Register Entry',
				value: 'registerEntry',
				description:
					"Decide the invoice register's row for an invoice whose execution ends, from whichever outcome reached it: one node for every outcome",
				action: 'Build the register entry of an invoice',
			},
		],
		default: 'extract',
	},
	...extract.description,
	...getStatus.description,
	...checkInvoiceDuplicate.description,
	...buildBill.description,
	...nextApprovalStep.description,
	...registerDigest.description,
	...judgeBooksAnswer.description,
	...registerEntry.description,
	...prepareAttachment.description,
	...billAccount.description,
];
