/**
 * The document upload (docs/spec-decisions.md#d1: multipart/form-data, field "file"), holding as little of the file in memory
 * as n8n's binary storage allows (docs/spec-decisions.md#n1):
 * - filesystem (and object-store) mode: streamed from the stored file, never read whole;
 * - database mode: n8n reads the whole row into one Buffer even for a stream, so the node takes that
 *   Buffer for each read (the hash, the upload) and lets it go after, within the run's byte budget;
 * - default (in-memory) mode: the item's base64, decoded the same way at each read.
 *
 * n8n Cloud allows no stream or form-data imports, so the content travels inside the standard FormData:
 * a File whose stream() yields the content and whose size is the stored size. n8n's HTTP client (axios)
 * encodes a spec-compliant FormData part by part, reading each file through stream() and taking
 * Content-Length from its size. A plain `new File([buffer])` would copy the buffer.
 */
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

/**
 * The largest piece handed to the HTTP client at once. Over TLS a socket encrypts each write whole and
 * keeps the encrypted bytes until they are sent, so one write of a 100 MB buffer would hold a second
 * 100 MB; pieces of this size wait for the socket instead (the size fs streams read in).
 */
const MAX_WRITE_BYTES = 64 * 1024;

/**
 * The pieces a streamed open holds at most: the store's read-ahead (an fs stream's buffer, an object
 * store's response), the piece in hand, axios's encoder queue and byte-counting Transform, the socket's
 * queue and, over TLS, its encrypted copy. Measured on a TLS upload stalled by its server: 4 pieces in
 * Buffers and 350 KiB in all (beside about 220 KiB for the request and its connection, which Parallel
 * Uploads bounds).
 */
const STREAMED_PIECES = 8;

/** How an open holds a file: streamed in pieces, or read whole into one Buffer. */
type Holding = 'streamed' | 'whole';

/**
 * What one open of a file costs in the run's budget of bytes in flight: a streamed file the pieces
 * in flight (at most its size), a file read whole twice its size, as a Buffer let go is freed only at
 * V8's next collection, which comes once about as much again is allocated
 * (bench/results-month-end-memory-database.json). Not counted: n8n's own read of a database row,
 * which holds it twice more while it reads (SQLite), for any node (docs/memory.md#files-in-flight).
 */
function memoryCost(holding: Holding, byteLength: number): number {
	return holding === 'streamed'
		? Math.min(byteLength, STREAMED_PIECES * MAX_WRITE_BYTES)
		: 2 * byteLength;
}

type Content = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** The same bytes in pieces of at most MAX_WRITE_BYTES: views into each chunk, never copies. */
async function* boundedChunks(source: Content): AsyncGenerator<Uint8Array> {
	for await (const chunk of source) {
		if (chunk.byteLength <= MAX_WRITE_BYTES) {
			if (chunk.byteLength > 0) yield chunk;
			continue;
		}
		for (let offset = 0; offset < chunk.byteLength; offset += MAX_WRITE_BYTES) {
			yield chunk.subarray(offset, offset + MAX_WRITE_BYTES);
		}
	}
}

/** A File whose content is `content` (read once, in bounded pieces) and whose size is `byteLength`. */
class ContentFile extends File {
	readonly #content: Content;

	constructor(content: Content, byteLength: number, name: string, type: string) {
		super([], name, { type });
		this.#content = content;
		// The size the encoder announces in Content-Length: the content's, not the empty parts'.
		Object.defineProperty(this, 'size', { value: byteLength });
	}

	override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
		return boundedChunks(this.#content) as unknown as ReadableStream<Uint8Array<ArrayBuffer>>;
	}
}

export interface UploadSource {
	fileName: string;
	contentType: string;
	byteLength: number;
	/** What an open holds in memory at most, counted in the run's budget of bytes in flight. */
	memoryCost: number;
	/** Opens the file's content anew; each attempt needs its own. */
	open(): Promise<File>;
}

/** Size of the stored file and a way to open it; a stored file is read only when it is sent or hashed. */
export async function uploadSource(
	context: IExecuteFunctions,
	itemIndex: number,
	binary: IBinaryData,
	fileName: string,
	contentType: string,
): Promise<UploadSource> {
	const binaryId = binary.id;
	// Read whole at each open (hash, upload, retry) and let go after, or every file of a run would
	// stay in memory from its preparation to its upload: the item's base64, and a database row, which
	// n8n reads whole even as a stream.
	const readWhole = async () => await context.helpers.getBinaryDataBuffer(itemIndex, binary);
	if (!binaryId) {
		const byteLength = Buffer.byteLength(binary.data, BINARY_ENCODING);
		return {
			fileName,
			contentType,
			byteLength,
			memoryCost: memoryCost('whole', byteLength),
			open: async () => {
				const buffer = await readWhole();
				return new ContentFile([buffer], buffer.length, fileName, contentType);
			},
		};
	}
	const { fileSize } = await context.helpers.getBinaryMetadata(binaryId);
	const holding: Holding = binaryId.startsWith('database:') ? 'whole' : 'streamed';
	const content =
		holding === 'whole'
			? async () => [await readWhole()]
			: async () => await context.helpers.getBinaryStream(binaryId);
	return {
		fileName,
		contentType,
		byteLength: fileSize,
		memoryCost: memoryCost(holding, fileSize),
		open: async () => new ContentFile(await content(), fileSize, fileName, contentType),
	};
}

export async function extractForm(
	source: UploadSource,
	webhookUrl: string | undefined,
): Promise<FormData> {
	const form = new FormData();
	form.append('file', await source.open());
	if (webhookUrl) form.append('webhook_url', webhookUrl);
	return form;
}
