import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { API_PATHS, WEBHOOK_EVENTS } from '../../constants.ts';
import { credentialSigningSecret } from '../../delivery/signingSecret.ts';
import { httpsUrlProblem } from '../validation.ts';
import { apiRequest } from '../../transport/index.ts';

const properties: INodeProperties[] = [
	{
		displayName:
			'To start a workflow when a review finishes, the Document Extraction Trigger registers itself: you only need this operation for endpoints outside n8n',
		name: 'registerNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/webhooks/document-extraction',
		description: 'HTTPS address that receives the events (the service delivers only to HTTPS)',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: [
			{
				name: 'Document Rejected',
				value: 'document.rejected',
				description: 'A human reviewer rejected the extraction',
			},
			{
				name: 'Document Verified',
				value: 'document.verified',
				description: 'A human reviewer approved the extraction',
			},
		],
		default: ['document.verified', 'document.rejected'],
		required: true,
		description: 'Events to deliver to the URL',
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			"Secret the service signs every delivery with (HMAC-SHA256). Leave empty to use the credential's Webhook Signing Secret, which keeps it out of the workflow (a value typed here is saved with the workflow, like any parameter).",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['register'] } },
	properties,
);

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const url = String(context.getNodeParameter('url', itemIndex) ?? '').trim();
	const events = context.getNodeParameter('events', itemIndex, []) as string[];
	const secretParameter = context.getNodeParameter('secret', itemIndex, '') as string;

	const urlProblem = httpsUrlProblem(url, 'URL');
	if (urlProblem) throw new NodeOperationError(context.getNode(), urlProblem, { itemIndex });
	if (!Array.isArray(events) || events.length === 0) {
		throw new NodeOperationError(context.getNode(), 'Choose at least one event to register', {
			itemIndex,
			description: `Events: ${WEBHOOK_EVENTS.join(', ')}.`,
		});
	}
	const unknown = events.filter((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
	if (unknown.length > 0) {
		throw new NodeOperationError(context.getNode(), `Unknown event "${unknown[0]}"`, {
			itemIndex,
			description: `The service sends only: ${WEBHOOK_EVENTS.join(', ')}.`,
		});
	}

	const secret = secretParameter || (await credentialSigningSecret(context, itemIndex));
	if (!secret) {
		throw new NodeOperationError(context.getNode(), 'No secret to sign the deliveries with', {
			itemIndex,
			description:
				'Enter a Secret here, or set the Webhook Signing Secret in the Document Extraction API credential.',
		});
	}

	const response = await apiRequest(context, {
		method: 'POST',
		path: API_PATHS.registerWebhook,
		body: async () => ({ url, events, secret }),
		operation: 'register the webhook',
		itemIndex,
		idempotent: false,
		retries: 3,
	});
	// The secret is never part of the output, even if a service echoed it.
	const json = {
		webhook_id: response.webhook_id ?? null,
		url: response.url ?? url,
		status: response.status ?? null,
		events,
	};
	return [[{ json, pairedItem: { item: itemIndex } }]];
}
