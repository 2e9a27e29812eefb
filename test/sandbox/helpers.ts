/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * Helpers of the sandbox conformance suite: a throwaway CA and server certificate (made by
 * local-n8n/tls.ts), an HTTPS webhook receiver that records raw bodies and answers per a script,
 * undici calls to the sandbox, fixtures and a polling waitFor. Everything runs over real loopback sockets.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll } from 'vitest';

import { issueCertificates, type IssuedCertificates } from '../../local-n8n/tls.ts';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server.ts';

export type { RunningSandbox } from '../../sandbox/server.ts';

/** A parsed JSON body; tests read it freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const MIB = 1024 * 1024;

// ---- TLS -------------------------------------------------------------------------------------

let tlsOnce: IssuedCertificates | undefined;

/** A throwaway CA and a server certificate for 127.0.0.1 / localhost (2 days). Made once per test file. */
function testTls(): IssuedCertificates {
	if (tlsOnce) return tlsOnce;
	const dir = mkdtempSync(join(tmpdir(), 'sandbox-tls-'));
	try {
		tlsOnce = issueCertificates(dir, {
			days: { ca: 2, server: 2 },
			caName: 'sandbox conformance test CA',
		});
		return tlsOnce;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

// ---- sandbox ---------------------------------------------------------------------------------

/** Accounts of the suite. Enterprise keys are used wherever the rate limit is not the subject. */
export const ACCOUNTS = {
	a: {
		apiKey: 'sk_test_enterprise_a',
		tier: 'enterprise' as const,
		signingSecret: 'whsec_test_account_a',
	},
	b: {
		apiKey: 'sk_test_enterprise_b',
		tier: 'enterprise' as const,
		signingSecret: 'whsec_test_account_b',
	},
	pilot: { apiKey: 'sk_test_pilot', tier: 'pilot' as const, signingSecret: 'whsec_test_pilot' },
	growth: { apiKey: 'sk_test_growth', tier: 'growth' as const, signingSecret: 'whsec_test_growth' },
};

/** Settings that keep deliveries, retries and processing short and reviews pending. */
export const QUICK_SETTINGS: SandboxOptions = {
	retryBaseMs: 100,
	deliveryTimeoutMs: 1500,
	reviewDelayMs: 600_000,
	processingDelayMs: 100,
};

/** Starts a sandbox on a free loopback port: silent, the suite's accounts, trusting the test CA. */
export function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	return startSandbox({
		accounts: Object.values(ACCOUNTS),
		trustCa: testTls().caPem,
		log: false,
		...options,
	});
}

// ---- HTTP client (undici) --------------------------------------------------------------------

export interface Reply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	/** The parsed body, or undefined when it is not JSON. */
	json: Json;
}

