/**
 * How the upload body is built for each of n8n's binary modes (N1): which files are streamed and which
 * are read whole, that a file is read from the database only once per item, and that the content
 * reaches the encoder in bounded pieces that are views of the file, never copies.
 * The real n8n HTTP client sends these bodies in extract.test.ts (filesystem and default mode) and
 * in test/e2e/queue-binary.test.ts (database mode).
 */
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { contentSha256 } from '../../../../../nodes/DocumentExtraction/actions/document/extract/skipFilesAlreadySubmitted.ts';
import {
	boundedChunks,
	contentFile,
	extractForm,
	MAX_WRITE_BYTES,
	readMode,
	uploadSource,
} from '../../../../../nodes/DocumentExtraction/transport/upload.ts';

/** A stream of these chunks, as n8n's binary streams are iterated. */
async function* streamOf(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
	for (const chunk of chunks) yield chunk;
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
	const chunks: Uint8Array[] = [];
	for await (const chunk of source) chunks.push(chunk);
	return chunks;
}

function patterned(bytes: number): Buffer {
	const buffer = Buffer.alloc(bytes);
	for (let index = 0; index < bytes; index++) buffer[index] = index % 251;
	return buffer;
}

describe('readMode: which stored files are streamed', () => {
	it.each([
		['filesystem-v2:workflows/1/executions/2/binary_data/abc', 'stream'],
		['filesystem:abc', 'stream'],
		['s3:workflows/1/executions/2/binary_data/abc', 'stream'],
		// n8n's database manager answers a stream with the whole row in one Buffer.
		['database:7c0f5f0e-2b7e-4a55-9d0f-7a4f2b1d6c3e', 'buffer'],
	] as const)('%s → %s', (id, mode) => {
		expect(readMode({ id })).toBe(mode);
	});

	it('a file held in the item itself (no id, default mode) is already a buffer', () => {
		expect(readMode({})).toBe('buffer');
	});
});

describe('boundedChunks', () => {
	it('cuts one large buffer into pieces of at most the limit that share its memory', async () => {
		const buffer = patterned(3 * MAX_WRITE_BYTES + 100);
		const chunks = await collect(boundedChunks([buffer]));
		expect(chunks.map((chunk) => chunk.byteLength)).toEqual([
			MAX_WRITE_BYTES,
			MAX_WRITE_BYTES,
			MAX_WRITE_BYTES,
			100,
		]);
		for (const chunk of chunks) expect(chunk.buffer).toBe(buffer.buffer);
		expect(Buffer.concat(chunks).equals(buffer)).toBe(true);
	});

	it('passes small chunks of a stream through unchanged, and skips empty ones', async () => {
		const parts = [patterned(10), Buffer.alloc(0), patterned(MAX_WRITE_BYTES)];
		const chunks = await collect(boundedChunks(streamOf(parts)));
		expect(chunks).toHaveLength(2);
		expect(chunks[0]).toBe(parts[0]);
		expect(chunks[1].byteLength).toBe(MAX_WRITE_BYTES);
	});

	it('honours a smaller limit', async () => {
		const chunks = await collect(boundedChunks([patterned(10)], 4));
		expect(chunks.map((chunk) => chunk.byteLength)).toEqual([4, 4, 2]);
	});
});

describe('contentFile', () => {
	it('announces the content size and is encoded into multipart with the exact bytes', async () => {
		const content = patterned(2 * MAX_WRITE_BYTES + 7);
		const form = new FormData();
		form.append('file', contentFile([content], content.length, 'invoice.pdf', 'application/pdf'));
		expect((form.get('file') as File).size).toBe(content.length);

		const request = new Request('http://localhost/', { method: 'POST', body: form });
		const body = Buffer.from(await request.arrayBuffer());
		const start = body.indexOf('\r\n\r\n', body.indexOf('filename="invoice.pdf"')) + 4;
		expect(body.subarray(start, start + content.length).equals(content)).toBe(true);
		expect(body.subarray(start + content.length, start + content.length + 2).toString()).toBe(
			'\r\n',
		);
		expect(body.toString('latin1')).toContain('Content-Type: application/pdf');
	});
});

/** n8n's binary helpers as the node sees them, counting how often the stored file is read. */
function fakeContext(content: Buffer) {
	const reads = { buffer: 0, stream: 0, metadata: 0 };
	const context = {
		helpers: {
			getBinaryMetadata: async () => {
				reads.metadata++;
				return { fileSize: content.length };
			},
			getBinaryStream: async () => {
				reads.stream++;
				return streamOf([content.subarray(0, 1000), content.subarray(1000)]);
			},
			getBinaryDataBuffer: async () => {
				reads.buffer++;
				return content;
			},
		},
	} as unknown as IExecuteFunctions;
	return { context, reads };
}

async function uploadedBytes(file: File): Promise<Buffer> {
	return Buffer.concat(await collect(file.stream() as unknown as AsyncIterable<Uint8Array>));
}

describe('uploadSource per binary mode', () => {
	const content = patterned(5 * MAX_WRITE_BYTES);
	const binaryWith = (id?: string): IBinaryData => ({
		data: id ? 'stored' : content.toString('base64'),
		mimeType: 'application/pdf',
		fileName: 'invoice.pdf',
		...(id ? { id } : {}),
	});

	it('database mode: the size from the metadata, the row read at the first open only, then hashed and sent from that one buffer', async () => {
		const { context, reads } = fakeContext(content);
		const source = await uploadSource(
			context,
			0,
			binaryWith('database:abc'),
			'invoice.pdf',
			'application/pdf',
		);
		expect(source.byteLength).toBe(content.length);
		expect(reads).toEqual({ buffer: 0, stream: 0, metadata: 1 });

		await contentSha256(source);
		const first = await uploadedBytes((await extractForm(source, undefined)).get('file') as File);
		const retry = await uploadedBytes((await extractForm(source, undefined)).get('file') as File);
		expect(first.equals(content)).toBe(true);
		expect(retry.equals(content)).toBe(true);
		expect(reads).toEqual({ buffer: 1, stream: 0, metadata: 1 });
	});

	it('filesystem mode: streamed anew for every open, never read whole', async () => {
		const { context, reads } = fakeContext(content);
		const source = await uploadSource(
			context,
			0,
			binaryWith('filesystem-v2:abc'),
			'invoice.pdf',
			'application/pdf',
		);
		expect(source.byteLength).toBe(content.length);
		const first = await uploadedBytes(await source.open());
		const retry = await uploadedBytes(await source.open());
		expect(first.equals(content)).toBe(true);
		expect(retry.equals(content)).toBe(true);
		expect(reads).toEqual({ buffer: 0, stream: 2, metadata: 1 });
	});

	it('default mode: the item buffer itself is sent, in views of it', async () => {
		const { context, reads } = fakeContext(content);
		const source = await uploadSource(context, 0, binaryWith(), 'invoice.pdf', 'application/pdf');
		const chunks = await collect(
			(await source.open()).stream() as unknown as AsyncIterable<Uint8Array>,
		);
		for (const chunk of chunks) expect(chunk.buffer).toBe(content.buffer);
		expect(Buffer.concat(chunks).equals(content)).toBe(true);
		expect(reads).toEqual({ buffer: 1, stream: 0, metadata: 0 });
	});
});
