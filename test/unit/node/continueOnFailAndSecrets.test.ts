/**
 * "On Error: Continue" per item, and the secrets: neither the API key nor the signing secret may
 * show up in anything a run leaves behind (output items, errors with their description, cause and
 * stack, the execution's logs).
 */
import { describe, expect, it } from 'vitest';

import type { MockReply, RunOptions, RunResult } from '../harness';
import { API_KEY, SIGNING_SECRET } from '../harness';
import {
	DOCUMENT_ID,
	extractParameters,
	itemWithFile,
	NEEDS_REVIEW,
	pdfBytes,
	serviceError,
	useNodeHarness,
	VERIFIED,
} from './fixtures';

const { harness, service } = useNodeHarness();

const threeFiles = () => [
	itemWithFile(pdfBytes(1000, 1), 'one.pdf'),
	itemWithFile(pdfBytes(1000, 2), 'two.pdf'),
	itemWithFile(pdfBytes(1000, 3), 'three.pdf'),
];

describe('Continue On Fail', () => {
	it('3 items, the 2nd refused by the service: 3 output items paired 0, 1, 2, the error on item 1 only', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_one' } },
			{ status: 400, body: serviceError('invalid_file', 'The file could not be parsed as PDF') },
			{ status: 200, body: { ...NEEDS_REVIEW, document_id: 'doc_three' } },
		);
		const result = await harness().run({ parameters: extractParameters(), items: threeFiles(), continueOnFail: true });

		expect(result.error()).toBeUndefined();
		expect(result.run.status).toBe('success');
		// The verified document on Verified; the failed item and the document in review on Needs Review
		// (a failure needs a person, it is never taken for verified): every input item accounted for.
		const [verified, needsReview] = result.outputs();
		expect(verified.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(needsReview.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(verified[0].json).toMatchObject({ document_id: 'doc_one', status: 'verified' });
		expect(verified[0].json).not.toHaveProperty('error');
		expect(needsReview[0].json).toEqual({
			error: expect.stringMatching(/refused the request as invalid \(400\)/),
			error_description: 'The service said: The file could not be parsed as PDF',
			http_code: 400,
		});
		expect(needsReview[1].json).toMatchObject({ document_id: 'doc_three', status: 'needs_review' });
		expect(needsReview[1].json).not.toHaveProperty('error');
		expect(service().requests).toHaveLength(3);
	});

	it('3 items, the 2nd refused before upload (unsupported type): only 2 uploads, the error on item 1 only', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_one' } },
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_three' } },
		);
		const items = threeFiles();
		items[1] = itemWithFile(Buffer.from('hello'), 'notes.txt', 'text/plain');
		const result = await harness().run({ parameters: extractParameters(), items, continueOnFail: true });

		const [verified, needsReview] = result.outputs();
		expect(verified.map((item) => [item.pairedItem, item.json.document_id ?? null, item.json.error ?? null])).toEqual([
			[{ item: 0 }, 'doc_one', null],
			[{ item: 2 }, 'doc_three', null],
		]);
		expect(needsReview.map((item) => [item.pairedItem, item.json.error ?? null])).toEqual([
			[{ item: 1 }, 'The file "notes.txt" (text/plain) is not a type the service reads'],
		]);
		expect(needsReview[0].json).not.toHaveProperty('http_code');
		expect(service().requests).toHaveLength(2);
	});

	it('a broken connection on an item gives an error item without a bogus http_code', async () => {
		service().on('POST', '/v1/extract', { error: { code: 'ECONNRESET', message: 'socket hang up' } });
		const result = await harness().run({ parameters: extractParameters(), items: [itemWithFile(pdfBytes())], continueOnFail: true });

		const [verified, [item]] = result.outputs();
		expect(verified).toEqual([]);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json.error_description).toMatch(/not sent again/);
		// Regression guard: the transport builds NodeApiError from { code }, which n8n reads as the HTTP
		// code "ECONNRESET"; the router then outputs Number("ECONNRESET"), i.e. NaN.
		expect(item.json.http_code === undefined || Number.isInteger(item.json.http_code)).toBe(true);
	});

	it('Continue (using error output): the failed item on n8n\'s error output, paired, nothing on Verified or Needs Review', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_one' } },
			{ status: 400, body: serviceError('invalid_file', 'The file could not be parsed as PDF') },
		);
		const result = await harness().run({
			parameters: extractParameters(),
			items: threeFiles().slice(0, 2),
			onError: 'continueErrorOutput',
		});

		const [verified, needsReview, errorOutput] = result.outputs();
		expect(verified.map((item) => item.json.document_id)).toEqual(['doc_one']);
		expect(needsReview).toEqual([]);
		// n8n shapes the error output's items itself: the message in json.error, the whole error beside it.
		expect(errorOutput.map((item) => [item.pairedItem, item.json.error, item.error?.description])).toEqual([
			[{ item: 1 }, expect.stringMatching(/refused the request as invalid \(400\)/), 'The service said: The file could not be parsed as PDF'],
		]);
	});

	it('other operations keep their one output for a failed item', async () => {
		service().on('GET', `/v1/status/${DOCUMENT_ID}`, { status: 404, body: serviceError('not_found', 'No such document') });
		const result = await harness().run({
			parameters: { resource: 'document', operation: 'getStatus', documentId: DOCUMENT_ID },
			continueOnFail: true,
		});

		const outputs = result.outputs();
		expect(outputs).toHaveLength(1);
		expect(outputs[0].map((item) => [item.pairedItem, item.json.http_code])).toEqual([[{ item: 0 }, 404]]);
	});

	it('without Continue On Fail the node stops at the failing item: no output, later items not sent', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: VERIFIED },
			{ status: 400, body: serviceError('invalid_file', 'Broken file') },
			{ status: 200, body: VERIFIED },
		);
		const result = await harness().run({ parameters: extractParameters(), items: threeFiles() });

		expect(result.error()?.message).toMatch(/\(400\)/);
		expect(result.error()?.context?.itemIndex).toBe(1);
		expect(result.output()).toEqual([]);
		expect(service().requests).toHaveLength(2);
		expect(service().pending()).toHaveLength(1);
	});
});

