/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
// Conformance of the sandbox to the spec's endpoint, authentication, error and limit tables.
import { connect } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import type { SandboxOptions } from '../../sandbox/server.ts';
import {
	ACCOUNTS,
	control,
	extract,
	getStatus,
	invoiceJson,
	jpg,
	MIB,
	pdf,
	png,
	QUICK_SETTINGS,
	register,
	startTestSandbox,
	type Reply,
	type RunningSandbox,
} from './helpers.ts';

const KEY = ACCOUNTS.a.apiKey;
const sandboxWith = (options: SandboxOptions = {}) =>
	startTestSandbox({ ...QUICK_SETTINGS, ...options });

let sandbox: RunningSandbox;
afterEach(async () => {
	await sandbox?.close();
});

describe('POST /v1/extract', () => {
	it('verifies a confident document at once, with the extracted data object of the spec', async () => {
		sandbox = await sandboxWith();
		const answer = await extract(sandbox, KEY, invoiceJson(0.99));
		expect(answer.status).toBe(200);
		expect(answer.json).toMatchObject({
			success: true,
			status: 'verified',
			confidence: 0.99,
			verified_by: 'ai_auto',
		});
		expect(answer.json.document_id).toMatch(/^doc_[a-z0-9]{20}$/);
		expect(answer.json.extracted_json).toEqual({
			header: { vendor: 'Acme', date: '2026-01-31', invoice_no: 'A-1' },
			amounts: { subtotal: 100, tax: 19, total: 119 },
			line_items: [{ description: 'Thing', quantity: 4, unit_price: 25, amount: 100 }],
		});
		expect(answer.json).not.toHaveProperty('review_id');
	});

	it('sends exactly 0.95 to human review (D2) and answers with a review id', async () => {
		sandbox = await sandboxWith();
		const answer = await extract(sandbox, KEY, invoiceJson(0.95));
		expect(answer.json).toMatchObject({ success: true, status: 'needs_review', confidence: 0.95 });
		expect(answer.json.review_id).toMatch(/^rev_[a-z0-9]{20}$/);
		expect(answer.json).not.toHaveProperty('extracted_json');
	});

	it('gives the same invoice and confidence for the same PDF, PNG or JPG bytes, with amounts that add up', async () => {
		sandbox = await sandboxWith();
		for (const file of [pdf('the same bytes'), png(), jpg()]) {
			const name = file.name;
			await control(sandbox, 'next-confidence', { confidence: 0.99 });
			const first = await extract(sandbox, KEY, file);
			await control(sandbox, 'next-confidence', { confidence: 0.99 });
			const second = await extract(sandbox, KEY, file);
			expect(first.json.extracted_json, name).toEqual(second.json.extracted_json);
			const data = first.json.extracted_json as {
				amounts: { subtotal: number; tax: number; total: number };
				line_items: Array<{ quantity: number; unit_price: number; amount: number }>;
			};
			expect(Math.abs(data.amounts.subtotal + data.amounts.tax - data.amounts.total)).toBeLessThan(
				0.011,
			);
			const sum = data.line_items.reduce((total, line) => total + line.amount, 0);
			expect(Math.abs(sum - data.amounts.subtotal)).toBeLessThan(0.011);
		}
		const a = await extract(sandbox, KEY, pdf('the same bytes'));
		const b = await extract(sandbox, KEY, pdf('the same bytes'));
		expect(a.json.confidence).toBe(b.json.confidence);
	});

	it('parses a CSV invoice (D19)', async () => {
		sandbox = await sandboxWith();
		await control(sandbox, 'next-confidence', { confidence: 0.99 });
		const csv =
			'vendor,date,invoice_no,description,quantity,unit_price,amount\nGlobex,2026-09-30,G-1,Hours,10,120,1200\nGlobex,2026-09-30,G-1,Travel,1,300,300\n';
		const answer = await extract(sandbox, KEY, { name: 'i.csv', type: 'text/csv', content: csv });
		expect(answer.json.extracted_json).toMatchObject({
			header: { vendor: 'Globex', date: '2026-09-30', invoice_no: 'G-1' },
			amounts: { subtotal: 1500, tax: 285, total: 1785 },
			line_items: [
				{ description: 'Hours', quantity: 10, unit_price: 120, amount: 1200 },
				{ description: 'Travel', quantity: 1, unit_price: 300, amount: 300 },
			],
		});
	});

	it('refuses bad requests with 400 and the error body of D3', async () => {
		sandbox = await sandboxWith();
		const cases: Array<[string, Promise<Reply>, string]> = [
			['missing file', extract(sandbox, KEY, undefined, { note: 'x' }), 'missing_file'],
			[
				'unsupported type',
				extract(sandbox, KEY, { name: 'letter.docx', type: 'application/msword', content: 'x' }),
				'unsupported_type',
			],
			[
				'empty file',
				extract(sandbox, KEY, { name: 'a.pdf', content: Buffer.alloc(0) }),
				'empty_file',
			],
			[
				'http webhook_url',
				extract(sandbox, KEY, invoiceJson(), { webhook_url: 'http://example.com/hook' }),
				'invalid_webhook_url',
			],
			[
				'malformed webhook_url',
				extract(sandbox, KEY, invoiceJson(), { webhook_url: 'not a url' }),
				'invalid_webhook_url',
			],
		];
		for (const [name, pending, code] of cases) {
			const answer = await pending;
			expect(answer.status, name).toBe(400);
			expect(answer.json, name).toMatchObject({ success: false, error: { code } });
			expect(typeof (answer.json.error as { message: unknown }).message, name).toBe('string');
		}
		const notMultipart = await request(`${sandbox.url}/v1/extract`, {
			method: 'POST',
			body: '{"file":"x"}',
			headers: { 'x-api-key': ACCOUNTS.pilot.apiKey, 'content-type': 'application/json' },
		});
		expect(notMultipart.statusCode).toBe(400);
		await notMultipart.body.dump();
		expect(sandbox.state().documents).toHaveLength(0);
	});
});

