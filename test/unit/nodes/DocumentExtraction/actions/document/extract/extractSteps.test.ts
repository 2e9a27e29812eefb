/**
 * Extract's two steps for one item, through n8n's engine: nothing is uploaded when the file is not
 * one the service reads; from version 1.2 the file travels on with its result, also when the file
 * was already submitted (Skip Files Already Submitted).
 */
import { describe, expect, it } from 'vitest';

import {
	extractParameters,
	itemWithFile,
	pdfItem,
	runRefusedBeforeSending,
	useNodeHarness,
	VERIFIED,
} from '../../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

describe("Extract's steps for one item", () => {
	it('submit checks the file before anything is sent', async () => {
		const result = await runRefusedBeforeSending(harness(), service(), {
			parameters: extractParameters(),
			items: [itemWithFile(Buffer.from('hello'), 'notes.txt', 'text/plain')],
		});
		expect(result.error()?.message).toContain('is not a type the service reads');
	});

	it('finish keeps the file on the result from version 1.2, on Verified and on Already Submitted', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		// The same bytes (same length and seed) under two names.
		const result = await harness().run({
			parameters: extractParameters({ options: { skipDuplicates: true } }),
			items: [pdfItem(1200, 5, 'a.pdf'), pdfItem(1200, 5, 'b.pdf')],
			typeVersion: 1.2,
		});
		const [verified, , alreadySubmitted] = result.outputs();
		expect(verified[0].binary?.data?.fileName).toBe('a.pdf');
		expect(alreadySubmitted[0].binary?.data?.fileName).toBe('b.pdf');
	});
});
