/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * The spec's Events, Signature and Delivery rules against a local HTTPS receiver: every signature is
 * checked with an HMAC computed here over the raw bytes received; which secret signs what (D13), who
 * gets which event (D6, D17, D21), retries with backoff (D9), what counts as a failure (D10), HTTPS
 * only, and the duplicate-delivery switch.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
	ACCOUNTS,
	control,
	extract,
	hmacHex,
	nextConfidence,
	pdf,
	register,
	sleep,
	startTestSandbox,
	submitForReview,
	useReceiver,
	waitFor,
	type ReceivedRequest,
	type RunningSandbox,
} from './helpers.ts';

const A = ACCOUNTS.a;
const B = ACCOUNTS.b;

const receiver = useReceiver();
let paths = 0;
/** A path of its own for every use, so that no test sees another's requests. */
const newPath = () => `/hook-${++paths}`;

const payloadOf = (received: ReceivedRequest) => JSON.parse(received.body.toString('utf8'));
const signatureOf = (received: ReceivedRequest) => received.headers['x-service-signature'];
const arrived = (path: string, count = 1) =>
	waitFor(
		() => receiver().to(path).length >= count && receiver().to(path),
		`${count} request(s) to ${path}`,
	);

/** Waits until the sandbox has no delivery left in flight for `documentId` (every target ended ok or after 4 attempts). */
async function settled(
	sandbox: RunningSandbox,
	documentId: string,
	targets: number,
): Promise<void> {
	await waitFor(() => {
		const attempts = sandbox.deliveries().filter((attempt) => attempt.documentId === documentId);
		const byTarget = new Map<string, typeof attempts>();
		for (const attempt of attempts)
			byTarget.set(attempt.deliveryId + attempt.copy, [
				...(byTarget.get(attempt.deliveryId + attempt.copy) ?? []),
				attempt,
			]);
		return (
			byTarget.size >= targets &&
			[...byTarget.values()].every(
				(list) => list.some((attempt) => attempt.ok) || list.length === 4,
			)
		);
	}, `the deliveries of ${documentId} to end`);
	await sleep(150);
}

