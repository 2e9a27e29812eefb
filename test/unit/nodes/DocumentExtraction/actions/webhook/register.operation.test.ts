/**
 * Webhook > Register through n8n's engine. From node version 1.3 the secret is generated per
 * registration unless the user chooses another (docs/spec-decisions.md#n65); versions 1 to 1.2 keep
 * sending the credential's secret when Secret is empty.
 */
import { describe, expect, it } from 'vitest';

import type { INode } from 'n8n-workflow';

import { DocumentExtraction } from '../../../../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { API_KEY, n8nWorkflow, SIGNING_SECRET } from '../../../../harness/index.ts';
import type { RecordedRequest } from '../../../../harness/index.ts';
import { serviceError, useNodeHarness } from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const HOOK_URL = 'https://hooks.example.com/webhooks/document-extraction';
// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fake secret, for tests only
const PARAMETER_SECRET = 'param-secret-7d1f0c9b2e4a';

const registerParameters = (extra: Record<string, unknown> = {}) => ({
	resource: 'webhook',
	operation: 'register',
	url: HOOK_URL,
	...extra,
});

function jsonBody(request: RecordedRequest): unknown {
	expect(String(request.headers['content-type'])).toMatch(/^application\/json/);
	return JSON.parse(request.body.toString('utf8'));
}

