/**
 * The spec's Limits table: size per tier (413, D20: 1 MB = 1,048,576 bytes, exactly the limit is
 * accepted), the 413 arriving while a much larger upload is still streaming, and requests per minute
 * (429 with Retry-After and X-RateLimit-*, D11), per key, with the window resetting; the rolling
 * window and a tier's own rate a test can ask for (N69).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseRequestsPerMinute, rateLimitOptionsFromEnv } from '../../sandbox/config.ts';

import {
	ACCOUNTS,
	MIB,
	extract,
	getStatus,
	isErrorBody,
	pdf,
	sleep,
	startTestSandbox,
	streamedPdfUpload,
	type RunningSandbox,
} from './helpers.ts';

describe('size limit per tier (413)', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		// A high processing threshold keeps big files out of `processing`; irrelevant to the limit.
		sandbox = await startTestSandbox({ processingThresholdBytes: 200 * MIB });
	});
	afterAll(() => sandbox.close());

	it.each([
		['pilot', ACCOUNTS.pilot.apiKey, 10 * MIB],
		['growth', ACCOUNTS.growth.apiKey, 25 * MIB],
	])(
		'%s: a file of exactly the limit is accepted, one byte more is refused with 413 (D20)',
		async (tier, key, limit) => {
			const documentsBefore = sandbox.state().documents.length;
			const atLimit = pdf(`exact ${tier}`, limit);
			expect(atLimit.content.length).toBe(limit);
			const accepted = await extract(sandbox, key, atLimit);
			expect(accepted.status).toBe(200);
			expect(accepted.json.success).toBe(true);

			const over = await extract(sandbox, key, pdf(`over ${tier}`, limit + 1));
			expect(over.status).toBe(413);
			expect(isErrorBody(over.json, 'file_too_large')).toBe(true);
			expect(sandbox.state().documents.length).toBe(documentsBefore + 1);
		},
	);

	it('pilot: 10,000,001 bytes (above 10 MB in the decimal reading) is still accepted (D20)', async () => {
		const reply = await extract(sandbox, ACCOUNTS.pilot.apiKey, pdf('decimal reading', 10_000_001));
		expect(reply.status).toBe(200);
	});

	it('pilot: answers 413 while a 200 MiB upload is still streaming, having read only a fraction of it', async () => {
		const total = 200 * MIB;
		const upload = streamedPdfUpload(total);
		const response = await request(`${sandbox.url}/v1/extract`, {
			method: 'POST',
			headers: { 'x-api-key': ACCOUNTS.pilot.apiKey, 'content-type': upload.contentType },
			body: upload.body,
		});
		const producedAtAnswer = upload.produced();
		const text = await response.body.text();
		expect(response.statusCode).toBe(413);
		expect(isErrorBody(JSON.parse(text), 'file_too_large')).toBe(true);
		// It read past the limit (the refusal is about size) but stopped long before the end.
		expect(producedAtAnswer).toBeGreaterThan(10 * MIB);
		expect(producedAtAnswer).toBeLessThan(total / 2);
		// The rest is never pulled: the connection is closed instead of drained.
		await sleep(1500);
		expect(upload.finished()).toBe(false);
		expect(upload.produced()).toBeLessThan(total / 2);
	});

	it('enterprise: 100 MiB + 1 byte, streamed, is refused with 413 only after the whole 100 MiB arrived', async () => {
		const limit = 100 * MIB;
		const upload = streamedPdfUpload(limit + 1);
		const response = await request(`${sandbox.url}/v1/extract`, {
			method: 'POST',
			headers: { 'x-api-key': ACCOUNTS.a.apiKey, 'content-type': upload.contentType },
			body: upload.body,
		});
		const producedAtAnswer = upload.produced();
		const body = JSON.parse(await response.body.text());
		expect(response.statusCode).toBe(413);
		expect(isErrorBody(body, 'file_too_large')).toBe(true);
		expect(body.error.message).toContain('100 MB');
		expect(producedAtAnswer).toBeGreaterThan(limit);
	});
});

describe('requests per minute (429, D11)', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox({ minuteMs: 60_000 });
	});
	afterAll(() => sandbox.close());

	const probe = (key: string) => getStatus(sandbox, key, 'doc_00000000000000000000');

	it('pilot: 10 requests pass with X-RateLimit-* counting down; the 11th is 429 with Retry-After', async () => {
		const key = ACCOUNTS.pilot.apiKey;
		for (let index = 1; index <= 10; index++) {
			const reply = await probe(key);
			expect(reply.status).toBe(404);
			expect(reply.headers['x-ratelimit-limit']).toBe('10');
			expect(reply.headers['x-ratelimit-remaining']).toBe(String(10 - index));
			const reset = Number(reply.headers['x-ratelimit-reset']);
			expect(Number.isInteger(reset) && reset >= 1 && reset <= 60).toBe(true);
		}
		const limited = await probe(key);
		expect(limited.status).toBe(429);
		expect(isErrorBody(limited.json, 'rate_limited')).toBe(true);
		const retryAfter = limited.headers['retry-after'];
		expect(retryAfter).toMatch(/^\d+$/);
		expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
		expect(Number(retryAfter)).toBeLessThanOrEqual(60);
		expect(limited.headers['x-ratelimit-remaining']).toBe('0');
	});

	it('pilot: a refused extraction does nothing (no document)', async () => {
		const before = sandbox.state().documents.length;
		const reply = await extract(sandbox, ACCOUNTS.pilot.apiKey, pdf());
		expect(reply.status).toBe(429);
		expect(reply.headers['retry-after']).toBeDefined();
		expect(sandbox.state().documents.length).toBe(before);
	});

	it('growth: 100 requests pass, the 101st is 429; other keys keep their own windows', async () => {
		const key = ACCOUNTS.growth.apiKey;
		const replies = [];
		for (let batch = 0; batch < 10; batch++)
			replies.push(...(await Promise.all(Array.from({ length: 10 }, () => probe(key)))));
		expect(replies.map((reply) => reply.status)).toEqual(Array(100).fill(404));
		expect(replies.every((reply) => reply.headers['x-ratelimit-limit'] === '100')).toBe(true);
		expect(new Set(replies.map((reply) => reply.headers['x-ratelimit-remaining'])).size).toBe(100);
		const limited = await probe(key);
		expect(limited.status).toBe(429);
		expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
		// The pilot key is still limited, the enterprise keys are not.
		expect((await probe(ACCOUNTS.pilot.apiKey)).status).toBe(429);
		expect((await probe(ACCOUNTS.b.apiKey)).status).toBe(404);
	});

	it('enterprise: unlimited, and no X-RateLimit-* headers', async () => {
		const replies = [];
		for (let batch = 0; batch < 15; batch++)
			replies.push(
				...(await Promise.all(Array.from({ length: 20 }, () => probe(ACCOUNTS.a.apiKey)))),
			);
		expect(replies).toHaveLength(300);
		expect(replies.every((reply) => reply.status === 404)).toBe(true);
		expect(
			replies.some(
				(reply) => 'x-ratelimit-limit' in reply.headers || 'retry-after' in reply.headers,
			),
		).toBe(false);
	});

	it('a request without a valid key is 401, not counted and not limited', async () => {
		const reply = await getStatus(sandbox, 'sk_unknown', 'doc_00000000000000000000');
		expect(reply.status).toBe(401);
		expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
	});
});

describe('the rate-limit window resets after a minute (minuteMs)', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox({ minuteMs: 1500 });
	});
	afterAll(() => sandbox.close());

	it('pilot: limited at the 11th request, served again once the window has passed', async () => {
		const key = ACCOUNTS.pilot.apiKey;
		const started = Date.now();
		for (let index = 0; index < 10; index++)
			expect((await getStatus(sandbox, key, 'doc_00000000000000000000')).status).toBe(404);
		const limited = await getStatus(sandbox, key, 'doc_00000000000000000000');
		if (Date.now() - started < 1400) {
			// Still inside the first window (always, unless the machine stalled): refused.
			expect(limited.status).toBe(429);
			expect(['1', '2']).toContain(limited.headers['retry-after']);
		}
		await sleep(Math.max(0, started + 1600 - Date.now()));
		const again = await getStatus(sandbox, key, 'doc_00000000000000000000');
		expect(again.status).toBe(404);
		expect(again.headers['x-ratelimit-remaining']).toBe('9');
	});
});

describe('a rolling window (rateLimitWindow: rolling, N69)', () => {
	const MINUTE_MS = 3000;
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox({
			minuteMs: MINUTE_MS,
			rateLimitWindow: 'rolling',
			requestsPerMinute: { pilot: 3 },
		});
	});
	afterAll(() => sandbox.close());

	const probe = () => getStatus(sandbox, ACCOUNTS.pilot.apiKey, 'doc_00000000000000000000');
	const until = async (at: number) => await sleep(Math.max(0, at - Date.now()));

	it('counts the requests of the last minuteMs: a place frees when the oldest leaves, and the headers say when', async () => {
		const first = Date.now();
		const one = await probe();
		expect([one.status, one.headers['x-ratelimit-remaining']]).toEqual([404, '2']);
		expect(one.headers['x-ratelimit-reset']).toBe('3');
		await until(first + 1500);
		const second = Date.now();
		expect((await probe()).headers['x-ratelimit-remaining']).toBe('1');
		const three = await probe();
		expect(three.headers['x-ratelimit-remaining']).toBe('0');
		const refused = await probe();
		expect(refused.status).toBe(429);
		if (Date.now() - first < 2000) {
			// When the first request leaves (in about 1.5 s), not when the last one does (3 s).
			expect(three.headers['x-ratelimit-reset']).toBe('2');
			expect(refused.headers['retry-after']).toBe('2');
			expect(refused.headers['x-ratelimit-reset']).toBe('2');
		}

		// The first request has left; the two of 1.5 s later still count: one place, not a fresh window.
		await until(first + MINUTE_MS + 100);
		const four = await probe();
		expect([four.status, four.headers['x-ratelimit-remaining']]).toEqual([404, '0']);
		const again = await probe();
		expect(again.status).toBe(429);
		if (Date.now() - second < MINUTE_MS - 200) expect(again.headers['retry-after']).toBe('2');

		// Refused requests were not counted: once the two have left, two places again.
		await until(second + MINUTE_MS + 100);
		expect((await probe()).headers['x-ratelimit-remaining']).toBe('1');
		expect((await probe()).headers['x-ratelimit-remaining']).toBe('0');
		expect((await probe()).status).toBe(429);
	});
});

describe("a tier's own rate (requestsPerMinute)", () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox({ requestsPerMinute: { pilot: 3, enterprise: 2 } });
	});
	afterAll(() => sandbox.close());

	const probe = (key: string) => getStatus(sandbox, key, 'doc_00000000000000000000');

	it('replaces the spec rate of the tiers named, in the 429 and the headers; the others keep theirs', async () => {
		for (let index = 0; index < 3; index++)
			expect((await probe(ACCOUNTS.pilot.apiKey)).headers['x-ratelimit-limit']).toBe('3');
		const refused = await probe(ACCOUNTS.pilot.apiKey);
		expect(refused.status).toBe(429);
		expect(refused.json.error.message).toBe('The pilot tier allows 3 requests per minute.');
		expect((await probe(ACCOUNTS.a.apiKey)).status).toBe(404);
		expect((await probe(ACCOUNTS.a.apiKey)).headers['x-ratelimit-remaining']).toBe('0');
		expect((await probe(ACCOUNTS.a.apiKey)).status).toBe(429);
		expect((await probe(ACCOUNTS.growth.apiKey)).headers['x-ratelimit-limit']).toBe('100');
	});
});

describe('the rate limit from the environment (npm run sandbox)', () => {
	it('SANDBOX_REQUESTS_PER_MINUTE: tier:number or tier:unlimited, comma-separated', () => {
		expect(parseRequestsPerMinute('pilot:3, enterprise:unlimited')).toEqual({
			pilot: 3,
			enterprise: null,
		});
		for (const wrong of ['free:3', 'pilot:x', 'pilot:-1', 'pilot:2.5', 'pilot'])
			expect(() => parseRequestsPerMinute(wrong)).toThrow(/SANDBOX_REQUESTS_PER_MINUTE/);
	});

	it('SANDBOX_RATE_LIMIT_WINDOW: fixed or rolling; unset keeps the defaults', () => {
		expect(
			rateLimitOptionsFromEnv({
				SANDBOX_RATE_LIMIT_WINDOW: 'rolling',
				SANDBOX_REQUESTS_PER_MINUTE: 'pilot:3',
			}),
		).toEqual({ rateLimitWindow: 'rolling', requestsPerMinute: { pilot: 3 } });
		expect(rateLimitOptionsFromEnv({})).toEqual({
			rateLimitWindow: undefined,
			requestsPerMinute: undefined,
		});
		expect(() => rateLimitOptionsFromEnv({ SANDBOX_RATE_LIMIT_WINDOW: 'sliding' })).toThrow(
			/SANDBOX_RATE_LIMIT_WINDOW/,
		);
	});
});
