/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
 
// Conformance of the sandbox to the spec's states, events, signature and delivery rules, plus its
// test switches (faults, duplicates) and persistence.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import type { RunningSandbox } from '../../sandbox/server.ts';
import { ACCOUNT_SECRET, control, extract, hmac, invoiceJson, KEYS, PDF_BYTES, register, sandboxWith, sleep, startReceiver, status, waitFor, type Receiver } from './support.ts';

let sandbox: RunningSandbox | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
	await sandbox?.close();
	sandbox = undefined;
	await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
	const started = await startReceiver(answer);
	receivers.push(started);
	return started;
}

async function inReview(target: RunningSandbox, options: { webhookUrl?: string } = {}) {
	const answer = await extract(target, { name: 'a.json', bytes: invoiceJson(0.6) }, options);
	expect(answer.body.status).toBe('needs_review');
	return { documentId: answer.body.document_id as string, reviewId: answer.body.review_id as string };
}

describe('human review', () => {
	it('approval verifies the document and delivers document.verified, signed over the raw bytes, to the registration', async () => {
		sandbox = await sandboxWith();
		const hook = await receiver();
		await register(sandbox, { url: hook.url, events: ['document.verified'], secret: 'registration-secret' });
		const { documentId, reviewId } = await inReview(sandbox);
		expect((await control(sandbox, `reviews/${reviewId}/approve`, { corrections: { amounts: { tax: 20, total: 120 } } })).status).toBe(200);

		const [delivery] = await waitFor(() => (hook.received.length ? hook.received : undefined), 'a delivery');
		expect(delivery.headers['x-service-signature']).toBe(hmac(delivery.body, 'registration-secret'));
		expect(delivery.headers['content-type']).toMatch(/application\/json/);
		const payload = JSON.parse(delivery.body.toString('utf8'));
		expect(payload).toMatchObject({
			event: 'document.verified',
			document_id: documentId,
			review_id: reviewId,
			verified_by: 'human_reviewer',
			corrections_made: true,
			confidence: { original: 0.6, final: 1 },
			data: { amounts: { subtotal: 100, tax: 20, total: 120 } },
		});
		expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
		expect((await status(sandbox, documentId)).body).toMatchObject({ status: 'verified' });
	});

	it('rejection reports failed with the reason (D7) and delivers document.rejected (D8)', async () => {
		sandbox = await sandboxWith();
		const hook = await receiver();
		await register(sandbox, { url: hook.url, events: ['document.rejected'], secret: 'r-secret' });
		const { documentId, reviewId } = await inReview(sandbox);
		await control(sandbox, `reviews/${reviewId}/reject`, { reason: 'Blurry total' });
		const [delivery] = await waitFor(() => (hook.received.length ? hook.received : undefined), 'a delivery');
		expect(delivery.headers['x-service-signature']).toBe(hmac(delivery.body, 'r-secret'));
		expect(JSON.parse(delivery.body.toString('utf8'))).toMatchObject({ event: 'document.rejected', document_id: documentId, review_id: reviewId, rejected_by: 'human_reviewer', reason: 'Blurry total', confidence: { original: 0.6 } });
		expect((await status(sandbox, documentId)).body).toMatchObject({ status: 'failed', failure_reason: 'rejected_by_reviewer', rejection_reason: 'Blurry total' });
		expect((await control(sandbox, `reviews/${reviewId}/approve`, {})).status).toBe(409);
	});

	it('a review finishes by itself after reviewDelayMs (approved, no corrections)', async () => {
		sandbox = await sandboxWith({ reviewDelayMs: 300 });
		const { documentId } = await inReview(sandbox);
		await waitFor(async () => (await status(sandbox as RunningSandbox, documentId)).body.status === 'verified', 'the automatic approval');
	});

	it('delivers only the subscribed events, and a document\'s own webhook_url is signed with the account secret, once per URL (D13)', async () => {
		sandbox = await sandboxWith();
		const registered = await receiver();
		const own = await receiver();
		await register(sandbox, { url: registered.url, events: ['document.rejected'], secret: 'only-rejections' });
		const { reviewId } = await inReview(sandbox, { webhookUrl: own.url });
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		const [delivery] = await waitFor(() => (own.received.length ? own.received : undefined), 'the per-document delivery');
		expect(delivery.headers['x-service-signature']).toBe(hmac(delivery.body, ACCOUNT_SECRET));
		await sleep(300);
		expect(registered.received).toHaveLength(0);

		// The same URL registered and given as webhook_url: one delivery, signed with the registration's secret.
		const both = await receiver();
		await register(sandbox, { url: both.url, events: ['document.verified'], secret: 'reg-secret' });
		const second = await inReview(sandbox, { webhookUrl: both.url });
		await control(sandbox, `reviews/${second.reviewId}/approve`, {});
		await waitFor(() => both.received.length > 0, 'the delivery');
		await sleep(300);
		expect(both.received).toHaveLength(1);
		expect(both.received[0].headers['x-service-signature']).toBe(hmac(both.received[0].body, 'reg-secret'));
	});
});

