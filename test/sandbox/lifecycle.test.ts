/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
// Conformance of the sandbox to the spec's states, events, signature and delivery rules, plus its
// test switches (faults, duplicates) and persistence.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import type { SandboxOptions } from '../../sandbox/server.ts';
import {
	ACCOUNTS,
	control,
	controlReply,
	extract,
	getStatus,
	hmacHex,
	invoiceJson,
	pdf,
	QUICK_SETTINGS,
	register,
	sleep,
	startReceiver,
	startTestSandbox,
	waitFor,
	type Receiver,
	type ReceiverReply,
	type ReceivedRequest,
	type RunningSandbox,
} from './helpers.ts';

const KEY = ACCOUNTS.a.apiKey;
const sandboxWith = (options: SandboxOptions = {}) =>
	startTestSandbox({ ...QUICK_SETTINGS, ...options });

let sandbox: RunningSandbox | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
	await sandbox?.close();
	sandbox = undefined;
	await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** An HTTPS receiver at <url>/hook; `answer(n)` answers its n-th request (1-based; default 200). */
async function receiver(
	answer?: (n: number) => ReceiverReply,
): Promise<{ url: string; received: ReceivedRequest[] }> {
	const started = await startReceiver();
	receivers.push(started);
	if (answer) started.script('/hook', (_received, nth) => answer(nth));
	return { url: `${started.url}/hook`, received: started.requests };
}

async function inReview(target: RunningSandbox, options: { webhookUrl?: string } = {}) {
	const answer = await extract(
		target,
		KEY,
		invoiceJson(0.6),
		options.webhookUrl === undefined ? {} : { webhook_url: options.webhookUrl },
	);
	expect(answer.json.status).toBe('needs_review');
	return {
		documentId: answer.json.document_id as string,
		reviewId: answer.json.review_id as string,
	};
}

describe('human review', () => {
	it('approval verifies the document and delivers document.verified, signed over the raw bytes, to the registration', async () => {
		sandbox = await sandboxWith();
		const hook = await receiver();
		await register(sandbox, KEY, {
			url: hook.url,
			events: ['document.verified'],
			secret: 'registration-secret',
		});
		const { documentId, reviewId } = await inReview(sandbox);
		expect(
			(
				await controlReply(sandbox, `reviews/${reviewId}/approve`, {
					corrections: { amounts: { tax: 20, total: 120 } },
				})
			).status,
		).toBe(200);

		const [delivery] = await waitFor(
			() => (hook.received.length ? hook.received : undefined),
			'a delivery',
		);
		expect(delivery.headers['x-service-signature']).toBe(
			hmacHex('registration-secret', delivery.body),
		);
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
		expect((await getStatus(sandbox, KEY, documentId)).json).toMatchObject({ status: 'verified' });
	});

	it('rejection reports failed with the reason (D7) and delivers document.rejected (D8)', async () => {
		sandbox = await sandboxWith();
		const hook = await receiver();
		await register(sandbox, KEY, {
			url: hook.url,
			events: ['document.rejected'],
			secret: 'r-secret',
		});
		const { documentId, reviewId } = await inReview(sandbox);
		await control(sandbox, `reviews/${reviewId}/reject`, { reason: 'Blurry total' });
		const [delivery] = await waitFor(
			() => (hook.received.length ? hook.received : undefined),
			'a delivery',
		);
		expect(delivery.headers['x-service-signature']).toBe(hmacHex('r-secret', delivery.body));
		expect(JSON.parse(delivery.body.toString('utf8'))).toMatchObject({
			event: 'document.rejected',
			document_id: documentId,
			review_id: reviewId,
			rejected_by: 'human_reviewer',
			reason: 'Blurry total',
			confidence: { original: 0.6 },
		});
		expect((await getStatus(sandbox, KEY, documentId)).json).toMatchObject({
			status: 'failed',
			failure_reason: 'rejected_by_reviewer',
			rejection_reason: 'Blurry total',
		});
		expect((await controlReply(sandbox, `reviews/${reviewId}/approve`, {})).status).toBe(409);
	});

	it('a review finishes by itself after reviewDelayMs (approved, no corrections)', async () => {
		sandbox = await sandboxWith({ reviewDelayMs: 300 });
		const { documentId } = await inReview(sandbox);
		await waitFor(
			async () =>
				(await getStatus(sandbox as RunningSandbox, KEY, documentId)).json.status === 'verified',
			'the automatic approval',
		);
	});

	it("delivers only the subscribed events, and a document's own webhook_url is signed with the account secret, once per URL (D13)", async () => {
		sandbox = await sandboxWith();
		const registered = await receiver();
		const own = await receiver();
		await register(sandbox, KEY, {
			url: registered.url,
			events: ['document.rejected'],
			secret: 'only-rejections',
		});
		const { reviewId } = await inReview(sandbox, { webhookUrl: own.url });
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		const [delivery] = await waitFor(
			() => (own.received.length ? own.received : undefined),
			'the per-document delivery',
		);
		expect(delivery.headers['x-service-signature']).toBe(
			hmacHex(ACCOUNTS.a.signingSecret, delivery.body),
		);
		await sleep(300);
		expect(registered.received).toHaveLength(0);

		// The same URL registered and given as webhook_url: one delivery, signed with the registration's secret.
		const both = await receiver();
		await register(sandbox, KEY, {
			url: both.url,
			events: ['document.verified'],
			secret: 'reg-secret',
		});
		const second = await inReview(sandbox, { webhookUrl: both.url });
		await control(sandbox, `reviews/${second.reviewId}/approve`, {});
		await waitFor(() => both.received.length > 0, 'the delivery');
		await sleep(300);
		expect(both.received).toHaveLength(1);
		expect(both.received[0].headers['x-service-signature']).toBe(
			hmacHex('reg-secret', both.received[0].body),
		);
	});
});

