/**
 * The spec's States and transitions table, with the decisions for what it leaves open: exactly 0.95
 * (D2), processing (D6), failed (D5), the state after a rejection (D7) and its payload (D8), and a
 * review that finishes by itself after reviewDelayMs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
	ACCOUNTS,
	ISO_UTC,
	REVIEW_ID,
	control,
	extract,
	extractedDataProblems,
	getStatus,
	hmacHex,
	jpg,
	nextConfidence,
	pdf,
	png,
	register,
	sleep,
	startReceiver,
	startTestSandbox,
	submitForReview,
	waitFor,
	type Json,
	type Receiver,
	type RunningSandbox,
	type UploadFile,
} from './helpers.ts';
import { EXTRACTED } from '../unit/harness/invoices.ts';

const A = ACCOUNTS.a.apiKey;

const invoiceFile = (confidence?: number): UploadFile => ({
	name: 'invoice.json',
	content: JSON.stringify({ ...EXTRACTED, ...(confidence === undefined ? {} : { confidence }) }),
});

let sandbox: RunningSandbox;
let receiver: Receiver;
let hookPath = '';
let hookSecret = '';
let hookCount = 0;

beforeAll(async () => {
	receiver = await startReceiver();
	sandbox = await startTestSandbox({
		processingDelayMs: 150,
		reviewDelayMs: 60_000,
		processingThresholdBytes: 64 * 1024,
		retryBaseMs: 50,
	});
});
afterAll(async () => {
	await sandbox.close();
	await receiver.close();
});
beforeEach(async () => {
	await control(sandbox, 'reset', {});
	// A fresh registration (own path, own secret) for both review events in every test.
	hookCount++;
	hookPath = `/states-${hookCount}`;
	hookSecret = `registration-secret-${hookCount}`;
	const reply = await register(sandbox, A, {
		url: `${receiver.url}${hookPath}`,
		events: ['document.verified', 'document.rejected'],
		secret: hookSecret,
	});
	expect(reply.status).toBe(200);
});

/** The one delivery to this test's registration, its signature checked; waits for it. */
async function delivered(): Promise<Json> {
	const [received] = await waitFor(
		() => receiver.to(hookPath).length > 0 && receiver.to(hookPath),
		'a delivery to the registered webhook',
	);
	expect(received.headers['x-service-signature']).toBe(hmacHex(hookSecret, received.body));
	return JSON.parse(received.body.toString('utf8'));
}

const statusOf = async (documentId: string) => (await getStatus(sandbox, A, documentId)).json;

describe('(new) -> verified or needs_review: the threshold (D2)', () => {
	it.each([1, 0.99, 0.96, 0.9501])(
		'confidence %s is verified automatically by ai_auto',
		async (confidence) => {
			await nextConfidence(sandbox, confidence);
			const reply = await extract(sandbox, A, pdf());
			expect(reply.json).toMatchObject({ status: 'verified', confidence, verified_by: 'ai_auto' });
			expect(extractedDataProblems(reply.json.extracted_json)).toEqual([]);
			expect((await statusOf(reply.json.document_id)).status).toBe('verified');
		},
	);

	it.each([0.95, 0.9499, 0.5, 0])('confidence %s goes to human review', async (confidence) => {
		await nextConfidence(sandbox, confidence);
		const reply = await extract(sandbox, A, pdf());
		expect(reply.json).toMatchObject({ status: 'needs_review', confidence });
		expect(reply.json.review_id).toMatch(REVIEW_ID);
		expect(reply.json).not.toHaveProperty('extracted_json');
		expect(reply.json).not.toHaveProperty('verified_by');
	});

	it("a JSON invoice's own confidence decides too: 0.95 is reviewed, 0.97 is verified", async () => {
		expect((await extract(sandbox, A, invoiceFile(0.95))).json).toMatchObject({
			status: 'needs_review',
			confidence: 0.95,
		});
		const verified = await extract(sandbox, A, invoiceFile(0.97));
		expect(verified.json).toMatchObject({
			status: 'verified',
			confidence: 0.97,
			extracted_json: EXTRACTED,
		});
	});

	it('an automatic verification sends no event to registered webhooks (they get review results only, D6)', async () => {
		await nextConfidence(sandbox, 0.99);
		await extract(sandbox, A, pdf());
		await sleep(300);
		expect(receiver.to(hookPath)).toHaveLength(0);
		expect(sandbox.deliveries()).toHaveLength(0);
	});
});

