/**
 * Endpoints, authentication and the 400/401/404 rows of the spec's Errors table (D1, D3, D4, D14,
 * D16, D22), over real HTTP with undici.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
	ACCOUNTS,
	DOC_ID,
	ISO_UTC,
	REVIEW_ID,
	WEBHOOK_ID,
	control,
	extract,
	extractedDataProblems,
	formData,
	getStatus,
	isErrorBody,
	jpg,
	nextConfidence,
	pdf,
	png,
	postForm,
	register,
	send,
	startTestSandbox,
	submitForReview,
	type RunningSandbox,
} from './helpers.ts';

const A = ACCOUNTS.a.apiKey;
const B = ACCOUNTS.b.apiKey;
const HOOK = 'https://hooks.example.test/document-events';

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox({ reviewDelayMs: 60_000 });
});
afterAll(() => sandbox.close());
beforeEach(() => control(sandbox, 'reset', {}));

const documentCount = () => sandbox.state().documents.length;

describe('POST /v1/extract', () => {
	it('confidence above 0.95: 200 verified with extracted_json and verified_by ai_auto, nothing else', async () => {
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A, pdf());
		expect(reply.status).toBe(200);
		expect(reply.headers['content-type']).toMatch(/^application\/json/);
		expect(Object.keys(reply.json).sort()).toEqual([
			'confidence',
			'document_id',
			'extracted_json',
			'status',
			'success',
			'verified_by',
		]);
		expect(reply.json).toMatchObject({
			success: true,
			status: 'verified',
			confidence: 0.99,
			verified_by: 'ai_auto',
		});
		expect(reply.json.document_id).toMatch(DOC_ID);
		expect(extractedDataProblems(reply.json.extracted_json)).toEqual([]);
	});

	it('confidence below 0.95: 200 needs_review with a review_id and no data', async () => {
		await nextConfidence(sandbox, 0.42);
		const reply = await extract(sandbox, A, pdf());
		expect(reply.status).toBe(200);
		expect(Object.keys(reply.json).sort()).toEqual([
			'confidence',
			'document_id',
			'review_id',
			'status',
			'success',
		]);
		expect(reply.json).toMatchObject({ success: true, status: 'needs_review', confidence: 0.42 });
		expect(reply.json.document_id).toMatch(DOC_ID);
		expect(reply.json.review_id).toMatch(REVIEW_ID);
	});

	it('issues a new document id for every extraction, also for the same bytes (D4)', async () => {
		const file = pdf('same bytes');
		const ids = new Set<string>();
		for (let index = 0; index < 3; index++)
			ids.add((await extract(sandbox, A, file)).json.document_id);
		expect(ids.size).toBe(3);
		for (const id of ids) expect(id).toMatch(DOC_ID);
	});

	it.each([
		['PDF', pdf()],
		['PNG', png()],
		['JPG', jpg()],
		['JPEG extension', { ...jpg(), name: 'photo.JPEG' }],
		[
			'JSON',
			{
				name: 'invoice.json',
				content: '{"header":{"vendor":"V","date":"2026-01-02","invoice_no":"1"},"line_items":[]}',
			},
		],
		[
			'CSV',
			{ name: 'lines.csv', content: 'description,quantity,unit_price,amount\nPaper,1,2.5,2.5\n' },
		],
		[
			'no extension, typed application/pdf (D22)',
			{ ...pdf(), name: 'scan', type: 'application/pdf' },
		],
		['no extension, typed image/png (D22)', { ...png(), name: 'upload', type: 'image/png' }],
	])('accepts %s', async (_label, file) => {
		const reply = await extract(sandbox, A, file);
		expect(reply.status).toBe(200);
		expect(['verified', 'needs_review', 'processing']).toContain(reply.json.status);
		expect(reply.json.document_id).toMatch(DOC_ID);
	});

	it('takes the type from the extension before the declared content type (D22)', async () => {
		// A real PNG named .png but labelled application/pdf is read as PNG, so it does not fail.
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A, {
			...png('labelled wrongly'),
			type: 'application/pdf',
		});
		expect(reply.json.status).toBe('verified');
	});
});

describe('GET /v1/status/{doc_id}', () => {
	it('reports a verified document with the spec fields and an ISO 8601 UTC created_at', async () => {
		await nextConfidence(sandbox, 0.97);
		const before = Date.now();
		const { document_id } = (await extract(sandbox, A, pdf())).json;
		const reply = await getStatus(sandbox, A, document_id);
		expect(reply.status).toBe(200);
		expect(reply.json).toMatchObject({ document_id, status: 'verified', confidence: 0.97 });
		expect(typeof reply.json.estimated_time).toBe('string');
		expect(reply.json.created_at).toMatch(ISO_UTC);
		expect(Date.parse(reply.json.created_at)).toBeGreaterThanOrEqual(before - 1000);
		// Fields the spec types as strings are strings when present (never null, D23).
		expect(reply.json).not.toHaveProperty('review_id');
		for (const value of Object.values(reply.json)) expect(value).not.toBeNull();
	});

	it('reports a document in review with its review_id and a non-empty estimated_time', async () => {
		const submitted = await submitForReview(sandbox, A);
		const reply = await getStatus(sandbox, A, submitted.document_id);
		expect(reply.json).toMatchObject({
			document_id: submitted.document_id,
			status: 'needs_review',
			review_id: submitted.review_id,
			confidence: 0.8,
		});
		expect(reply.json.estimated_time).toMatch(/\d/);
		expect(Object.keys(reply.json).sort()).toEqual([
			'confidence',
			'created_at',
			'document_id',
			'estimated_time',
			'review_id',
			'status',
		]);
	});

	it('404 with the D3 body for an unknown, well-formed id (D14)', async () => {
		const reply = await getStatus(sandbox, A, 'doc_00000000000000000000');
		expect(reply.status).toBe(404);
		expect(isErrorBody(reply.json, 'not_found')).toBe(true);
	});

	it("404 for another account's document, answered like an unknown id (D14: no existence leak)", async () => {
		await nextConfidence(sandbox, 0.99);
		const { document_id } = (await extract(sandbox, A, pdf())).json;
		expect((await getStatus(sandbox, A, document_id)).status).toBe(200);
		const foreign = await getStatus(sandbox, B, document_id);
		const unknown = await getStatus(sandbox, B, 'doc_zzzzzzzzzzzzzzzzzzzz');
		expect(foreign.status).toBe(404);
		expect(foreign.json.error.code).toBe(unknown.json.error.code);
		expect(foreign.json.error.message.replace(document_id, 'ID')).toBe(
			unknown.json.error.message.replace('doc_zzzzzzzzzzzzzzzzzzzz', 'ID'),
		);
		expect(foreign.text).not.toContain('acct_');
	});

	it.each(['%ZZ', 'doc_%E0%A4%A', 'doc_abc%2F..%2Fx'])(
		'404, not a server error, for the malformed id %s',
		async (id) => {
			const reply = await getStatus(sandbox, A, id);
			expect(reply.status).toBe(404);
			expect(isErrorBody(reply.json, 'not_found')).toBe(true);
		},
	);
});

describe('POST /webhooks/register', () => {
	it('registers: 200 with a wh_ id, the url and status active; the secret is never returned', async () => {
		const secret = 'registration-secret-never-echoed';
		const reply = await register(sandbox, A, {
			url: HOOK,
			events: ['document.verified', 'document.rejected'],
			secret,
		});
		expect(reply.status).toBe(200);
		expect(reply.json).toEqual({
			webhook_id: expect.stringMatching(WEBHOOK_ID),
			url: HOOK,
			status: 'active',
		});
		expect(reply.text).not.toContain(secret);
		expect(sandbox.state().webhooks).toHaveLength(1);
	});

	it('gives a new webhook_id for each registration of the same URL (D17)', async () => {
		const first = await register(sandbox, A, {
			url: HOOK,
			events: ['document.verified'],
			secret: 's1',
		});
		const second = await register(sandbox, A, {
			url: HOOK,
			events: ['document.verified'],
			secret: 's2',
		});
		expect(first.json.webhook_id).not.toBe(second.json.webhook_id);
		expect(sandbox.state().webhooks).toHaveLength(2);
	});

	it('has no version prefix, while extraction and status have /v1 (Versioning)', async () => {
		const wrong = await send(`${sandbox.url}/v1/webhooks/register`, {
			method: 'POST',
			headers: { 'x-api-key': A, 'content-type': 'application/json' },
			body: JSON.stringify({ url: HOOK, events: ['document.verified'], secret: 's' }),
		});
		expect(wrong.status).toBe(404);
		const unversioned = await postForm(`${sandbox.url}/extract`, A, formData(pdf()));
		expect(unversioned.status).toBe(404);
		expect(documentCount()).toBe(0);
	});
});

describe('400: invalid file or parameters (D3 body)', () => {
	const extractRaw = (headers: Record<string, string>, body?: string | Buffer) =>
		send(`${sandbox.url}/v1/extract`, {
			method: 'POST',
			headers: { 'x-api-key': A, ...headers },
			body,
		});

	it.each([
		[
			'a JSON body',
			{ 'content-type': 'application/json' },
			JSON.stringify({ file: 'JVBERi0xLjc=' }),
		],
		['a raw PDF body', { 'content-type': 'application/pdf' }, Buffer.from('%PDF-1.7 raw')],
		['an urlencoded form', { 'content-type': 'application/x-www-form-urlencoded' }, 'file=abc'],
		['no content type', {}, 'file'],
	])('a non-multipart body: %s (D1)', async (_label, headers, body) => {
		const reply = await extractRaw(headers, body);
		expect(reply.status).toBe(400);
		expect(isErrorBody(reply.json, 'invalid_body')).toBe(true);
	});

	it('a multipart body that breaks off before its closing boundary', async () => {
		const reply = await extractRaw(
			{ 'content-type': 'multipart/form-data; boundary=XyZ' },
			'--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 truncated',
		);
		expect(reply.status).toBe(400);
		expect(isErrorBody(reply.json)).toBe(true);
	});

	it.each([
		['only a webhook_url field', () => formData(undefined, { webhook_url: HOOK })],
		['the file in another field', () => formData(pdf(), {}, 'document')],
		['"file" as a text field', () => formData(undefined, { file: '%PDF-1.7 as text' })],
	])('missing file: %s', async (_label, data) => {
		const reply = await postForm(`${sandbox.url}/v1/extract`, A, data());
		expect(reply.status).toBe(400);
		expect(isErrorBody(reply.json, 'missing_file')).toBe(true);
	});

	it.each([
		{ name: 'notes.txt', content: 'plain text' },
		{ name: 'image.gif', content: 'GIF89a' },
		{ name: 'letter.docx', content: 'PK\u0003\u0004' },
		{ name: 'noextension', content: 'data', type: 'application/octet-stream' },
	])('unsupported type: $name', async (file) => {
		const reply = await extract(sandbox, A, file);
		expect(reply.status).toBe(400);
		expect(isErrorBody(reply.json, 'unsupported_type')).toBe(true);
	});

	it('an empty file', async () => {
		const reply = await extract(sandbox, A, { name: 'empty.pdf', content: Buffer.alloc(0) });
		expect(reply.status).toBe(400);
		expect(isErrorBody(reply.json, 'empty_file')).toBe(true);
	});

	it.each([
		'http://hooks.example.test/x',
		'ftp://hooks.example.test/x',
		'not a url',
		'https://',
		'https://user:pass@hooks.example.test/x',
		'/relative/path',
	])('webhook_url %s (HTTPS only)', async (webhookUrl) => {
		const reply = await extract(sandbox, A, pdf(), { webhook_url: webhookUrl });
		expect(reply.status).toBe(400);
		expect(isErrorBody(reply.json, 'invalid_webhook_url')).toBe(true);
	});

	it('creates no document for any refused extraction', async () => {
		await extract(sandbox, A, { name: 'empty.pdf', content: Buffer.alloc(0) });
		await extract(sandbox, A, pdf(), { webhook_url: 'http://insecure.example.test/' });
		await extract(sandbox, A, { name: 'notes.txt', content: 'x' });
		expect(documentCount()).toBe(0);
	});

	describe('registration', () => {
		const valid = { url: HOOK, events: ['document.verified'], secret: 'a-secret' };
		it.each([
			['bad JSON', '{"url": "https://x.example.test", ', 'invalid_json'],
			['JSON that is not an object', '"just a string"', 'invalid_url'],
			['a missing url', { ...valid, url: undefined }, 'invalid_url'],
			['a non-HTTPS url', { ...valid, url: 'http://hooks.example.test/x' }, 'invalid_url'],
			['a malformed url', { ...valid, url: 'https//hooks' }, 'invalid_url'],
			[
				'an unknown event',
				{ ...valid, events: ['document.verified', 'document.deleted'] },
				'invalid_events',
			],
			['an empty event list', { ...valid, events: [] }, 'invalid_events'],
			['events not a list', { ...valid, events: 'document.verified' }, 'invalid_events'],
			['missing events', { ...valid, events: undefined }, 'invalid_events'],
			['a missing secret', { ...valid, secret: undefined }, 'invalid_secret'],
			['an empty secret', { ...valid, secret: '' }, 'invalid_secret'],
			['a secret that is not a string', { ...valid, secret: 12345 }, 'invalid_secret'],
		])('%s (D16)', async (_label, body, code) => {
			const reply = await register(sandbox, A, body);
			expect(reply.status).toBe(400);
			expect(isErrorBody(reply.json, code)).toBe(true);
			expect(sandbox.state().webhooks).toHaveLength(0);
		});

		it('a body that is not sent as application/json', async () => {
			const reply = await send(`${sandbox.url}/webhooks/register`, {
				method: 'POST',
				headers: { 'x-api-key': A, 'content-type': 'text/plain' },
				body: JSON.stringify(valid),
			});
			expect(reply.status).toBe(400);
			expect(isErrorBody(reply.json, 'invalid_body')).toBe(true);
		});
	});
});

describe('401: missing or invalid API key', () => {
	const expect401 = (reply: { status: number; json: unknown }) => {
		expect(reply.status).toBe(401);
		expect(isErrorBody(reply.json, 'unauthorized')).toBe(true);
	};

	it('a missing key, on every endpoint', async () => {
		expect401(await extract(sandbox, undefined, pdf()));
		expect401(await getStatus(sandbox, undefined, 'doc_00000000000000000000'));
		expect401(
			await register(sandbox, undefined, { url: HOOK, events: ['document.verified'], secret: 's' }),
		);
		expect(documentCount()).toBe(0);
		expect(sandbox.state().webhooks).toHaveLength(0);
	});

	it('an invalid key, on every endpoint (keys are case-sensitive)', async () => {
		for (const key of ['sk_test_nonexistent', A.toUpperCase(), `${A} `.trim() + 'x', '']) {
			expect401(await extract(sandbox, key, pdf()));
			expect401(await getStatus(sandbox, key, 'doc_00000000000000000000'));
			expect401(
				await register(sandbox, key, { url: HOOK, events: ['document.verified'], secret: 's' }),
			);
		}
		expect(documentCount()).toBe(0);
	});

	it('a key sent only in a body field api_key is not accepted', async () => {
		expect401(
			await postForm(`${sandbox.url}/v1/extract`, undefined, formData(pdf(), { api_key: A })),
		);
		expect401(
			await register(sandbox, undefined, {
				url: HOOK,
				events: ['document.verified'],
				secret: 's',
				api_key: A,
			}),
		);
		expect(documentCount()).toBe(0);
	});

	it('a key in the query string or in an Authorization header is not accepted', async () => {
		expect401(await send(`${sandbox.url}/v1/status/doc_00000000000000000000?api_key=${A}`));
		expect401(
			await send(`${sandbox.url}/v1/status/doc_00000000000000000000`, {
				headers: { authorization: `Bearer ${A}` },
			}),
		);
	});

	it('401 comes before any check of the body', async () => {
		expect401(
			await send(`${sandbox.url}/v1/extract`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			}),
		);
		expect401(await register(sandbox, 'sk_wrong', 'not json'));
	});
});