describe('processing', () => {
	it('a forced processing document becomes verified or needs_review; unreadable bytes become failed (D5, D6)', async () => {
		sandbox = await sandboxWith({ processingDelayMs: 100 });
		const own = await receiver();
		await control(sandbox, 'next-status', { status: 'processing' });
		const confident = await extract(sandbox, KEY, invoiceJson(0.99), { webhook_url: own.url });
		expect(confident.json).toMatchObject({ success: true, status: 'processing' });
		await waitFor(
			async () =>
				(await getStatus(sandbox as RunningSandbox, KEY, confident.json.document_id as string)).json
					.status === 'verified',
			'verified',
		);
		const [delivery] = await waitFor(
			() => (own.received.length ? own.received : undefined),
			'the ai_auto delivery',
		);
		expect(JSON.parse(delivery.body.toString('utf8'))).toMatchObject({
			event: 'document.verified',
			verified_by: 'ai_auto',
		});

		await control(sandbox, 'next-status', { status: 'processing' });
		const unsure = await extract(sandbox, KEY, invoiceJson(0.5));
		const reviewed = await waitFor(async () => {
			const answer = await getStatus(
				sandbox as RunningSandbox,
				KEY,
				unsure.json.document_id as string,
			);
			return answer.json.status === 'needs_review' ? answer : undefined;
		}, 'needs_review');
		expect(reviewed.json.review_id).toMatch(/^rev_/);

		const broken = await extract(sandbox, KEY, { name: 'fake.pdf', content: 'this is not a pdf' });
		expect(broken.json).toMatchObject({ status: 'processing' });
		await waitFor(
			async () =>
				(await getStatus(sandbox as RunningSandbox, KEY, broken.json.document_id as string)).json
					.status === 'failed',
			'failed',
		);
		expect((await getStatus(sandbox, KEY, broken.json.document_id as string)).json).toMatchObject({
			failure_reason: 'unreadable_file',
		});
	});
});

