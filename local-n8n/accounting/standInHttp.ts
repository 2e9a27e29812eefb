/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// What the accounting stand-ins share as HTTP servers: the request log, reading and answering JSON,
// schema errors in one line each, listening on a local port.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ValidateFunction } from 'ajv/dist/2020.js';

export interface StandInRequest {
	method: string;
	path: string;
	authorization: string | undefined;
	tenantId: string | undefined;
	body: unknown;
	/** Schema errors; empty when the body is valid. */
	errors: string[];
	accepted: boolean;
	/** Answered from an earlier write with the same idempotency key: nothing written again. */
	replayed?: boolean;
	/** Refused with 429: which of the books' limits it was over (booksLimits.ts). */
	throttled?: 'minute' | 'concurrent';
	/** When it was received, in milliseconds since the epoch (calls per minute can be read off). */
	receivedAt: number;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/**
 * How the log keeps a request's body: `json` parsed (undefined when empty, '<not JSON>' when it is
 * not JSON), `size` as its length (a file), `nothing` (what the route records itself).
 */
export type RecordedBody = 'json' | 'size' | 'nothing';

function recorded(raw: Buffer, how: RecordedBody): unknown {
	if (how === 'size') return `<${raw.length} bytes>`;
	if (how === 'nothing' || raw.length === 0) return undefined;
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		return '<not JSON>';
	}
}

export function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

/**
 * Reads the request's body and adds the request to `requests`, not yet accepted and without errors;
 * returns the body as received and the entry.
 */
export async function receive(
	requests: StandInRequest[],
	req: IncomingMessage,
	url: URL,
	tenantId: string | undefined,
	body: RecordedBody,
): Promise<{ raw: Buffer; entry: StandInRequest }> {
	const receivedAt = Date.now();
	const raw = await readBody(req);
	const entry: StandInRequest = {
		method: req.method ?? '',
		path: `${url.pathname}${url.search}`,
		authorization: req.headers.authorization,
		tenantId,
		body: recorded(raw, body),
		errors: [],
		accepted: false,
		receivedAt,
	};
	requests.push(entry);
	return { raw, entry };
}

/** A failed schema check's errors, one line each: where, and what is wrong. */
export function schemaErrors(validate: ValidateFunction): string[] {
	return (validate.errors ?? []).map((error) =>
		`${error.instancePath || '/'} ${error.message ?? ''}`.trim(),
	);
}

/** Starts `server` on 127.0.0.1 (`port`, or any free one); its URL, port and how to close it. */
export async function listenLocally(
	server: Server,
	port = 0,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	const address = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${address.port}`,
		port: address.port,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/**
 * The answers to writes, as the books keep them for idempotent retries (Xero's Idempotency-Key
 * header, QuickBooks' requestid query parameter): a write sent again with a key already answered
 * gets that answer and changes nothing, also when it arrives while the first is still in progress
 * (`turn`). `loseAnswers(n)`: the next n answers to writes (made or replayed) are lost on the way
 * back and become 504, as when a gateway times out.
 */
export class WriteAnswers {
	private readonly answered = new Map<string, { status: number; body: unknown }>();
	private readonly inProgress = new Map<string, Promise<void>>();
	private lost = 0;

	/**
	 * Waits until no other write with `key` is in progress, then holds the key until `res` is closed:
	 * a second write with the key, sent before the first was answered, is handled after it and so
	 * gets its answer (replay) rather than being made again.
	 */
	async turn(key: string | undefined, res: ServerResponse): Promise<void> {
		if (key === undefined) return;
		for (let busy = this.inProgress.get(key); busy; busy = this.inProgress.get(key)) await busy;
		// A caller that went away while waiting holds nothing.
		if (res.closed) return;
		let release = () => {};
		this.inProgress.set(key, new Promise<void>((resolve) => (release = resolve)));
		res.once('close', () => {
			this.inProgress.delete(key);
			release();
		});
	}

	loseAnswers(count: number): void {
		this.lost = count;
	}

	/** Sends the answer already given to a write with `key`; false when there is none. */
	replay(res: ServerResponse, entry: StandInRequest, key: string | undefined): boolean {
		const earlier = key === undefined ? undefined : this.answered.get(key);
		if (!earlier) return false;
		entry.replayed = true;
		this.deliver(res, earlier.status, earlier.body);
		return true;
	}

	/** Sends a write's answer, kept under `key`. */
	answer(res: ServerResponse, key: string | undefined, status: number, body: unknown): void {
		if (key !== undefined) this.answered.set(key, { status, body });
		this.deliver(res, status, body);
	}

	private deliver(res: ServerResponse, status: number, body: unknown): void {
		if (this.lost > 0) {
			this.lost--;
			return send(res, 504, { Message: 'Gateway Timeout' });
		}
		send(res, status, body);
	}
}
