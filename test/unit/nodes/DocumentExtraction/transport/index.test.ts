/**
 * Every error answer of the service, and the retry rules (N2, N69): a 429 is retried after
 * Retry-After and a random share of it, an upload's for as long as its Rate Limit Wait lasts; an
 * extract is never repeated after a 5xx or a broken connection; a status lookup is. And where the
 * API key may go: plain http carries it in clear, so the Base URL may use it only for this machine
 * (docs/spec-decisions.md#n64); the nodes refuse it before any request, the credential's own
 * authentication refuses it too (test/unit/credentials).
 */
import type { INodeParameters } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { API_KEY, NODE_NAME, parseMultipart, ServiceMock } from '../../../harness/index.ts';
import {
	DOCUMENT_ID,
	extractOnePdf,
	extractParameters,
	itemWithFile,
	pdfBytes,
	pdfItem,
	serviceError,
	useNodeHarness,
	VERIFIED,
} from '../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

// The jitter's random share is 0 unless a test draws another: every wait is then as asked.
beforeEach(() => {
	vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
	vi.restoreAllMocks();
});

/**
 * A clock that moves only when the node sleeps (the harness records a wait and skips it), so a
 * Rate Limit Wait of minutes passes in no time and every deadline falls exactly.
 */
function clockMovedBySleeps(): void {
	const start = Date.now();
	vi.spyOn(Date, 'now').mockImplementation(
		() => start + harness().waits.reduce((sum, wait) => sum + wait, 0),
	);
}

const statusParameters = (
	documentId = DOCUMENT_ID,
	options: INodeParameters = {},
): INodeParameters => ({
	resource: 'document',
	operation: 'getStatus',
	documentId,
	options,
});

const STATUS = {
	document_id: DOCUMENT_ID,
	status: 'needs_review',
	confidence: 0.8,
	review_id: 'rev_abc',
	estimated_time: '2-4 minutes',
	created_at: '2024-03-15T10:00:00Z',
};

async function extractOnce() {
	return await harness().run(extractOnePdf());
}

