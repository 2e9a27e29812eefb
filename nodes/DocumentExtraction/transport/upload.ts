/**
 * The document upload (D1: multipart/form-data, field "file"). A file kept in n8n's binary storage is
 * streamed from it instead of being read into memory, the way n8n's HTTP Request node does.
 *
 * n8n Cloud allows no stream or form-data imports, so the stream travels inside the standard FormData:
 * a File whose stream() is the stored binary. n8n's HTTP client (axios) encodes a spec-compliant
 * FormData part by part, reading each file through stream() and taking Content-Length from its size.
 */
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

/** A File whose content is read from a stream opened beforehand, once. */
class StreamedFile extends File {
	readonly #source: AsyncIterable<Uint8Array>;

	constructor(source: AsyncIterable<Uint8Array>, byteLength: number, name: string, type: string) {
		super([], name, { type });
		this.#source = source;
		// The size the encoder announces in Content-Length: the stored file's, not the empty parts'.
		Object.defineProperty(this, 'size', { value: byteLength });
	}

	override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
		return this.#source as unknown as ReadableStream<Uint8Array<ArrayBuffer>>;
	}
}

export interface UploadSource {
	fileName: string;
	contentType: string;
	byteLength: number;
	/** Opens the file's content anew; each attempt needs its own. */
	open(): Promise<File>;
}

/** Size of the stored file and a way to open it, without reading it when n8n keeps it on disk. */
export async function uploadSource(
	this: IExecuteFunctions,
	itemIndex: number,
	binary: IBinaryData,
	fileName: string,
	contentType: string,
): Promise<UploadSource> {
	const binaryId = binary.id;
	if (binaryId) {
		const { fileSize } = await this.helpers.getBinaryMetadata(binaryId);
		return {
			fileName,
			contentType,
			byteLength: fileSize,
			open: async () =>
				new StreamedFile(await this.helpers.getBinaryStream(binaryId), fileSize, fileName, contentType),
		};
	}
	const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, binary);
	return {
		fileName,
		contentType,
		byteLength: buffer.length,
		open: async () => new File([buffer], fileName, { type: contentType }),
	};
}

export async function extractForm(source: UploadSource, webhookUrl: string | undefined): Promise<FormData> {
	const form = new FormData();
	form.append('file', await source.open());
	if (webhookUrl) form.append('webhook_url', webhookUrl);
	return form;
}
