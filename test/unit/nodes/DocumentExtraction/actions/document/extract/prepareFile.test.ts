/**
 * Input the node refuses itself, before anything is sent: the service never sees these requests
 * (nock records none, and every interceptor set up "just in case" stays unused).
 */
import { describe, expect, it } from 'vitest';

import type { RunOptions } from '../../../../../harness/index.ts';
import { SOURCE_NODE_NAME } from '../../../../../harness/index.ts';
import {
	extractOnePdf,
	extractParameters,
	itemWithFile,
	pdfBytes,
	runRefusedBeforeSending,
	useNodeHarness,
	VERIFIED,
} from '../../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const MIB = 1024 * 1024;

/** Runs Extract on input it must refuse itself; fails the test if anything reached the service. */
const refused = async (options: RunOptions) =>
	await runRefusedBeforeSending(harness(), service(), options);

describe('Extract refuses before uploading', () => {
	it.each(['filesystem', 'default'] as const)(
		'%s mode: no binary data on the item',
		async (mode) => {
			await harness().useBinaryMode(mode);
			const result = await refused({
				parameters: extractParameters(),
				items: [{ json: { id: 1 } }],
			});

			// n8n's own assertBinaryData says so.
			expect(result.error()?.message).toMatch(
				/expects the node's input data to contain a binary file 'data'/,
			);
		},
	);

	it('the binary field named in the parameter does not exist', async () => {
		const result = await refused(extractOnePdf({ binaryPropertyName: 'invoice' }));
		expect(result.error()?.message).toMatch(/has no binary field 'invoice'/);
	});

	it('an Input Binary Field expression that resolves to nothing is a missing field, not a crash', async () => {
		const result = await refused(extractOnePdf({ binaryPropertyName: '={{ $json.field }}' }));
		expect(result.error()?.message).toMatch(/has no binary field ''/);
	});

	it.each(['filesystem', 'default'] as const)('%s mode: an empty file (0 bytes)', async (mode) => {
		await harness().useBinaryMode(mode);
		const result = await refused({
			parameters: extractParameters(),
			items: [itemWithFile(Buffer.alloc(0), 'empty.pdf')],
		});

		expect(result.error()?.message).toBe('The file "empty.pdf" is empty (0 bytes)');
		expect(result.error()?.description).toMatch(/Check the step that produced it/);
	});

	it.each([
		['report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
		['notes.txt', 'text/plain'],
		['archive.zip', 'application/zip'],
		['no-extension', 'application/octet-stream'],
	])('an unsupported type: %s (%s)', async (fileName, mimeType) => {
		const result = await refused({
			parameters: extractParameters(),
			items: [itemWithFile(Buffer.from('PK\u0003\u0004 some content'), fileName, mimeType)],
		});

		expect(result.error()?.message).toBe(
			`The file "${fileName}" (${mimeType}) is not a type the service reads`,
		);
		expect(result.error()?.description).toMatch(/Supported types: PDF, JPG, PNG, JSON or CSV/);
	});

	it('a file above the Pilot limit (10 MiB + 1 byte, kept on disk by the filesystem mode)', async () => {
		const result = await refused({
			parameters: extractParameters(),
			items: [itemWithFile(pdfBytes(10 * MIB + 1), 'scan.pdf')],
			credentials: { tier: 'pilot' },
		});

		expect(result.output(SOURCE_NODE_NAME)[0].binary?.data.id).toBeDefined();
		expect(result.error()?.message).toBe('"scan.pdf" is too large for your tier');
		expect(result.error()?.description).toMatch(
			/above the 10\.0 MB limit of the Pilot \(free\) tier/,
		);
	});

	it('an unknown tier in the credential gets the smallest (Pilot) limit', async () => {
		const result = await refused({
			parameters: extractParameters(),
			items: [itemWithFile(pdfBytes(10 * MIB + 1), 'scan.pdf')],
			credentials: { tier: 'platinum' },
		});
		expect(result.error()?.description).toMatch(/Pilot/);
	});

	it('a file of exactly 10 MiB is within the Pilot limit and is uploaded', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run({
			parameters: extractParameters(),
			items: [itemWithFile(pdfBytes(10 * MIB), 'scan.pdf')],
			credentials: { tier: 'pilot' },
		});
		expect(result.error()).toBeUndefined();
		expect(service().requests).toHaveLength(1);
		// Ten MiB through n8n's engine and the mocked service: a busy machine takes more than 5 s.
	}, 30_000);

	it.each([
		'http://hooks.example.com/x',
		'ftp://hooks.example.com/x',
		'not a url',
		'https://user:pw@hooks.example.com/x',
	])('a Webhook URL option that is not a plain https URL: %s', async (webhookUrl) => {
		const result = await refused(extractOnePdf({ options: { webhookUrl } }));
		expect(result.error()?.message).toMatch(/^The Webhook URL option /);
	});

	it('a Base URL in the credential that is not http(s)', async () => {
		const result = await refused({
			...extractOnePdf(),
			credentials: { baseUrl: 'api.docextract.test' },
		});
		expect(result.error()?.message).toMatch(
			/Base URL in the Document Extraction API credential .* is not a valid http\(s\) address/,
		);
	});
});
