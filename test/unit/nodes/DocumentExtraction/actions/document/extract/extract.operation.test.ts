/**
 * Document > Extract through n8n's engine: the answers of the service as output items (every output
 * mode), and the multipart request exactly as it leaves n8n, from disk (filesystem binary mode,
 * streamed) and from memory (default mode).
 */
import { describe, expect, it, vi } from 'vitest';

import {
	API_KEY,
	BASE_URL,
	Container,
	n8nCore,
	NODE_NAME,
	parseMultipart,
	SOURCE_NODE_NAME,
} from '../../../../../harness/index.ts';
import type { RecordedRequest } from '../../../../../harness/index.ts';
import {
	DOCUMENT_ID,
	EXTRACTED,
	extractOnePdf,
	extractParameters,
	itemWithFile,
	NEEDS_REVIEW,
	pdfBytes,
	PROCESSING,
	pseudoRandomBytes,
	REVIEW_ID,
	useNodeHarness,
	VERIFIED,
} from '../../../../../harness/fixtures.ts';
import { EXTRACTED_SIMPLIFIED, NO_INVOICE } from '../../../../../harness/invoices.ts';

const { harness, service } = useNodeHarness();

/** Output 1 of Extract without waiting: Needs Review (also documents still processing). */
const NEEDS_REVIEW_OUTPUT = 1;

const NULL_INVOICE = {
	...NO_INVOICE,
	ready_to_post: false,
	summary: null,
	summary_html: null,
	lines_markdown: null,
	lines_html: null,
};