describe('needs_review -> human reviewer', () => {
	it('approve without corrections: verified by human_reviewer, corrections_made false, confidence.final reported', async () => {
		await nextConfidence(sandbox, 0.8);
		const submitted = (await extract(sandbox, A, invoiceFile())).json;
		expect(submitted.status).toBe('needs_review');
		expect((await control(sandbox, `reviews/${submitted.review_id}/approve`, {})).state).toBe(
			'verified',
		);

		const payload = await delivered();
		expect(Object.keys(payload).sort()).toEqual([
			'confidence',
			'corrections_made',
			'data',
			'document_id',
			'event',
			'review_id',
			'timestamp',
			'verified_by',
		]);
		expect(payload).toMatchObject({
			event: 'document.verified',
			document_id: submitted.document_id,
			review_id: submitted.review_id,
			verified_by: 'human_reviewer',
			corrections_made: false,
			data: EXTRACTED,
		});
		expect(payload.timestamp).toMatch(ISO_UTC);
		expect(payload.confidence.original).toBe(0.8);
		expect(payload.confidence.final).toBeGreaterThanOrEqual(0.8);
		expect(payload.confidence.final).toBeLessThanOrEqual(1);

		const status = await statusOf(submitted.document_id);
		expect(status).toMatchObject({
			status: 'verified',
			review_id: submitted.review_id,
			confidence: payload.confidence.final,
		});
		expect(status).not.toHaveProperty('failure_reason');
	});

	it('approve with corrections: the corrected data, corrections_made true, confidence.final 1', async () => {
		await nextConfidence(sandbox, 0.7);
		const submitted = (await extract(sandbox, A, invoiceFile())).json;
		await control(sandbox, `reviews/${submitted.review_id}/approve`, {
			corrections: { header: { invoice_no: 'IN-2026-0043' }, amounts: { tax: 50, total: 300 } },
		});

		const payload = await delivered();
		expect(payload).toMatchObject({
			event: 'document.verified',
			verified_by: 'human_reviewer',
			corrections_made: true,
			confidence: { original: 0.7, final: 1 },
		});
		expect(payload.data).toEqual({
			header: { ...EXTRACTED.header, invoice_no: 'IN-2026-0043' },
			amounts: { subtotal: 250, tax: 50, total: 300 },
			line_items: EXTRACTED.line_items,
		});
		expect(await statusOf(submitted.document_id)).toMatchObject({
			status: 'verified',
			confidence: 1,
		});
	});

	it('reject: status failed with failure_reason and rejection_reason (D7), and the document.rejected payload of D8', async () => {
		const submitted = await submitForReview(sandbox, A);
		await control(sandbox, `reviews/${submitted.review_id}/reject`, {
			reason: 'Total is unreadable',
		});

		const payload = await delivered();
		expect(Object.keys(payload).sort()).toEqual([
			'confidence',
			'document_id',
			'event',
			'reason',
			'rejected_by',
			'review_id',
			'timestamp',
		]);
		expect(payload).toEqual({
			event: 'document.rejected',
			timestamp: expect.stringMatching(ISO_UTC),
			document_id: submitted.document_id,
			review_id: submitted.review_id,
			rejected_by: 'human_reviewer',
			reason: 'Total is unreadable',
			confidence: { original: 0.8 },
		});

		const status = await statusOf(submitted.document_id);
		expect(status).toMatchObject({
			status: 'failed',
			failure_reason: 'rejected_by_reviewer',
			rejection_reason: 'Total is unreadable',
			review_id: submitted.review_id,
		});
	});

	it('a review ends once: a second approve or reject is refused (409) and changes nothing', async () => {
		const approved = await submitForReview(sandbox, A);
		await control(sandbox, `reviews/${approved.review_id}/approve`, {});
		const rejected = await submitForReview(sandbox, A);
		await control(sandbox, `reviews/${rejected.review_id}/reject`, { reason: 'Duplicate invoice' });

		for (const [review, action] of [
			[approved.review_id, 'approve'],
			[approved.review_id, 'reject'],
			[rejected.review_id, 'approve'],
			[rejected.review_id, 'reject'],
		]) {
			const reply = await fetch(`${sandbox.url}/__sandbox/reviews/${review}/${action}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			});
			expect(reply.status).toBe(409);
		}
		expect((await statusOf(approved.document_id)).status).toBe('verified');
		expect((await statusOf(rejected.document_id)).status).toBe('failed');
		const unknown = await fetch(
			`${sandbox.url}/__sandbox/reviews/rev_00000000000000000000/approve`,
			{ method: 'POST', body: '{}' },
		);
		expect(unknown.status).toBe(404);
		await waitFor(() => receiver.to(hookPath).length >= 2, 'the two review events');
		await sleep(200);
		expect(receiver.to(hookPath)).toHaveLength(2);
	});

	it('a document in review reports a non-empty estimated_time until the review ends', async () => {
		const submitted = await submitForReview(sandbox, A);
		const status = await statusOf(submitted.document_id);
		expect(status.estimated_time).toMatch(/[1-9]/);
		await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
		expect((await statusOf(submitted.document_id)).estimated_time).not.toMatch(/[1-9]/);
	});
});

describe('processing (D6) and failed (D5)', () => {
	it('a forced processing document answers processing (and nothing more), then becomes verified', async () => {
		await control(sandbox, 'next-status', { status: 'processing' });
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A, invoiceFile());
		expect(reply.status).toBe(200);
		expect(reply.json).toEqual({
			success: true,
			status: 'processing',
			document_id: expect.any(String),
		});
		const during = await statusOf(reply.json.document_id);
		expect(during).toMatchObject({ status: 'processing' });
		expect(during.estimated_time).toMatch(/second/);

		await waitFor(
			async () => (await statusOf(reply.json.document_id)).status === 'verified',
			'verified',
		);
		expect(await statusOf(reply.json.document_id)).toMatchObject({
			status: 'verified',
			confidence: 0.99,
		});
		// Registered webhooks get review results only (D6).
		await sleep(200);
		expect(receiver.to(hookPath)).toHaveLength(0);
	});

	it('a forced processing document with low confidence becomes needs_review with a review_id, then can be approved', async () => {
		await control(sandbox, 'next-status', { status: 'processing' });
		await nextConfidence(sandbox, 0.6);
		const reply = await extract(sandbox, A, pdf());
		expect(reply.json.status).toBe('processing');
		const inReview = await waitFor(async () => {
			const status = await statusOf(reply.json.document_id);
			return status.status === 'needs_review' && status;
		}, 'needs_review');
		expect(inReview.review_id).toMatch(REVIEW_ID);
		await control(sandbox, `reviews/${inReview.review_id}/approve`, {});
		expect(await delivered()).toMatchObject({
			event: 'document.verified',
			document_id: reply.json.document_id,
			review_id: inReview.review_id,
			confidence: { original: 0.6 },
		});
	});

	it('a file above the processing threshold is answered processing, then finishes', async () => {
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A, pdf(undefined, 100 * 1024));
		expect(reply.json.status).toBe('processing');
		await waitFor(
			async () => (await statusOf(reply.json.document_id)).status === 'verified',
			'verified',
		);
	});

	it.each<[string, UploadFile]>([
		['a .pdf without %PDF-', { name: 'invoice.pdf', content: 'this is not a pdf' }],
		['a .png without the PNG signature', { name: 'scan.png', content: 'GIF89a not a png' }],
		['a .jpg without the JPEG marker', { name: 'photo.jpg', content: 'not a jpeg' }],
		['JSON that does not parse', { name: 'invoice.json', content: '{"header": {"vendor": ' }],
		['JSON that is not an object', { name: 'invoice.json', content: '[1, 2, 3]' }],
		[
			'CSV without the description/amount columns',
			{ name: 'lines.csv', content: 'foo,bar\n1,2\n' },
		],
	])('%s is accepted as processing, then failed with no event (D5)', async (_label, file) => {
		const own = `/own-failed-${hookCount}`;
		const reply = await extract(sandbox, A, file, { webhook_url: `${receiver.url}${own}` });
		expect(reply.status).toBe(200);
		expect(reply.json).toEqual({
			success: true,
			status: 'processing',
			document_id: expect.any(String),
		});
		const failed = await waitFor(async () => {
			const status = await statusOf(reply.json.document_id);
			return status.status === 'failed' && status;
		}, 'failed');
		expect(failed.failure_reason).toBe('unreadable_file');
		expect(failed).not.toHaveProperty('rejection_reason');
		await sleep(150);
		expect(receiver.to(own)).toHaveLength(0);
		expect(receiver.to(hookPath)).toHaveLength(0);
		expect(sandbox.deliveries()).toHaveLength(0);
	});

	it('valid PNG and JPG bytes are not failed', async () => {
		for (const file of [png('valid'), jpg('valid')]) {
			await nextConfidence(sandbox, 0.99);
			expect((await extract(sandbox, A, file)).json.status).toBe('verified');
		}
	});
});

describe('needs_review -> verified by itself after reviewDelayMs', () => {
	it('the review is approved without corrections and delivered', async () => {
		const quick = await startTestSandbox({ reviewDelayMs: 300 });
		try {
			const path = '/auto-approve';
			await register(quick, A, {
				url: `${receiver.url}${path}`,
				events: ['document.verified'],
				secret: 'auto-approve-secret',
			});
			const submitted = await submitForReview(quick, A);
			expect((await getStatus(quick, A, submitted.document_id)).json.status).toBe('needs_review');
			const [received] = await waitFor(
				() => receiver.to(path).length > 0 && receiver.to(path),
				'the automatic approval',
			);
			expect(received.headers['x-service-signature']).toBe(
				hmacHex('auto-approve-secret', received.body),
			);
			expect(JSON.parse(received.body.toString('utf8'))).toMatchObject({
				event: 'document.verified',
				document_id: submitted.document_id,
				verified_by: 'human_reviewer',
				corrections_made: false,
			});
			expect((await getStatus(quick, A, submitted.document_id)).json.status).toBe('verified');
		} finally {
			await quick.close();
		}
	});
});