describe('signatures and targets', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox({
			retryBaseMs: 50,
			processingDelayMs: 100,
			reviewDelayMs: 60_000,
		});
	});
	afterAll(() => sandbox.close());
	beforeEach(() => control(sandbox, 'reset', {}));

	it('X-Service-Signature is the lowercase hex HMAC-SHA256 of the raw body with the registration secret', async () => {
		const path = newPath();
		const secret = 'registration-secret-for-signature-test';
		await register(sandbox, A.apiKey, {
			url: `${receiver().url}${path}`,
			events: ['document.verified'],
			secret,
		});
		const submitted = await submitForReview(sandbox, A.apiKey);
		await control(sandbox, `reviews/${submitted.review_id}/approve`, {});

		const [received] = await arrived(path);
		expect(received.method).toBe('POST');
		expect(received.headers['content-type']).toMatch(/^application\/json/);
		expect(signatureOf(received)).toMatch(/^[0-9a-f]{64}$/);
		expect(signatureOf(received)).toBe(hmacHex(secret, received.body));
		expect(signatureOf(received)).not.toBe(hmacHex(A.signingSecret, received.body));
		// Over the bytes as sent: any change to them changes the digest.
		expect(hmacHex(secret, Buffer.concat([received.body, Buffer.from(' ')]))).not.toBe(
			signatureOf(received),
		);
		expect(payloadOf(received)).toMatchObject({
			event: 'document.verified',
			document_id: submitted.document_id,
		});
	});

	it("a document's own webhook_url is signed with its account's signing secret (D13)", async () => {
		for (const account of [A, B]) {
			const path = newPath();
			const submitted = await submitForReview(sandbox, account.apiKey, pdf(), {
				webhook_url: `${receiver().url}${path}`,
			});
			await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
			const [received] = await arrived(path);
			expect(signatureOf(received)).toBe(hmacHex(account.signingSecret, received.body));
			expect(payloadOf(received)).toMatchObject({
				event: 'document.verified',
				document_id: submitted.document_id,
				verified_by: 'human_reviewer',
			});
		}
	});

	it('a webhook_url that is also registered for the event gets one delivery, signed with the registration secret (D13)', async () => {
		const path = newPath();
		await register(sandbox, A.apiKey, {
			url: `${receiver().url}${path}`,
			events: ['document.verified'],
			secret: 'shared-url-secret',
		});
		const submitted = await submitForReview(sandbox, A.apiKey, pdf(), {
			webhook_url: `${receiver().url}${path}`,
		});
		await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
		await arrived(path);
		await settled(sandbox, submitted.document_id, 1);
		expect(receiver().to(path)).toHaveLength(1);
		expect(signatureOf(receiver().to(path)[0])).toBe(
			hmacHex('shared-url-secret', receiver().to(path)[0].body),
		);
	});

	it('a registered URL and a different webhook_url each get one delivery, each with its own secret', async () => {
		const registered = newPath();
		const own = newPath();
		await register(sandbox, A.apiKey, {
			url: `${receiver().url}${registered}`,
			events: ['document.verified'],
			secret: 'the-registration-secret',
		});
		const submitted = await submitForReview(sandbox, A.apiKey, pdf(), {
			webhook_url: `${receiver().url}${own}`,
		});
		await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
		await settled(sandbox, submitted.document_id, 2);
		expect(receiver().to(registered)).toHaveLength(1);
		expect(receiver().to(own)).toHaveLength(1);
		expect(signatureOf(receiver().to(registered)[0])).toBe(
			hmacHex('the-registration-secret', receiver().to(registered)[0].body),
		);
		expect(signatureOf(receiver().to(own)[0])).toBe(
			hmacHex(A.signingSecret, receiver().to(own)[0].body),
		);
		expect(receiver().to(registered)[0].body.equals(receiver().to(own)[0].body)).toBe(true);
	});

	it('two registrations of one URL get one delivery each, each signed with its secret (D17)', async () => {
		const path = newPath();
		await register(sandbox, A.apiKey, {
			url: `${receiver().url}${path}`,
			events: ['document.verified'],
			secret: 'first-secret',
		});
		await register(sandbox, A.apiKey, {
			url: `${receiver().url}${path}`,
			events: ['document.verified'],
			secret: 'second-secret',
		});
		const submitted = await submitForReview(sandbox, A.apiKey);
		await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
		await settled(sandbox, submitted.document_id, 2);
		const signatures = receiver()
			.to(path)
			.map((received) => [signatureOf(received), received.body] as const);
		expect(signatures).toHaveLength(2);
		expect(
			signatures
				.map(([signature, body]) =>
					[hmacHex('first-secret', body), hmacHex('second-secret', body)].indexOf(
						String(signature),
					),
				)
				.sort(),
		).toEqual([0, 1]);
	});

	it('only subscribed events are delivered, and only for documents of the same account', async () => {
		const rejectionsOnly = newPath();
		const otherAccount = newPath();
		await register(sandbox, A.apiKey, {
			url: `${receiver().url}${rejectionsOnly}`,
			events: ['document.rejected'],
			secret: 'rejections-only',
		});
		await register(sandbox, B.apiKey, {
			url: `${receiver().url}${otherAccount}`,
			events: ['document.verified', 'document.rejected'],
			secret: 'account-b',
		});
		const approved = await submitForReview(sandbox, A.apiKey);
		await control(sandbox, `reviews/${approved.review_id}/approve`, {});
		const rejected = await submitForReview(sandbox, A.apiKey);
		await control(sandbox, `reviews/${rejected.review_id}/reject`, { reason: 'Not an invoice' });

		const [received] = await arrived(rejectionsOnly);
		await settled(sandbox, rejected.document_id, 1);
		expect(receiver().to(rejectionsOnly)).toHaveLength(1);
		expect(payloadOf(received)).toMatchObject({
			event: 'document.rejected',
			document_id: rejected.document_id,
		});
		expect(signatureOf(received)).toBe(hmacHex('rejections-only', received.body));
		expect(receiver().to(otherAccount)).toHaveLength(0);
	});

	it("a rejection also goes to the document's own webhook_url, signed with the account secret (D21, D8)", async () => {
		const own = newPath();
		const submitted = await submitForReview(sandbox, A.apiKey, pdf(), {
			webhook_url: `${receiver().url}${own}`,
		});
		await control(sandbox, `reviews/${submitted.review_id}/reject`, { reason: 'Vendor missing' });
		const [received] = await arrived(own);
		expect(signatureOf(received)).toBe(hmacHex(A.signingSecret, received.body));
		expect(payloadOf(received)).toEqual({
			event: 'document.rejected',
			timestamp: expect.any(String),
			document_id: submitted.document_id,
			review_id: submitted.review_id,
			rejected_by: 'human_reviewer',
			reason: 'Vendor missing',
			confidence: { original: 0.8 },
		});
	});

	it('a processed document verified by ai_auto goes to its own webhook_url only, without a review_id (D6)', async () => {
		const own = newPath();
		const registered = newPath();
		await register(sandbox, A.apiKey, {
			url: `${receiver().url}${registered}`,
			events: ['document.verified'],
			secret: 'not-for-ai-auto',
		});
		await control(sandbox, 'next-status', { status: 'processing' });
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A.apiKey, pdf(), {
			webhook_url: `${receiver().url}${own}`,
		});
		expect(reply.json.status).toBe('processing');
		const [received] = await arrived(own);
		await settled(sandbox, reply.json.document_id, 1);
		const payload = payloadOf(received);
		expect(payload).toMatchObject({
			event: 'document.verified',
			document_id: reply.json.document_id,
			verified_by: 'ai_auto',
			corrections_made: false,
			confidence: { original: 0.99, final: 0.99 },
		});
		expect(payload).not.toHaveProperty('review_id');
		expect(signatureOf(received)).toBe(hmacHex(A.signingSecret, received.body));
		expect(receiver().to(registered)).toHaveLength(0);
	});

	it('... and when that webhook_url is registered for document.verified, it is signed with the registration secret (D6 + D13)', async () => {
		const path = newPath();
		await register(sandbox, A.apiKey, {
			url: `${receiver().url}${path}`,
			events: ['document.verified'],
			secret: 'trigger-secret',
		});
		await control(sandbox, 'next-status', { status: 'processing' });
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A.apiKey, pdf(), {
			webhook_url: `${receiver().url}${path}`,
		});
		const [received] = await arrived(path);
		await settled(sandbox, reply.json.document_id, 1);
		expect(receiver().to(path)).toHaveLength(1);
		expect(payloadOf(received)).toMatchObject({ verified_by: 'ai_auto' });
		expect(signatureOf(received)).toBe(hmacHex('trigger-secret', received.body));
	});

	it('an automatic verification in the extract answer sends nothing, not even to webhook_url', async () => {
		const own = newPath();
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A.apiKey, pdf(), {
			webhook_url: `${receiver().url}${own}`,
		});
		expect(reply.json.status).toBe('verified');
		await sleep(300);
		expect(receiver().to(own)).toHaveLength(0);
	});
});