/** The `file` part (and the others) of a recorded upload, checked for well-formedness. */
function uploadOf(request: RecordedRequest) {
	expect(request.method).toBe('POST');
	expect(request.path).toBe('/v1/extract');
	expect(String(request.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
	// The length announced (from the stored file's size when streamed) is the length sent.
	expect(Number(request.headers['content-length'])).toBe(request.body.length);
	const parts = parseMultipart(request.body, request.headers['content-type']);
	const filePart = parts.find((part) => part.name === 'file');
	expect(filePart, 'a "file" part').toBeDefined();
	return { parts, filePart: filePart! };
}

/** The API key travels in the X-API-Key header and nowhere else. */
function expectKeyOnlyInHeader(request: RecordedRequest) {
	expect(request.headers['x-api-key']).toBe(API_KEY);
	expect(request.path).not.toContain(API_KEY);
	expect(request.path).not.toContain('?');
	expect(request.body.includes(API_KEY)).toBe(false);
	expect(request.body.includes(API_KEY.slice(4, 24))).toBe(false);
	const otherHeaders = Object.entries(request.headers).filter(([name]) => name !== 'x-api-key');
	expect(JSON.stringify(otherHeaders)).not.toContain(API_KEY);
	expect(request.headers.authorization).toBeUndefined();
}

describe('Extract: answers of the service as output items', () => {
	it('verified: simplified fields, checks, document fields and the pairing to the input item', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run(extractOnePdf());

		expect(result.error()).toBeUndefined();
		expect(result.output()).toEqual([
			{
				json: {
					document_id: DOCUMENT_ID,
					status: 'verified',
					confidence: 0.98,
					verified_by: 'ai_auto',
					review_id: null,
					...EXTRACTED_SIMPLIFIED,
					ready_to_post: true,
					not_ready_because: [],
					summary: 'Acme Supplies GmbH, INV-2024-0042, 2024-03-15, 297.50, 3 lines',
					summary_html: 'Acme Supplies GmbH, INV-2024-0042, 2024-03-15, 297.50, 3 lines',
					lines_markdown: [
						'| Description | Quantity | Unit price | Amount |',
						'|---|--:|--:|--:|',
						'| Paper A4, 500 sheets | 10 | 5.00 | 50.00 |',
						'| Toner cartridge | 2 | 75.00 | 150.00 |',
						'| Delivery | 1 | 50.00 | 50.00 |',
					].join('\n'),
					lines_html: expect.stringContaining('<td>Toner cartridge</td>'),
				},
				pairedItem: { item: 0 },
			},
		]);
		// The credential class's own `authenticate` put the key on the request.
		expect(harness().credentialsHelper.authenticated).toEqual(['documentExtractionApi']);
		expect(service().pending()).toEqual([]);
	});

	it.each([
		[
			'needs_review: the invoice fields are null and the review_id is there',
			NEEDS_REVIEW,
			{
				confidence: 0.71,
				review_id: REVIEW_ID,
				not_ready_because: [
					'The document is not verified (status "needs_review"): wait for the review result (Wait for Review or the Document Extraction Trigger) before posting it.',
				],
			},
		],
		[
			'processing: status processing, no review yet, invoice fields null',
			PROCESSING,
			{
				confidence: null,
				review_id: null,
				not_ready_because: [expect.stringContaining('not verified (status "processing")')],
			},
		],
	])('%s', async (_case, answer, expected) => {
		service().on('POST', '/v1/extract', { status: 200, body: answer });
		const result = await harness().run(extractOnePdf());

		expect(result.output(NODE_NAME, NEEDS_REVIEW_OUTPUT)).toEqual([
			{
				json: {
					document_id: DOCUMENT_ID,
					status: answer.status,
					verified_by: null,
					...NULL_INVOICE,
					...expected,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('needs_review: extracted data sent anyway is not presented as final', async () => {
		service().on('POST', '/v1/extract', {
			status: 200,
			body: { ...NEEDS_REVIEW, extracted_json: EXTRACTED },
		});
		const result = await harness().run(extractOnePdf());
		expect(result.output(NODE_NAME, NEEDS_REVIEW_OUTPUT)[0].json).toMatchObject({
			status: 'needs_review',
			review_id: REVIEW_ID,
			vendor: null,
			total: null,
		});
	});
});

describe('Extract: output modes', () => {
	it('Split Line Items: one item per line, each with the header and the document fields', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run(extractOnePdf({ outputMode: 'splitLineItems' }));

		const output = result.output();
		expect(output).toHaveLength(3);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
		expect(
			output.map((item) => [
				item.json.line_number,
				item.json.line_count,
				item.json.description,
				item.json.amount,
			]),
		).toEqual([
			[1, 3, 'Paper A4, 500 sheets', 50],
			[2, 3, 'Toner cartridge', 150],
			[3, 3, 'Delivery', 50],
		]);
		for (const item of output) {
			expect(item.json).toMatchObject({
				document_id: DOCUMENT_ID,
				status: 'verified',
				vendor: 'Acme Supplies GmbH',
				invoice_no: 'INV-2024-0042',
				total: 297.5,
				checks: { all_passed: true },
			});
			expect(item.json).not.toHaveProperty('line_items');
		}
		expect(output[1].json).toMatchObject({ quantity: 2, unit_price: 75 });
	});

	it('Split Line Items: a document without line items still gives exactly one item', async () => {
		service().on('POST', '/v1/extract', {
			status: 200,
			body: { ...VERIFIED, extracted_json: { ...EXTRACTED, line_items: [] } },
		});
		const result = await harness().run(extractOnePdf({ outputMode: 'splitLineItems' }));

		expect(result.output()).toHaveLength(1);
		expect(result.output()[0]).toMatchObject({
			json: {
				document_id: DOCUMENT_ID,
				vendor: 'Acme Supplies GmbH',
				total: 297.5,
				line_number: null,
				line_count: 0,
				description: null,
				quantity: null,
				unit_price: null,
				amount: null,
			},
			pairedItem: { item: 0 },
		});
	});

	it('Split Line Items: a document waiting for review gives one item with its review_id', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: NEEDS_REVIEW });
		const result = await harness().run(extractOnePdf({ outputMode: 'splitLineItems' }));
		expect(result.output(NODE_NAME, NEEDS_REVIEW_OUTPUT)).toHaveLength(1);
		expect(result.output(NODE_NAME, NEEDS_REVIEW_OUTPUT)[0].json).toMatchObject({
			status: 'needs_review',
			review_id: REVIEW_ID,
			line_count: 0,
			vendor: null,
		});
	});

	it('Raw: the response untouched, unknown fields included, with currency and readiness beside it', async () => {
		const response = { ...VERIFIED, pages: 2, extracted_json: { ...EXTRACTED, currency: 'EUR' } };
		service().on('POST', '/v1/extract', { status: 200, body: response });
		const result = await harness().run(extractOnePdf({ outputMode: 'raw' }));
		expect(result.output()).toEqual([
			{
				json: { ...response, currency: 'EUR', ready_to_post: true, not_ready_because: [] },
				pairedItem: { item: 0 },
			},
		]);
	});
});

describe('Extract: the multipart request as sent', () => {
	it('filesystem binary mode: the stored file is streamed, field "file" carries name, type and the exact bytes', async () => {
		const bytes = pdfBytes(64 * 1024, 7);
		const binaryData = Container.get(n8nCore.BinaryDataService);
		const streamSpy = vi.spyOn(binaryData, 'getAsStream');
		const bufferSpy = vi.spyOn(binaryData, 'getAsBuffer');
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });

		const result = await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(bytes, 'March invoice.pdf')],
		});
		const [streamCalls, bufferCalls] = [streamSpy.mock.calls.length, bufferSpy.mock.calls.length];
		streamSpy.mockRestore();
		bufferSpy.mockRestore();

		expect(result.error()).toBeUndefined();
		// The file really was in n8n's filesystem storage, and was read as a stream, not into memory.
		expect(result.output(SOURCE_NODE_NAME)[0].binary?.data.id).toMatch(/^filesystem-v2:/);
		expect(streamCalls).toBe(1);
		expect(bufferCalls).toBe(0);

		const [request] = service().requests;
		const { parts, filePart } = uploadOf(request);
		expect(parts.map((part) => part.name)).toEqual(['file']);
		expect(filePart.filename).toBe('March invoice.pdf');
		expect(filePart.contentType).toBe('application/pdf');
		expect(filePart.data.equals(bytes)).toBe(true);
		expectKeyOnlyInHeader(request);
	});

	it('default binary mode: the file is sent from memory with the same bytes', async () => {
		await harness().useBinaryMode('default');
		const bytes = pdfBytes(64 * 1024, 11);
		const bufferSpy = vi.spyOn(Container.get(n8nCore.BinaryDataService), 'getAsBuffer');
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });

		const result = await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(bytes)],
		});
		const bufferCalls = bufferSpy.mock.calls.length;
		bufferSpy.mockRestore();

		expect(result.error()).toBeUndefined();
		const sourceBinary = result.output(SOURCE_NODE_NAME)[0].binary?.data;
		expect(sourceBinary?.id).toBeUndefined();
		expect(sourceBinary?.data).toBe(bytes.toString('base64'));
		expect(bufferCalls).toBe(1);

		const [request] = service().requests;
		const { filePart } = uploadOf(request);
		expect(filePart.filename).toBe('invoice.pdf');
		expect(filePart.contentType).toBe('application/pdf');
		expect(filePart.data.equals(bytes)).toBe(true);
		expectKeyOnlyInHeader(request);
	});

	it.each(['filesystem', 'default'] as const)(
		'%s binary mode: a 12 MiB file arrives intact (Growth tier)',
		async (mode) => {
			await harness().useBinaryMode(mode);
			const bytes = pdfBytes(12 * 1024 * 1024 + 3, mode === 'filesystem' ? 101 : 202);
			service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });

			const result = await harness().run({
				parameters: extractParameters(),
				items: [itemWithFile(bytes, 'big scan.pdf')],
				credentials: { tier: 'growth' },
			});

			expect(result.error()).toBeUndefined();
			expect(service().requests).toHaveLength(1);
			const { filePart } = uploadOf(service().requests[0]);
			expect(filePart.data.length).toBe(bytes.length);
			expect(filePart.data.equals(bytes)).toBe(true);
		},
		// Twelve MiB written, read and parsed back: a busy machine takes more than the default 5 s.
		30_000,
	);

	it('sends webhook_url as a text field when the option is set, and not otherwise', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: NEEDS_REVIEW },
			{ status: 200, body: NEEDS_REVIEW },
		);
		const webhookUrl = 'https://hooks.example.com/webhook/invoices?tenant=7';

		await harness().run(extractOnePdf({ options: { webhookUrl: `  ${webhookUrl} ` } }));
		await harness().run(extractOnePdf());

		const [withHook, withoutHook] = service().requests;
		const parts = uploadOf(withHook).parts;
		expect(parts.map((part) => part.name)).toEqual(['file', 'webhook_url']);
		const hookPart = parts[1];
		expect(hookPart.filename).toBeUndefined();
		expect(hookPart.data.toString('utf8')).toBe(webhookUrl);
		expect(uploadOf(withoutHook).parts.map((part) => part.name)).toEqual(['file']);
		expectKeyOnlyInHeader(withHook);
	});

	it("N40: from version 1.2, sends this workflow's trigger's address as webhook_url, unless an option says otherwise", async () => {
		service().on(
			'POST',
			'/v1/extract',
			...Array.from({ length: 4 }, () => ({ status: 200, body: NEEDS_REVIEW })),
		);
		const own = 'https://hooks.example.com/webhook/invoices';
		for (const [typeVersion, options] of [
			[1.2, {}],
			[1.2, { webhookUrl: own }],
			[1.2, { reviewResultsToTrigger: false }],
			[1.1, {}],
		] as const) {
			await harness().run({
				...extractOnePdf({ options }),
				typeVersion,
			});
		}
		const sent = service().requests.map((request) =>
			uploadOf(request)
				.parts.find((part) => part.name === 'webhook_url')
				?.data.toString('utf8'),
		);
		// A manual execution: the trigger's test address (its production one in production).
		expect(sent).toEqual([
			'https://localhost:5678/webhook-test/document-extraction/unit-test-workflow',
			own,
			undefined,
			undefined,
		]);
	});

	it('from version 1.2 the input file travels on with its result (for Build Bill to attach); before, the result alone', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: VERIFIED },
			{ status: 200, body: VERIFIED },
		);
		const run = async (typeVersion: number) =>
			(
				await harness().run({
					parameters: extractParameters(),
					items: [itemWithFile(pdfBytes(), 'acme-0042.pdf')],
					typeVersion,
				})
			).output()[0];
		const kept = await run(1.2);
		expect(kept.binary?.data?.fileName).toBe('acme-0042.pdf');
		expect(kept.json.document_id).toEqual(expect.any(String));
		expect((await run(1.1)).binary).toBeUndefined();
	});

	it('names the part by the detected type when n8n only knows "application/octet-stream" or the name lacks an extension', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: VERIFIED },
			{ status: 200, body: VERIFIED },
		);
		const png = Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			pseudoRandomBytes(300),
		]);

		await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(pdfBytes(), 'Invoice.PDF', 'application/octet-stream')],
		});
		await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(png, 'scan', 'image/png')],
		});

		const [pdfUpload, pngUpload] = service().requests.map((request) => uploadOf(request).filePart);
		expect([pdfUpload.filename, pdfUpload.contentType]).toEqual(['Invoice.PDF', 'application/pdf']);
		expect([pngUpload.filename, pngUpload.contentType]).toEqual(['scan.png', 'image/png']);
		expect(pngUpload.data.equals(png)).toBe(true);
	});

	it('a CSV document travels as text/csv with its exact bytes', async () => {
		const csv = Buffer.from(
			'description,quantity,unit_price,amount\r\n"Widget, large",2,10.50,21.00\r\nÜberweisung,1,0,0\r\n',
		);
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(csv, 'lines.csv', 'text/csv')],
		});

		const { filePart } = uploadOf(service().requests[0]);
		expect([filePart.filename, filePart.contentType]).toEqual(['lines.csv', 'text/csv']);
		expect(filePart.data.equals(csv)).toBe(true);
	});

	it('uses the binary field named in "Input Binary Field"', async () => {
		const wanted = pdfBytes(2048, 5);
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run({
			parameters: extractParameters({ binaryPropertyName: 'attachment_1' }),
			items: [
				{
					json: {},
					binary: {
						data: {
							content: pdfBytes(1024, 9),
							fileName: 'other.pdf',
							mimeType: 'application/pdf',
						},
						attachment_1: { content: wanted, fileName: 'wanted.pdf', mimeType: 'application/pdf' },
					},
				},
			],
		});
		expect(result.error()).toBeUndefined();
		const { filePart } = uploadOf(service().requests[0]);
		expect(filePart.filename).toBe('wanted.pdf');
		expect(filePart.data.equals(wanted)).toBe(true);
	});

	it('several input items: one upload each, outputs paired in order', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_first' } },
			{ status: 200, body: { ...NEEDS_REVIEW, document_id: 'doc_second' } },
		);
		const first = pdfBytes(1500, 1);
		const second = pdfBytes(2500, 2);
		const result = await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(first, 'a.pdf'), itemWithFile(second, 'b.pdf')],
		});

		const [verified, needsReview] = result.outputs();
		expect(
			verified.map((item) => [item.json.document_id, item.json.status, item.pairedItem]),
		).toEqual([['doc_first', 'verified', { item: 0 }]]);
		expect(
			needsReview.map((item) => [item.json.document_id, item.json.status, item.pairedItem]),
		).toEqual([['doc_second', 'needs_review', { item: 1 }]]);
		const uploads = service().requests.map((request) => uploadOf(request).filePart);
		expect(uploads.map((part) => part.filename)).toEqual(['a.pdf', 'b.pdf']);
		expect(uploads[0].data.equals(first)).toBe(true);
		expect(uploads[1].data.equals(second)).toBe(true);
	});

	it('talks to the Base URL of the credential (trailing slash and path-less) only', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run({
			...extractOnePdf(),
			credentials: { baseUrl: `${BASE_URL}/` },
		});
		expect(result.error()).toBeUndefined();
		expect(service().requests.map((request) => request.path)).toEqual(['/v1/extract']);
		expect(result.runData[NODE_NAME]).toHaveLength(1);
	});
});