describe('HTTP errors of Extract', () => {
	it("400: the message says the request was refused and the description shows the service's own words", async () => {
		service().on('POST', '/v1/extract', {
			status: 400,
			body: serviceError('invalid_file', 'The file could not be parsed as PDF'),
		});
		const result = await extractOnce();

		const error = result.error();
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toMatch(/refused the request as invalid \(400\)/);
		expect(error?.description).toBe('The service said: The file could not be parsed as PDF');
		expect(error?.httpCode).toBe('400');
		expect(result.output()).toEqual([]);
		expect(service().requests).toHaveLength(1);
		// The workflow stopped at this node.
		expect(result.run.data.resultData.lastNodeExecuted).toBe(NODE_NAME);
		expect(result.run.status).toBe('error');
	});

	it('400 with a plain-text body: the text is shown', async () => {
		service().on('POST', '/v1/extract', {
			status: 400,
			body: 'webhook_url must be https',
			headers: { 'Content-Type': 'text/plain' },
		});
		const error = (await extractOnce()).error();
		expect(error?.description).toBe('The service said: webhook_url must be https');
	});

	it('401: the message tells to check the API key in the credential', async () => {
		service().on('POST', '/v1/extract', {
			status: 401,
			body: serviceError('unauthorized', 'Invalid API key'),
		});
		const error = (await extractOnce()).error();
		expect(error?.message).toMatch(/refused the API key \(401\)/);
		expect(error?.message).toMatch(/credential/);
		expect(error?.httpCode).toBe('401');
		expect(service().requests).toHaveLength(1);
	});

	it('413: the message says the file is too large for the tier', async () => {
		service().on('POST', '/v1/extract', {
			status: 413,
			body: serviceError('file_too_large', 'File exceeds 10 MB'),
		});
		const error = (await extractOnce()).error();
		expect(error?.message).toMatch(/too large for your tier \(413\)/);
		expect(error?.description).toBe('The service said: File exceeds 10 MB');
		expect(service().requests).toHaveLength(1);
	});

	it('429 then success: waits the Retry-After (3 s) and sends the whole file again', async () => {
		const bytes = pdfBytes(20_000, 3);
		service().on(
			'POST',
			'/v1/extract',
			{
				status: 429,
				body: serviceError('rate_limited', 'Too many requests'),
				headers: { 'Retry-After': '3' },
			},
			{ status: 200, body: VERIFIED },
		);
		const result = await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(bytes)],
		});

		expect(result.error()).toBeUndefined();
		expect(result.output()).toHaveLength(1);
		expect(result.output()[0].json).toMatchObject({ document_id: DOCUMENT_ID, status: 'verified' });
		expect(harness().waits).toEqual([3000]);
		expect(service().requests).toHaveLength(2);
		// The streamed file was opened anew for the retry: both uploads carry every byte.
		for (const request of service().requests) {
			const filePart = parseMultipart(request.body, request.headers['content-type']).find(
				(part) => part.name === 'file',
			);
			expect(filePart?.data.equals(bytes)).toBe(true);
		}
	});

	it('429 with a Retry-After of "now" (0, or a date in the past): the back-off, so that a "now" again and again is not a request a moment', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 429, body: '', headers: { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' } },
			{ status: 429, body: '', headers: { 'Retry-After': '0' } },
			{ status: 200, body: VERIFIED },
		);
		const result = await extractOnce();
		expect(result.error()).toBeUndefined();
		expect(harness().waits).toEqual([1000, 2000]);
	});

	it('the jitter: the Retry-After and a random share of it, so requests refused together do not come back together', async () => {
		vi.mocked(Math.random).mockReturnValue(0.5);
		service().on(
			'POST',
			'/v1/extract',
			{ status: 429, body: '', headers: { 'Retry-After': '10' } },
			{ status: 200, body: VERIFIED },
		);
		const result = await extractOnce();
		expect(result.error()).toBeUndefined();
		expect(harness().waits).toEqual([15_000]);
	});

	it('429 without Retry-After: backs off exponentially', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 429, body: '' },
			{ status: 429, body: '' },
			{ status: 200, body: VERIFIED },
		);
		const result = await extractOnce();
		expect(result.error()).toBeUndefined();
		expect(harness().waits).toEqual([1000, 2000]);
		expect(service().requests).toHaveLength(3);
	});

	it('429 again and again: retried for the Rate Limit Wait, not a count; no invoice lost to a month-end', async () => {
		clockMovedBySleeps();
		const tooMany = { status: 429, body: '', headers: { 'Retry-After': '20' } };
		service().on('POST', '/v1/extract', ...Array(12).fill(tooMany), {
			status: 200,
			body: VERIFIED,
		});
		const result = await extractOnce();
		expect(result.error()).toBeUndefined();
		expect(result.output()[0].json).toMatchObject({ document_id: DOCUMENT_ID });
		expect(service().requests).toHaveLength(13);
		expect(harness().waits).toEqual(Array(12).fill(20_000));
	});

	it('without the option: a 429 is retried for 30 minutes from the first attempt, the default docs/operations.md promises', async () => {
		clockMovedBySleeps();
		const tooMany = { status: 429, body: '', headers: { 'Retry-After': '120' } };
		service().on('POST', '/v1/extract', ...Array(16).fill(tooMany), {
			status: 200,
			body: VERIFIED,
		});
		const result = await extractOnce();
		// Tries at 0, 2, ..., 30 minutes: the last one at the deadline, then the error.
		expect(result.error()?.message).toMatch(/Rate Limit Wait of 30 minutes ran out/);
		expect(service().requests).toHaveLength(16);
		expect(harness().waits).toEqual(Array(15).fill(120_000));
		expect(service().pending()).toHaveLength(1);
	});

	it('when the Rate Limit Wait runs out: the last wait is cut short to try at the deadline, then an error that says who waited and what to change', async () => {
		clockMovedBySleeps();
		vi.mocked(Math.random).mockReturnValue(0.75);
		const tooMany = {
			status: 429,
			body: serviceError('rate_limited', 'Too many requests'),
			headers: { 'Retry-After': '20' },
		};
		service().on('POST', '/v1/extract', tooMany, tooMany, tooMany, { status: 200, body: VERIFIED });
		const result = await harness().run(extractOnePdf({ options: { rateLimitWaitMinutes: 1 } }));

		// 20 s and three quarters of it (35 s); then only 25 s are left, which is after the 20 s asked.
		expect(harness().waits).toEqual([35_000, 25_000]);
		expect(service().requests).toHaveLength(3);
		const error = result.error();
		expect(error?.httpCode).toBe('429');
		expect(error?.message).toBe(
			'The tier\'s rate limit (429) still refused the request when the Rate Limit Wait of 1 minute ran out, while trying to extract "invoice.pdf"',
		);
		expect(error?.description).toMatch(/^1 request of this run was waiting for the rate limit\./);
		expect(error?.description).toMatch(
			/Send fewer files at once.*"Rate Limit Wait \(Minutes\)".*upgrade the tier/,
		);
		expect(service().pending()).toHaveLength(1);
	});

	it('a Retry-After that ends after the Rate Limit Wait: the error at once, no wait for nothing', async () => {
		clockMovedBySleeps();
		service().on(
			'POST',
			'/v1/extract',
			{ status: 429, body: '', headers: { 'Retry-After': '90' } },
			{ status: 200, body: VERIFIED },
		);
		const result = await harness().run(extractOnePdf({ options: { rateLimitWaitMinutes: 1 } }));
		expect(result.error()?.message).toMatch(/Rate Limit Wait of 1 minute ran out/);
		expect(service().requests).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});

	it('Rate Limit Wait 0: one request, then the error', async () => {
		service().on('POST', '/v1/extract', { status: 429, body: '', headers: { 'Retry-After': '0' } });
		const result = await harness().run(extractOnePdf({ options: { rateLimitWaitMinutes: 0 } }));
		expect(result.error()?.message).toMatch(/\(429\).*Rate Limit Wait of 0 minutes/);
		expect(service().requests).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});

	it('a saved workflow with the former "Rate Limit Retries" loads and runs; the Rate Limit Wait applies', async () => {
		clockMovedBySleeps();
		const tooMany = { status: 429, body: '', headers: { 'Retry-After': '5' } };
		service().on('POST', '/v1/extract', tooMany, tooMany, tooMany, { status: 200, body: VERIFIED });
		const result = await harness().run(extractOnePdf({ options: { rateLimitRetries: 1 } }));
		expect(result.error()).toBeUndefined();
		expect(service().requests).toHaveLength(4);
	});

	it.each([500, 502, 503, 504])(
		'%i: an error and exactly one request (an extract is never repeated blindly), and no advice to retry',
		async (status) => {
			service().on(
				'POST',
				'/v1/extract',
				{
					status,
					body: serviceError('server_error', 'Internal error'),
					headers: { 'Retry-After': '0' },
				},
				{ status: 200, body: VERIFIED },
			);
			const result = await extractOnce();

			const error = result.error();
			expect(error?.message).toContain(`The service had an error (${status})`);
			// A retried upload is a second document: the message says not to turn Retry On Fail on, and
			// nothing in it suggests retrying.
			expect(error?.message).toContain(
				'Do not turn on "Retry On Fail" for this node: a repeated upload makes a second document',
			);
			expect(error?.message).not.toMatch(/enable "Retry On Fail"|retry later|retry the request/i);
			expect(error?.httpCode).toBe(String(status));
			expect(service().requests).toHaveLength(1);
			// The success answer was there to be taken, and was not.
			expect(service().pending()).toHaveLength(1);
			expect(harness().waits).toEqual([]);
		},
	);

	it('connection reset mid-extract: an error saying it was not retried, exactly one request', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ error: { code: 'ECONNRESET', message: 'socket hang up' } },
			{ status: 200, body: VERIFIED },
		);
		const result = await extractOnce();

		const error = result.error();
		// Regression guard: n8n's NodeApiError replaces a message that names a common Node error code
		// (ECONNRESET, ECONNREFUSED, ...) with its own generic text, "... You can retry the request
		// immediately ...", the opposite of what the node means to say here.
		expect(error?.message).toMatch(
			/connection broke while trying to extract "invoice\.pdf".*it was not retried/,
		);
		expect(error?.message).not.toMatch(/retry the request immediately/);
		expect(`${error?.message} ${error?.description}`).toContain('ECONNRESET');
		expect(error?.description).toMatch(/did not send it again/);
		expect(error?.description).toContain('Do not turn on "Retry On Fail" for this node');
		expect(`${error?.message} ${error?.description}`).not.toMatch(
			/enable "Retry On Fail"|retry later|retry the request|safe/i,
		);
		expect(service().requests).toHaveLength(1);
		expect(service().pending()).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});

	it.each(['ETIMEDOUT', 'ECONNABORTED', 'EPIPE'])(
		'%s (may come after the upload was sent): not retried, and no advice to retry',
		async (code) => {
			service().on(
				'POST',
				'/v1/extract',
				{ error: { code, message: 'broken' } },
				{ status: 200, body: VERIFIED },
			);
			const error = (await extractOnce()).error();
			expect(error?.message).toMatch(
				/connection broke while trying to extract "invoice\.pdf".*it was not retried/,
			);
			expect(error?.description).toContain(`Network error: ${code}, after the request was sent`);
			expect(error?.description).toContain('Do not turn on "Retry On Fail" for this node');
			expect(`${error?.message} ${error?.description}`).not.toMatch(
				/enable "Retry On Fail"|retry later|retry the request|safe/i,
			);
			expect(service().requests).toHaveLength(1);
		},
	);

	it('ECONNREFUSED (the connection was never made): says nothing was sent and that running again is safe', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } },
			{ status: 200, body: VERIFIED },
		);
		const error = (await extractOnce()).error();
		expect(error?.message).toMatch(
			/^Could not connect to the service at https?:\/\/\S+ while trying to extract "invoice\.pdf": nothing was sent$/,
		);
		expect(error?.description).toBe(
			'Network error: ECONNREFUSED. The connection was never made, so running the node again is safe and cannot make a second document. Check the Base URL in the credential and that the service is up.',
		);
		expect(error?.message).not.toMatch(/retry the request immediately/);
		expect(service().requests).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});

	it('a 200 whose body is not a JSON object is an error, not an item', async () => {
		service().on('POST', '/v1/extract', {
			status: 200,
			body: '<html>proxy login</html>',
			headers: { 'Content-Type': 'text/html' },
		});
		const error = (await extractOnce()).error();
		expect(error?.message).toMatch(/not a JSON object/);
		expect(service().requests).toHaveLength(1);
	});

	it('a 3xx redirect is not followed', async () => {
		service().on('POST', '/v1/extract', {
			status: 307,
			body: '',
			headers: { Location: 'https://elsewhere.example.com/v1/extract' },
		});
		const error = (await extractOnce()).error();
		expect(error?.message).toMatch(/HTTP 307/);
		expect(service().requests).toHaveLength(1);
	});
});

