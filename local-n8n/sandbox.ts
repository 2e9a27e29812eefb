/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The Document Extraction sandbox (sandbox/server.ts, written separately) next to n8n: the nodes
// call it over HTTP, and it delivers signed webhooks to n8n over HTTPS, trusting the local CA.
// Two ways to run it: in this process (tests: options such as reviewDelayMs), or as a child
// process `node sandbox/main.ts` (npm start: its own output, its own process group).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { log } from './log.ts';
import { cleanChildEnv } from './npmEnv.ts';
import { REPO_ROOT, artifactsDir, node24, timestampForFiles } from './paths.ts';
import { freePort, spawnTracked, stopProcess, tailFile } from './processes.ts';
import type { DeliveryAttempt } from '../sandbox/deliveries.ts';
import type { SandboxStateSnapshot } from '../sandbox/server.ts';
import type { TlsMaterial } from './tls.ts';

export const SANDBOX_SERVER = join(REPO_ROOT, 'sandbox', 'server.ts');
export const SANDBOX_CONFIG = join(REPO_ROOT, 'sandbox', 'config.ts');
export const SANDBOX_MAIN = join(REPO_ROOT, 'sandbox', 'main.ts');

export interface SandboxOptions {
	port?: number;
	/** PEM text of the CA the sandbox trusts for its HTTPS webhook deliveries. */
	trustCa?: string;
	reviewDelayMs?: number;
	retryBaseMs?: number;
	minuteMs?: number;
	duplicateDeliveries?: boolean;
	accounts?: unknown;
	[key: string]: unknown;
}

export interface SandboxHandle {
	/** e.g. http://127.0.0.1:4010 (no trailing slash). */
	url: string;
	port: number;
	/** The accounts it accepts (in-process handles only). */
	accounts?: Array<{ apiKey: string; tier: 'pilot' | 'growth' | 'enterprise'; signingSecret: string }>;
	close(): Promise<void>;
	[key: string]: unknown;
}

export function sandboxAvailable(): boolean {
	return existsSync(SANDBOX_SERVER);
}

/** Imports sandbox/server.ts (startSandbox), or with `'config'` sandbox/config.ts (DEMO_ACCOUNTS, DEMO_SIGNING_SECRET). */
export async function importSandboxModule(which: 'server' | 'config' = 'server'): Promise<Record<string, unknown>> {
	if (!sandboxAvailable()) throw new Error(`the sandbox is not there yet (${SANDBOX_SERVER})`);
	return (await import(pathToFileURL(which === 'server' ? SANDBOX_SERVER : SANDBOX_CONFIG).href)) as Record<string, unknown>;
}

/** A POST to the sandbox's control API (`/__sandbox/...`, not part of the service). */
export async function sandboxControl<T = unknown>(sandboxUrl: string, path: string, body?: unknown): Promise<T> {
	const res = await request(`${sandboxUrl}/__sandbox/${path.replace(/^\/+/, '')}`, {
		method: body === undefined ? 'GET' : 'POST',
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.body.text();
	if (res.statusCode >= 400) throw new Error(`sandbox ${path} → ${res.statusCode}: ${text.slice(0, 300)}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

/** What the sandbox holds (documents, registrations) and has counted, from its control API. */
export async function sandboxState(sandboxUrl: string): Promise<SandboxStateSnapshot> {
	return await sandboxControl<SandboxStateSnapshot>(sandboxUrl, 'state');
}

export type { DeliveryAttempt, SandboxStateSnapshot };

/** Every webhook delivery attempt the sandbox has made, oldest first. */
export async function sandboxDeliveries(sandboxUrl: string): Promise<DeliveryAttempt[]> {
	return (await sandboxControl<{ deliveries: DeliveryAttempt[] }>(sandboxUrl, 'deliveries')).deliveries;
}

/** Starts the sandbox inside this process, trusting the local CA. */
export async function startSandboxInProcess(tls: TlsMaterial, options: SandboxOptions = {}): Promise<SandboxHandle> {
	const mod = await importSandboxModule();
	const start = mod.startSandbox as ((o: SandboxOptions) => Promise<SandboxHandle>) | undefined;
	if (typeof start !== 'function') throw new Error('sandbox/server.ts does not export startSandbox()');
	const handle = await start({ port: 0, host: '127.0.0.1', ...options, trustCa: options.trustCa ?? tls.caPem });
	log('sandbox', `in-process sandbox on ${handle.url}`);
	return handle;
}

/**
 * Starts `node sandbox/main.ts` (own process group, tracked) with SANDBOX_PORT and
 * SANDBOX_TRUST_CA, waits until it answers HTTP, and hands back its output lines.
 */
export async function startSandboxProcess(
	tls: TlsMaterial,
	options: { port?: number; env?: Record<string, string>; onLine?: (line: string) => void; timeoutMs?: number } = {},
): Promise<SandboxHandle & { logFile: string; output: () => string; exited: Promise<number | string> }> {
	if (!existsSync(SANDBOX_MAIN)) throw new Error(`the sandbox is not there yet (${SANDBOX_MAIN})`);
	const port = options.port ?? (await freePort(4010));
	const url = `http://127.0.0.1:${port}`;
	const logFile = join(artifactsDir(), `sandbox-${timestampForFiles()}-${port}.log`);
	let output = '';
	const proc = spawnTracked({
		name: 'sandbox',
		command: node24(),
		args: [SANDBOX_MAIN],
		cwd: REPO_ROOT,
		env: cleanChildEnv({ SANDBOX_PORT: String(port), SANDBOX_TRUST_CA: tls.caCertFile, NODE_ENV: 'development', ...(options.env ?? {}) }),
		logFile,
		onLine: (line) => {
			output += `${line}\n`;
			options.onLine?.(line);
		},
	});
	const deadline = Date.now() + (options.timeoutMs ?? 30_000);
	for (;;) {
		if (proc.hasExited()) throw new Error(`the sandbox exited before it was ready:\n${tailFile(logFile)}`);
		try {
			const res = await request(`${url}/__sandbox/health`, { headersTimeout: 2_000, bodyTimeout: 2_000 });
			await res.body.text();
			if (res.statusCode === 200) break;
		} catch {
			// not yet
		}
		if (Date.now() > deadline) {
			await stopProcess(proc, 2_000);
			throw new Error(`the sandbox did not answer on ${url}:\n${tailFile(logFile)}`);
		}
		await new Promise((r) => setTimeout(r, 300));
	}
	log('sandbox', `ready on ${url}`);
	return { url, port, logFile, output: () => output, exited: proc.exited, close: () => stopProcess(proc, 5_000) };
}