describe('Secrets stay out of outputs, errors and logs', () => {
	const hook = 'https://hooks.example.com/document-extraction';
	const scenarios: Array<[string, RunOptions, Array<['GET' | 'POST', string, MockReply[]]>]> = [
		['extract verified', { parameters: extractParameters(), items: [itemWithFile(pdfBytes())] }, [['POST', '/v1/extract', [{ status: 200, body: VERIFIED }]]]],
		[
			'extract 400',
			{ parameters: extractParameters(), items: [itemWithFile(pdfBytes())] },
			[['POST', '/v1/extract', [{ status: 400, body: serviceError('invalid_file', 'Bad file') }]]],
		],
		[
			'extract 401',
			{ parameters: extractParameters(), items: [itemWithFile(pdfBytes())] },
			[['POST', '/v1/extract', [{ status: 401, body: serviceError('unauthorized', 'Invalid API key') }]]],
		],
		[
			'extract 429 exhausted',
			{ parameters: extractParameters({ options: { rateLimitRetries: 1 } }), items: [itemWithFile(pdfBytes())] },
			[['POST', '/v1/extract', [{ status: 429, body: '', headers: { 'Retry-After': '0' } }, { status: 429, body: '', headers: { 'Retry-After': '0' } }]]],
		],
		[
			'extract connection reset',
			{ parameters: extractParameters(), items: [itemWithFile(pdfBytes())] },
			[['POST', '/v1/extract', [{ error: { code: 'ECONNRESET', message: 'socket hang up' } }]]],
		],
		[
			'extract refused before upload',
			{ parameters: extractParameters(), items: [itemWithFile(Buffer.alloc(0))] },
			[],
		],
		[
			'extract 500 with Continue On Fail',
			{ parameters: extractParameters(), items: [itemWithFile(pdfBytes())], continueOnFail: true },
			[['POST', '/v1/extract', [{ status: 500, body: serviceError('server_error', 'Internal error') }]]],
		],
		[
			'status 503 exhausted',
			{ parameters: { resource: 'document', operation: 'getStatus', documentId: DOCUMENT_ID, options: { retries: 1 } } },
			[['GET', `/v1/status/${DOCUMENT_ID}`, [{ status: 503, body: '', headers: { 'Retry-After': '0' } }, { status: 503, body: '', headers: { 'Retry-After': '0' } }]]],
		],
		[
			'register with the credential secret',
			{ parameters: { resource: 'webhook', operation: 'register', url: hook } },
			[['POST', '/webhooks/register', [{ status: 200, body: { webhook_id: 'wh_1', url: hook, status: 'active' } }]]],
		],
		[
			'register refused (400)',
			{ parameters: { resource: 'webhook', operation: 'register', url: hook } },
			[['POST', '/webhooks/register', [{ status: 400, body: serviceError('invalid_url', 'URL not reachable') }]]],
		],
		[
			'register connection reset',
			{ parameters: { resource: 'webhook', operation: 'register', url: hook } },
			[['POST', '/webhooks/register', [{ error: { code: 'ECONNRESET', message: 'socket hang up' } }]]],
		],
		[
			'register refused before sending (http URL)',
			{ parameters: { resource: 'webhook', operation: 'register', url: 'http://hooks.example.com/x' } },
			[],
		],
	];

	function expectNoSecrets(result: RunResult) {
		const everything = result.everything();
		// The scan covers what it should: the run's items and errors are in it.
		expect(everything.length).toBeGreaterThan(200);
		for (const secret of [API_KEY, SIGNING_SECRET]) {
			expect(everything).not.toContain(secret);
			// Not even a recognisable part of it.
			expect(everything).not.toContain(secret.slice(-16));
		}
		const error = result.error();
		if (error) {
			for (const text of [error.message, error.description ?? '', JSON.stringify(error)]) {
				expect(text).not.toContain(API_KEY);
				expect(text).not.toContain(SIGNING_SECRET);
			}
		}
	}

	it.each(scenarios)('%s', async (_name, options, replies) => {
		for (const [method, path, answers] of replies) service().on(method, path, ...answers);
		const result = await harness().run(options);

		// Each scenario reached the point it is about (an answer was used, or nothing was sent).
		expect(service().requests.length).toBe(replies.reduce((sum, [, , answers]) => sum + answers.length, 0));
		expectNoSecrets(result);
	});

	it('the scan would notice a secret in the output (the check itself works)', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: { ...VERIFIED, echoed: API_KEY } });
		const result = await harness().run({
			parameters: extractParameters({ outputMode: 'raw' }),
			items: [itemWithFile(pdfBytes())],
		});
		expect(result.everything()).toContain(API_KEY);
	});
});
