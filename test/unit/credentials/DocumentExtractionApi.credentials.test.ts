/**
 * Which operations ask for the Document Extraction API credential, as n8n decides it from the node
 * description: the editor shows the credential (and flags it when missing) only where its
 * displayOptions match, and n8n's permission checks use the same rule (getActiveCredentialTypes).
 * Check Invoice Duplicate calls no API, so it needs none; every other operation does.
 */
import type { IHttpRequestOptions, INode, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtractionApi } from '../../../credentials/DocumentExtractionApi.credentials.ts';
import { DocumentExtraction } from '../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import {
	ACTION_NODE_TYPE,
	API_KEY,
	CREDENTIAL_TYPE,
	n8nWorkflow,
	NODE_NAME,
} from '../harness/index.ts';

const { description } = new DocumentExtraction();

function nodeWith(parameters: INodeParameters): INode {
	return {
		id: 'node',
		name: NODE_NAME,
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

/** The credential types n8n counts as used by a node with these parameters (defaults filled in as the editor does). */
function activeCredentials(parameters: INodeParameters): string[] {
	const node = nodeWith(parameters);
	node.parameters =
		n8nWorkflow.NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	return [
		...(n8nWorkflow.NodeHelpers.getActiveCredentialTypes(node, description) ?? ['(undetermined)']),
	];
}

describe('the credential, per operation', () => {
	it('Check Invoice Duplicate needs none', () => {
		expect(activeCredentials({ resource: 'document', operation: 'checkInvoiceDuplicate' })).toEqual(
			[],
		);
	});

	it.each([
		['a new node (Extract by default)', {}],
		['Extract', { resource: 'document', operation: 'extract' }],
		['Get Status', { resource: 'document', operation: 'getStatus' }],
		['Register Webhook', { resource: 'webhook', operation: 'register' }],
	] as Array<[string, INodeParameters]>)(
		'%s needs the Document Extraction API credential',
		(_operation, parameters) => {
			expect(activeCredentials(parameters)).toEqual([CREDENTIAL_TYPE]);
		},
	);
});

// Plain http to another machine would carry the key in clear (docs/spec-decisions.md#n64).
describe("the credential's authentication (also what its Test button sends)", () => {
	const credential = new DocumentExtractionApi();
	const authenticate = credential.authenticate as (
		credentials: Record<string, unknown>,
		options: IHttpRequestOptions,
	) => Promise<IHttpRequestOptions>;

	it('adds the key for https and for loopback http', async () => {
		for (const baseURL of ['https://api.example.com', 'http://127.0.0.1:4010']) {
			const options = await authenticate(
				{ baseUrl: baseURL, apiKey: API_KEY },
				{ baseURL, url: '/v1/status/doc_credentialtest0000000000' },
			);
			expect(options.headers?.['X-API-Key']).toBe(API_KEY);
		}
	});

	it('refuses to add the key to a plain-http request to another host', async () => {
		await expect(
			authenticate(
				{ baseUrl: 'http://api.example.com', apiKey: API_KEY },
				{ baseURL: 'http://api.example.com', url: '/v1/status/doc_credentialtest0000000000' },
			),
		).rejects.toThrow(/would send the API key unencrypted/);
		// The request's own address counts, whatever the credential's Base URL says.
		await expect(
			authenticate(
				{ baseUrl: 'https://api.example.com', apiKey: API_KEY },
				{ url: 'http://api.example.com/v1/extract' },
			),
		).rejects.toThrow(/would send the API key unencrypted/);
	});
});

// N68: a new signing secret or API key loses no delivery: the previous one is kept beside it, and
// accepted until the time the person sets.
describe('the previous signing secret and API key, accepted until a set time', () => {
	const { properties } = new DocumentExtractionApi();
	const property = (name: string) => properties.find((candidate) => candidate.name === name);

	it('are optional password fields, the time an optional date and time', () => {
		for (const name of ['previousSigningSecret', 'previousApiKey'])
			expect(property(name), name).toMatchObject({
				type: 'string',
				typeOptions: { password: true },
				default: '',
			});
		expect(property('acceptPreviousUntil')).toMatchObject({
			displayName: 'Accept Previous Until (UTC)',
			type: 'dateTime',
			default: '',
		});
		for (const name of ['previousSigningSecret', 'previousApiKey', 'acceptPreviousUntil'])
			expect(property(name)?.required, name).toBeFalsy();
	});

	it('their descriptions state the window: until the time set, in UTC, at most 30 days ahead; empty, past or further: refused', () => {
		expect(property('previousSigningSecret')?.description).toMatch(/until "Accept Previous Until/);
		expect(property('previousApiKey')?.description).toMatch(/until "Accept Previous Until/i);
		expect(property('previousApiKey')?.description).toMatch(/never sent/);
		expect(property('acceptPreviousUntil')?.description).toMatch(/UTC/);
		expect(property('acceptPreviousUntil')?.description).toMatch(/at most 30 days ahead/);
		expect(property('acceptPreviousUntil')?.description).toMatch(/Empty, past or further ahead/);
	});

	it('the previous API key is never sent: the header carries the current one', async () => {
		const authenticate = new DocumentExtractionApi().authenticate as (
			credentials: Record<string, unknown>,
			options: IHttpRequestOptions,
		) => Promise<IHttpRequestOptions>;
		const options = await authenticate(
			{ baseUrl: 'https://api.example.com', apiKey: API_KEY, previousApiKey: 'old-key' },
			{ baseURL: 'https://api.example.com', url: '/v1/extract' },
		);
		expect(options.headers).toEqual({ 'X-API-Key': API_KEY });
	});
});
