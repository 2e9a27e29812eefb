/** Document > Get Status through n8n's engine. */
import { describe, expect, it } from 'vitest';

import { API_KEY } from '../../../../harness/index.ts';
import {
	DOCUMENT_ID,
	expectNothingSent,
	REVIEW_ID,
	serviceWouldAnswer,
	useNodeHarness,
} from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

describe('Get Status', () => {
	it('GETs /v1/status/{id} with the key in X-API-Key and outputs the status fields', async () => {
		const status = {
			document_id: DOCUMENT_ID,
			status: 'needs_review',
			confidence: 0.81,
			review_id: REVIEW_ID,
			estimated_time: '1-5 minutes',
			created_at: '2024-03-15T10:00:00Z',
		};
		service().on('GET', `/v1/status/${DOCUMENT_ID}`, { status: 200, body: status });
		const result = await harness().run({
			parameters: { resource: 'document', operation: 'getStatus', documentId: DOCUMENT_ID },
		});

		expect(result.error()).toBeUndefined();
		expect(result.output()).toEqual([{ json: status, pairedItem: { item: 0 } }]);
		const [request] = service().requests;
		expect(request.method).toBe('GET');
		expect(request.path).toBe(`/v1/status/${DOCUMENT_ID}`);
		expect(request.headers['x-api-key']).toBe(API_KEY);
		expect(request.body.length).toBe(0);
	});

	it('missing fields are null; unknown fields and statuses (failed + failure_reason, D7) pass through', async () => {
		const status = {
			document_id: DOCUMENT_ID,
			status: 'failed',
			failure_reason: 'rejected_by_reviewer',
			rejection_reason: 'Illegible total',
		};
		service().on('GET', `/v1/status/${DOCUMENT_ID}`, { status: 200, body: status });
		const result = await harness().run({
			parameters: { resource: 'document', operation: 'getStatus', documentId: DOCUMENT_ID },
		});

		expect(result.output()[0].json).toEqual({
			document_id: DOCUMENT_ID,
			status: 'failed',
			confidence: null,
			review_id: null,
			estimated_time: null,
			created_at: null,
			failure_reason: 'rejected_by_reviewer',
			rejection_reason: 'Illegible total',
		});
	});

	it('reads the Document ID per item from an expression ({{ $json.document_id }})', async () => {
		service()
			.on('GET', '/v1/status/doc_one', {
				status: 200,
				body: { document_id: 'doc_one', status: 'verified' },
			})
			.on('GET', '/v1/status/doc_two', {
				status: 200,
				body: { document_id: 'doc_two', status: 'processing' },
			});
		const result = await harness().run({
			parameters: {
				resource: 'document',
				operation: 'getStatus',
				documentId: '={{ $json.document_id }}',
			},
			items: [{ json: { document_id: 'doc_one' } }, { json: { document_id: 'doc_two' } }],
		});

		expect(
			result.output().map((item) => [item.json.document_id, item.json.status, item.pairedItem]),
		).toEqual([
			['doc_one', 'verified', { item: 0 }],
			['doc_two', 'processing', { item: 1 }],
		]);
		expect(service().requests.map((request) => request.path)).toEqual([
			'/v1/status/doc_one',
			'/v1/status/doc_two',
		]);
	});
});

describe('Get Status refuses a document ID that could change the request path', () => {
	it.each([
		['../x', '../x'],
		['doc_a/b', 'doc_a/b'],
		['doc_%2F', 'doc_%2F'],
		['doc_../../webhooks/register', 'doc_../../webhooks/register'],
		['doc_a b', 'doc_a b'],
		['rev_abc123', 'rev_abc123'],
		['200 characters', `doc_${'a'.repeat(196)}`],
	])('%s', async (_label, documentId) => {
		serviceWouldAnswer(service());
		const result = await harness().run({
			parameters: { resource: 'document', operation: 'getStatus', documentId },
		});

		expect(result.error()?.message).toMatch(/is not a document ID\. IDs look like "doc_abc123"/);
		expectNothingSent(service());
	});

	it.each([
		['empty (mapped from a field that is empty)', '={{ $json.document_id }}', { document_id: '' }],
		['missing (mapped from a field that is not there)', '={{ $json.document_id }}', {}],
		['blank', '   ', {}],
	])('%s', async (_label, documentId, json) => {
		serviceWouldAnswer(service());
		const result = await harness().run({
			parameters: { resource: 'document', operation: 'getStatus', documentId },
			items: [{ json }],
		});
		expect(result.error()?.message).toMatch(/^The Document ID is empty/);
		expectNothingSent(service());
	});

	it('left empty in the node: n8n itself refuses to run (required parameter)', async () => {
		serviceWouldAnswer(service());
		await expect(
			harness().run({
				parameters: { resource: 'document', operation: 'getStatus', documentId: '' },
			}),
		).rejects.toThrow(/node has issues/);
		expectNothingSent(service());
	});

	it('the longest valid ID (doc_ + 120 characters) is sent as the path', async () => {
		const documentId = `doc_${'Ab1_-'.repeat(24)}`;
		service().on('GET', `/v1/status/${documentId}`, {
			status: 200,
			body: { document_id: documentId, status: 'processing' },
		});
		const result = await harness().run({
			parameters: { resource: 'document', operation: 'getStatus', documentId: ` ${documentId} ` },
		});
		expect(result.error()).toBeUndefined();
		expect(service().requests.map((request) => request.path)).toEqual([`/v1/status/${documentId}`]);
	});
});