describe('retries (D9) and failures (D10)', () => {
	const BASE = 100;
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox({
			retryBaseMs: BASE,
			deliveryTimeoutMs: 2000,
			reviewDelayMs: 60_000,
		});
	});
	afterAll(() => sandbox.close());
	beforeEach(() => control(sandbox, 'reset', {}));

	async function approvedTo(path: string): Promise<string> {
		const submitted = await submitForReview(sandbox, A.apiKey, pdf(), {
			webhook_url: `${receiver().url}${path}`,
		});
		await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
		return submitted.document_id;
	}

	it('a 500, a reset and a 302 are failures; the 4th attempt succeeds; waits grow (base, 2x, 4x)', async () => {
		const path = newPath();
		const redirectTarget = newPath();
		receiver().script(path, (_received, nth) =>
			nth === 1
				? { status: 500 }
				: nth === 2
					? { reset: true }
					: nth === 3
						? { status: 302, headers: { location: `${receiver().url}${redirectTarget}` } }
						: { status: 200 },
		);
		const documentId = await approvedTo(path);
		const requests = await arrived(path, 4);
		await settled(sandbox, documentId, 1);

		expect(receiver().to(path)).toHaveLength(4);
		expect(receiver().to(redirectTarget)).toHaveLength(0);
		const gaps = requests.slice(1).map((received, index) => received.at - requests[index].at);
		expect(gaps[0]).toBeGreaterThanOrEqual(BASE - 15);
		expect(gaps[1]).toBeGreaterThanOrEqual(2 * BASE - 15);
		expect(gaps[2]).toBeGreaterThanOrEqual(4 * BASE - 15);
		// Every attempt carries the same bytes and signature.
		expect(new Set(requests.map((received) => received.body.toString('base64'))).size).toBe(1);
		expect(new Set(requests.map(signatureOf)).size).toBe(1);

		const attempts = sandbox.deliveries().filter((attempt) => attempt.documentId === documentId);
		expect(attempts.map((attempt) => [attempt.attempt, attempt.ok])).toEqual([
			[1, false],
			[2, false],
			[3, false],
			[4, true],
		]);
		expect(attempts[0].status).toBe(500);
		expect(attempts[1].error).toBeTruthy();
		expect(attempts[2].status).toBe(302);
	});

	it('1 try + 3 retries, then it stops', async () => {
		const path = newPath();
		receiver().script(path, () => ({ status: 503 }));
		const documentId = await approvedTo(path);
		await arrived(path, 4);
		// Well past the time a 5th attempt would have needed (8 x base).
		await sleep(10 * BASE);
		expect(receiver().to(path)).toHaveLength(4);
		expect(
			sandbox
				.deliveries()
				.filter((attempt) => attempt.documentId === documentId)
				.every((attempt) => !attempt.ok),
		).toBe(true);
	});

	it('a 301, 307 or 308 redirect is a failure and is not followed', async () => {
		await Promise.all(
			[301, 307, 308].map(async (code) => {
				const path = newPath();
				const target = newPath();
				receiver().script(path, () => ({
					status: code,
					headers: { location: `${receiver().url}${target}` },
				}));
				const documentId = await approvedTo(path);
				await arrived(path, 4);
				await settled(sandbox, documentId, 1);
				expect(receiver().to(target)).toHaveLength(0);
				expect(
					sandbox
						.deliveries()
						.filter((attempt) => attempt.documentId === documentId)
						.map((attempt) => attempt.status),
				).toEqual([code, code, code, code]);
			}),
		);
	});

	it('any 2xx is a success (202, 204): one attempt', async () => {
		for (const code of [202, 204]) {
			const path = newPath();
			receiver().script(path, () => ({ status: code }));
			const documentId = await approvedTo(path);
			await arrived(path);
			await settled(sandbox, documentId, 1);
			await sleep(2 * BASE);
			expect(receiver().to(path)).toHaveLength(1);
		}
	});
});

