/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * The sandbox's own switches: injected faults (500, 503, slow, reset, malformed), persistence across a
 * restart with stateFile, and logs that never carry an API key, a secret or a signature.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
	ACCOUNTS,
	control,
	controlReply,
	extract,
	getStatus,
	hmacHex,
	isErrorBody,
	nextConfidence,
	pdf,
	png,
	register,
	send,
	sleep,
	startTestSandbox,
	submitForReview,
	useReceiver,
	waitFor,
	type RunningSandbox,
} from './helpers.ts';

const A = ACCOUNTS.a.apiKey;
const UNKNOWN = 'doc_00000000000000000000';

const receiver = useReceiver();

describe('fault injection (/__sandbox/faults)', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox();
	});
	afterAll(() => sandbox.close());
	beforeEach(() => control(sandbox, 'reset', {}));

	const probe = () => getStatus(sandbox, A, UNKNOWN);

	/**
	 * Injects `fault`, checks the answer to each of `times` probes while it is in force, then that the
	 * probe after them is served normally again (404: the document is unknown).
	 */
	async function probeUnder(
		fault: Record<string, unknown>,
		check: (reply: Awaited<ReturnType<typeof probe>>) => void,
		times = 1,
	) {
		await control(sandbox, 'faults', fault);
		for (let index = 0; index < times; index++) check(await probe());
		expect((await probe()).status).toBe(404);
	}

	/** A registration of an address nobody listens at. */
	const registerUnused = async () =>
		await register(sandbox, A, {
			url: `${receiver().url}/unused`,
			events: ['document.verified'],
			secret: 's',
		});

	it('500: the next `count` requests get a 500 with the D3 body, then the service answers again', async () => {
		await probeUnder(
			{ mode: '500', count: 2 },
			(reply) => {
				expect(reply.status).toBe(500);
				expect(isErrorBody(reply.json)).toBe(true);
			},
			2,
		);
	});

	it('503: answered with Retry-After', async () => {
		await probeUnder({ mode: '503' }, (reply) => {
			expect(reply.status).toBe(503);
			expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1);
			expect(isErrorBody(reply.json)).toBe(true);
		});
	});

	it('malformed: a 200 whose JSON body is cut off', async () => {
		await probeUnder({ mode: 'malformed' }, (reply) => {
			expect(reply.status).toBe(200);
			expect(reply.headers['content-type']).toMatch(/application\/json/);
			expect(reply.text.length).toBeGreaterThan(0);
			expect(() => JSON.parse(reply.text)).toThrow();
		});
	});

	it('reset: the connection is dropped without an answer; the next request is served', async () => {
		await control(sandbox, 'faults', { mode: 'reset' });
		await expect(
			request(`${sandbox.url}/v1/status/${UNKNOWN}`, { headers: { 'x-api-key': A } }),
		).rejects.toThrow();
		expect((await probe()).status).toBe(404);
	});

	it('slow: the answer comes after delayMs and is otherwise normal', async () => {
		await control(sandbox, 'faults', { mode: 'slow', delayMs: 400 });
		await nextConfidence(sandbox, 0.99);
		const started = Date.now();
		const reply = await extract(sandbox, A, pdf());
		expect(Date.now() - started).toBeGreaterThanOrEqual(380);
		expect(reply.json).toMatchObject({ success: true, status: 'verified' });
		// It was used up: the list of pending faults holds only the one added now.
		const pending = await control(sandbox, 'faults', { mode: '500', paths: ['/never/used'] });
		expect(pending.faults.map((fault: { mode: string }) => fault.mode)).toEqual(['500']);
	});

	it('paths: a fault for /v1/extract leaves other endpoints alone; a faulted extraction creates nothing', async () => {
		await control(sandbox, 'faults', { mode: '500', count: 1, paths: ['/v1/extract'] });
		expect((await probe()).status).toBe(404);
		expect((await registerUnused()).status).toBe(200);
		expect((await extract(sandbox, A, pdf())).status).toBe(500);
		expect(sandbox.state().documents).toHaveLength(0);
		expect((await extract(sandbox, A, pdf())).status).toBe(200);
	});

	it('after: lets that many requests of its paths through first, then fails the next `count`', async () => {
		await control(sandbox, 'faults', {
			mode: '500',
			count: 1,
			after: 2,
			paths: ['/v1/extract'],
		});
		// A request of another path is not one of those let through.
		expect((await probe()).status).toBe(404);
		const statuses: number[] = [];
		for (let upload = 0; upload < 4; upload++)
			statuses.push((await extract(sandbox, A, pdf())).status);
		expect(statuses).toEqual([200, 200, 500, 200]);
		expect(sandbox.state().documents).toHaveLength(3);
	});

	it('after: each waiting fault counts the requests on its own; the first one due answers', async () => {
		await control(sandbox, 'faults', { mode: '503', after: 2 });
		await control(sandbox, 'faults', { mode: '500' });
		const statuses: number[] = [];
		for (let request = 0; request < 4; request++) statuses.push((await probe()).status);
		// The 500 answers the first request (the 503 lets it through), the 503 the third.
		expect(statuses).toEqual([500, 404, 503, 404]);
	});

	it('refuses an `after` that is not a whole number from 0', async () => {
		for (const after of [-1, 1.5, '2']) {
			const reply = await controlReply(sandbox, 'faults', { mode: '500', after });
			expect(reply.status, JSON.stringify(after)).toBe(400);
		}
		expect((await probe()).status).toBe(404);
	});

	it('a 503 on registration stores no webhook', async () => {
		await control(sandbox, 'faults', { mode: '503', paths: ['/webhooks/register'] });
		expect((await registerUnused()).status).toBe(503);
		expect(sandbox.state().webhooks).toHaveLength(0);
	});

	it('refuses an unknown fault mode', async () => {
		const reply = await send(`${sandbox.url}/__sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{"mode":"explode"}',
		});
		expect(reply.status).toBe(400);
		expect((await probe()).status).toBe(404);
	});
});

describe('queued extraction (/__sandbox/next-extraction)', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox();
	});
	afterAll(() => sandbox.close());
	beforeEach(() => control(sandbox, 'reset', {}));

	const invoice = {
		header: { vendor: 'Acme Supplies GmbH', date: '2026-10-02', invoice_no: 'INV-7' },
		amounts: { subtotal: 10, tax: 0, total: 10 },
		line_items: [{ description: 'Paper', quantity: 1, unit_price: 10, amount: 10 }],
	};

	it('gives the next uploads that data, whatever the file: a PDF and a PNG carry one invoice; then the hash rules again', async () => {
		await control(sandbox, 'next-extraction', { data: invoice });
		await control(sandbox, 'next-extraction', { data: invoice });
		await nextConfidence(sandbox, 0.99);
		await nextConfidence(sandbox, 0.99);
		const fromPdf = await extract(sandbox, A, pdf());
		const fromPng = await extract(sandbox, A, png('one scan'));
		expect((fromPdf.json as { extracted_json: unknown }).extracted_json).toEqual(invoice);
		expect((fromPng.json as { extracted_json: unknown }).extracted_json).toEqual(invoice);
		const after = await extract(sandbox, A, pdf());
		expect((after.json as { extracted_json?: unknown }).extracted_json).not.toEqual(invoice);
	});

	it('refuses data that is not an extracted-data object', async () => {
		const reply = await send(`${sandbox.url}/__sandbox/next-extraction`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ data: { header: {} } }),
		});
		expect(reply.status).toBe(400);
	});
});

describe('persistence across a restart (stateFile)', () => {
	let dir: string;
	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('documents and webhooks survive; a pending review and a pending processing still finish', async () => {
		const stateFile = join(dir, 'state.json');
		const options = { stateFile, reviewDelayMs: 1500, processingDelayMs: 1000, retryBaseMs: 50 };
		const path = '/persisted';
		const secret = 'persisted-registration-secret';

		let sandbox = await startTestSandbox(options);
		const webhook = (
			await register(sandbox, A, {
				url: `${receiver().url}${path}`,
				events: ['document.verified', 'document.rejected'],
				secret,
			})
		).json;
		await nextConfidence(sandbox, 0.99);
		const verified = (await extract(sandbox, A, pdf())).json;
		const pending = await submitForReview(sandbox, A);
		const rejected = await submitForReview(sandbox, A);
		await control(sandbox, `reviews/${rejected.review_id}/reject`, { reason: 'Illegible' });
		await waitFor(() => receiver().to(path).length === 1, 'the rejection delivery');
		await control(sandbox, 'next-status', { status: 'processing' });
		await nextConfidence(sandbox, 0.99);
		const processing = (await extract(sandbox, A, pdf())).json;
		expect(processing.status).toBe('processing');
		const before = await getStatus(sandbox, A, verified.document_id);
		await sandbox.close();
		expect(existsSync(stateFile)).toBe(true);

		sandbox = await startTestSandbox(options);
		try {
			expect(sandbox.state().webhooks.map((entry) => entry.id)).toEqual([webhook.webhook_id]);
			expect((await getStatus(sandbox, A, verified.document_id)).json).toEqual(before.json);
			expect((await getStatus(sandbox, A, rejected.document_id)).json).toMatchObject({
				status: 'failed',
				failure_reason: 'rejected_by_reviewer',
				rejection_reason: 'Illegible',
			});
			// Still another account's document after the restart (D14).
			expect((await getStatus(sandbox, ACCOUNTS.b.apiKey, verified.document_id)).status).toBe(404);

			// The review that was pending finishes by itself and goes to the persisted registration.
			const received = await waitFor(
				() =>
					receiver()
						.to(path)
						.find(
							(entry) =>
								JSON.parse(entry.body.toString('utf8')).document_id === pending.document_id,
						),
				'the approval after the restart',
			);
			expect(received.headers['x-service-signature']).toBe(hmacHex(secret, received.body));
			expect(JSON.parse(received.body.toString('utf8'))).toMatchObject({
				event: 'document.verified',
				review_id: pending.review_id,
				verified_by: 'human_reviewer',
			});
			expect((await getStatus(sandbox, A, pending.document_id)).json.status).toBe('verified');
			await waitFor(
				async () =>
					(await getStatus(sandbox, A, processing.document_id)).json.status === 'verified',
				'the processing document',
			);

			// What the second run changes is written too.
			const second = (
				await register(sandbox, A, {
					url: `${receiver().url}/second`,
					events: ['document.rejected'],
					secret: 'second',
				})
			).json;
			const saved = JSON.parse(readFileSync(stateFile, 'utf8'));
			expect(saved.webhooks.map((entry: { id: string }) => entry.id).sort()).toEqual(
				[webhook.webhook_id, second.webhook_id].sort(),
			);
			expect(
				saved.documents.find((entry: { id: string }) => entry.id === pending.document_id).state,
			).toBe('verified');
		} finally {
			await sandbox.close();
		}
	});
});

describe('logs', () => {
	it('never contain an API key, a secret or a signature, while recording requests, documents and deliveries', async () => {
		const lines: string[] = [];
		const sandbox = await startTestSandbox({
			log: (line) => lines.push(line),
			retryBaseMs: 30,
			reviewDelayMs: 60_000,
		});
		// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fake value, for tests only
		const registrationSecret = 'log-test-registration-secret-4f9a';
		// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fake value, for tests only
		const wrongKey = 'sk_live_wrong_key_7d1e3b';
		try {
			const registered = '/logs-registered';
			const own = '/logs-own';
			receiver().script(registered, (_received, nth) =>
				nth === 1 ? { status: 500 } : { status: 200 },
			);
			await register(sandbox, A, {
				url: `${receiver().url}${registered}`,
				events: ['document.verified', 'document.rejected'],
				secret: registrationSecret,
			});
			const approved = await submitForReview(sandbox, A, pdf(), {
				webhook_url: `${receiver().url}${own}`,
			});
			await control(sandbox, `reviews/${approved.review_id}/approve`, {});
			const rejected = await submitForReview(sandbox, A);
			await control(sandbox, `reviews/${rejected.review_id}/reject`, { reason: 'Blurred' });
			await extract(sandbox, wrongKey, pdf());
			await extract(sandbox, undefined, pdf(), { api_key: ACCOUNTS.b.apiKey });
			for (let index = 0; index < 11; index++)
				await getStatus(sandbox, ACCOUNTS.pilot.apiKey, UNKNOWN);
			await waitFor(
				() => receiver().to(registered).length >= 3 && receiver().to(own).length >= 1,
				'the deliveries',
			);
			await sleep(100);

			expect(lines.length).toBeGreaterThan(10);
			const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
			const kinds = new Set(records.map((record) => record.kind));
			for (const kind of ['request', 'document', 'webhook', 'delivery', 'transition'])
				expect(kinds).toContain(kind);
			expect(records.some((record) => record.kind === 'request' && record.status === 401)).toBe(
				true,
			);
			expect(records.some((record) => record.kind === 'request' && record.status === 429)).toBe(
				true,
			);

			const text = lines.join('\n');
			const signatures = [...receiver().to(registered), ...receiver().to(own)].map((received) =>
				String(received.headers['x-service-signature']),
			);
			const forbidden = [
				...Object.values(ACCOUNTS).flatMap((account) => [account.apiKey, account.signingSecret]),
				wrongKey,
				registrationSecret,
				...signatures,
			];
			for (const value of forbidden)
				expect(text, `the log contains ${value.slice(0, 6)}...`).not.toContain(value);
		} finally {
			await sandbox.close();
		}
	});
});