describe('HTTP errors of Get Status', () => {
	it.each([
		[500, 503],
		[503, 502],
	])(
		'%i then %i then 200: retried (a lookup is idempotent) and the status comes out',
		async (first, second) => {
			service().on(
				'GET',
				`/v1/status/${DOCUMENT_ID}`,
				{ status: first, body: serviceError('server_error', 'Internal error') },
				{ status: second, body: '' },
				{ status: 200, body: STATUS },
			);
			const result = await harness().run({ parameters: statusParameters() });

			expect(result.error()).toBeUndefined();
			expect(result.output()).toEqual([{ json: STATUS, pairedItem: { item: 0 } }]);
			expect(service().requests).toHaveLength(3);
			expect(harness().waits).toEqual([1000, 2000]);
		},
	);

	it('5xx until the retries run out: the service-error message after 1 + Retries requests', async () => {
		const failure = {
			status: 503,
			body: serviceError('unavailable', 'Maintenance'),
			headers: { 'Retry-After': '0' },
		};
		service().on('GET', `/v1/status/${DOCUMENT_ID}`, failure, failure);
		const result = await harness().run({
			parameters: statusParameters(DOCUMENT_ID, { retries: 1 }),
		});

		expect(result.error()?.message).toMatch(/The service had an error \(503\)/);
		expect(result.error()?.description).toBe('The service said: Maintenance');
		expect(service().requests).toHaveLength(2);
		expect(harness().waits).toEqual([1000]);
	});

	it('a broken connection is retried for a lookup', async () => {
		service().on(
			'GET',
			`/v1/status/${DOCUMENT_ID}`,
			{ error: { code: 'ECONNRESET', message: 'socket hang up' } },
			{ status: 200, body: STATUS },
		);
		const result = await harness().run({ parameters: statusParameters() });
		expect(result.error()).toBeUndefined();
		expect(result.output()[0].json.status).toBe('needs_review');
		expect(service().requests).toHaveLength(2);
		expect(harness().waits).toEqual([1000]);
	});

	it('a broken connection every time: says the service could not be reached', async () => {
		const reset = { error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } };
		service().on('GET', `/v1/status/${DOCUMENT_ID}`, reset, reset);
		const result = await harness().run({
			parameters: statusParameters(DOCUMENT_ID, { retries: 1 }),
		});
		const error = result.error();
		expect(error?.message).toMatch(
			/Could not connect to the service at .* while trying to get the status of doc_\w+: nothing was sent/,
		);
		expect(`${error?.message} ${error?.description}`).toMatch(
			/ECONNREFUSED|refused the connection/,
		);
		expect(error?.description).toMatch(/Check the Base URL in the credential/);
		expect(service().requests).toHaveLength(2);
	});

	it('a lookup\'s 429 is retried a count of times ("Retries"), not for a Rate Limit Wait', async () => {
		const tooMany = { status: 429, body: '', headers: { 'Retry-After': '2' } };
		service().on('GET', `/v1/status/${DOCUMENT_ID}`, tooMany, tooMany, {
			status: 200,
			body: STATUS,
		});
		const result = await harness().run({
			parameters: statusParameters(DOCUMENT_ID, { retries: 1 }),
		});
		expect(result.error()?.message).toMatch(/rate limit was reached \(429\) and retries ran out/);
		expect(service().requests).toHaveLength(2);
		expect(harness().waits).toEqual([2000]);
		expect(service().pending()).toHaveLength(1);
	});

	it('404: says to check the document ID; not retried', async () => {
		service().on(
			'GET',
			`/v1/status/${DOCUMENT_ID}`,
			{ status: 404, body: serviceError('not_found', 'Unknown document') },
			{ status: 200, body: STATUS },
		);
		const result = await harness().run({ parameters: statusParameters() });
		expect(result.error()?.message).toMatch(/Not found \(404\).*Check the document ID/);
		expect(service().requests).toHaveLength(1);
	});

	it('401 on a lookup: check the API key; not retried', async () => {
		service().on('GET', `/v1/status/${DOCUMENT_ID}`, {
			status: 401,
			body: serviceError('unauthorized', 'Invalid API key'),
		});
		const result = await harness().run({ parameters: statusParameters() });
		expect(result.error()?.message).toMatch(/API key \(401\)/);
		expect(service().requests).toHaveLength(1);
	});
});