describe('authentication', () => {
	it('answers 401 for a missing or invalid key, and for a key sent only in the body', async () => {
		sandbox = await sandboxWith();
		const file = invoiceJson();
		expect((await extract(sandbox, undefined, file)).status).toBe(401);
		expect((await extract(sandbox, 'sk_wrong', file)).status).toBe(401);
		const inBody = await extract(sandbox, undefined, file, { api_key: ACCOUNTS.pilot.apiKey });
		expect(inBody.status).toBe(401);
		expect(inBody.json).toMatchObject({ success: false, error: { code: 'unauthorized' } });
		expect((await getStatus(sandbox, 'sk_wrong', 'doc_x')).status).toBe(401);
		expect(
			(
				await register(sandbox, 'sk_wrong', {
					url: 'https://a.example/h',
					events: ['document.verified'],
					secret: 's',
				})
			).status,
		).toBe(401);
		expect(sandbox.state().documents).toHaveLength(0);
	});
});

describe('GET /v1/status/{doc_id}', () => {
	it("returns the fields of the spec, and 404 for unknown ids and other accounts' documents (D14)", async () => {
		sandbox = await sandboxWith();
		const created = await extract(sandbox, ACCOUNTS.growth.apiKey, invoiceJson(0.8));
		const answer = await getStatus(
			sandbox,
			ACCOUNTS.growth.apiKey,
			created.json.document_id as string,
		);
		expect(answer.status).toBe(200);
		expect(answer.json).toMatchObject({
			document_id: created.json.document_id,
			status: 'needs_review',
			confidence: 0.8,
			review_id: created.json.review_id,
		});
		expect(answer.json.estimated_time).toMatch(/minutes|seconds/);
		expect(new Date(answer.json.created_at as string).toISOString()).toBe(answer.json.created_at);
		expect((await getStatus(sandbox, KEY, 'doc_doesnotexist00000000')).status).toBe(404);
		const otherAccount = await getStatus(
			sandbox,
			ACCOUNTS.pilot.apiKey,
			created.json.document_id as string,
		);
		expect(otherAccount.status).toBe(404);
		expect(otherAccount.json).toMatchObject({ success: false, error: { code: 'not_found' } });
	});
});