describe('processing', () => {
	it('a forced processing document becomes verified or needs_review; unreadable bytes become failed (D5, D6)', async () => {
		sandbox = await sandboxWith({ processingDelayMs: 100 });
		const own = await receiver();
		await control(sandbox, 'next-status', { status: 'processing' });
		const confident = await extract(sandbox, { name: 'a.json', bytes: invoiceJson(0.99) }, { webhookUrl: own.url });
		expect(confident.body).toMatchObject({ success: true, status: 'processing' });
		await waitFor(async () => (await status(sandbox as RunningSandbox, confident.body.document_id as string)).body.status === 'verified', 'verified');
		const [delivery] = await waitFor(() => (own.received.length ? own.received : undefined), 'the ai_auto delivery');
		expect(JSON.parse(delivery.body.toString('utf8'))).toMatchObject({ event: 'document.verified', verified_by: 'ai_auto' });

		await control(sandbox, 'next-status', { status: 'processing' });
		const unsure = await extract(sandbox, { name: 'a.json', bytes: invoiceJson(0.5) });
		const reviewed = await waitFor(async () => {
			const answer = await status(sandbox as RunningSandbox, unsure.body.document_id as string);
			return answer.body.status === 'needs_review' ? answer : undefined;
		}, 'needs_review');
		expect(reviewed.body.review_id).toMatch(/^rev_/);

		const broken = await extract(sandbox, { name: 'fake.pdf', bytes: 'this is not a pdf' });
		expect(broken.body).toMatchObject({ status: 'processing' });
		await waitFor(async () => (await status(sandbox as RunningSandbox, broken.body.document_id as string)).body.status === 'failed', 'failed');
		expect((await status(sandbox, broken.body.document_id as string)).body).toMatchObject({ failure_reason: 'unreadable_file' });
	});
});

describe('delivery rules', () => {
	it('retries a failing receiver 3 times with growing waits (D9), then stops', async () => {
		sandbox = await sandboxWith({ retryBaseMs: 100 });
		const hook = await receiver(() => 500);
		await register(sandbox, { url: hook.url, events: ['document.verified'], secret: 's' });
		const { reviewId } = await inReview(sandbox);
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		await waitFor(() => hook.received.length >= 4, '4 attempts', 10_000);
		await sleep(1000);
		expect(hook.received).toHaveLength(4);
		const gaps = hook.received.slice(1).map((attempt, index) => attempt.at - hook.received[index].at);
		expect(gaps[0]).toBeGreaterThanOrEqual(90);
		expect(gaps[1]).toBeGreaterThanOrEqual(190);
		expect(gaps[2]).toBeGreaterThanOrEqual(390);
		expect(new Set(hook.received.map((attempt) => attempt.body.toString('utf8'))).size).toBe(1);
		expect(sandbox.deliveries().map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4]);
	});

	it('stops retrying after a 2xx; a slow receiver and a redirect count as failures (D10)', async () => {
		sandbox = await sandboxWith({ retryBaseMs: 50, deliveryTimeoutMs: 300 });
		const hook = await receiver((n) => (n === 1 ? 'hang' : n === 2 ? 'redirect' : 204));
		await register(sandbox, { url: hook.url, events: ['document.verified'], secret: 's' });
		const { reviewId } = await inReview(sandbox);
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		await waitFor(() => hook.received.length >= 3, '3 attempts', 10_000);
		await sleep(800);
		expect(hook.received).toHaveLength(3);
		expect(sandbox.deliveries().map((attempt) => attempt.ok)).toEqual([false, false, true]);
	});

	it('delivers only to HTTPS: an http URL cannot be registered or given as webhook_url', async () => {
		sandbox = await sandboxWith();
		expect((await register(sandbox, { url: 'http://127.0.0.1:9/hook', events: ['document.verified'], secret: 's' })).status).toBe(400);
		expect((await extract(sandbox, { name: 'a.json', bytes: invoiceJson(0.5) }, { webhookUrl: 'http://127.0.0.1:9/hook' })).status).toBe(400);
	});

	it('delivers every event twice when the duplicate switch is on', async () => {
		sandbox = await sandboxWith({ duplicateDeliveries: true });
		const hook = await receiver();
		await register(sandbox, { url: hook.url, events: ['document.verified'], secret: 's' });
		const { reviewId } = await inReview(sandbox);
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		await waitFor(() => hook.received.length >= 2, 'two copies');
		expect(hook.received[0].body.equals(hook.received[1].body)).toBe(true);
	});
});