describe('a receiver slower than deliveryTimeoutMs has failed (D10)', () => {
	it('the slow attempt counts as failed and the retry is delivered', async () => {
		const sandbox = await startTestSandbox({
			retryBaseMs: 50,
			deliveryTimeoutMs: 300,
			reviewDelayMs: 60_000,
		});
		try {
			const path = newPath();
			receiver().script(path, (_received, nth) =>
				nth === 1 ? { delayMs: 1500 } : { status: 200 },
			);
			const submitted = await submitForReview(sandbox, A.apiKey, pdf(), {
				webhook_url: `${receiver().url}${path}`,
			});
			await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
			await arrived(path, 2);
			await settled(sandbox, submitted.document_id, 1);
			const attempts = sandbox.deliveries();
			expect(attempts.map((attempt) => attempt.ok)).toEqual([false, true]);
			expect(attempts[0].status).toBeUndefined();
			expect(attempts[0].error).toBeTruthy();
			expect(attempts[0].durationMs).toBeGreaterThanOrEqual(250);
			expect(receiver().to(path)).toHaveLength(2);
		} finally {
			await sandbox.close();
		}
	});
});

describe('every attempt ends at the delivery timeout, whatever phase it is in (D10)', () => {
	it('an endpoint that never completes the TLS handshake: 4 attempts, each ended by the timeout, with garbage collections in between', async () => {
		// The connection is never established, so no timeout of the HTTP client runs yet (headers are
		// timed once a request is written); collections run meanwhile, as in a busy process, so that a
		// deadline held only weakly would be dropped and the attempt would hang.
		setFlagsFromString('--expose-gc');
		const collectGarbage = runInNewContext('gc') as () => void;
		const sockets: Socket[] = [];
		const silent = createTcpServer((socket) => {
			sockets.push(socket);
			socket.on('data', () => undefined);
		});
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
		const sandbox = await startTestSandbox({
			retryBaseMs: 20,
			deliveryTimeoutMs: 300,
			reviewDelayMs: 60_000,
		});
		let collecting = true;
		const collector = (async () => {
			while (collecting) {
				collectGarbage();
				await sleep(10);
			}
		})();
		try {
			const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}/silent`;
			await register(sandbox, A.apiKey, {
				url,
				events: ['document.verified'],
				secret: 'silent-secret',
			});
			const submitted = await submitForReview(sandbox, A.apiKey);
			await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
			await settled(sandbox, submitted.document_id, 1);
			const attempts = sandbox
				.deliveries()
				.filter((attempt) => attempt.documentId === submitted.document_id);
			expect(
				attempts.map((attempt) => [attempt.attempt, attempt.ok, attempt.status, attempt.error]),
			).toEqual([1, 2, 3, 4].map((n) => [n, false, undefined, 'DELIVERY_TIMEOUT']));
			expect(sockets.length).toBeGreaterThanOrEqual(4);
		} finally {
			collecting = false;
			await collector;
			await sandbox.close();
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => silent.close(() => resolve()));
		}
	});
});

describe('HTTPS only', () => {
	it('an endpoint whose certificate is not trusted gets nothing: every attempt fails at TLS', async () => {
		const sandbox = await startTestSandbox({
			trustCa: undefined,
			retryBaseMs: 20,
			reviewDelayMs: 60_000,
		});
		try {
			const path = newPath();
			await register(sandbox, A.apiKey, {
				url: `${receiver().url}${path}`,
				events: ['document.verified'],
				secret: 'tls-secret',
			});
			const submitted = await submitForReview(sandbox, A.apiKey);
			await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
			await settled(sandbox, submitted.document_id, 1);
			const attempts = sandbox.deliveries();
			expect(attempts).toHaveLength(4);
			expect(
				attempts.every(
					(attempt) => !attempt.ok && attempt.status === undefined && Boolean(attempt.error),
				),
			).toBe(true);
			expect(receiver().to(path)).toHaveLength(0);
		} finally {
			await sandbox.close();
		}
	});

	it('an https:// URL served by plain HTTP gets no request: the attempts fail', async () => {
		const plainRequests: string[] = [];
		const plain = createHttpServer((request, response) => {
			plainRequests.push(request.url ?? '');
			response.end('ok');
		});
		await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', () => resolve()));
		const sandbox = await startTestSandbox({
			retryBaseMs: 20,
			deliveryTimeoutMs: 500,
			reviewDelayMs: 60_000,
		});
		try {
			const url = `https://127.0.0.1:${(plain.address() as AddressInfo).port}/plain`;
			await register(sandbox, A.apiKey, {
				url,
				events: ['document.verified'],
				secret: 'plain-secret',
			});
			const submitted = await submitForReview(sandbox, A.apiKey);
			await control(sandbox, `reviews/${submitted.review_id}/approve`, {});
			await settled(sandbox, submitted.document_id, 1);
			expect(sandbox.deliveries().every((attempt) => !attempt.ok)).toBe(true);
			expect(plainRequests).toEqual([]);
		} finally {
			await sandbox.close();
			plain.closeAllConnections();
			await new Promise<void>((resolve) => plain.close(() => resolve()));
		}
	});
});

