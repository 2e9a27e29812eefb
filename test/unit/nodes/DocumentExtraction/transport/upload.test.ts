/**
 * How the upload body is built for each of n8n's binary modes (N1): which files are streamed and which
 * are read whole, that a file read whole is read at each open and kept by none, what an open costs in
 * the run's budget of bytes in flight, and that the content reaches the encoder in bounded pieces that
 * are views of the file, never copies.
 * The real n8n HTTP client sends these bodies in extract.test.ts (filesystem and default mode) and
 * in test/e2e/queue-binary.test.ts (database mode).
 */
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { contentSha256 } from '../../../../../nodes/DocumentExtraction/actions/document/extract/skipFilesAlreadySubmitted.ts';
import {
	extractForm,
	uploadSource,
} from '../../../../../nodes/DocumentExtraction/transport/upload.ts';

/**
 * The largest piece the upload hands the HTTP client at once: what fs streams read in. Over TLS a
 * larger write is held twice (plain and encrypted) until the socket takes it.
 */
const PIECE_BYTES = 64 * 1024;

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

/** n8n's binary helpers as the node sees them, counting how often the stored file is read. */
function fakeContext(
	content: Buffer,
	streamChunks: Uint8Array[] = [content.subarray(0, 1000), content.subarray(1000)],
) {
	const reads = { buffer: 0, stream: 0, metadata: 0 };
	const context = {
		helpers: {
			getBinaryMetadata: async () => {
				reads.metadata++;
				return { fileSize: content.length };
			},
			getBinaryStream: async () => {
				reads.stream++;
				return streamOf(streamChunks);
			},
			getBinaryDataBuffer: async () => {
				reads.buffer++;
				return content;
			},
		},
	} as unknown as IExecuteFunctions;
	return { context, reads };
}

const piecesOf = async (file: File) =>
	await collect(file.stream() as unknown as AsyncIterable<Uint8Array>);

async function uploadedBytes(file: File): Promise<Buffer> {
	return Buffer.concat(await piecesOf(file));
}

const binaryWith = (content: Buffer, id?: string): IBinaryData => ({
	data: id ? 'stored' : content.toString('base64'),
	mimeType: 'application/pdf',
	fileName: 'invoice.pdf',
	...(id ? { id } : {}),
});

const sourceOf = async (context: IExecuteFunctions, binary: IBinaryData) =>
	await uploadSource(context, 0, binary, 'invoice.pdf', 'application/pdf');

describe('which stored files are streamed', () => {
	it.each([
		['filesystem-v2:workflows/1/executions/2/binary_data/abc', 'stream'],
		['filesystem:abc', 'stream'],
		['s3:workflows/1/executions/2/binary_data/abc', 'stream'],
		// n8n's database manager answers a stream with the whole row in one Buffer.
		['database:7c0f5f0e-2b7e-4a55-9d0f-7a4f2b1d6c3e', 'buffer'],
		// A file held in the item itself (default mode) is already a buffer.
		[undefined, 'buffer'],
	] as const)('%s is read as a %s', async (id, mode) => {
		const content = patterned(3000);
		const { context, reads } = fakeContext(content);
		const file = await (await sourceOf(context, binaryWith(content, id))).open();
		expect((await uploadedBytes(file)).equals(content)).toBe(true);
		expect({ stream: reads.stream, buffer: reads.buffer }).toEqual(
			mode === 'stream' ? { stream: 1, buffer: 0 } : { stream: 0, buffer: 1 },
		);
	});
});