function parse(text: string): Json {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

export async function send(
	url: string,
	options: {
		method?: 'GET' | 'POST' | 'PUT';
		headers?: Record<string, string>;
		body?: string | Buffer | Readable;
	} = {},
): Promise<Reply> {
	const response = await request(url, {
		method: options.method ?? 'GET',
		headers: options.headers,
		body: options.body,
	});
	const text = await response.body.text();
	return { status: response.statusCode, headers: response.headers, text, json: parse(text) };
}

export interface UploadFile {
	name: string;
	content: Buffer | string;
	/** Content type of the part; default by extension. */
	type?: string;
}

const TYPES: Record<string, string> = {
	pdf: 'application/pdf',
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	json: 'application/json',
	csv: 'text/csv',
};

/** A standard FormData: the file (with its name and type) in `fileField`, then the text fields. */
export function formData(
	file: UploadFile | undefined,
	fields: Record<string, string> = {},
	fileField = 'file',
): FormData {
	const data = new FormData();
	if (file) {
		const type =
			file.type ??
			TYPES[file.name.split('.').pop()?.toLowerCase() ?? ''] ??
			'application/octet-stream';
		data.append(
			fileField,
			new Blob([typeof file.content === 'string' ? Buffer.from(file.content) : file.content], {
				type,
			}),
			file.name,
		);
	}
	for (const [name, value] of Object.entries(fields)) data.append(name, value);
	return data;
}

/**
 * POSTs a FormData with undici's request. The body is encoded by the platform's own FormData encoder
 * (the one fetch uses) and sent with its Content-Length. (undici 7.30's FormData class, passed to
 * its request(), hangs on Node 24 without sending the body, so it is not used here.)
 */
export async function postForm(
	url: string,
	key: string | undefined,
	data: FormData,
	headers: Record<string, string> = {},
): Promise<Reply> {
	const encoded = new Response(data);
	const body = Buffer.from(await encoded.arrayBuffer());
	return send(url, {
		method: 'POST',
		headers: {
			'content-type': encoded.headers.get('content-type') ?? '',
			...(key === undefined ? {} : { 'x-api-key': key }),
			...headers,
		},
		body,
	});
}

/** POST /v1/extract, multipart with the file in `file` (D1). `key` undefined sends no X-API-Key. */
export function extract(
	sandbox: RunningSandbox,
	key: string | undefined,
	file: UploadFile | undefined,
	fields: Record<string, string> = {},
): Promise<Reply> {
	return postForm(`${sandbox.url}/v1/extract`, key, formData(file, fields));
}

export function getStatus(
	sandbox: RunningSandbox,
	key: string | undefined,
	documentId: string,
): Promise<Reply> {
	return send(`${sandbox.url}/v1/status/${documentId}`, {
		headers: key === undefined ? {} : { 'x-api-key': key },
	});
}

export function register(
	sandbox: RunningSandbox,
	key: string | undefined,
	body: unknown,
	contentType = 'application/json',
): Promise<Reply> {
	return send(`${sandbox.url}/webhooks/register`, {
		method: 'POST',
		headers: { 'content-type': contentType, ...(key === undefined ? {} : { 'x-api-key': key }) },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
}

/** A call to the sandbox's control API (/__sandbox/..., not part of the service): GET without a body, else POST. */
export function controlReply(
	sandbox: RunningSandbox,
	path: string,
	body?: unknown,
): Promise<Reply> {
	return send(
		`${sandbox.url}/__sandbox/${path}`,
		body === undefined
			? {}
			: {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				},
	);
}

/** The control API's answer body; throws unless it answered 200. */
export async function control(
	sandbox: RunningSandbox,
	path: string,
	body?: unknown,
): Promise<Json> {
	const reply = await controlReply(sandbox, path, body);
	if (reply.status !== 200) throw new Error(`control ${path}: HTTP ${reply.status} ${reply.text}`);
	return reply.json;
}

/** Queues the confidence of the next extraction. */
export function nextConfidence(sandbox: RunningSandbox, confidence: number): Promise<Json> {
	return control(sandbox, 'next-confidence', { confidence });
}

// ---- fixtures --------------------------------------------------------------------------------

let serial = 0;

/** A PDF (it starts with %PDF-) with unique content unless `seed` is given. */
export function pdf(seed?: string, padTo = 0): UploadFile {
	const text = `%PDF-1.7\n% ${seed ?? `unique ${process.pid} ${Date.now()} ${serial++} ${Math.random()}`}\n`;
	const content = Buffer.alloc(Math.max(padTo, Buffer.byteLength(text)), 0x20);
	content.write(text, 'latin1');
	return { name: 'invoice.pdf', content };
}

export function png(seed = 'png'): UploadFile {
	return {
		name: 'scan.png',
		content: Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			Buffer.from(seed),
		]),
	};
}

export function jpg(seed = 'jpg'): UploadFile {
	return {
		name: 'photo.jpg',
		content: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(seed)]),
	};
}

/** A JSON invoice (D19) whose amounts add up, with the confidence it asks for when given. */
export const invoiceJson = (confidence?: number): UploadFile => ({
	name: 'a.json',
	content: JSON.stringify({
		header: { vendor: 'Acme', date: '2026-01-31', invoice_no: 'A-1' },
		amounts: { subtotal: 100, tax: 19, total: 119 },
		line_items: [{ description: 'Thing', quantity: 4, unit_price: 25, amount: 100 }],
		...(confidence === undefined ? {} : { confidence }),
	}),
});

