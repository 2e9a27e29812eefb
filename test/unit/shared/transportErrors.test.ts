import { describe, expect, it } from 'vitest';

import { adviceForStatus, serviceErrorText } from '../../../nodes/DocumentExtraction/transport/errors.ts';

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
