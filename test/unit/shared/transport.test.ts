import { describe, expect, it } from 'vitest';

import { adviceForStatus, serviceErrorText } from '../../../nodes/DocumentExtraction/transport/errors.ts';
import { retryDelayMs } from '../../../nodes/DocumentExtraction/transport/retryPolicy.ts';

describe('retryDelayMs (D11)', () => {
	const now = Date.parse('2024-03-15T12:00:00Z');

	it.each([
		['0', 0],
		['5', 5000],
		[' 12 ', 12_000],
		['1.5', 1500],
		[3, 3000],
		[['2', '9'], 2000],
	])('Retry-After %j -> %i ms', (header, expected) => {
		expect(retryDelayMs(header, 4, 1000, now)).toBe(expected);
	});

	it('an HTTP date: the time until then, never negative', () => {
		expect(retryDelayMs('Fri, 15 Mar 2024 12:00:07 GMT', 1, 1000, now)).toBe(7000);
		expect(retryDelayMs('Fri, 15 Mar 2024 11:59:00 GMT', 1, 1000, now)).toBe(0);
	});

	it('without a usable header: base x 2^(attempt-1)', () => {
		expect([1, 2, 3, 4].map((attempt) => retryDelayMs(undefined, attempt, 1000, now))).toEqual([1000, 2000, 4000, 8000]);
		expect(retryDelayMs('soon', 2, 1000, now)).toBe(2000);
		expect(retryDelayMs(null, 3, 250, now)).toBe(1000);
		expect(retryDelayMs({}, 1, 500, now)).toBe(500);
	});

	// Regression guard: V8's lenient Date.parse reads "-5" as May 2001 and "later 2" as February 2001,
	// so a malformed header means "retry at once" instead of backing off.
	it.each(['-5', 'later 2', '1 2'])('a header that is neither seconds nor an HTTP date (%j) backs off', (header) => {
		expect(retryDelayMs(header, 2, 1000, now)).toBe(2000);
	});

	it('never waits more than 2 minutes', () => {
		expect(retryDelayMs('3600', 1, 1000, now)).toBe(120_000);
		expect(retryDelayMs('Sat, 16 Mar 2024 12:00:00 GMT', 1, 1000, now)).toBe(120_000);
		expect(retryDelayMs(undefined, 20, 1000, now)).toBe(120_000);
	});
});

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
		[429, /rate limit was reached \(429\) and retries ran out\. .*\(Pilot \(free\) 10\/min, Growth 100\/min, Enterprise unlimited\/min\)/],
		[500, /service had an error \(500\) while trying to extract "a\.pdf"\. This is on the service's side/],
		[503, /service had an error \(503\)/],
		[418, /^The service answered with HTTP 418 while trying to extract "a\.pdf"\.$/],
	])('%i', (status, advice) => {
		expect(adviceForStatus(status, 'extract "a.pdf"')).toMatch(advice);
	});
});
