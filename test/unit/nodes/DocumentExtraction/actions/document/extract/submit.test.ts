import { describe, expect, it } from 'vitest';

import type { PreparedFile } from '../../../../../../../nodes/DocumentExtraction/actions/document/extract/prepareFile.ts';
import { submitFile } from '../../../../../../../nodes/DocumentExtraction/actions/document/extract/submit.ts';
import { fakeExecuteContext } from '../../../../../harness/fakeExecuteContext.ts';
import { VERIFIED } from '../../../../../harness/fixtures.ts';

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
});