describe('POST /webhooks/register', () => {
	it('registers an HTTPS endpoint and never returns the secret', async () => {
		sandbox = await sandboxWith();
		const answer = await register(sandbox, KEY, {
			url: 'https://hooks.example/a',
			events: ['document.verified', 'document.rejected'],
			secret: 'top-secret-value',
		});
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual({
			webhook_id: expect.stringMatching(/^wh_[a-z0-9]{20}$/),
			url: 'https://hooks.example/a',
			status: 'active',
		});
		expect(JSON.stringify(answer.json)).not.toContain('top-secret-value');
	});

	it('refuses bad registrations with 400 (D16)', async () => {
		sandbox = await sandboxWith();
		const base = { url: 'https://hooks.example/a', events: ['document.verified'], secret: 's' };
		const cases: Array<[string, unknown, string?]> = [
			['http url', { ...base, url: 'http://hooks.example/a' }],
			['bad url', { ...base, url: 'hooks' }],
			['unknown event', { ...base, events: ['document.created'] }],
			['no events', { ...base, events: [] }],
			['missing secret', { url: base.url, events: base.events }],
			['bad JSON', '{"url": '],
			['not JSON', 'url=x', 'application/x-www-form-urlencoded'],
		];
		for (const [name, body, contentType] of cases) {
			const answer = await register(sandbox, KEY, body, contentType);
			expect(answer.status, name).toBe(400);
			expect(answer.json, name).toMatchObject({ success: false });
		}
		expect(sandbox.state().webhooks).toHaveLength(0);
	});
});

describe('limits', () => {
	it('accepts a file of exactly the tier limit and refuses one byte more with 413 (D20)', async () => {
		sandbox = await sandboxWith({ processingThresholdBytes: 200 * MIB });
		for (const [tier, limit] of [
			['pilot', 10 * MIB],
			['growth', 25 * MIB],
		] as const) {
			const accepted = await extract(sandbox, ACCOUNTS[tier].apiKey, pdf('at the limit', limit));
			expect(accepted.status, tier).toBe(200);
			const over = await extract(sandbox, ACCOUNTS[tier].apiKey, pdf('one byte over', limit + 1));
			expect(over.status, tier).toBe(413);
			expect(over.json).toMatchObject({ success: false, error: { code: 'file_too_large' } });
		}
	});

	it('answers 413 while the upload is still streaming, long before the whole body arrived', async () => {
		sandbox = await sandboxWith();
		const boundary = 'xyzBOUNDARY';
		const total = 200 * MIB;
		const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-`;
		const { port } = new URL(sandbox.url);
		const result = await new Promise<{ statusLine: string; sent: number }>((resolve, reject) => {
			const socket = connect(Number(port), '127.0.0.1');
			let sent = 0;
			let answer = '';
			const chunk = Buffer.alloc(MIB, 0x41);
			socket.on('connect', () => {
				socket.write(
					`POST /v1/extract HTTP/1.1\r\nHost: x\r\nX-API-Key: ${ACCOUNTS.pilot.apiKey}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${total}\r\n\r\n${head}`,
				);
				const pump = () => {
					while (sent < total && !answer) {
						sent += chunk.length;
						if (!socket.write(chunk)) {
							socket.once('drain', pump);
							return;
						}
					}
				};
				pump();
			});
			socket.on('data', (data) => {
				answer += data.toString('latin1');
				if (answer.includes('\r\n')) {
					socket.destroy();
					resolve({ statusLine: answer.split('\r\n')[0], sent });
				}
			});
			socket.on('error', (error) => (answer ? undefined : reject(error)));
		});
		expect(result.statusLine).toContain('413');
		expect(result.sent).toBeLessThan(total / 2);
	});

	it('limits requests per key per minute with 429, Retry-After and rate-limit headers (D11), then resets', async () => {
		sandbox = await sandboxWith({ minuteMs: 1500 });
		const answers = [];
		for (let index = 0; index < 11; index++)
			answers.push(await getStatus(sandbox, ACCOUNTS.pilot.apiKey, 'doc_nothing'));
		expect(answers.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(404));
		expect(answers[0].headers['x-ratelimit-limit']).toBe('10');
		expect(answers[9].headers['x-ratelimit-remaining']).toBe('0');
		const limited = answers[10];
		expect(limited.status).toBe(429);
		expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
		expect(limited.json).toMatchObject({ success: false, error: { code: 'rate_limited' } });
		// Another key has its own window; enterprise is unlimited.
		expect((await getStatus(sandbox, ACCOUNTS.growth.apiKey, 'doc_nothing')).status).toBe(404);
		for (let index = 0; index < 30; index++)
			expect((await getStatus(sandbox, KEY, 'doc_nothing')).status).toBe(404);
		await new Promise((resolve) => setTimeout(resolve, 1600));
		expect((await getStatus(sandbox, ACCOUNTS.pilot.apiKey, 'doc_nothing')).status).toBe(404);
	});
});
