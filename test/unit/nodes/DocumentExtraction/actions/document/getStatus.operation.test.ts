/** Document > Get Status through n8n's engine. */
import { describe, expect, it } from 'vitest';

import { API_KEY } from '../../../../harness/index.ts';
import { DOCUMENT_ID, REVIEW_ID, useNodeHarness } from '../../../../harness/fixtures.ts';

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
			.on('GET', '/v1/status/doc_one', { status: 200, body: { document_id: 'doc_one', status: 'verified' } })
			.on('GET', '/v1/status/doc_two', { status: 200, body: { document_id: 'doc_two', status: 'processing' } });
		const result = await harness().run({
			parameters: { resource: 'document', operation: 'getStatus', documentId: '={{ $json.document_id }}' },
			items: [{ json: { document_id: 'doc_one' } }, { json: { document_id: 'doc_two' } }],
		});

		expect(result.output().map((item) => [item.json.document_id, item.json.status, item.pairedItem])).toEqual([
			['doc_one', 'verified', { item: 0 }],
			['doc_two', 'processing', { item: 1 }],
		]);
		expect(service().requests.map((request) => request.path)).toEqual(['/v1/status/doc_one', '/v1/status/doc_two']);
	});
});
