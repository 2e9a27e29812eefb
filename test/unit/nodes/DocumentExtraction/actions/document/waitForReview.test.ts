/**
 * Wait for Review through n8n's engine: the checks made before anything is uploaded, putting the
 * execution to wait with the resume URL as webhook_url, and the Timed Out result n8n's wait tracker
 * produces when the limit is reached. The resume by a signed delivery is in reviewCallback.test.ts
 * and, in a real n8n, test/e2e/wait-for-review.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { computeSignature } from '../../../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import {
	actionNode,
	NODE_NAME,
	parseMultipart,
	SIGNING_SECRET,
	sourceNode,
	SOURCE_NODE_NAME,
} from '../../../../harness/index.ts';
import {
	DOCUMENT_ID,
	extractParameters,
	file,
	NEEDS_REVIEW,
	pdfBytes,
	pdfItem,
	PROCESSING,
	REVIEW_ID,
	useNodeHarness,
	VERIFIED,
} from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const waitParameters = (extra: Record<string, unknown> = {}) =>
	extractParameters({ waitForReview: true, reviewTimeout: 15, ...extra });

describe('Extract with Wait for Review', () => {
	it('an auto-verified document passes straight through on Verified: no wait', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run({
			parameters: waitParameters(),
			items: [pdfItem()],
		});

		expect(result.run.waitTill).toBeUndefined();
		expect(result.run.status).toBe('success');
		const [verified, rejected, timedOut] = result.outputs();
		expect(
			verified.map((item) => [
				item.json.document_id,
				item.json.status,
				item.json.vendor,
				item.pairedItem,
			]),
		).toEqual([[DOCUMENT_ID, 'verified', 'Acme Supplies GmbH', { item: 0 }]]);
		expect(rejected).toEqual([]);
		expect(timedOut).toEqual([]);
	});

	it('a document in review: uploaded with the resume URL as webhook_url, the execution waits up to the timeout', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: NEEDS_REVIEW });
		const before = Date.now();
		const result = await harness().run({
			parameters: waitParameters({ reviewTimeout: 15 }),
			items: [pdfItem()],
		});

		expect(result.error()).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		const waitTill = result.run.waitTill!.getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + 15 * 60_000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + 15 * 60_000);

		const [upload] = service().requestsTo('/v1/extract');
		const parts = parseMultipart(upload.body, upload.headers['content-type']);
		const webhookUrl = new URL(parts.find((part) => part.name === 'webhook_url')!.data.toString());
		expect(webhookUrl.origin + webhookUrl.pathname).toMatch(
			/^https:\/\/localhost:5678\/webhook-waiting\/\d+$/,
		);
		expect(webhookUrl.searchParams.get('signature')).toBe(result.run.data.resumeToken);
		expect(result.run.data.resumeToken).toMatch(/\S{16,}/);

		// What a timeout will output, stored with the waiting execution: the document on Timed Out.
		const [entry] = result.run.data.executionData!.nodeExecutionStack;
		expect(entry.node.name).toBe(NODE_NAME);
		expect(entry.metadata?.forwardAllOutputs).toBe(true);
		expect(entry.data.main.map((items) => items?.length ?? 0)).toEqual([0, 0, 1]);
		expect(result.run.data.resultData.metadata).toMatchObject({
			documentExtractionAwaiting: DOCUMENT_ID,
		});
		expect(result.run.data.executionData!.contextData[`node:${NODE_NAME}`]).toMatchObject({
			documentExtractionAwaiting: DOCUMENT_ID,
		});
		expect(
			result.logs.some((entry) => entry.message.includes(`document ${DOCUMENT_ID} is in review`)),
		).toBe(true);
	});

	it('no result before the limit: n8n resumes the node on Timed Out with a clear timed-out result, nothing on Verified', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: NEEDS_REVIEW });
		const waiting = await harness().run({
			parameters: waitParameters({ reviewTimeout: 2 }),
			items: [pdfItem()],
		});
		expect(waiting.run.status).toBe('waiting');

		const resumed = await waiting.resumeAfterTimeout();
		expect(resumed.run.status).toBe('success');
		const [verified, rejected, timedOut] = resumed.outputs();
		expect(verified).toEqual([]);
		expect(rejected).toEqual([]);
		expect(timedOut).toHaveLength(1);
		// n8n links forwarded items to the "input" of their output's index; the node maps each to its one input.
		expect(timedOut[0].pairedItem).toEqual({ item: 0, input: 2 });
		expect(timedOut[0].json).toMatchObject({
			document_id: DOCUMENT_ID,
			status: 'needs_review',
			review_id: REVIEW_ID,
			timed_out: true,
			waited_minutes: 2,
			vendor: null,
			total: null,
		});
		expect(String(timedOut[0].json.message)).toMatch(
			/No review result arrived within 2 minute\(s\).*Get Status/,
		);
		// The upload happened once, in the first run: resuming sends nothing.
		expect(service().requestsTo('/v1/extract')).toHaveLength(1);
	});

	it('with a file pattern, the waiting file comes out as data, as on the outputs without waiting', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: NEEDS_REVIEW });
		const waiting = await harness().run({
			parameters: waitParameters({ binaryPropertyName: 'attachment_*', reviewTimeout: 2 }),
			items: [
				{ json: { subject: 'Invoices' }, binary: { attachment_0: file(pdfBytes(), 'scan.pdf') } },
			],
			typeVersion: 1.3,
		});
		expect(waiting.run.status).toBe('waiting');
		const [, , timedOut] = (await waiting.resumeAfterTimeout()).outputs();
		expect(timedOut).toHaveLength(1);
		expect(Object.keys(timedOut[0].binary ?? {})).toEqual(['data']);
		expect(timedOut[0].binary?.data?.fileName).toBe('scan.pdf');
	});

	it('after a timeout, a node on Timed Out still reaches the items before Extract through pairedItem', async () => {
		service()
			.on('POST', '/v1/extract', { status: 200, body: NEEDS_REVIEW })
			.on('GET', `/v1/status/${DOCUMENT_ID}`, {
				status: 200,
				body: { document_id: DOCUMENT_ID, status: 'needs_review' },
			});
		const waiting = await harness().runWorkflow(
			{
				nodes: [
					sourceNode(),
					actionNode({
						id: 'x',
						name: NODE_NAME,
						position: [200, 0],
						parameters: waitParameters({ reviewTimeout: 1 }),
					}),
					actionNode({
						id: 'c',
						name: 'Check Later',
						position: [400, 0],
						parameters: {
							resource: 'document',
							operation: 'getStatus',
							documentId: "={{ $('Source').item.json.expected_document }}",
						},
					}),
				],
				connections: {
					Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
					[NODE_NAME]: { main: [[], [], [{ node: 'Check Later', type: 'main', index: 0 }]] },
				},
			},
			{ input: [{ ...pdfItem(), json: { expected_document: DOCUMENT_ID } }] },
		);
		expect(waiting.run.status).toBe('waiting');
		const resumed = await waiting.resumeAfterTimeout();
		expect(resumed.error('Check Later')).toBeUndefined();
		expect(
			resumed.output('Check Later').map((item) => [item.json.document_id, item.json.status]),
		).toEqual([[DOCUMENT_ID, 'needs_review']]);
	});

	it('refuses Split Line Items (one item per document while waiting), before uploading', async () => {
		const result = await harness().run({
			parameters: waitParameters({ outputMode: 'splitLineItems' }),
			items: [pdfItem()],
		});
		expect(result.error()?.message).toMatch(/choose Output "Simplified" or "Raw"/);
		expect(result.error()?.description).toMatch(/Split Out/);
		expect(service().requests).toHaveLength(0);
	});

	it("the review callback, run by n8n-core over the waiting execution's data, resumes only for the awaited document", async () => {
		service().on('POST', '/v1/extract', { status: 200, body: NEEDS_REVIEW });
		const waiting = await harness().run({
			parameters: waitParameters(),
			items: [pdfItem()],
		});
		const deliver = async (documentId: string, secret = SIGNING_SECRET) => {
			const rawBody = Buffer.from(
				JSON.stringify({
					event: 'document.verified',
					document_id: documentId,
					verified_by: 'human_reviewer',
					data: {},
				}),
			);
			return await waiting.deliverToWaitingNode({
				rawBody,
				headers: { 'x-service-signature': computeSignature(rawBody, secret) },
			});
		};

		const other = await deliver('doc_not_awaited');
		expect([other.status, other.result.workflowData]).toEqual([200, undefined]);
		const forged = await deliver(DOCUMENT_ID, 'whsec_wrong');
		expect([forged.status, forged.result.workflowData]).toEqual([401, undefined]);
		const awaited = await deliver(DOCUMENT_ID);
		expect(awaited.status).toBe(200);
		expect(
			awaited.result.workflowData!.map((output) => output.map((item) => item.json.document_id)),
		).toEqual([[DOCUMENT_ID], [], []]);
	});

	it('a processing document waits as well (its result comes to the same webhook_url, D6)', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: PROCESSING });
		const result = await harness().run({
			parameters: waitParameters(),
			items: [pdfItem()],
		});
		expect(result.run.status).toBe('waiting');
	});

	it('refuses several items before uploading any, saying to loop one by one', async () => {
		const result = await harness().run({
			parameters: waitParameters(),
			items: [pdfItem(500, 1), pdfItem(500, 2)],
		});
		expect(result.error()?.message).toBe(
			'Wait for Review handles one document per execution, and this node received 2 items',
		);
		expect(result.error()?.description).toMatch(/Loop Over Items/);
		expect(service().requests).toHaveLength(0);
	});

	it('refuses without a signing secret in the credential, before uploading', async () => {
		const result = await harness().run({
			parameters: waitParameters(),
			items: [pdfItem()],
			credentials: { signingSecret: '' },
		});
		expect(result.error()?.message).toBe(
			'Wait for Review needs the Webhook Signing Secret of your account',
		);
		expect(service().requests).toHaveLength(0);
	});

	it('refuses when n8n is not reachable over HTTPS (the service delivers to HTTPS only), before uploading', async () => {
		const result = await harness().run({
			parameters: waitParameters(),
			items: [pdfItem()],
			n8nBaseUrl: 'http://localhost:5678',
		});
		expect(result.error()?.message).toBe('Wait for Review needs n8n to be reachable over HTTPS');
		expect(result.error()?.description).toMatch(/WEBHOOK_URL/);
		expect(service().requests).toHaveLength(0);
	});

	it('ignores the Webhook URL option while waiting (the resume URL is the webhook_url)', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		await harness().run({
			parameters: waitParameters({
				options: { webhookUrl: 'https://hooks.example.com/elsewhere' },
			}),
			items: [pdfItem()],
		});
		const [upload] = service().requestsTo('/v1/extract');
		const parts = parseMultipart(upload.body, upload.headers['content-type']);
		expect(parts.find((part) => part.name === 'webhook_url')!.data.toString()).toMatch(
			/^https:\/\/localhost:5678\/webhook-waiting\//,
		);
	});

	it('with Continue On Fail, a refused upload is an error item on Rejected, paired, never on Verified', async () => {
		service().on('POST', '/v1/extract', {
			status: 400,
			body: { success: false, error: { code: 'invalid_file', message: 'Not a PDF' } },
		});
		const result = await harness().run({
			parameters: waitParameters(),
			items: [pdfItem()],
			continueOnFail: true,
		});
		expect(result.run.status).toBe('success');
		const [verified, rejected, timedOut] = result.outputs();
		expect(rejected).toEqual([
			{ json: expect.objectContaining({ http_code: 400 }), pairedItem: { item: 0 } },
		]);
		expect([verified, timedOut]).toEqual([[], []]);
	});

	it(`${SOURCE_NODE_NAME} items keep their own data: the waiting node changes only its own stack entry`, async () => {
		service().on('POST', '/v1/extract', { status: 200, body: NEEDS_REVIEW });
		const result = await harness().run({
			parameters: waitParameters(),
			items: [pdfItem()],
		});
		expect(result.output(SOURCE_NODE_NAME)[0].json).toEqual({ source: 'invoice.pdf' });
	});
});
