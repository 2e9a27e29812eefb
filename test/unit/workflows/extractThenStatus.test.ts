/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
/**
 * A workflow exported as JSON (as n8n's own node tests do): files read by a start node, Extract with
 * an expression in an option, then Get Status mapping the document_id through `$('Extract Invoice').item`,
 * which needs n8n's paired-item tracking across two of our nodes.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import type { WorkflowJson } from '../harness/index.ts';
import { parseMultipart } from '../harness/index.ts';
import { EXTRACTED, pdfBytes, useNodeHarness, VERIFIED } from '../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const workflow = JSON.parse(
	readFileSync(new URL('./extract-then-status.workflow.json', import.meta.url), 'utf8'),
) as WorkflowJson;

describe('workflow JSON: Read Invoices -> Extract Invoice -(Needs Review)-> Check Status', () => {
	it('runs end to end with per-item expressions and pairing', async () => {
		const first = pdfBytes(3000, 21);
		const second = pdfBytes(5000, 22);
		service()
			.on(
				'POST',
				'/v1/extract',
				{ status: 200, body: { ...VERIFIED, document_id: 'doc_aaa111' } },
				{
					status: 200,
					body: {
						success: true,
						status: 'needs_review',
						confidence: 0.6,
						document_id: 'doc_bbb222',
						review_id: 'rev_b',
					},
				},
			)
			.on('GET', '/v1/status/doc_bbb222', {
				status: 200,
				body: { document_id: 'doc_bbb222', status: 'needs_review', review_id: 'rev_b' },
			});

		const result = await harness().runWorkflow(workflow, {
			invoices: [
				{
					json: { mailbox: 'ap-eu' },
					binary: {
						attachment: { content: first, fileName: 'a.pdf', mimeType: 'application/pdf' },
					},
				},
				{
					json: { mailbox: 'ap-us' },
					binary: {
						attachment: { content: second, fileName: 'b.pdf', mimeType: 'application/pdf' },
					},
				},
			],
		});

		expect(result.run.status).toBe('success');
		expect(Object.keys(result.runData)).toEqual([
			'Read Invoices',
			'Extract Invoice',
			'Check Status',
		]);

		// Verified on the first output (not connected), the document in review on Needs Review, which
		// feeds Check Status: only that one is looked up, through the paired item of its expression.
		const [verified, needsReview] = result.outputs('Extract Invoice');
		expect(
			verified.map((item) => [item.json.document_id, item.json.vendor, item.pairedItem]),
		).toEqual([['doc_aaa111', EXTRACTED.header.vendor, { item: 0 }]]);
		expect(
			needsReview.map((item) => [item.json.document_id, item.json.vendor, item.pairedItem]),
		).toEqual([['doc_bbb222', null, { item: 1 }]]);
		expect(
			result
				.output('Check Status')
				.map((item) => [item.json.document_id, item.json.status, item.pairedItem]),
		).toEqual([['doc_bbb222', 'needs_review', { item: 0 }]]);

		const uploads = service()
			.requestsTo('/v1/extract')
			.map((request) => parseMultipart(request.body, request.headers['content-type']));
		expect(
			uploads.map((parts) => parts.find((part) => part.name === 'webhook_url')?.data.toString()),
		).toEqual(['https://hooks.example.com/review/ap-eu', 'https://hooks.example.com/review/ap-us']);
		expect(uploads[0].find((part) => part.name === 'file')?.data.equals(first)).toBe(true);
		expect(uploads[1].find((part) => part.name === 'file')?.data.equals(second)).toBe(true);
		expect(service().pending()).toEqual([]);
	});
});
