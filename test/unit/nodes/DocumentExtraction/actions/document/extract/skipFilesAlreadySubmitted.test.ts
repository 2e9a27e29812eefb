/**
 * Skip Files Already Submitted (N10) through n8n's engine, with n8n's deduplication store interface
 * (in memory here; n8n's database-backed one in test/e2e/wait-for-review.test.ts): a file with the
 * same content is not uploaded again, the earlier document_id comes out on Already Submitted, a
 * failed upload does not count as submitted.
 */
import { createHash } from 'crypto';
import { describe, expect, it } from 'vitest';

import {
	extractParameters,
	itemWithFile,
	NEEDS_REVIEW,
	pdfBytes,
	useNodeHarness,
	VERIFIED,
} from '../../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const guarded = (extra: Record<string, unknown> = {}) =>
	extractParameters({ options: { skipDuplicates: true }, ...extra });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('Skip Files Already Submitted', () => {
	it('off by default: the same file twice is extracted twice', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: VERIFIED },
			{ status: 200, body: VERIFIED },
		);
		const same = pdfBytes(2000, 7);
		const result = await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(same), itemWithFile(same)],
		});
		expect(service().requestsTo('/v1/extract')).toHaveLength(2);
		expect(result.outputs()).toHaveLength(2);
	});

	it('the same content twice in one run: one upload, the second item on Already Submitted with the earlier document_id', async () => {
		service().on('POST', '/v1/extract', {
			status: 200,
			body: { ...VERIFIED, document_id: 'doc_first1' },
		});
		const same = pdfBytes(3000, 8);
		const other = pdfBytes(3000, 9);
		service().on('POST', '/v1/extract', {
			status: 200,
			body: { ...NEEDS_REVIEW, document_id: 'doc_other1' },
		});
		const result = await harness().run({
			parameters: guarded(),
			items: [
				itemWithFile(same, 'a.pdf'),
				itemWithFile(other, 'b.pdf'),
				itemWithFile(same, 'copy of a.pdf'),
			],
		});

		expect(service().requestsTo('/v1/extract')).toHaveLength(2);
		const [verified, needsReview, alreadySubmitted] = result.outputs();
		expect(verified.map((item) => [item.json.document_id, item.pairedItem])).toEqual([
			['doc_first1', { item: 0 }],
		]);
		expect(needsReview.map((item) => [item.json.document_id, item.pairedItem])).toEqual([
			['doc_other1', { item: 1 }],
		]);
		expect(alreadySubmitted).toHaveLength(1);
		expect(alreadySubmitted[0].pairedItem).toEqual({ item: 2 });
		expect(alreadySubmitted[0].json).toMatchObject({
			document_id: 'doc_first1',
			status: 'already_submitted',
			duplicate: true,
			file_name: 'copy of a.pdf',
			content_sha256: sha256(same),
		});
		expect(String(alreadySubmitted[0].json.message)).toMatch(
			/same content as document doc_first1.*not extracted again/,
		);
	});

	it("across runs of the workflow: no second extraction, the earlier document_id from the workflow's static data", async () => {
		const same = pdfBytes(2500, 10);
		service().on('POST', '/v1/extract', {
			status: 200,
			body: { ...VERIFIED, document_id: 'doc_run1' },
		});
		await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });
		const second = await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });

		expect(service().requestsTo('/v1/extract')).toHaveLength(1);
		expect(second.output(undefined, 2).map((item) => item.json.document_id)).toEqual(['doc_run1']);
	});

	it('when n8n kept no document_id (a manual test run): still skipped, and the message says why the id is missing', async () => {
		const same = pdfBytes(2500, 11);
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });
		for (const key of Object.keys(harness().staticData)) delete harness().staticData[key];
		const second = await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });

		expect(service().requestsTo('/v1/extract')).toHaveLength(1);
		const [skipped] = second.output(undefined, 2);
		expect(skipped.json).toMatchObject({
			document_id: null,
			duplicate: true,
			content_sha256: sha256(same),
		});
		expect(String(skipped.json.message)).toMatch(/manual test run/);
	});

	it('a failed upload does not count as submitted: the next attempt uploads again', async () => {
		const same = pdfBytes(2500, 12);
		service().on('POST', '/v1/extract', {
			status: 400,
			body: { success: false, error: { code: 'invalid_file', message: 'Bad' } },
		});
		const failed = await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });
		expect(failed.error()?.httpCode).toBe('400');

		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const retried = await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });
		expect(service().requestsTo('/v1/extract')).toHaveLength(2);
		expect(retried.output().map((item) => item.json.status)).toEqual(['verified']);
	});

	it('hashes the content only: another file name or type label does not make it new', async () => {
		const same = Buffer.from(JSON.stringify({ header: { vendor: 'Acme' } }));
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run({
			parameters: guarded(),
			items: [
				itemWithFile(same, 'one.json', 'application/json'),
				itemWithFile(same, 'two.json', 'text/json'),
			],
		});
		expect(service().requestsTo('/v1/extract')).toHaveLength(1);
		expect(result.output(undefined, 2)).toHaveLength(1);
	});

	it('in memory (default binary mode) as well as streamed from disk', async () => {
		await harness().useBinaryMode('default');
		const same = pdfBytes(1800, 13);
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run({
			parameters: guarded(),
			items: [itemWithFile(same), itemWithFile(same)],
		});
		expect(service().requestsTo('/v1/extract')).toHaveLength(1);
		expect(result.output(undefined, 2)[0].json.content_sha256).toBe(sha256(same));
	});

	it('claims before uploading: a new file waits the settle delay once and confirms; a known file is skipped without waiting (N12)', async () => {
		const same = pdfBytes(2100, 14);
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });
		const [settle, ...more] = harness().waits;
		expect(more).toEqual([]);
		expect(settle).toBeGreaterThan(0);
		const stored = [...harness().deduplicator.contexts.values()].flat();
		expect(stored.filter((value) => value.startsWith('claim:'))).toHaveLength(1);
		expect(stored).toContain(`sha256:${sha256(same)}`);

		await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });
		expect(harness().waits).toEqual([settle]);
		expect(service().requestsTo('/v1/extract')).toHaveLength(1);
	});

	it('a failed upload removes its claim with the content, so a later attempt claims anew', async () => {
		const same = pdfBytes(2100, 15);
		service().on('POST', '/v1/extract', {
			status: 400,
			body: { success: false, error: { code: 'invalid_file', message: 'Bad' } },
		});
		await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });
		expect([...harness().deduplicator.contexts.values()].flat()).toEqual([]);
	});
});