/** Goes to human review: the next confidence is 0.8. Returns the extract reply's body. */
export async function submitForReview(
	sandbox: RunningSandbox,
	key: string,
	file: UploadFile = pdf(),
	fields: Record<string, string> = {},
): Promise<Json> {
	await nextConfidence(sandbox, 0.8);
	const reply = await extract(sandbox, key, file, fields);
	if (reply.status !== 200 || reply.json?.status !== 'needs_review')
		throw new Error(`expected needs_review, got HTTP ${reply.status} ${reply.text}`);
	return reply.json;
}

/** D3 error body. */
export function isErrorBody(body: Json, code?: string): boolean {
	return (
		body?.success === false &&
		typeof body.error?.code === 'string' &&
		/^[a-z][a-z0-9_]*$/.test(body.error.code) &&
		typeof body.error.message === 'string' &&
		body.error.message.length > 0 &&
		(code === undefined || body.error.code === code)
	);
}

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const DOC_ID = /^doc_[a-z0-9]{20}$/;
export const REVIEW_ID = /^rev_[a-z0-9]{20}$/;
export const WEBHOOK_ID = /^wh_[a-z0-9]{20}$/;

const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

/**
 * Problems of an extracted-data object against the spec's table (empty: none). With `addsUp`, the
 * amounts must add up: line amount = quantity x unit price, subtotal = sum of lines, total = subtotal + tax.
 */
export function extractedDataProblems(data: Json, addsUp = true): string[] {
	const problems: string[] = [];
	const check = (ok: boolean, what: string) => {
		if (!ok) problems.push(what);
	};
	check(typeof data === 'object' && data !== null, 'data is an object');
	if (problems.length) return problems;
	check(typeof data.header?.vendor === 'string', 'header.vendor string');
	check(
		typeof data.header?.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(data.header.date),
		'header.date YYYY-MM-DD',
	);
	check(typeof data.header?.invoice_no === 'string', 'header.invoice_no string');
	for (const name of ['subtotal', 'tax', 'total'])
		check(
			typeof data.amounts?.[name] === 'number' && Number.isFinite(data.amounts[name]),
			`amounts.${name} number`,
		);
	check(Array.isArray(data.line_items), 'line_items array');
	for (const [index, line] of (Array.isArray(data.line_items) ? data.line_items : []).entries()) {
		check(typeof line.description === 'string', `line_items[${index}].description string`);
		for (const name of ['quantity', 'unit_price', 'amount'])
			check(
				typeof line[name] === 'number' && Number.isFinite(line[name]),
				`line_items[${index}].${name} number`,
			);
		if (addsUp)
			check(
				near(line.amount, line.quantity * line.unit_price),
				`line_items[${index}].amount = quantity x unit_price`,
			);
	}
	if (addsUp && problems.length === 0) {
		const sum = (data.line_items as Array<{ amount: number }>).reduce(
			(total, line) => total + line.amount,
			0,
		);
		check(near(data.amounts.subtotal, sum), 'subtotal = sum of line amounts');
		check(
			near(data.amounts.total, data.amounts.subtotal + data.amounts.tax),
			'total = subtotal + tax',
		);
	}
	return problems;
}

// ---- signatures ------------------------------------------------------------------------------

/** The test's own HMAC-SHA256 (lowercase hex) of the raw bytes, independent of the sandbox's code. */
export function hmacHex(secret: string, raw: Buffer): string {
	return createHmac('sha256', secret).update(raw).digest('hex');
}

// ---- HTTPS webhook receiver ------------------------------------------------------------------

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	/** The raw body bytes as received. */
	body: Buffer;
	/** Date.now() when the whole body had arrived. */
	at: number;
}

export interface ReceiverReply {
	status?: number;
	headers?: Record<string, string>;
	/** Answer only after this many ms. */
	delayMs?: number;
	/** Destroy the connection instead of answering. */
	reset?: boolean;
}

