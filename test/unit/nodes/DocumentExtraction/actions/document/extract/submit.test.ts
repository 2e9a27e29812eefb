import { describe, expect, it } from 'vitest';

import type { PreparedFile } from '../../../../../../../nodes/DocumentExtraction/actions/document/extract/prepareFile.ts';
import { submitFile } from '../../../../../../../nodes/DocumentExtraction/actions/document/extract/submit.ts';
import { fakeExecuteContext } from '../../../../../harness/fakeExecuteContext.ts';
import {
	DOCUMENT_ID,
	NEEDS_REVIEW,
	serviceError,
	VERIFIED,
} from '../../../../../harness/fixtures.ts';

const SHA = 'ab'.repeat(32);
const claim = { sha256: SHA, claimKey: `claim:sha256:${SHA}:nonce` };

function preparedFile(webhookUrl?: string): PreparedFile {
	const content = Buffer.from('%PDF-1.4 test');
	return {
		fileName: 'invoice.pdf',
		kind: 'pdf',
		webhookUrl,
		source: {
			byteLength: content.length,
			open: async () => new File([content], 'invoice.pdf', { type: 'application/pdf' }),
		} as unknown as PreparedFile['source'],
	};
}

/** The store as Skip Files Already Submitted leaves it after winning the claim. */
function claimed(store: Set<string>) {
	store.add(claim.claimKey);
	store.add(`sha256:${SHA}`);
}

describe("Extract's upload", () => {
	it('posts the file once, not idempotent, and returns the answer', async () => {
		const fake = fakeExecuteContext({ answers: [{ statusCode: 200, body: VERIFIED }] });
		const answer = await submitFile(fake.context, 0, preparedFile('https://hooks.example/r'), 5);
		expect(answer).toEqual(VERIFIED);
		expect(fake.requests).toHaveLength(1);
		expect(fake.requests[0]).toMatchObject({
			method: 'POST',
			url: '/v1/extract',
			baseURL: 'https://api.example.com',
		});
		const form = fake.requests[0].body as FormData;
		expect(form.get('webhook_url')).toBe('https://hooks.example/r');
		expect((form.get('file') as File).name).toBe('invoice.pdf');
		expect(
			fake.logs.some((line) =>
				line.startsWith('debug: Document Extraction: uploading "invoice.pdf"'),
			),
		).toBe(true);
	});

	it('a claimed file is remembered with the document it became', async () => {
		const fake = fakeExecuteContext({ answers: [{ statusCode: 200, body: NEEDS_REVIEW }] });
		claimed(fake.store);
		await submitFile(fake.context, 0, preparedFile(), 5, claim);
		const remembered = (
			fake.staticData.documentExtractionSubmissions as Record<string, { document_id: string }>
		)[SHA];
		expect(remembered.document_id).toBe(DOCUMENT_ID);
		expect(fake.store.has(`sha256:${SHA}`)).toBe(true);
	});

	it('a failed upload releases the claim, so a later run may try the file again', async () => {
		const fake = fakeExecuteContext({
			answers: [{ statusCode: 500, body: serviceError('internal', 'boom') }],
		});
		claimed(fake.store);
		await expect(submitFile(fake.context, 0, preparedFile(), 5, claim)).rejects.toThrow();
		expect(fake.requests).toHaveLength(1); // an upload is never repeated after a 5xx
		expect(fake.store.size).toBe(0);
		expect(fake.staticData.documentExtractionSubmissions).toBeUndefined();
	});

	it('a broken connection also releases the claim', async () => {
		const fake = fakeExecuteContext({
			answers: [Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
		});
		claimed(fake.store);
		await expect(submitFile(fake.context, 0, preparedFile(), 5, claim)).rejects.toThrow();
		expect(fake.store.size).toBe(0);
	});

	it('an answer without a document_id keeps the claim but remembers no document', async () => {
		const withoutId: Record<string, unknown> = { ...VERIFIED };
		delete withoutId.document_id;
		const fake = fakeExecuteContext({ answers: [{ statusCode: 200, body: withoutId }] });
		claimed(fake.store);
		await submitFile(fake.context, 0, preparedFile(), 5, claim);
		expect(fake.store.has(`sha256:${SHA}`)).toBe(true);
		expect(fake.staticData.documentExtractionSubmissions).toBeUndefined();
	});

	it('without a claim, the store and the static data are never touched', async () => {
		const fake = fakeExecuteContext({
			answers: [{ statusCode: 500, body: serviceError('internal', 'boom') }],
		});
		await expect(submitFile(fake.context, 0, preparedFile(), 5)).rejects.toThrow();
		expect(fake.staticData).toEqual({});
	});
});
