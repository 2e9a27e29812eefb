import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { plainHttpProblem } from '../nodes/DocumentExtraction/transport/index.ts';

export class DocumentExtractionApi implements ICredentialType {
	name = 'documentExtractionApi';

	displayName = 'Document Extraction API';

	icon: Icon = {
		light: 'file:../nodes/DocumentExtraction/documentExtraction.svg',
		dark: 'file:../nodes/DocumentExtraction/documentExtraction.dark.svg',
	};

	documentationUrl =
		'https://github.com/document-extraction/n8n-nodes-document-extraction#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Address of the service, without a path: the nodes add /v1/extract, /v1/status/… and /webhooks/register. A trailing slash is fine. Use https://; plain http only for this machine (localhost, 127.0.0.1, [::1]), e.g. the local sandbox: http://127.0.0.1:4010.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Generated in the service dashboard with "Generate API Key" (shown once). Sent only in the X-API-Key header. Use separate keys for development and production.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Secret for the HMAC-SHA256 signature of webhook deliveries. Optional for extraction only.',
		},
		{
			displayName:
				'Paste the Webhook Signing Secret of your account: the trigger and Wait for Review verify every delivery with it. Left empty, only a trigger set to "Every Document on the Account" works (it uses its own secret, derived from the API key); Wait for Review and "Sent by This Workflow" need it.',
			name: 'webhookVerificationNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Tier',
			name: 'tier',
			type: 'options',
			options: [
				{ name: 'Pilot (Free): 10 Requests/min, 10 MB Files', value: 'pilot' },
				{ name: 'Growth: 100 Requests/min, 25 MB Files', value: 'growth' },
				{ name: 'Enterprise: Unlimited Requests, 100 MB Files', value: 'enterprise' },
			],
			default: 'pilot',
			description:
				'Your account tier. The nodes refuse a file above its size limit before uploading it, with a message that says so.',
		},
		{
			displayName: 'Previous Webhook Signing Secret',
			name: 'previousSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'When the signing secret changes: the one it replaces. Deliveries signed with it still verify until "Accept Previous Until (UTC)", so none is lost while the service and n8n switch over.',
		},
		{
			displayName: 'Previous API Key',
			name: 'previousApiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'When the API key changes: the one it replaces, never sent. Until "Accept Previous Until (UTC)", a trigger on "Every Document on the Account" still verifies deliveries through that key\'s registration; publish its workflow again before then to register the new key.',
		},
		{
			displayName: 'Accept Previous Until (UTC)',
			name: 'acceptPreviousUntil',
			type: 'dateTime',
			default: '',
			description:
				"Until when the previous secret and key verify deliveries, in UTC and at most 30 days ahead (e.g. a day after the change). Empty, past or further ahead: a delivery signed with them is refused (401), and n8n's log says what to do.",
		},
	];

	/**
	 * The API key goes only into the X-API-Key header, and never over plain http to another machine
	 * (docs/spec-decisions.md#n64): checked here, where the key is added, for every request the nodes
	 * and the credential test send.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { url, baseURL } = requestOptions;
		const target = URL.canParse(url) ? url : (baseURL ?? '');
		if (!URL.canParse(target)) {
			throw new Error(
				`The Base URL "${String(credentials.baseUrl ?? '')}" is not a valid http(s) address: enter the service address, e.g. https://api.example.com`,
			);
		}
		const problem = plainHttpProblem(new URL(target));
		if (problem) throw new Error(problem);
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, 'X-API-Key': String(credentials.apiKey ?? '') },
		};
	}

	// The spec has no "whoami" operation (docs/spec-decisions.md#d15): a status lookup of an id that cannot exist
	// answers 401 for a wrong key and 404 for an accepted key, so only 401/403 and errors fail the test.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v1/status/doc_credentialtest0000000000',
			method: 'GET',
			ignoreHttpStatusErrors: { ignore: true, except: [401, 403, 429, 500, 502, 503, 504] },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service refused the API key (401). Copy the key again from the dashboard, or generate a new one.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The service refused the API key (403): the key may be revoked.',
				},
			},
		],
	};
}
