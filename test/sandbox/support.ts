/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs openssl to make a throwaway CA */
/** Helpers for the sandbox conformance suite: a sandbox per test, an HTTPS receiver, uploads. */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';

import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import type { SandboxOptions } from '../../sandbox/config.ts';

export const KEYS = { pilot: 'sk_sandbox_pilot', growth: 'sk_sandbox_growth', enterprise: 'sk_sandbox_enterprise' } as const;
export const ACCOUNT_SECRET = 'whsec_sandbox_demo_secret';
export const MIB = 1024 * 1024;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function hmac(body: Buffer | string, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value as NonNullable<T>;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(50);
	}
}

let tls: { ca: string; key: string; cert: string } | undefined;

/** A throwaway CA and a localhost certificate, made once per test process with openssl. */
export function testTls(): { ca: string; key: string; cert: string } {
	if (tls) return tls;
	const dir = mkdtempSync(join(tmpdir(), 'sandbox-tls-'));
	const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
	run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=sandbox test CA']);
	run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
	writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
	run(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'ext.cnf']);
	tls = { ca: readFileSync(join(dir, 'ca.pem'), 'utf8'), key: readFileSync(join(dir, 'server.key'), 'utf8'), cert: readFileSync(join(dir, 'server.pem'), 'utf8') };
	return tls;
}

export interface Received {
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
	at: number;
}

export interface Receiver {
	url: string;
	received: Received[];
	close(): Promise<void>;
}

/** An HTTPS receiver; `answer(n)` gives the status (or 'hang' / 'redirect') for the n-th request (1-based). */
export async function startReceiver(answer: (n: number) => number | 'hang' | 'redirect' = () => 200): Promise<Receiver> {
	const { key, cert } = testTls();
	const received: Received[] = [];
	const server: Server = createServer({ key, cert }, (req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
			const reply = answer(received.length);
			if (reply === 'hang') return; // never answers; the sandbox's timeout ends it
			if (reply === 'redirect') {
				res.writeHead(302, { location: 'https://127.0.0.1:1/elsewhere' });
				return res.end();
			}
			res.writeHead(reply);
			res.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	return {
		url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export async function sandboxWith(options: SandboxOptions = {}): Promise<RunningSandbox> {
	return await startSandbox({ trustCa: testTls().ca, retryBaseMs: 100, deliveryTimeoutMs: 1500, reviewDelayMs: 600_000, processingDelayMs: 100, ...options });
}

export interface Answer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Record<string, unknown>;
}

async function answerOf(response: Awaited<ReturnType<typeof request>>): Promise<Answer> {
	const text = await response.body.text();
	let body: Record<string, unknown> = {};
	try {
		body = JSON.parse(text) as Record<string, unknown>;
	} catch {
		body = { raw: text };
	}
	return { status: response.statusCode, headers: response.headers, body };
}

export async function extract(
	sandbox: RunningSandbox,
	file: { name: string; type?: string; bytes: Buffer | string } | undefined,
	options: { key?: string | null; webhookUrl?: string; fields?: Record<string, string> } = {},
): Promise<Answer> {
	const form = new FormData();
	if (file) form.append('file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
	if (options.webhookUrl) form.append('webhook_url', options.webhookUrl);
	for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
	const headers: Record<string, string> = {};
	if (options.key !== null) headers['x-api-key'] = options.key ?? KEYS.enterprise;
	return answerOf(await request(`${sandbox.url}/v1/extract`, { method: 'POST', body: form, headers }));
}

export async function status(sandbox: RunningSandbox, documentId: string, key: string = KEYS.enterprise): Promise<Answer> {
	return answerOf(await request(`${sandbox.url}/v1/status/${documentId}`, { headers: { 'x-api-key': key } }));
}

export async function register(sandbox: RunningSandbox, body: unknown, key: string = KEYS.enterprise, contentType = 'application/json'): Promise<Answer> {
	return answerOf(
		await request(`${sandbox.url}/webhooks/register`, {
			method: 'POST',
			body: typeof body === 'string' ? body : JSON.stringify(body),
			headers: { 'x-api-key': key, 'content-type': contentType },
		}),
	);
}

export async function control(sandbox: RunningSandbox, path: string, body?: unknown): Promise<Answer> {
	return answerOf(
		await request(`${sandbox.url}/__sandbox/${path}`, {
			method: body === undefined ? 'GET' : 'POST',
			body: body === undefined ? undefined : JSON.stringify(body),
			headers: { 'content-type': 'application/json' },
		}),
	);
}

export const invoiceJson = (confidence?: number) =>
	JSON.stringify({
		header: { vendor: 'Acme', date: '2026-01-31', invoice_no: 'A-1' },
		amounts: { subtotal: 100, tax: 19, total: 119 },
		line_items: [{ description: 'Thing', quantity: 4, unit_price: 25, amount: 100 }],
		...(confidence === undefined ? {} : { confidence }),
	});

export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
export const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
export const JPG_BYTES = Buffer.from('ffd8ffe000104a464946', 'hex');