describe('the duplicate-delivery switch', () => {
	it('on: every event arrives twice, byte for byte the same; off (via /__sandbox/config): once', async () => {
		const sandbox = await startTestSandbox({ duplicateDeliveries: true, reviewDelayMs: 60_000 });
		try {
			const path = newPath();
			const secret = 'duplicate-secret';
			await register(sandbox, A.apiKey, {
				url: `${receiver().url}${path}`,
				events: ['document.verified'],
				secret,
			});
			const first = await submitForReview(sandbox, A.apiKey);
			await control(sandbox, `reviews/${first.review_id}/approve`, {});
			const copies = await arrived(path, 2);
			expect(copies[0].body.equals(copies[1].body)).toBe(true);
			expect(signatureOf(copies[0])).toBe(hmacHex(secret, copies[0].body));
			expect(signatureOf(copies[1])).toBe(signatureOf(copies[0]));
			expect(payloadOf(copies[0]).document_id).toBe(first.document_id);

			await control(sandbox, 'config', { duplicateDeliveries: false });
			const second = await submitForReview(sandbox, A.apiKey);
			await control(sandbox, `reviews/${second.review_id}/approve`, {});
			await arrived(path, 3);
			await settled(sandbox, second.document_id, 1);
			expect(
				receiver()
					.to(path)
					.filter((received) => payloadOf(received).document_id === second.document_id),
			).toHaveLength(1);
		} finally {
			await sandbox.close();
		}
	});
});