describe('the pieces the HTTP client is handed', () => {
	it('one large buffer goes in pieces of at most 64 KiB that share its memory', async () => {
		const content = patterned(3 * PIECE_BYTES + 100);
		const { context } = fakeContext(content);
		const pieces = await piecesOf(await (await sourceOf(context, binaryWith(content))).open());
		expect(pieces.map((piece) => piece.byteLength)).toEqual([
			PIECE_BYTES,
			PIECE_BYTES,
			PIECE_BYTES,
			100,
		]);
		for (const piece of pieces) expect(piece.buffer).toBe(content.buffer);
		expect(Buffer.concat(pieces).equals(content)).toBe(true);
	});

	it("a stream's small chunks pass through unchanged, its empty ones are skipped", async () => {
		const chunks = [patterned(10), Buffer.alloc(0), patterned(PIECE_BYTES)];
		const content = Buffer.concat(chunks);
		const { context } = fakeContext(content, chunks);
		const file = await (await sourceOf(context, binaryWith(content, 'filesystem-v2:abc'))).open();
		const pieces = await piecesOf(file);
		expect(pieces).toHaveLength(2);
		expect(pieces[0]).toBe(chunks[0]);
		expect(pieces[1].byteLength).toBe(PIECE_BYTES);
	});

	it('the form announces the file size and encodes the exact bytes with their type', async () => {
		const content = patterned(2 * PIECE_BYTES + 7);
		const { context } = fakeContext(content);
		const form = await extractForm(await sourceOf(context, binaryWith(content)), undefined);
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

describe('what an open costs in the budget of bytes in flight', () => {
	const MiB = 1024 * 1024;
	/** The pieces a streamed upload holds at most: 8 of 64 KiB. */
	const STREAMED_BYTES = 8 * PIECE_BYTES;

	/** A stored file of `fileSize` bytes, of which only the metadata is read. */
	const storedCost = async (id: string, fileSize: number) => {
		const context = {
			helpers: { getBinaryMetadata: async () => ({ fileSize }) },
		} as unknown as IExecuteFunctions;
		const binary: IBinaryData = { data: 'stored', mimeType: 'application/pdf', id };
		return (await sourceOf(context, binary)).memoryCost;
	};

	it.each([
		['filesystem-v2:abc', 'a small streamed file: its size', 1000, 1000],
		['filesystem-v2:abc', 'a streamed file of exactly its pieces', STREAMED_BYTES, STREAMED_BYTES],
		[
			'filesystem-v2:abc',
			"Enterprise's largest streamed: its pieces, not its size",
			100 * MiB,
			STREAMED_BYTES,
		],
		[
			's3:workflows/1/executions/2/binary_data/abc',
			'from S3: its pieces',
			25 * MiB,
			STREAMED_BYTES,
		],
		['azure:abc', 'from Azure: its pieces', 25 * MiB, STREAMED_BYTES],
		// The row let go is freed at V8's next collection: until then it is held again.
		['database:abc', 'a database row: twice its size', 1000, 2000],
		[
			'database:abc',
			"Enterprise's largest row: twice its size, above the budget",
			100 * MiB,
			200 * MiB,
		],
	] as const)('%s, %s', async (id, _case, fileSize, cost) => {
		expect(await storedCost(id, fileSize)).toBe(cost);
	});

	it('a file in the item (default mode): decoded at each open, twice its size', async () => {
		const content = patterned(3 * MiB + 1);
		const { context } = fakeContext(content);
		const source = await sourceOf(context, binaryWith(content));
		expect(source.byteLength).toBe(content.length);
		expect(source.memoryCost).toBe(2 * content.length);
	});
});

describe('uploadSource per binary mode', () => {
	const content = patterned(5 * PIECE_BYTES);

	it('database mode: the size from the metadata, the row read whole at each open and kept by none (hash, upload, retry); an open counts twice in the budget', async () => {
		const { context, reads } = fakeContext(content);
		const source = await uploadSource(
			context,
			0,
			binaryWith(content, 'database:abc'),
			'invoice.pdf',
			'application/pdf',
		);
		expect(source.byteLength).toBe(content.length);
		// The row let go is freed at V8's next collection: until then it is held again.
		expect(source.memoryCost).toBe(2 * content.length);
		expect(reads).toEqual({ buffer: 0, stream: 0, metadata: 1 });

		await contentSha256(source);
		const first = await uploadedBytes((await extractForm(source, undefined)).get('file') as File);
		const retry = await uploadedBytes((await extractForm(source, undefined)).get('file') as File);
		expect(first.equals(content)).toBe(true);
		expect(retry.equals(content)).toBe(true);
		// Kept between opens, every file of a run would be held from its hash to its upload.
		expect(reads).toEqual({ buffer: 3, stream: 0, metadata: 1 });
	});

	it('filesystem mode: streamed anew for every open, never read whole', async () => {
		const { context, reads } = fakeContext(content);
		const source = await uploadSource(
			context,
			0,
			binaryWith(content, 'filesystem-v2:abc'),
			'invoice.pdf',
			'application/pdf',
		);
		expect(source.byteLength).toBe(content.length);
		// 320 KiB: held whole at most, in fewer pieces than a stream holds.
		expect(source.memoryCost).toBe(content.length);
		const first = await uploadedBytes(await source.open());
		const retry = await uploadedBytes(await source.open());
		expect(first.equals(content)).toBe(true);
		expect(retry.equals(content)).toBe(true);
		expect(reads).toEqual({ buffer: 0, stream: 2, metadata: 1 });
	});

	it("default mode: the item's file decoded at each open and kept by none, sent in views of it", async () => {
		const { context, reads } = fakeContext(content);
		const source = await uploadSource(
			context,
			0,
			binaryWith(content),
			'invoice.pdf',
			'application/pdf',
		);
		// The size from the item's base64, without decoding it.
		expect(source.byteLength).toBe(content.length);
		expect(reads).toEqual({ buffer: 0, stream: 0, metadata: 0 });
		const chunks = await collect(
			(await source.open()).stream() as unknown as AsyncIterable<Uint8Array>,
		);
		for (const chunk of chunks) expect(chunk.buffer).toBe(content.buffer);
		expect(Buffer.concat(chunks).equals(content)).toBe(true);
		await contentSha256(source);
		expect(reads).toEqual({ buffer: 2, stream: 0, metadata: 0 });
	});
});