describe('Webhook > Register, versions 1 to 1.2', () => {
	it("with Secret empty: POSTs url, events and the credential's signing secret as JSON; the output has no secret", async () => {
		service().on('POST', '/webhooks/register', {
			status: 200,
			body: { webhook_id: 'wh_0123456789abcdefghij', url: HOOK_URL, status: 'active' },
		});
		const result = await harness().run({ parameters: registerParameters() });

		expect(result.error()).toBeUndefined();
		expect(result.output()).toEqual([
			{
				json: {
					webhook_id: 'wh_0123456789abcdefghij',
					url: HOOK_URL,
					status: 'active',
					events: ['document.verified', 'document.rejected'],
				},
				pairedItem: { item: 0 },
			},
		]);
		const [request] = service().requests;
		expect(request.path).toBe('/webhooks/register');
		expect(request.headers['x-api-key']).toBe(API_KEY);
		expect(jsonBody(request)).toEqual({
			url: HOOK_URL,
			events: ['document.verified', 'document.rejected'],
			secret: SIGNING_SECRET,
		});
		expect(request.body.includes(API_KEY)).toBe(false);
		expect(JSON.stringify(result.run.data)).not.toContain(SIGNING_SECRET);
	});

	it('the Secret parameter wins over the credential, and an echoed secret is not output', async () => {
		service().on('POST', '/webhooks/register', {
			status: 200,
			body: {
				webhook_id: 'wh_x',
				url: HOOK_URL,
				status: 'active',
				secret: PARAMETER_SECRET,
				events: ['document.verified'],
			},
		});
		const result = await harness().run({
			parameters: registerParameters({ events: ['document.verified'], secret: PARAMETER_SECRET }),
		});

		expect(jsonBody(service().requests[0])).toEqual({
			url: HOOK_URL,
			events: ['document.verified'],
			secret: PARAMETER_SECRET,
		});
		expect(result.output()[0].json).toEqual({
			webhook_id: 'wh_x',
			url: HOOK_URL,
			status: 'active',
			events: ['document.verified'],
		});
		expect(JSON.stringify(result.output())).not.toContain(PARAMETER_SECRET);
		expect(JSON.stringify(result.output())).not.toContain(SIGNING_SECRET);
	});

	it.each([
		['http://hooks.example.com/x', /^URL must use https:\/\//],
		['={{ $json.url }}', /^URL is empty/],
		['hooks.example.com/x', /^URL "hooks\.example\.com\/x" is not a valid URL/],
	])('refuses the URL %j before any request', async (url, message) => {
		service().on('POST', '/webhooks/register', { status: 200, body: { webhook_id: 'wh_x' } });
		const result = await harness().run({
			parameters: registerParameters({ url }),
			items: [{ json: { url: '' } }],
		});

		expect(result.error()?.message).toMatch(message);
		expect(service().requests).toEqual([]);
		expect(service().pending()).toHaveLength(1);
	});

	it('an expression for the URL that resolves to nothing is refused as empty, before any request', async () => {
		service().on('POST', '/webhooks/register', { status: 200, body: { webhook_id: 'wh_x' } });
		const result = await harness().run({
			parameters: registerParameters({ url: '={{ $json.url }}' }),
			items: [{ json: {} }],
		});

		// Regression guard: register.operation.ts calls .trim() on the parameter as it comes, so an
		// undefined value fails with "Cannot read properties of undefined (reading 'trim')".
		expect(result.error()?.message).toMatch(/^URL is empty/);
		expect(service().requests).toEqual([]);
	});

	it('n8n itself refuses to run with the required URL or events left empty', async () => {
		service().on('POST', '/webhooks/register', { status: 200, body: { webhook_id: 'wh_x' } });
		await expect(harness().run({ parameters: registerParameters({ url: '' }) })).rejects.toThrow(
			/node has issues/,
		);
		await expect(harness().run({ parameters: registerParameters({ events: [] }) })).rejects.toThrow(
			/node has issues/,
		);
		expect(service().requests).toEqual([]);
	});

	it('refuses an empty event list (from an expression) before any request', async () => {
		service().on('POST', '/webhooks/register', { status: 200, body: { webhook_id: 'wh_x' } });
		const result = await harness().run({ parameters: registerParameters({ events: '={{ [] }}' }) });

		expect(result.error()?.message).toBe('Choose at least one event to register');
		expect(result.error()?.description).toMatch(/document\.verified, document\.rejected/);
		expect(service().requests).toEqual([]);
	});

	it('refuses when neither the Secret nor the credential has a secret, before any request', async () => {
		service().on('POST', '/webhooks/register', { status: 200, body: { webhook_id: 'wh_x' } });
		const result = await harness().run({
			parameters: registerParameters(),
			credentials: { signingSecret: '' },
		});

		expect(result.error()?.message).toBe('No secret to sign the deliveries with');
		expect(service().requests).toEqual([]);
	});

	it('a 500 on registration is not repeated (a second registration could be created)', async () => {
		service().on(
			'POST',
			'/webhooks/register',
			{
				status: 500,
				body: serviceError('server_error', 'Internal error'),
				headers: { 'Retry-After': '0' },
			},
			{ status: 200, body: { webhook_id: 'wh_x' } },
		);
		const result = await harness().run({ parameters: registerParameters() });

		expect(result.error()?.message).toMatch(
			/The service had an error \(500\) while trying to register the webhook/,
		);
		expect(service().requests).toHaveLength(1);
		expect(service().pending()).toHaveLength(1);
	});

	it("a 400 (e.g. an event the service does not know) shows the service's message", async () => {
		service().on('POST', '/webhooks/register', {
			status: 400,
			body: serviceError(
				'invalid_events',
				'events must be a non-empty subset of document.verified, document.rejected',
			),
		});
		const result = await harness().run({ parameters: registerParameters() });
		expect(result.error()?.description).toBe(
			'The service said: events must be a non-empty subset of document.verified, document.rejected',
		);
	});
});

describe('Webhook > Register, version 1.3: a secret of its own for every endpoint', () => {
	const registered = { webhook_id: 'wh_0123456789abcdefghij', url: HOOK_URL, status: 'active' };

	const run = async (extra: Record<string, unknown> = {}, credentials = {}) =>
		await harness().run({
			parameters: registerParameters(extra),
			credentials,
			typeVersion: 1.3,
		});

	it("by default: a new random secret is sent, output once for the receiver, never the credential's", async () => {
		service().on('POST', '/webhooks/register', { status: 200, body: registered });
		service().on('POST', '/webhooks/register', { status: 200, body: registered });
		const first = await run();
		const second = await run();

		const sent = service().requests.map((request) => jsonBody(request) as { secret: string });
		expect(sent[0].secret).toMatch(/^[0-9a-f]{64}$/);
		expect(sent[1].secret).toMatch(/^[0-9a-f]{64}$/);
		expect(sent[1].secret).not.toBe(sent[0].secret);
		expect(first.output()).toEqual([
			{
				json: {
					webhook_id: 'wh_0123456789abcdefghij',
					url: HOOK_URL,
					status: 'active',
					events: ['document.verified', 'document.rejected'],
					secret: sent[0].secret,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(second.output()[0].json.secret).toBe(sent[1].secret);
		for (const request of service().requests) {
			expect(request.body.includes(SIGNING_SECRET)).toBe(false);
		}
		expect(first.everything()).not.toContain(SIGNING_SECRET);
	});

	it('works with a credential that has no signing secret', async () => {
		service().on('POST', '/webhooks/register', { status: 200, body: registered });
		const result = await run({}, { signingSecret: '' });
		expect(result.error()).toBeUndefined();
		expect(result.output()[0].json.secret).toMatch(/^[0-9a-f]{64}$/);
	});

	it('Enter a Secret: that secret is sent and not output', async () => {
		service().on('POST', '/webhooks/register', { status: 200, body: registered });
		const result = await run({ secretSource: 'enter', secret: PARAMETER_SECRET });

		expect((jsonBody(service().requests[0]) as { secret: string }).secret).toBe(PARAMETER_SECRET);
		expect(result.output()[0].json).not.toHaveProperty('secret');
		expect(result.everything()).not.toContain(PARAMETER_SECRET);
	});

	it('Enter a Secret left empty: n8n refuses to run the node', async () => {
		await expect(run({ secretSource: 'enter', secret: '' })).rejects.toThrow(/node has issues/);
		expect(service().requests).toEqual([]);
	});

	it("the credential's signing secret only when chosen, and then not output", async () => {
		service().on('POST', '/webhooks/register', { status: 200, body: registered });
		const result = await run({ secretSource: 'credential' });

		expect((jsonBody(service().requests[0]) as { secret: string }).secret).toBe(SIGNING_SECRET);
		expect(result.output()[0].json).not.toHaveProperty('secret');
		expect(result.everything()).not.toContain(SIGNING_SECRET);
	});

	it("the credential's, chosen, when the credential has none: refused before any request", async () => {
		const result = await run({ secretSource: 'credential' }, { signingSecret: '' });
		expect(result.error()?.message).toBe('The credential has no Webhook Signing Secret');
		expect(service().requests).toEqual([]);
	});

	it('a Secret left in the parameters is not sent unless Enter a Secret is chosen', async () => {
		// What the panel shows is what is sent: the hidden field does not count.
		service().on('POST', '/webhooks/register', { status: 200, body: registered });
		await run({ secret: PARAMETER_SECRET });
		const sent = (jsonBody(service().requests[0]) as { secret: string }).secret;
		expect(sent).not.toBe(PARAMETER_SECRET);
		expect(sent).toMatch(/^[0-9a-f]{64}$/);
	});
});

describe('Webhook > Register, the panel', () => {
	const { description } = new DocumentExtraction();
	const shown = (typeVersion: number, parameters: Record<string, unknown>) =>
		description.properties
			.filter((property) =>
				n8nWorkflow.NodeHelpers.displayParameter(
					{ resource: 'webhook', operation: 'register', ...parameters },
					property,
					{ typeVersion } as INode,
					description,
				),
			)
			.map((property) => property.name);

	it("1.3 warns where the credential's secret is chosen, and asks for a secret only when entering one", () => {
		const byDefault = shown(1.3, {});
		expect(byDefault).toContain('secretSource');
		expect(byDefault).not.toContain('secret');
		expect(byDefault).not.toContain('credentialSecretWarning');
		expect(shown(1.3, { secretSource: 'enter' })).toContain('secret');
		expect(shown(1.3, { secretSource: 'credential' })).toContain('credentialSecretWarning');
		expect(shown(1.3, { secretSource: 'credential' })).not.toContain('secret');
	});

	it("1.2 with Secret empty warns that the credential's secret is sent", () => {
		expect(shown(1.2, { secret: '' })).toContain('credentialSecretWarning');
		expect(shown(1.2, { secret: PARAMETER_SECRET })).not.toContain('credentialSecretWarning');
		expect(shown(1.2, { secret: '' })).not.toContain('secretSource');
	});
});
