/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// The credential's "Test" button, as n8n runs it (its own credentials tester), against the sandbox:
// the spec has no "who am I" call, so the test looks up a document that cannot exist (D15):
// 404 = the key was accepted, 401 = the key is wrong.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { sandboxAccount } from '../../local-n8n/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

// Each test makes the credential it tests.
const fixture = useN8nAndSandbox({ tier: null });

interface TestResult {
	status: 'OK' | 'Error';
	message: string;
}

async function testCredential(data: {
	baseUrl: string;
	apiKey: string;
	tier: string;
}): Promise<TestResult> {
	const credential = await fixture.stack.client.createDocumentExtractionCredential(
		`credential test ${Date.now()}`,
		{ ...data, tier: data.tier as 'pilot' },
	);
	return await fixture.stack.client.call<TestResult>('POST', '/rest/credentials/test', {
		credentials: {
			id: credential.id,
			name: credential.name,
			type: 'documentExtractionApi',
			data: { ...data, signingSecret: '' },
		},
	});
}

describe('Credential test in a real n8n', () => {
	it('accepts a valid key (the service answers 404 for the probe document)', async () => {
		const account = sandboxAccount(fixture.sandbox, 'growth');
		const result = await testCredential({
			baseUrl: `${fixture.sandbox.url}/`,
			apiKey: account!.apiKey,
			tier: 'growth',
		});
		expect(result).toMatchObject({ status: 'OK' });
	});

	it('says the key was refused when the service answers 401', async () => {
		const result = await testCredential({
			baseUrl: fixture.sandbox.url,
			apiKey: 'sk_not_a_real_key',
			tier: 'pilot',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the API key \(401\)/);
		expect(result.message).not.toContain('sk_not_a_real_key');
	});

	it('fails when nothing answers at the base URL', async () => {
		const result = await testCredential({
			baseUrl: 'http://127.0.0.1:9',
			apiKey: 'sk_sandbox_pilot',
			tier: 'pilot',
		});
		expect(result.status).toBe('Error');
	});

	it('refuses plain http to another machine without sending the key, and says to use https', async () => {
		// A listener on this machine's own network address (not loopback): anything n8n sent would
		// cross the network there.
		const address = Object.values(networkInterfaces())
			.flat()
			.find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
		expect(address, 'a non-loopback IPv4 address on this machine').toBeDefined();
		const received: string[] = [];
		const listener = createServer((request, response) => {
			received.push(`${request.method} ${request.url} ${JSON.stringify(request.headers)}`);
			response.writeHead(404).end();
		});
		await new Promise<void>((resolve) => listener.listen(0, address, resolve));
		try {
			const { port } = listener.address() as AddressInfo;
			const result = await testCredential({
				baseUrl: `http://${address}:${port}`,
				apiKey: 'sk_sandbox_pilot',
				tier: 'pilot',
			});
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/would send the API key unencrypted/);
			expect(result.message).toMatch(/https:\/\//);
			expect(received).toEqual([]);
		} finally {
			await new Promise((resolve) => listener.close(resolve));
		}
	});
});
