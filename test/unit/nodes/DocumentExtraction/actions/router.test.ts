/**
 * "On Error: Continue" per item (the router): every input item accounted for, a failed Extract item
 * on the output that needs a person and never on Verified (N11), n8n's error output when chosen.
 */
import { describe, expect, it } from 'vitest';

import {
	DOCUMENT_ID,
	extractOnePdf,
	extractParameters,
	itemWithFile,
	NEEDS_REVIEW,
	pdfItem,
	serviceError,
	useNodeHarness,
	VERIFIED,
} from '../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const threeFiles = () => [
	pdfItem(1000, 1, 'one.pdf'),
	pdfItem(1000, 2, 'two.pdf'),
	pdfItem(1000, 3, 'three.pdf'),
];

describe('Continue On Fail', () => {
	it('3 items, the 2nd refused by the service: 3 output items paired 0, 1, 2, the error on item 1 only', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_one' } },
			{ status: 400, body: serviceError('invalid_file', 'The file could not be parsed as PDF') },
			{ status: 200, body: { ...NEEDS_REVIEW, document_id: 'doc_three' } },
		);
		const result = await harness().run({
			parameters: extractParameters(),
			items: threeFiles(),
			continueOnFail: true,
		});

		expect(result.error()).toBeUndefined();
		expect(result.run.status).toBe('success');
		// The verified document on Verified; the failed item and the document in review on Needs Review
		// (a failure needs a person, it is never taken for verified): every input item accounted for.
		const [verified, needsReview] = result.outputs();
		expect(verified.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(needsReview.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(verified[0].json).toMatchObject({ document_id: 'doc_one', status: 'verified' });
		expect(verified[0].json).not.toHaveProperty('error');
		expect(needsReview[0].json).toEqual({
			error: expect.stringMatching(/refused the request as invalid \(400\)/),
			error_description: 'The service said: The file could not be parsed as PDF',
			http_code: 400,
			ready_to_post: false,
			not_ready_because: [
				expect.stringMatching(
					/^The node failed on this item: The service refused the request as invalid \(400\)/,
				),
			],
		});
		expect(needsReview[1].json).toMatchObject({ document_id: 'doc_three', status: 'needs_review' });
		expect(needsReview[1].json).not.toHaveProperty('error');
		expect(service().requests).toHaveLength(3);
	});

	it('3 items, the 2nd refused before upload (unsupported type): only 2 uploads, the error on item 1 only', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_one' } },
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_three' } },
		);
		const items = threeFiles();
		items[1] = itemWithFile(Buffer.from('hello'), 'notes.txt', 'text/plain');
		const result = await harness().run({
			parameters: extractParameters(),
			items,
			continueOnFail: true,
		});

		const [verified, needsReview] = result.outputs();
		expect(
			verified.map((item) => [
				item.pairedItem,
				item.json.document_id ?? null,
				item.json.error ?? null,
			]),
		).toEqual([
			[{ item: 0 }, 'doc_one', null],
			[{ item: 2 }, 'doc_three', null],
		]);
		expect(needsReview.map((item) => [item.pairedItem, item.json.error ?? null])).toEqual([
			[{ item: 1 }, 'The file "notes.txt" (text/plain) is not a type the service reads'],
		]);
		expect(needsReview[0].json).not.toHaveProperty('http_code');
		expect(service().requests).toHaveLength(2);
	});

	it('a broken connection on an item gives an error item without a bogus http_code', async () => {
		service().on('POST', '/v1/extract', {
			error: { code: 'ECONNRESET', message: 'socket hang up' },
		});
		const result = await harness().run({
			...extractOnePdf(),
			continueOnFail: true,
		});

		const [verified, [item]] = result.outputs();
		expect(verified).toEqual([]);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json.error_description).toMatch(/did not send it again/);
		// Regression guard: the transport builds NodeApiError from { code }, which n8n reads as the HTTP
		// code "ECONNRESET"; the router then outputs Number("ECONNRESET"), i.e. NaN.
		expect(item.json.http_code === undefined || Number.isInteger(item.json.http_code)).toBe(true);
	});

	it("Continue (using error output): the failed item on n8n's error output, paired, nothing on Verified or Needs Review", async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_one' } },
			{ status: 400, body: serviceError('invalid_file', 'The file could not be parsed as PDF') },
		);
		const result = await harness().run({
			parameters: extractParameters(),
			items: threeFiles().slice(0, 2),
			onError: 'continueErrorOutput',
		});

		const [verified, needsReview, errorOutput] = result.outputs();
		expect(verified.map((item) => item.json.document_id)).toEqual(['doc_one']);
		expect(needsReview).toEqual([]);
		// n8n shapes the error output's items itself: the message in json.error, the whole error beside it.
		expect(
			errorOutput.map((item) => [item.pairedItem, item.json.error, item.error?.description]),
		).toEqual([
			[
				{ item: 1 },
				expect.stringMatching(/refused the request as invalid \(400\)/),
				'The service said: The file could not be parsed as PDF',
			],
		]);
	});

	it('other operations keep their one output for a failed item', async () => {
		service().on('GET', `/v1/status/${DOCUMENT_ID}`, {
			status: 404,
			body: serviceError('not_found', 'No such document'),
		});
		const result = await harness().run({
			parameters: { resource: 'document', operation: 'getStatus', documentId: DOCUMENT_ID },
			continueOnFail: true,
		});

		const outputs = result.outputs();
		expect(outputs).toHaveLength(1);
		expect(outputs[0].map((item) => [item.pairedItem, item.json.http_code])).toEqual([
			[{ item: 0 }, 404],
		]);
	});

	it('without Continue On Fail the node stops at the failing item: no output, later items not sent', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: VERIFIED },
			{ status: 400, body: serviceError('invalid_file', 'Broken file') },
			{ status: 200, body: VERIFIED },
		);
		const result = await harness().run({ parameters: extractParameters(), items: threeFiles() });

		expect(result.error()?.message).toMatch(/\(400\)/);
		expect(result.error()?.context?.itemIndex).toBe(1);
		expect(result.output()).toEqual([]);
		expect(service().requests).toHaveLength(2);
		expect(service().pending()).toHaveLength(1);
	});
});
