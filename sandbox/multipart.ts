/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * A streaming multipart/form-data reader. The file part is hashed and counted as it arrives; the
 * size limit is enforced while the upload streams (413 before the rest is read), and only the first
 * bytes (and, for small files, the whole content) are kept.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface UploadedFile {
	fieldName: string;
	fileName: string;
	contentType: string;
	size: number;
	sha256: string;
	/** The first bytes, for type sniffing. */
	head: Buffer;
	/** The whole content when the file is small enough to parse (JSON, CSV). */
	content?: Buffer;
}

export interface ParsedForm {
	fields: Record<string, string>;
	files: UploadedFile[];
}

export class UploadLimitError extends Error {
	readonly received: number;

	constructor(received: number) {
		super('file too large');
		this.received = received;
	}
}

export class MalformedMultipartError extends Error {}

const HEAD_BYTES = 64 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;

export function boundaryOf(contentType: string | undefined): string | undefined {
	if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
	const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	return match?.[1] ?? match?.[2];
}

function parsePartHeaders(text: string): { name?: string; fileName?: string; contentType: string } {
	let name: string | undefined;
	let fileName: string | undefined;
	let contentType = 'application/octet-stream';
	for (const line of text.split('\r\n')) {
		const separator = line.indexOf(':');
		if (separator < 0) continue;
		const key = line.slice(0, separator).trim().toLowerCase();
		const value = line.slice(separator + 1).trim();
		if (key === 'content-disposition') {
			name = /\bname="([^"]*)"/i.exec(value)?.[1];
			const star = /\bfilename\*=(?:UTF-8'')?([^;]+)/i.exec(value)?.[1];
			fileName = star ? decodeURIComponent(star.trim()) : /\bfilename="([^"]*)"/i.exec(value)?.[1];
		} else if (key === 'content-type') {
			contentType = value;
		}
	}
	return { name, fileName, contentType };
}

/**
 * Reads the request body. Rejects with UploadLimitError as soon as a file part passes `maxFileBytes`
 * (the request is then paused, not drained), and with MalformedMultipartError for a broken body.
 */
export function readMultipart(
	request: IncomingMessage,
	boundary: string,
	limits: { maxFileBytes: number; keepContentBytes: number },
): Promise<ParsedForm> {
	const delimiter = Buffer.from(`\r\n--${boundary}`);
	const form: ParsedForm = { fields: {}, files: [] };
	// Prepending CRLF lets the first boundary be found like every other one.
	let pending: Buffer = Buffer.from('\r\n');
	let state: 'preamble' | 'headers' | 'body' | 'afterBoundary' | 'done' = 'preamble';
	let part: { name?: string; fileName?: string; contentType: string } | undefined;
	let fieldChunks: Buffer[] = [];
	let fieldSize = 0;
	let file:
		| {
				meta: UploadedFile;
				hash: ReturnType<typeof createHash>;
				chunks: Buffer[];
				head: Buffer[];
				headSize: number;
		  }
		| undefined;

	return new Promise((resolve, reject) => {
		let settled = false;
		const fail = (error: Error) => {
			if (settled) return;
			settled = true;
			request.removeListener('data', onData);
			request.pause();
			reject(error);
		};

		const emitBody = (data: Buffer) => {
			if (data.length === 0) return;
			if (file) {
				file.meta.size += data.length;
				if (file.meta.size > limits.maxFileBytes) throw new UploadLimitError(file.meta.size);
				file.hash.update(data);
				if (file.headSize < HEAD_BYTES) {
					file.head.push(data.subarray(0, HEAD_BYTES - file.headSize));
					file.headSize += Math.min(data.length, HEAD_BYTES - file.headSize);
				}
				if (file.meta.size <= limits.keepContentBytes) file.chunks.push(data);
				else file.chunks = [];
			} else {
				fieldSize += data.length;
				if (fieldSize > MAX_FIELD_BYTES)
					throw new MalformedMultipartError('a form field is too long');
				fieldChunks.push(data);
			}
		};

		const finishPart = () => {
			if (file) {
				file.meta.sha256 = file.hash.digest('hex');
				file.meta.head = Buffer.concat(file.head);
				if (file.meta.size <= limits.keepContentBytes)
					file.meta.content = Buffer.concat(file.chunks);
				form.files.push(file.meta);
			} else if (part?.name !== undefined) {
				form.fields[part.name] = Buffer.concat(fieldChunks).toString('utf8');
			}
			file = undefined;
			part = undefined;
			fieldChunks = [];
			fieldSize = 0;
		};

		const advance = () => {
			for (;;) {
				if (state === 'preamble') {
					const index = pending.indexOf(delimiter);
					if (index < 0) {
						pending = pending.subarray(Math.max(0, pending.length - delimiter.length));
						return;
					}
					pending = pending.subarray(index + delimiter.length);
					state = 'afterBoundary';
				} else if (state === 'afterBoundary') {
					if (pending.length < 2) return;
					const marker = pending.subarray(0, 2).toString('latin1');
					if (marker === '--') {
						state = 'done';
						return;
					}
					if (marker !== '\r\n') throw new MalformedMultipartError('bad boundary line');
					pending = pending.subarray(2);
					state = 'headers';
				} else if (state === 'headers') {
					const end = pending.indexOf('\r\n\r\n');
					if (end < 0) {
						if (pending.length > MAX_HEADER_BYTES)
							throw new MalformedMultipartError('part headers too long');
						return;
					}
					part = parsePartHeaders(pending.subarray(0, end).toString('utf8'));
					pending = pending.subarray(end + 4);
					if (part.fileName !== undefined) {
						file = {
							meta: {
								fieldName: part.name ?? '',
								fileName: part.fileName,
								contentType: part.contentType,
								size: 0,
								sha256: '',
								head: Buffer.alloc(0),
							},
							hash: createHash('sha256'),
							chunks: [],
							head: [],
							headSize: 0,
						};
					}
					state = 'body';
				} else if (state === 'body') {
					const index = pending.indexOf(delimiter);
					if (index < 0) {
						const keep = delimiter.length - 1;
						if (pending.length > keep) {
							emitBody(pending.subarray(0, pending.length - keep));
							pending = pending.subarray(pending.length - keep);
						}
						return;
					}
					emitBody(pending.subarray(0, index));
					pending = pending.subarray(index + delimiter.length);
					finishPart();
					state = 'afterBoundary';
				} else {
					return;
				}
			}
		};

		function onData(chunk: Buffer) {
			if (settled) return;
			pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
			try {
				advance();
			} catch (error) {
				fail(error as Error);
			}
		}

		request.on('data', onData);
		request.on('error', (error) => fail(error));
		request.on('end', () => {
			if (settled) return;
			if (state !== 'done')
				return fail(new MalformedMultipartError('the body ended before the closing boundary'));
			settled = true;
			resolve(form);
		});
	});
}
