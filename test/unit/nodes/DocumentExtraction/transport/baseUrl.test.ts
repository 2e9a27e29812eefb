/**
 * Plain http carries the API key in clear: the Base URL may use it only for this machine
 * (docs/spec-decisions.md#n64). The nodes refuse it before any request; the credential's own
 * authentication refuses it too (test/unit/credentials).
 */
import { describe, expect, it } from 'vitest';

import { plainHttpProblem } from '../../../../../nodes/DocumentExtraction/transport/baseUrl.ts';
import { API_KEY, ServiceMock } from '../../../harness/index.ts';
import { DOCUMENT_ID, useNodeHarness } from '../../../harness/fixtures.ts';

const { harness } = useNodeHarness();

const STATUS = { document_id: DOCUMENT_ID, status: 'processing', confidence: 0.5 };

const statusLookup = { resource: 'document', operation: 'getStatus', documentId: DOCUMENT_ID };

describe('plainHttpProblem', () => {
	it.each([
		'https://api.example.com',
		'https://203.0.113.7:8443/',
		'http://localhost:4010',
		'http://LOCALHOST',
		'http://127.0.0.1:4010',
		'http://127.1.2.3',
		'http://[::1]:4010/',
	])('%s may receive the key', (url) => {
		expect(plainHttpProblem(new URL(url))).toBeNull();
	});

	it.each([
		'http://api.example.com',
		'http://10.0.0.5:4010',
		'http://192.168.1.20',
		'http://[::2]',
		'http://localhost.example.com',
		'http://127.0.0.1.example.com',
		'http://0.0.0.0:4010',
	])('%s is refused, with what to do', (url) => {
		const problem = plainHttpProblem(new URL(url));
		expect(problem).toMatch(/unencrypted/);
		expect(problem).toMatch(/https:\/\//);
		expect(problem).toMatch(/localhost, 127\.0\.0\.1 or \[::1\]/);
	});
});

describe('the nodes', () => {
	it('a plain-http Base URL of another host: refused before any request, saying what to do', async () => {
		const remote = new ServiceMock('http://api.docextract.test');
		remote.on('GET', `/v1/status/${DOCUMENT_ID}`, { status: 200, body: STATUS });
		const result = await harness().run({
			parameters: statusLookup,
			credentials: { baseUrl: 'http://api.docextract.test' },
		});

		const error = result.error();
		expect(error?.message).toMatch(
			/^The Base URL "http:\/\/api\.docextract\.test" would send the API key unencrypted/,
		);
		expect(error?.description).toMatch(/Open the Document Extraction API credential/);
		expect(remote.requests).toEqual([]);
		expect(remote.pending()).toHaveLength(1);
		expect(result.everything()).not.toContain(API_KEY);
	});

	it('plain http to 127.0.0.1 (the sandbox) is used as before', async () => {
		const local = new ServiceMock('http://127.0.0.1:4010');
		local.on('GET', `/v1/status/${DOCUMENT_ID}`, { status: 200, body: STATUS });
		const result = await harness().run({
			parameters: statusLookup,
			credentials: { baseUrl: 'http://127.0.0.1:4010/' },
		});

		expect(result.error()).toBeUndefined();
		expect(result.output()[0].json).toMatchObject(STATUS);
		expect(local.requests).toHaveLength(1);
		expect(local.requests[0].headers['x-api-key']).toBe(API_KEY);
	});
});
