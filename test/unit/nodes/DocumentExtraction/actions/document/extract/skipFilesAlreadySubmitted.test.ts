/**
 * Skip Files Already Submitted (docs/memory.md) through n8n's engine, with n8n's deduplication store
 * interface (in memory here; n8n's database-backed one in test/e2e/retried-execution.test.ts): a file
 * with the same content is not uploaded again, a file whose result the run did not deliver (a failed
 * upload, a failed node) does not count as submitted, so a retry outputs every file with its data.
 */
import { createHash } from 'crypto';
import { describe, expect, it } from 'vitest';

import {
	extractParameters,
	itemWithFile,
	NEEDS_REVIEW,
	pdfBytes,
	serviceError,
	useNodeHarness,
	VERIFIED,
} from '../../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const guarded = (extra: Record<string, unknown> = {}) =>
	extractParameters({ options: { skipDuplicates: true }, ...extra });
/** Growth paces 100 uploads a minute: a dozen go at once. */
const growth = { tier: 'growth' };
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
			/same content as "a.pdf" in this run \(document doc_first1\); it was not extracted again/,
		);
	});

	it('across runs of the workflow: no second extraction; the item says where the earlier result is', async () => {
		const same = pdfBytes(2500, 10);
		service().on('POST', '/v1/extract', {
			status: 200,
			body: { ...VERIFIED, document_id: 'doc_run1' },
		});
		await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });
		const second = await harness().run({ parameters: guarded(), items: [itemWithFile(same)] });

		expect(service().requestsTo('/v1/extract')).toHaveLength(1);
		const [skipped] = second.output(undefined, 2);
		expect(skipped.json).toMatchObject({
			document_id: null,
			duplicate: true,
			submitted_concurrently: false,
			content_sha256: sha256(same),
		});
		expect(String(skipped.json.message)).toMatch(/earlier execution.*on that execution's output/);
	});

	it("writes nothing to the workflow's static data (a queue-mode worker's save would erase the trigger's)", async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		await harness().run({ parameters: guarded(), items: [itemWithFile(pdfBytes(2500, 16))] });
		expect(harness().staticData).toEqual({});
	});

	it('a run that fails on its third of five files: the retry outputs all five with their data, none on Already Submitted', async () => {
		const files = [1, 2, 3, 4, 5].map((seed) =>
			itemWithFile(pdfBytes(2200, 100 + seed), `${seed}.pdf`),
		);
		service()
			.on('POST', '/v1/extract', { status: 200, body: { ...VERIFIED, document_id: 'doc_a1' } })
			.on('POST', '/v1/extract', { status: 200, body: { ...VERIFIED, document_id: 'doc_a2' } })
			.on('POST', '/v1/extract', { status: 500, body: serviceError('internal', 'Try again') });
		const failed = await harness().run({ parameters: guarded(), items: files });
		expect(failed.error()?.httpCode).toBe('500');

		for (let i = 1; i <= 5; i++)
			service().on('POST', '/v1/extract', {
				status: 200,
				body: { ...VERIFIED, document_id: `doc_b${i}` },
			});
		const retried = await harness().run({ parameters: guarded(), items: files });
		const [verified, , alreadySubmitted] = retried.outputs();
		expect(alreadySubmitted).toEqual([]);
		expect(verified.map((item) => [item.pairedItem, item.json.vendor !== undefined])).toEqual(
			[0, 1, 2, 3, 4].map((item) => [{ item }, true]),
		);
		expect(service().requestsTo('/v1/extract')).toHaveLength(8);
	});

	it('12 files uploaded in parallel, the 4th answered 500: the retry outputs all 12 with their data', async () => {
		const files = Array.from({ length: 12 }, (_, i) =>
			itemWithFile(pdfBytes(2300, 200 + i), `${i}.pdf`),
		);
		const parallel = guarded({ options: { skipDuplicates: true, parallelUploads: 4 } });
		for (let i = 0; i < 12; i++)
			service().on(
				'POST',
				'/v1/extract',
				i === 3
					? { status: 500, body: serviceError('internal', 'Try again') }
					: { status: 200, body: { ...VERIFIED, document_id: `doc_c${i}` } },
			);
		const failed = await harness().run({ parameters: parallel, items: files, credentials: growth });
		expect(failed.error()?.httpCode).toBe('500');
		const firstRunUploads = service().requestsTo('/v1/extract').length;
		// Unused answers of the first run stay queued for the retry; top up to one per file.
		for (let i = service().pending().length; i < 12; i++)
			service().on('POST', '/v1/extract', {
				status: 200,
				body: { ...VERIFIED, document_id: `doc_d${i}` },
			});

		const retried = await harness().run({
			parameters: parallel,
			items: files,
			credentials: growth,
		});
		const [verified, , alreadySubmitted] = retried.outputs();
		expect(alreadySubmitted).toEqual([]);
		expect(verified.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 12 }, (_, item) => ({ item })),
		);
		expect(service().requestsTo('/v1/extract').length - firstRunUploads).toBe(12);
	});

	it("the store failing after the uploads (Detect Same Invoice's claim) releases the run's files: the retry extracts them", async () => {
		const files = [1, 2].map((seed) => itemWithFile(pdfBytes(2200, 500 + seed)));
		const bothOptions = guarded({ options: { skipDuplicates: true, detectSameInvoice: true } });
		service()
			.on('POST', '/v1/extract', { status: 200, body: { ...VERIFIED, document_id: 'doc_f1' } })
			.on('POST', '/v1/extract', { status: 200, body: { ...VERIFIED, document_id: 'doc_f2' } });
		const store = harness().deduplicator;
		const record = store.checkProcessedAndRecord.bind(store);
		store.checkProcessedAndRecord = async (...call: Parameters<typeof record>) => {
			if (call[0].some((item) => String(item).startsWith('test:invoice:')))
				throw new Error('database is locked');
			return await record(...call);
		};
		try {
			const failed = await harness().run({ parameters: bothOptions, items: files });
			expect(failed.error()?.description).toContain('database is locked');
		} finally {
			store.checkProcessedAndRecord = record;
		}
		expect([...store.contexts.values()].flat()).toEqual([]);
	});

	it("n8n's store failing once while the files are claimed (a pool timeout on the confirming write): the execution fails, and the retry outputs every file with its data", async () => {
		const files = [1, 2, 3].map((seed) => itemWithFile(pdfBytes(2200, 520 + seed)));
		const store = harness().deduplicator;
		const record = store.checkProcessedAndRecord.bind(store);
		let calls = 0;
		store.checkProcessedAndRecord = async (...call: Parameters<typeof record>) => {
			if (++calls === 2) throw new Error('timeout exceeded when trying to connect');
			return await record(...call);
		};
		let failed: Awaited<ReturnType<ReturnType<typeof harness>['run']>>;
		try {
			failed = await harness().run({ parameters: guarded(), items: files });
		} finally {
			store.checkProcessedAndRecord = record;
		}
		expect(service().requestsTo('/v1/extract')).toHaveLength(0);
		expect([...store.contexts.values()].flat()).toEqual([]);

		for (let i = 1; i <= 3; i++)
			service().on('POST', '/v1/extract', {
				status: 200,
				body: { ...VERIFIED, document_id: `doc_g${i}` },
			});
		const retried = await harness().run({ parameters: guarded(), items: files });
		const [verified, , alreadySubmitted] = retried.outputs();
		expect(alreadySubmitted).toEqual([]);
		expect(verified.map((item) => [item.pairedItem, item.json.document_id])).toEqual([
			[{ item: 0 }, 'doc_g1'],
			[{ item: 1 }, 'doc_g2'],
			[{ item: 2 }, 'doc_g3'],
		]);
		expect(failed.error()?.message).toBe(
			'Could not check whether these files were already submitted',
		);
		expect(failed.error()?.description).toContain('timeout exceeded when trying to connect');
	});

	it('with Continue On Fail the failed file alone is not remembered: running the input again extracts it and skips the others', async () => {
		const files = [1, 2, 3].map((seed) => itemWithFile(pdfBytes(2200, 300 + seed), `${seed}.pdf`));
		service()
			.on('POST', '/v1/extract', { status: 200, body: { ...VERIFIED, document_id: 'doc_e1' } })
			.on('POST', '/v1/extract', { status: 500, body: serviceError('internal', 'Try again') })
			.on('POST', '/v1/extract', { status: 200, body: { ...VERIFIED, document_id: 'doc_e3' } });
		const first = await harness().run({
			parameters: guarded(),
			items: files,
			continueOnFail: true,
		});
		const [verified, needsReview] = first.outputs();
		expect(verified.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(needsReview.map((item) => [item.pairedItem, typeof item.json.error])).toEqual([
			[{ item: 1 }, 'string'],
		]);

		service().on('POST', '/v1/extract', {
			status: 200,
			body: { ...VERIFIED, document_id: 'doc_e2' },
		});
		const again = await harness().run({
			parameters: guarded(),
			items: files,
			continueOnFail: true,
		});
		const [verifiedAgain, , alreadySubmitted] = again.outputs();
		expect(verifiedAgain.map((item) => [item.pairedItem, item.json.document_id])).toEqual([
			[{ item: 1 }, 'doc_e2'],
		]);
		expect(alreadySubmitted.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
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

	it('a run claims all its files at once: one settle delay for a batch of new files, one store entry per file, none for a known file', async () => {
		const contents = [1, 2, 3, 4].map((seed) => pdfBytes(2100, 400 + seed));
		const files = contents.map((content) => itemWithFile(content));
		for (let i = 0; i < 4; i++)
			service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		await harness().run({ parameters: guarded(), items: files });
		// The claim's settle delay (a short wait gathers the claims of this process first).
		const settles = () => harness().waits.filter((ms) => ms >= 1000);
		expect(settles()).toEqual([1000]);
		const stored = [...harness().deduplicator.contexts.values()].flat();
		// A manual run's keys (the harness runs as the editor does).
		expect(stored.sort()).toEqual(
			contents.map((content) => `test:sha256:${sha256(content)}`).sort(),
		);

		await harness().run({ parameters: guarded(), items: files });
		expect(settles()).toEqual([1000]);
		expect(service().requestsTo('/v1/extract')).toHaveLength(4);
	});

	it('a file another process claimed at the same moment is not uploaded twice: it comes out on Already Submitted, submitted concurrently', async () => {
		const content = pdfBytes(2100, 17);
		const { deduplicator } = harness();
		const record = deduplicator.checkProcessedAndRecord.bind(deduplicator);
		let calls = 0;
		// Before the confirming write, another process's write replaced the row with its own claim of
		// the file: the key is there, this run's token is not.
		deduplicator.checkProcessedAndRecord = async (items, scope, contextData) => {
			if (calls++ === 1)
				for (const [context, values] of deduplicator.contexts)
					deduplicator.contexts.set(
						context,
						values.filter((value) => !value.startsWith('test:run:')),
					);
			return await record(items, scope, contextData);
		};
		try {
			const result = await harness().run({ parameters: guarded(), items: [itemWithFile(content)] });
			expect(service().requestsTo('/v1/extract')).toHaveLength(0);
			const [sameFile] = result.output(undefined, 2);
			expect(sameFile.json).toMatchObject({ duplicate: true, submitted_concurrently: true });
			expect(String(sameFile.json.message)).toMatch(
				/another execution .* at the same moment.*turn Skip Files Already Submitted off for one run/,
			);
		} finally {
			deduplicator.checkProcessedAndRecord = record;
		}
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