describe('test switches and persistence', () => {
	it('injects 500, 503, malformed, reset and slow answers on the next requests', async () => {
		sandbox = await sandboxWith();
		await control(sandbox, 'faults', { mode: '500', count: 1 });
		expect((await status(sandbox, 'doc_x')).status).toBe(500);
		await control(sandbox, 'faults', { mode: '503', count: 1 });
		expect((await status(sandbox, 'doc_x')).status).toBe(503);
		await control(sandbox, 'faults', { mode: 'malformed', count: 1 });
		const malformed = await status(sandbox, 'doc_x');
		expect(malformed.status).toBe(200);
		expect(malformed.body.raw).toMatch(/^\{"success": true/);
		await control(sandbox, 'faults', { mode: 'reset', count: 1 });
		await expect(request(`${sandbox.url}/v1/status/doc_x`, { headers: { 'x-api-key': KEYS.enterprise } })).rejects.toThrow();
		await control(sandbox, 'faults', { mode: 'slow', count: 1, delayMs: 400 });
		const started = Date.now();
		expect((await status(sandbox, 'doc_x')).status).toBe(404);
		expect(Date.now() - started).toBeGreaterThanOrEqual(350);
		expect((await status(sandbox, 'doc_x')).status).toBe(404);
	});

	it('keeps documents and registrations in the state file across a restart; a pending review still finishes', async () => {
		const stateFile = join(mkdtempSync(join(tmpdir(), 'sandbox-state-')), 'state.json');
		sandbox = await sandboxWith({ stateFile, reviewDelayMs: 1500 });
		const hook = await receiver();
		const webhook = await register(sandbox, { url: hook.url, events: ['document.verified'], secret: 'persisted' });
		const { documentId } = await inReview(sandbox);
		const verified = await extract(sandbox, { name: 'a.json', bytes: invoiceJson(0.99) });
		await sandbox.close();

		sandbox = await sandboxWith({ stateFile, reviewDelayMs: 1500 });
		expect(sandbox.state().webhooks.map((entry) => entry.id)).toEqual([webhook.body.webhook_id]);
		expect((await status(sandbox, verified.body.document_id as string)).body.status).toBe('verified');
		await waitFor(() => hook.received.length > 0, 'the delivery after the restart', 10_000);
		expect(hook.received[0].headers['x-service-signature']).toBe(hmac(hook.received[0].body, 'persisted'));
		expect((await status(sandbox, documentId)).body.status).toBe('verified');
	});

	it('never writes an API key, secret or signature to its log', async () => {
		const lines: string[] = [];
		sandbox = await sandboxWith({ log: (line) => lines.push(line) });
		const hook = await receiver();
		await register(sandbox, { url: hook.url, events: ['document.verified'], secret: 'log-secret-value' });
		const { reviewId } = await inReview(sandbox);
		await extract(sandbox, { name: 'a.pdf', bytes: PDF_BYTES }, { key: 'sk_wrong_key_value' });
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		const [delivery] = await waitFor(() => (hook.received.length ? hook.received : undefined), 'a delivery');
		await sleep(100);
		const text = lines.join('\n');
		expect(lines.length).toBeGreaterThan(4);
		for (const secret of [KEYS.enterprise, 'sk_wrong_key_value', 'log-secret-value', ACCOUNT_SECRET, String(delivery.headers['x-service-signature'])]) {
			expect(text).not.toContain(secret);
		}
	});
});
