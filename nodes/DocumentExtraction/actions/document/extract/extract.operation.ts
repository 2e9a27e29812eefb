import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputModeProperty } from '../../../invoice/outputMode.description.ts';
import { holdNotReadyProperties } from '../holdNotReady.description.ts';
import { DEFAULT_TIMEOUT_MINUTES } from '../waitForReview.ts';
import { DEFAULT_RATE_LIMIT_WAIT_MINUTES } from './settings.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'data',
		hint: 'The binary field holding the document, or a pattern like attachment_* for every file of an email or form',
		description:
			'Binary field of the input item that holds the file, e.g. "data" from Read/Write Files from Disk or an HTTP Request download. With a * pattern (attachment_* for n8n\'s email triggers, * for every file), each matching file is its own extraction and output item; files that cannot be invoices (a logo, an invite) go to an extra "Skipped Files" output.',
	},
	outputModeProperty,
	{
		displayName: 'Wait for Review',
		name: 'waitForReview',
		type: 'boolean',
		default: false,
		description:
			'Whether to pause the workflow until a human reviewer has finished a document that needs review, then continue with the reviewed data. Confident documents pass straight through. With On Error "Continue (using regular output)", a document that fails comes out with its error on Needs Review (on Rejected when waiting), never on Verified.',
	},
	{
		displayName:
			'The execution waits, holding nothing, for this document\'s review and continues on <b>Verified</b>, <b>Rejected</b> or <b>Timed Out</b>. One document per execution; the credential needs the Webhook Signing Secret (<a href="https://github.com/document-extraction/n8n-nodes-document-extraction/blob/main/docs/operations.md#document--extract" target="_blank">more</a>).',
		name: 'waitForReviewNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { waitForReview: [true] } },
	},
	{
		displayName: 'Timeout (Minutes)',
		name: 'reviewTimeout',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_TIMEOUT_MINUTES,
		displayOptions: { show: { waitForReview: [true] } },
		hint: 'Review usually takes 1 to 5 minutes',
		description: 'How long to wait for the review result before continuing on the Timed Out output',
	},
	...holdNotReadyProperties(
		'Without Wait for Review they go to Needs Review; with it, to an extra "Not Ready to Post" output.',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Detect Same Invoice',
				name: 'detectSameInvoice',
				type: 'boolean',
				default: false,
				displayOptions: { show: { '/waitForReview': [false] } },
				description:
					'Whether to send an invoice this workflow already extracted from another file (same vendor and invoice number, ignoring case, accents, punctuation and legal forms like GmbH or Ltd; same total) to an extra "Possible Duplicate" output with what matched, so it is not paid twice. The workflow remembers its last 100,000 files and invoices.',
			},
			{
				displayName: 'Parallel Uploads',
				name: 'parallelUploads',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 256 },
				default: 8,
				displayOptions: { show: { '/waitForReview': [false] } },
				description:
					"How many of the node's documents are uploaded at once, paced to the tier's requests per minute. Without this option: 1 on Pilot, 8 on Growth, 256 on Enterprise (within 64 MiB of files held in memory; a streamed file holds 512 KiB). 1 uploads one after the other.",
			},
			{
				displayName: 'Rate Limit Wait (Minutes)',
				name: 'rateLimitWaitMinutes',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 1440, numberPrecision: 0 },
				default: DEFAULT_RATE_LIMIT_WAIT_MINUTES,
				description:
					"How long to keep retrying an upload refused by the tier's requests-per-minute limit (429, which creates nothing), from its first attempt; 0 fails at the first 429",
			},
			{
				displayName: "Send Review Results to This Workflow's Trigger",
				name: 'reviewResultsToTrigger',
				type: 'boolean',
				default: true,
				displayOptions: { show: { '/waitForReview': [false] } },
				description:
					'Whether a document\'s review result also goes to the Document Extraction Trigger of this workflow, so that a trigger set to "Sent by This Workflow" starts for it (on by default from node version 1.2). Ignored when Webhook URL is set.',
			},
			{
				displayName: 'Skip Files Already Submitted',
				name: 'skipDuplicates',
				type: 'boolean',
				default: false,
				description:
					'Whether to skip a file whose content this workflow already submitted (same SHA-256) and output it on an extra "Already Submitted" output instead of paying for a second extraction. Files of a failed run are not remembered, so a retry extracts them. The workflow remembers its last 100,000 files and invoices.',
			},
			{
				displayName: 'Webhook URL',
				name: 'webhookUrl',
				type: 'string',
				default: '',
				displayOptions: { show: { '/waitForReview': [false] } },
				placeholder: 'https://example.com/webhook/invoices',
				description:
					'HTTPS address that receives the result when a human reviewer finishes this document (only documents that need review are delivered later)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['extract'] } },
	properties,
);

export { extractInParallel, parallelUploadsOf } from './parallelUploads.ts';