const tooManyFor = (retryAfter: string) => ({
	status: 429,
	body: '',
	headers: { 'Retry-After': retryAfter },
});

/** "HH:MM UTC" of a moment, as the message names it. */
const utcClock = (at: number) => `${new Date(at).toISOString().slice(11, 16)} UTC`;

// Longer than the node waits within a run (docs/spec-decisions.md#n2): it stops at once, saying when.
describe('Retry-After beyond the 2-minute cap', () => {
	it('Extract, 429 with Retry-After 3600: one request, no wait, an error saying when to run again', async () => {
		service().on('POST', '/v1/extract', tooManyFor('3600'), { status: 200, body: VERIFIED });
		const before = Date.now();
		const result = await harness().run(extractOnePdf());
		const after = Date.now();

		const error = result.error();
		expect(error?.message).toMatch(
			/^The service asks to wait 60 minutes before the next request \(429\) while trying to extract "invoice\.pdf"/,
		);
		// The time to try again, in the description, whichever minute the run ended in.
		const until = [utcClock(before + 3_600_000), utcClock(after + 3_600_000)];
		expect(until.some((clock) => String(error?.description).includes(`after ${clock}`))).toBe(true);
		expect(error?.description).toMatch(/nothing was created/);
		expect(error?.httpCode).toBe('429');
		expect(service().requests).toHaveLength(1);
		expect(service().pending()).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});

	it('Extract, an HTTP-date Retry-After 3 hours ahead: the same, with that time', async () => {
		const at = Date.now() + 3 * 3_600_000;
		service().on('POST', '/v1/extract', tooManyFor(new Date(at).toUTCString()));
		const result = await harness().run(extractOnePdf());

		expect(result.error()?.message).toMatch(/^The service asks to wait (179|180) minutes/);
		expect(result.error()?.description).toContain(`after ${utcClock(at)}`);
		expect(service().requests).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});

	it('Extract one at a time, two files with Continue On Fail: the first fails at once saying when, the second is still tried', async () => {
		service().on('POST', '/v1/extract', tooManyFor('900'), { status: 200, body: VERIFIED });
		const result = await harness().run({
			parameters: extractParameters(),
			items: [pdfItem(20_000, 1, 'a.pdf'), pdfItem(20_000, 2, 'b.pdf')],
			continueOnFail: true,
		});

		const [verified, needsReview] = result.outputs();
		expect(needsReview.map((item) => [item.pairedItem, item.json.error])).toEqual([
			[
				{ item: 0 },
				expect.stringMatching(/^The service asks to wait 15 minutes before the next request/),
			],
		]);
		expect(verified.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
		expect(service().requests).toHaveLength(2);
		expect(harness().waits).toEqual([]);
	});

	it('exactly the cap (Retry-After 120) is still waited, and the request repeated', async () => {
		service().on(
			'GET',
			`/v1/status/${DOCUMENT_ID}`,
			{ status: 503, body: '', headers: { 'Retry-After': '120' } },
			{ status: 200, body: STATUS },
		);
		const result = await harness().run({ parameters: statusParameters() });

		expect(result.error()).toBeUndefined();
		expect(service().requests).toHaveLength(2);
		expect(harness().waits).toEqual([120_000]);
	});

	it('Get Status, 503 with Retry-After 3600: no retry either', async () => {
		service().on(
			'GET',
			`/v1/status/${DOCUMENT_ID}`,
			{ status: 503, body: '', headers: { 'Retry-After': '3600' } },
			{ status: 200, body: STATUS },
		);
		const result = await harness().run({ parameters: statusParameters() });

		expect(result.error()?.message).toMatch(
			/^The service asks to wait 60 minutes before the next request \(503\) while trying to/,
		);
		expect(service().requests).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});
});

const PROCESSING = { document_id: DOCUMENT_ID, status: 'processing', confidence: 0.5 };

// Imported after the harness has given the nodes their n8n-workflow (whose sleep records waits): a
// static import would load the transport first, with the plain one, and the nodes would share it.
async function plainHttpProblem(url: URL): Promise<string | null> {
	const transport = await import('../../../../../nodes/DocumentExtraction/transport/index.ts');
	return transport.plainHttpProblem(url);
}

describe('plainHttpProblem', () => {
	it.each([
		'https://api.example.com',
		'https://203.0.113.7:8443/',
		'http://localhost:4010',
		'http://LOCALHOST',
		'http://127.0.0.1:4010',
		'http://127.1.2.3',
		'http://[::1]:4010/',
	])('%s may receive the key', async (url) => {
		expect(await plainHttpProblem(new URL(url))).toBeNull();
	});

	it.each([
		'http://api.example.com',
		'http://10.0.0.5:4010',
		'http://192.168.1.20',
		'http://[::2]',
		'http://localhost.example.com',
		'http://127.0.0.1.example.com',
		'http://0.0.0.0:4010',
	])('%s is refused, with what to do', async (url) => {
		const problem = await plainHttpProblem(new URL(url));
		expect(problem).toMatch(/unencrypted/);
		expect(problem).toMatch(/https:\/\//);
		expect(problem).toMatch(/localhost, 127\.0\.0\.1 or \[::1\]/);
	});
});

describe('a plain-http Base URL in the nodes', () => {
	it('a plain-http Base URL of another host: refused before any request, saying what to do', async () => {
		const remote = new ServiceMock('http://api.docextract.test');
		remote.on('GET', `/v1/status/${DOCUMENT_ID}`, { status: 200, body: PROCESSING });
		const result = await harness().run({
			parameters: statusParameters(),
			credentials: { baseUrl: 'http://api.docextract.test' },
		});

		const error = result.error();
		expect(error?.message).toMatch(
			/^The Base URL "http:\/\/api\.docextract\.test" would send the API key unencrypted/,
		);
		expect(error?.description).toMatch(/Open the Document Extraction API credential/);
		expect(remote.requests).toEqual([]);
		expect(remote.pending()).toHaveLength(1);
		expect(result.everything()).not.toContain(API_KEY);
	});

	it('plain http to 127.0.0.1 (the sandbox) is used as before', async () => {
		const local = new ServiceMock('http://127.0.0.1:4010');
		local.on('GET', `/v1/status/${DOCUMENT_ID}`, { status: 200, body: PROCESSING });
		const result = await harness().run({
			parameters: statusParameters(),
			credentials: { baseUrl: 'http://127.0.0.1:4010/' },
		});

		expect(result.error()).toBeUndefined();
		expect(result.output()[0].json).toMatchObject(PROCESSING);
		expect(local.requests).toHaveLength(1);
		expect(local.requests[0].headers['x-api-key']).toBe(API_KEY);
	});
});
