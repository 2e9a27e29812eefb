/**
 * Self-checks of the harness: what the node tests rely on really holds (nock sees n8n's HTTP client,
 * nothing reaches the network, credentials are stored encrypted by n8n-core, the binary modes are
 * the real ones, the multipart parser is byte-exact).
 */
import { describe, expect, it } from 'vitest';

import {
	extractOnePdf,
	extractParameters,
	itemWithFile,
	pdfBytes,
	useNodeHarness,
	VERIFIED,
} from './fixtures.ts';
import {
	API_KEY,
	Container,
	n8nCore,
	parseMultipart,
	ServiceMock,
	SOURCE_NODE_NAME,
} from './index.ts';

const { harness, service } = useNodeHarness();

describe('harness', () => {
	it("n8n's HTTP client is intercepted by nock, and an unexpected host never reaches the network", async () => {
		service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const result = await harness().run({
			...extractOnePdf(),
			credentials: { baseUrl: 'https://not-mocked.docextract.test' },
		});

		expect(ServiceMock.unmatched()).toEqual(['POST https://not-mocked.docextract.test/v1/extract']);
		expect(service().requests).toEqual([]);
		expect(result.error()?.message).toBeDefined();
		ServiceMock.unmatched().length = 0;
	});

	it("stores the credential encrypted with n8n-core's Cipher and hands the node the decrypted data", async () => {
		const helper = harness().credentialsHelper;
		await helper.store({
			id: 'c2',
			name: 'x',
			type: 'documentExtractionApi',
			data: { apiKey: API_KEY, baseUrl: 'https://a.test' },
		});
		const stored = await helper.getCredentials({ id: 'c2', name: 'x' }, 'documentExtractionApi');
		expect(stored.data).toEqual(expect.any(String));
		expect(stored.data).not.toContain(API_KEY);
		const decrypted = await helper.getDecrypted(
			{} as never,
			{ id: 'c2', name: 'x' },
			'documentExtractionApi',
		);
		// Defaults of the credential type are filled in, as n8n does.
		expect(decrypted).toMatchObject({
			apiKey: API_KEY,
			baseUrl: 'https://a.test',
			tier: 'pilot',
			signingSecret: '',
		});
	});

	it('filesystem mode keeps files on disk (an id, no data); default mode keeps them in the item', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: VERIFIED },
			{ status: 200, body: VERIFIED },
		);
		const bytes = pdfBytes(5000);

		const onDisk = (
			await harness().run({ parameters: extractParameters(), items: [itemWithFile(bytes)] })
		).output(SOURCE_NODE_NAME)[0].binary!.data;
		expect(onDisk.id).toMatch(/^filesystem-v2:/);
		expect(onDisk.data).toBe('filesystem-v2');
		const binaryDataService = Container.get(n8nCore.BinaryDataService);
		expect((await binaryDataService.getAsBuffer(onDisk)).equals(bytes)).toBe(true);

		await harness().useBinaryMode('default');
		const inMemory = (
			await harness().run({ parameters: extractParameters(), items: [itemWithFile(bytes)] })
		).output(SOURCE_NODE_NAME)[0].binary!.data;
		expect(inMemory.id).toBeUndefined();
		expect(Buffer.from(inMemory.data, 'base64').equals(bytes)).toBe(true);
	});

	it('parseMultipart is byte-exact and refuses malformed bodies', () => {
		const payload = Buffer.from([0x00, 0x0d, 0x0a, 0x2d, 0x2d, 0xff, 0x0d, 0x0a]);
		const body = Buffer.concat([
			Buffer.from(
				'--b1\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n',
			),
			payload,
			Buffer.from(
				'\r\n--b1\r\nContent-Disposition: form-data; name="webhook_url"\r\n\r\nhttps://x.test\r\n--b1--\r\n',
			),
		]);
		const parts = parseMultipart(body, 'multipart/form-data; boundary=b1');
		expect(parts.map((part) => [part.name, part.filename, part.contentType])).toEqual([
			['file', 'a.pdf', 'application/pdf'],
			['webhook_url', undefined, undefined],
		]);
		expect(parts[0].data.equals(payload)).toBe(true);
		expect(parts[1].data.toString()).toBe('https://x.test');
		expect(() => parseMultipart(body, 'application/json')).toThrow(/Not a multipart/);
		expect(() =>
			parseMultipart(body.subarray(0, body.length - 10), 'multipart/form-data; boundary=b1'),
		).toThrow();
	});
});