describe('delivery rules', () => {
	it('retries a failing receiver 3 times with growing waits (D9), then stops', async () => {
		sandbox = await sandboxWith({ retryBaseMs: 100 });
		const hook = await receiver(() => ({ status: 500 }));
		await register(sandbox, KEY, { url: hook.url, events: ['document.verified'], secret: 's' });
		const { reviewId } = await inReview(sandbox);
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		await waitFor(() => hook.received.length >= 4, '4 attempts', 10_000);
		await sleep(1000);
		expect(hook.received).toHaveLength(4);
		const gaps = hook.received
			.slice(1)
			.map((attempt, index) => attempt.at - hook.received[index].at);
		expect(gaps[0]).toBeGreaterThanOrEqual(90);
		expect(gaps[1]).toBeGreaterThanOrEqual(190);
		expect(gaps[2]).toBeGreaterThanOrEqual(390);
		expect(new Set(hook.received.map((attempt) => attempt.body.toString('utf8'))).size).toBe(1);
		expect(sandbox.deliveries().map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4]);
	});

	it('stops retrying after a 2xx; a slow receiver and a redirect count as failures (D10)', async () => {
		sandbox = await sandboxWith({ retryBaseMs: 50, deliveryTimeoutMs: 300 });
		const hook = await receiver((n) =>
			// The first never answers within the timeout; the second redirects.
			n === 1
				? { delayMs: 600_000 }
				: n === 2
					? { status: 302, headers: { location: 'https://127.0.0.1:1/elsewhere' } }
					: { status: 204 },
		);
		await register(sandbox, KEY, { url: hook.url, events: ['document.verified'], secret: 's' });
		const { reviewId } = await inReview(sandbox);
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		await waitFor(() => hook.received.length >= 3, '3 attempts', 10_000);
		await sleep(800);
		expect(hook.received).toHaveLength(3);
		expect(sandbox.deliveries().map((attempt) => attempt.ok)).toEqual([false, false, true]);
	});

	it('delivers only to HTTPS: an http URL cannot be registered or given as webhook_url', async () => {
		sandbox = await sandboxWith();
		expect(
			(
				await register(sandbox, KEY, {
					url: 'http://127.0.0.1:9/hook',
					events: ['document.verified'],
					secret: 's',
				})
			).status,
		).toBe(400);
		expect(
			(await extract(sandbox, KEY, invoiceJson(0.5), { webhook_url: 'http://127.0.0.1:9/hook' }))
				.status,
		).toBe(400);
	});

	it('delivers every event twice when the duplicate switch is on', async () => {
		sandbox = await sandboxWith({ duplicateDeliveries: true });
		const hook = await receiver();
		await register(sandbox, KEY, { url: hook.url, events: ['document.verified'], secret: 's' });
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
		expect((await getStatus(sandbox, KEY, 'doc_x')).status).toBe(500);
		await control(sandbox, 'faults', { mode: '503', count: 1 });
		expect((await getStatus(sandbox, KEY, 'doc_x')).status).toBe(503);
		await control(sandbox, 'faults', { mode: 'malformed', count: 1 });
		const malformed = await getStatus(sandbox, KEY, 'doc_x');
		expect(malformed.status).toBe(200);
		expect(malformed.text).toMatch(/^\{"success": true/);
		await control(sandbox, 'faults', { mode: 'reset', count: 1 });
		await expect(
			request(`${sandbox.url}/v1/status/doc_x`, { headers: { 'x-api-key': KEY } }),
		).rejects.toThrow();
		await control(sandbox, 'faults', { mode: 'slow', count: 1, delayMs: 400 });
		const started = Date.now();
		expect((await getStatus(sandbox, KEY, 'doc_x')).status).toBe(404);
		expect(Date.now() - started).toBeGreaterThanOrEqual(350);
		expect((await getStatus(sandbox, KEY, 'doc_x')).status).toBe(404);
	});

	it('keeps documents and registrations in the state file across a restart; a pending review still finishes', async () => {
		const stateFile = join(mkdtempSync(join(tmpdir(), 'sandbox-state-')), 'state.json');
		sandbox = await sandboxWith({ stateFile, reviewDelayMs: 1500 });
		const hook = await receiver();
		const webhook = await register(sandbox, KEY, {
			url: hook.url,
			events: ['document.verified'],
			secret: 'persisted',
		});
		const { documentId } = await inReview(sandbox);
		const verified = await extract(sandbox, KEY, invoiceJson(0.99));
		await sandbox.close();

		sandbox = await sandboxWith({ stateFile, reviewDelayMs: 1500 });
		expect(sandbox.state().webhooks.map((entry) => entry.id)).toEqual([webhook.json.webhook_id]);
		expect((await getStatus(sandbox, KEY, verified.json.document_id as string)).json.status).toBe(
			'verified',
		);
		await waitFor(() => hook.received.length > 0, 'the delivery after the restart', 10_000);
		expect(hook.received[0].headers['x-service-signature']).toBe(
			hmacHex('persisted', hook.received[0].body),
		);
		expect((await getStatus(sandbox, KEY, documentId)).json.status).toBe('verified');
	});

	it('never writes an API key, secret or signature to its log', async () => {
		const lines: string[] = [];
		sandbox = await sandboxWith({ log: (line) => lines.push(line) });
		const hook = await receiver();
		await register(sandbox, KEY, {
			url: hook.url,
			events: ['document.verified'],
			secret: 'log-secret-value',
		});
		const { reviewId } = await inReview(sandbox);
		await extract(sandbox, 'sk_wrong_key_value', pdf());
		await control(sandbox, `reviews/${reviewId}/approve`, {});
		const [delivery] = await waitFor(
			() => (hook.received.length ? hook.received : undefined),
			'a delivery',
		);
		await sleep(100);
		const text = lines.join('\n');
		expect(lines.length).toBeGreaterThan(4);
		for (const secret of [
			KEY,
			'sk_wrong_key_value',
			'log-secret-value',
			ACCOUNTS.a.signingSecret,
			String(delivery.headers['x-service-signature']),
		]) {
			expect(text).not.toContain(secret);
		}
	});
});
