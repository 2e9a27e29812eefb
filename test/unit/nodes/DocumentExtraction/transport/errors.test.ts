import { describe, expect, it } from 'vitest';

import {
	adviceForStatus,
	connectionFailure,
	rateLimitWaitOver,
	serviceErrorText,
} from '../../../../../nodes/DocumentExtraction/transport/errors.ts';

describe('serviceErrorText (D3, but any shape)', () => {
	it.each([
		[{ success: false, error: { code: 'invalid_file', message: 'Not a PDF' } }, 'Not a PDF'],
		[{ message: 'Top-level message' }, 'Top-level message'],
		[{ error: 'Plain error string' }, 'Plain error string'],
		[{ detail: 'Detail text' }, 'Detail text'],
		['  text body \n', 'text body'],
		[{ unexpected: 1 }, '{"unexpected":1}'],
		[{ error: { code: 'x' } }, '{"error":{"code":"x"}}'],
	])('%j -> %j', (body, text) => {
		expect(serviceErrorText(body)).toBe(text);
	});

	it.each([undefined, null, '', '   ', 42])('%j -> undefined', (body) => {
		expect(serviceErrorText(body)).toBeUndefined();
	});

	it('cuts a long text at 500 characters', () => {
		const text = serviceErrorText('x'.repeat(2000));
		expect(text).toBe(`${'x'.repeat(500)}…`);
	});
});

describe('adviceForStatus', () => {
	it.each([
		[400, /refused the request as invalid \(400\) while trying to extract "a\.pdf"/],
		[401, /refused the API key \(401\)\. Open the Document Extraction API credential/],
		[403, /not allowed to do this \(403\).*revoked/],
		[404, /Not found \(404\) while trying to extract "a\.pdf"\. Check the document ID/],
		[413, /too large for your tier \(413\)/],
		[
			429,
			/rate limit was reached \(429\) and retries ran out\. .*\(Pilot \(free\) 10\/min, Growth 100\/min, Enterprise unlimited\/min\)/,
		],
		[
			500,
			/service had an error \(500\) while trying to extract "a\.pdf"\. This is on the service's side/,
		],
		[503, /service had an error \(503\)/],
		[418, /^The service answered with HTTP 418 while trying to extract "a\.pdf"\.$/],
	])('%i', (status, advice) => {
		expect(adviceForStatus(status, 'extract "a.pdf"')).toMatch(advice);
	});
});

describe('adviceForStatus for a request that may create something (an upload, N19)', () => {
	it.each([500, 502, 503, 504])(
		'%i: no advice to retry; says not to turn Retry On Fail on, and why',
		(status) => {
			const advice = adviceForStatus(status, 'extract "a.pdf"', false);
			expect(advice).toMatch(
				new RegExp(
					`^The service had an error \\(${status}\\) while trying to extract "a\\.pdf"\\. This is on the service's side\\. `,
				),
			);
			expect(advice).toContain('did not send it again');
			expect(advice).toContain(
				'Do not turn on "Retry On Fail" for this node: a repeated upload makes a second document',
			);
			expect(advice).not.toMatch(/enable "Retry On Fail"|retry later/);
		},
	);

	it('a lookup (idempotent) keeps the advice to retry', () => {
		expect(adviceForStatus(503, 'get the status of doc_1', true)).toMatch(
			/retry later \(enable "Retry On Fail"/,
		);
	});

	it.each([400, 401, 404, 413, 429])(
		'%i: the same advice whether or not the request is idempotent',
		(status) => {
			expect(adviceForStatus(status, 'x', false)).toBe(adviceForStatus(status, 'x', true));
		},
	);
});

describe('connectionFailure (N19)', () => {
	/** The failure of an upload (not idempotent) that broke with this network error code. */
	const failedUpload = (code: string) =>
		connectionFailure(code, 'extract "a.pdf"', 'https://api.example.com', false);

	it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])(
		'%s: never connected, nothing sent, safe to run again',
		(code) => {
			const { message, description } = failedUpload(code);
			expect(message).toBe(
				'Could not connect to the service at https://api.example.com while trying to extract "a.pdf": nothing was sent',
			);
			expect(description).toBe(
				`Network error: ${code}. The connection was never made, so running the node again is safe and cannot make a second document. Check the Base URL in the credential and that the service is up.`,
			);
		},
	);

	it.each(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'connection error'])(
		'%s on an upload: may have been sent; not repeated, no Retry On Fail',
		(code) => {
			const { message, description } = failedUpload(code);
			expect(message).toBe(
				'The connection broke while trying to extract "a.pdf"; it was not retried',
			);
			expect(description).toContain(`Network error: ${code}, after the request was sent.`);
			expect(description).toContain('Do not turn on "Retry On Fail" for this node');
			expect(description).not.toMatch(/safe|enable "Retry On Fail"/);
		},
	);

	it('a broken lookup: could not reach the service, run again', () => {
		expect(
			connectionFailure('ECONNRESET', 'get the status of doc_1', 'https://api.example.com', true),
		).toEqual({
			message: 'Could not reach the service at https://api.example.com',
			description:
				'Network error: ECONNRESET. Check the Base URL in the credential and that the service is up, then run the node again.',
		});
	});
});

describe('rateLimitWaitOver (N69)', () => {
	it('says how long it waited, how many requests of the run were waiting, and what to change', () => {
		const { message, description } = rateLimitWaitOver('extract "a.pdf"', 30 * 60_000, 7);
		expect(message).toBe(
			'The tier\'s rate limit (429) still refused the request when the Rate Limit Wait of 30 minutes ran out, while trying to extract "a.pdf"',
		);
		expect(description).toMatch(/^7 requests of this run were waiting for the rate limit\./);
		expect(description).toContain('nothing was created for this file');
		expect(description).toContain('Send fewer files at once');
		expect(description).toContain(
			'for all executions together: Pilot (free) 10/min, Growth 100/min, Enterprise unlimited/min)',
		);
		expect(description).toContain('set a longer "Rate Limit Wait (Minutes)"');
		expect(description).toContain('upgrade the tier (and set it in the credential)');
	});

	it('one request, one minute, and a wait of 0', () => {
		expect(rateLimitWaitOver('x', 60_000, 1).message).toContain('Rate Limit Wait of 1 minute ran');
		expect(rateLimitWaitOver('x', 60_000, 1).description).toMatch(
			/^1 request of this run was waiting/,
		);
		expect(rateLimitWaitOver('x', 0, 1).message).toContain('Rate Limit Wait of 0 minutes ran');
	});
});
