/** Webhook > Register through n8n's engine. */
import { describe, expect, it } from 'vitest';

import { API_KEY, SIGNING_SECRET } from '../../../../harness/index.ts';
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

describe('Webhook > Register', () => {
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
