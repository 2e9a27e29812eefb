import { randomBytes } from 'crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { API_PATHS, WEBHOOK_EVENTS } from '../../constants.ts';
import { credentialSigningSecret } from '../../delivery/signingSecret.ts';
import { httpsUrlProblem } from '../validation.ts';
import { apiRequest } from '../../transport/index.ts';
import { refusals } from '../../refusals.ts';

/**
 * Which secret signs the deliveries to the endpoint (docs/spec-decisions.md#n65). From version 1.3 a
 * new one per registration unless the user chooses otherwise: the credential's signing secret also
 * verifies the trigger's and Wait for Review's deliveries, so an endpoint holding it could sign
 * deliveries they accept.
 */
type SecretSource = 'generate' | 'enter' | 'credential';

const FROM_VERSION_1_3 = { '@version': [{ _cnd: { gte: 1.3 } }] };
const BEFORE_VERSION_1_3 = { '@version': [{ _cnd: { lt: 1.3 } }] };

const CREDENTIAL_SECRET_WARNING =
	"This URL gets your account's Webhook Signing Secret: whoever runs it can sign deliveries that your Document Extraction Triggers and Wait for Review accept. Only for an endpoint you trust as much as this n8n.";

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
		displayName: 'Signing Secret',
		name: 'secretSource',
		type: 'options',
		options: [
			{
				name: 'Enter a Secret',
				value: 'enter',
				description:
					'One you share with the endpoint (saved with the workflow, like any parameter)',
			},
			{
				name: 'Generate a New Secret',
				value: 'generate',
				description:
					'A random secret for this registration only, output once as "secret": give it to the endpoint',
			},
			{
				name: "Use the Credential's Webhook Signing Secret",
				value: 'credential',
				description:
					'Your account signing secret, which also verifies your triggers and Wait for Review',
			},
		],
		default: 'generate',
		description: 'The secret the service signs every delivery to this URL with (HMAC-SHA256)',
		displayOptions: { show: FROM_VERSION_1_3 },
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description:
			'Secret the service signs every delivery with (HMAC-SHA256); the endpoint verifies with it',
		displayOptions: { show: { ...FROM_VERSION_1_3, secretSource: ['enter'] } },
	},
	{
		displayName: CREDENTIAL_SECRET_WARNING,
		name: 'credentialSecretWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...FROM_VERSION_1_3, secretSource: ['credential'] } },
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			"Secret the service signs every delivery with (HMAC-SHA256). Leave empty to use the credential's Webhook Signing Secret (a value typed here is saved with the workflow, like any parameter).",
		displayOptions: { show: BEFORE_VERSION_1_3 },
	},
	{
		displayName: `${CREDENTIAL_SECRET_WARNING} Enter a Secret, or add the operation anew (new nodes generate one per registration).`,
		name: 'credentialSecretWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...BEFORE_VERSION_1_3, secret: [''] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['register'] } },
	properties,
);

function secretSourceOf(context: IExecuteFunctions, itemIndex: number): SecretSource {
	if (context.getNode().typeVersion >= 1.3) {
		return context.getNodeParameter('secretSource', itemIndex) as SecretSource;
	}
	// Versions 1 to 1.2: an empty Secret meant the credential's, as saved workflows expect.
	return context.getNodeParameter('secret', itemIndex, '') ? 'enter' : 'credential';
}

async function registrationSecret(
	context: IExecuteFunctions,
	itemIndex: number,
	source: SecretSource,
): Promise<string> {
	const refusal = refusals(context, itemIndex);
	if (source === 'generate') return randomBytes(32).toString('hex');
	if (source === 'enter') {
		const secret = context.getNodeParameter('secret', itemIndex, '') as string;
		if (secret) return secret;
		throw refusal(
			'Secret is empty',
			'Enter the secret the endpoint verifies with, or choose "Generate a New Secret".',
		);
	}
	const secret = await credentialSigningSecret(context, itemIndex);
	if (secret) return secret;
	if (context.getNode().typeVersion >= 1.3) {
		throw refusal(
			'The credential has no Webhook Signing Secret',
			'Choose "Generate a New Secret" (recommended), or set the Webhook Signing Secret in the Document Extraction API credential.',
		);
	}
	throw refusal(
		'No secret to sign the deliveries with',
		'Enter a Secret here, or set the Webhook Signing Secret in the Document Extraction API credential.',
	);
}

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const url = String(context.getNodeParameter('url', itemIndex) ?? '').trim();
	const events = context.getNodeParameter('events', itemIndex, []) as string[];

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

	const source = secretSourceOf(context, itemIndex);
	const secret = await registrationSecret(context, itemIndex, source);

	const response = await apiRequest(context, {
		method: 'POST',
		path: API_PATHS.registerWebhook,
		body: async () => ({ url, events, secret }),
		operation: 'register the webhook',
		itemIndex,
		idempotent: false,
		retries: 3,
	});
	// Never a secret the user has elsewhere (typed, or the credential's), even if a service echoed it.
	// A generated one exists nowhere else: this output is the only way to hand it to the endpoint.
	const json: IDataObject = {
		webhook_id: response.webhook_id ?? null,
		url: response.url ?? url,
		status: response.status ?? null,
		events,
	};
	if (source === 'generate') json.secret = secret;
	return [[{ json, pairedItem: { item: itemIndex } }]];
}