/** Decides the answer to a request; `nth` counts the requests to the same path (1 = first). */
export type ReceiverScript = (received: ReceivedRequest, nth: number) => ReceiverReply;

export interface Receiver {
	/** https://127.0.0.1:<port> */
	url: string;
	requests: ReceivedRequest[];
	/** The requests to one path, in order. */
	to(path: string): ReceivedRequest[];
	/** The answers for one path (default: 200). */
	script(path: string, script: ReceiverScript): void;
	close(): Promise<void>;
}

/** A receiver for the tests of a file: started before them, closed after them. */
export function useReceiver(): () => Receiver {
	let receiver: Receiver | undefined;
	beforeAll(async () => {
		receiver = await startReceiver();
	});
	afterAll(() => receiver?.close());
	return () => {
		if (!receiver) throw new Error('the receiver starts before the tests (beforeAll)');
		return receiver;
	};
}

export async function startReceiver(tls: IssuedCertificates = testTls()): Promise<Receiver> {
	const requests: ReceivedRequest[] = [];
	const scripts = new Map<string, ReceiverScript>();
	const timers = new Set<NodeJS.Timeout>();
	const server = createServer({ key: tls.keyPem, cert: tls.certPem }, (incoming, response) => {
		const chunks: Buffer[] = [];
		incoming.on('error', () => undefined);
		response.on('error', () => undefined);
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const path = new URL(incoming.url ?? '/', 'https://receiver').pathname;
			const received: ReceivedRequest = {
				method: incoming.method ?? '',
				path,
				headers: incoming.headers,
				body: Buffer.concat(chunks),
				at: Date.now(),
			};
			requests.push(received);
			const nth = requests.filter((candidate) => candidate.path === path).length;
			const reply = scripts.get(path)?.(received, nth) ?? {};
			const answer = () => {
				if (reply.reset) {
					incoming.socket.destroy();
					return;
				}
				response.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
				response.end('ok');
			};
			if (!reply.delayMs) return answer();
			const timer = setTimeout(() => {
				timers.delete(timer);
				answer();
			}, reply.delayMs);
			timers.add(timer);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	return {
		url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		to: (path) => requests.filter((received) => received.path === path),
		script: (path, script) => scripts.set(path, script),
		close: async () => {
			for (const timer of timers) clearTimeout(timer);
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

// ---- waiting ---------------------------------------------------------------------------------

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a truthy value (returned) or the time is up (throws, naming `what`). */
export async function waitFor<T>(
	probe: () => T | Promise<T>,
	what: string,
	timeoutMs = 10_000,
	intervalMs = 20,
): Promise<Truthy<T>> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value as Truthy<T>;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(intervalMs);
	}
}

// ---- streamed uploads ------------------------------------------------------------------------

export interface StreamedUpload {
	body: Readable;
	contentType: string;
	/** Bytes the stream has handed out so far. */
	produced(): number;
	/** true once the whole body has been handed out. */
	finished(): boolean;
}

/**
 * A multipart body with one PDF of `fileBytes` bytes in `file`, generated lazily in 64 KiB chunks
 * (nothing is held in memory), counting what the client has pulled from it.
 */
export function streamedPdfUpload(fileBytes: number): StreamedUpload {
	const boundary = `----conformance${Date.now()}`;
	const chunk = Buffer.alloc(64 * 1024, 0x20);
	let produced = 0;
	let finished = false;
	async function* generate() {
		const head = Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
		);
		const magic = Buffer.from('%PDF-');
		produced += head.length + magic.length;
		yield Buffer.concat([head, magic]);
		let sent = magic.length;
		while (sent < fileBytes) {
			const size = Math.min(chunk.length, fileBytes - sent);
			sent += size;
			produced += size;
			yield size === chunk.length ? chunk : chunk.subarray(0, size);
		}
		const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
		produced += tail.length;
		yield tail;
		finished = true;
	}
	return {
		body: Readable.from(generate(), { objectMode: false }),
		contentType: `multipart/form-data; boundary=${boundary}`,
		produced: () => produced,
		finished: () => finished,
	};
}
