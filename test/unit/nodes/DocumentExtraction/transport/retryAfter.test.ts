/**
 * A Retry-After longer than the node ever waits within a run (2 minutes, docs/spec-decisions.md#n2): the node stops at once
 * with the time to try again, instead of spending its retries on answers that can only be 429 again.
 */
import { describe, expect, it } from 'vitest';

import {
	DOCUMENT_ID,
	extractOnePdf,
	pdfItem,
	extractParameters,
	useNodeHarness,
	VERIFIED,
} from '../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const STATUS = {
	document_id: DOCUMENT_ID,
	status: 'needs_review',
	confidence: 0.8,
	review_id: 'rev_abc',
	estimated_time: '2-4 minutes',
	created_at: '2024-03-15T10:00:00Z',
};

const statusParameters = {
	resource: 'document',
	operation: 'getStatus',
	documentId: DOCUMENT_ID,
};

const tooMany = (retryAfter: string) => ({
	status: 429,
	body: '',
	headers: { 'Retry-After': retryAfter },
});

/** "HH:MM UTC" of a moment, as the message names it. */
const utcClock = (at: number) => `${new Date(at).toISOString().slice(11, 16)} UTC`;

describe('Retry-After beyond the 2-minute cap', () => {
	it('Extract, 429 with Retry-After 3600: one request, no wait, an error saying when to run again', async () => {
		service().on('POST', '/v1/extract', tooMany('3600'), { status: 200, body: VERIFIED });
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
		service().on('POST', '/v1/extract', tooMany(new Date(at).toUTCString()));
		const result = await harness().run(extractOnePdf());

		expect(result.error()?.message).toMatch(/^The service asks to wait (179|180) minutes/);
		expect(result.error()?.description).toContain(`after ${utcClock(at)}`);
		expect(service().requests).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});

	it('Extract, two files with Continue On Fail: the second is not sent either (the run is held)', async () => {
		service().on('POST', '/v1/extract', tooMany('900'), { status: 200, body: VERIFIED });
		const result = await harness().run({
			parameters: extractParameters(),
			items: [pdfItem(20_000, 1, 'a.pdf'), pdfItem(20_000, 2, 'b.pdf')],
			continueOnFail: true,
		});

		const errors = result
			.outputs()
			.flat()
			.map((item) => item.json.error);
		expect(errors).toHaveLength(2);
		for (const message of errors)
			expect(message).toMatch(/^The service asks to wait 15 minutes before the next request/);
		expect(service().requests).toHaveLength(1);
		expect(service().pending()).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});

	it('exactly the cap (Retry-After 120) is still waited, and the request repeated', async () => {
		service().on(
			'GET',
			`/v1/status/${DOCUMENT_ID}`,
			{ status: 503, body: '', headers: { 'Retry-After': '120' } },
			{ status: 200, body: STATUS },
		);
		const result = await harness().run({ parameters: statusParameters });

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
		const result = await harness().run({ parameters: statusParameters });

		expect(result.error()?.message).toMatch(
			/^The service asks to wait 60 minutes before the next request \(503\) while trying to/,
		);
		expect(service().requests).toHaveLength(1);
		expect(harness().waits).toEqual([]);
	});
});
