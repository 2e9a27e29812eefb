/**
 * The Document Extraction service, played by nock: each expected call answers once, in order, and
 * every request that reaches the service is recorded with its exact body bytes. A request nock has
 * no answer for is recorded too and then refused (net connect is disabled), so a test sees it.
 */
import nock from 'nock';

export type MockReply =
	| { status: number; body?: unknown; headers?: Record<string, string> }
	| { error: { code: string; message?: string } };

export interface RecordedRequest {
	method: string;
	/** Path with the query string, as sent. */
	path: string;
	headers: Record<string, string | string[] | number | undefined>;
	body: Buffer;
}

/** nock hands the body over as text, or as hex when the bytes are not valid UTF-8. */
function bodyBytes(text: string | undefined): Buffer {
	if (!text) return Buffer.alloc(0);
	// A multipart or JSON body always holds characters outside [0-9a-f] when it is passed as text.
	return /^(?:[0-9a-f]{2})+$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'utf8');
}

let unmatched: string[] = [];
let listening = false;

export class ServiceMock {
	readonly requests: RecordedRequest[] = [];

	readonly #scope: nock.Scope;

	readonly baseUrl: string;

	constructor(baseUrl: string) {
		this.baseUrl = baseUrl;
		if (!listening) {
			nock.emitter.on('no match', (req: { method?: string; path?: string; href?: string }) => {
				unmatched.push(`${req.method ?? '?'} ${req.href ?? req.path ?? '?'}`);
			});
			listening = true;
		}
		this.#scope = nock(baseUrl);
		this.#scope.on(
			'request',
			(req: nock.ReplyFnContext['req'] & { path: string }, _interceptor: unknown, body: string) => {
				this.requests.push({
					method: req.method ?? '',
					path: req.path,
					headers: { ...(req.headers as RecordedRequest['headers']) },
					body: bodyBytes(body),
				});
			},
		);
	}

	/** Answers the next calls of `method path` with `replies`, one call each, in order. */
	on(method: 'GET' | 'POST', path: string, ...replies: MockReply[]): this {
		for (const reply of replies) {
			const interceptor = this.#scope.intercept(path, method).query(true);
			if ('error' in reply) {
				interceptor.replyWithError(
					Object.assign(new Error(reply.error.message ?? reply.error.code), reply.error),
				);
			} else {
				interceptor.reply(reply.status, (reply.body ?? '') as nock.Body, reply.headers);
			}
		}
		return this;
	}

	/**
	 * Answers the next `count` calls of `method path` by `answer`, which sees the request's body and
	 * may take its time (an extraction's latency); calls may be in flight at once.
	 */
	answerEach(
		method: 'GET' | 'POST',
		path: string,
		count: number,
		answer: (
			body: Buffer,
			headers: RecordedRequest['headers'],
		) => Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>,
	): this {
		for (let index = 0; index < count; index++) {
			this.#scope
				.intercept(path, method)
				.query(true)
				.reply(async function (this: nock.ReplyFnContext, _uri, body) {
					const reply = await answer(
						bodyBytes(body as string),
						this.req.headers as RecordedRequest['headers'],
					);
					return [reply.status, (reply.body ?? '') as nock.Body, reply.headers ?? {}];
				});
		}
		return this;
	}

	/** Requests recorded for a path (without the query string). */
	requestsTo(path: string): RecordedRequest[] {
		return this.requests.filter((request) => request.path.split('?')[0] === path);
	}

	/** Expected calls that never came. */
	pending(): string[] {
		return this.#scope.pendingMocks();
	}

	static unmatched(): string[] {
		return unmatched;
	}

	static reset(): void {
		nock.cleanAll();
		unmatched = [];
	}
}

export interface MultipartPart {
	name: string;
	filename?: string;
	contentType?: string;
	headers: Record<string, string>;
	data: Buffer;
}

/** Splits a multipart/form-data body (RFC 7578) into its parts, byte-exact. */
export function parseMultipart(body: Buffer, contentTypeHeader: unknown): MultipartPart[] {
	const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(String(contentTypeHeader ?? ''));
	if (!match) throw new Error(`Not a multipart content type: ${String(contentTypeHeader)}`);
	const delimiter = Buffer.from(`--${match[1] ?? match[2]}`);
	const parts: MultipartPart[] = [];

	let position = body.indexOf(delimiter);
	if (position !== 0) throw new Error('The body does not start with the boundary');
	for (;;) {
		position += delimiter.length;
		if (body.subarray(position, position + 2).toString() === '--') break; // closing delimiter
		if (body.subarray(position, position + 2).toString() !== '\r\n')
			throw new Error('Malformed boundary line');
		position += 2;
		const headerEnd = body.indexOf('\r\n\r\n', position);
		if (headerEnd < 0) throw new Error('Part without a header end');
		const headers: Record<string, string> = {};
		for (const line of body.subarray(position, headerEnd).toString('utf8').split('\r\n')) {
			const colon = line.indexOf(':');
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
		if (next < 0) throw new Error('Part without a closing boundary');
		const disposition = headers['content-disposition'] ?? '';
		parts.push({
			name: /\bname="([^"]*)"/.exec(disposition)?.[1] ?? '',
			filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
			contentType: headers['content-type'],
			headers,
			data: body.subarray(headerEnd + 4, next),
		});
		position = next + 2;
	}
	return parts;
}
