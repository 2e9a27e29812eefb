/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The Document Extraction sandbox (sandbox/) next to n8n: the nodes call it over HTTP, and it
// delivers signed webhooks to n8n over HTTPS, trusting the local CA. Two ways to run it: in this
// process (tests: options such as reviewDelayMs), or as a child process `node sandbox/main.ts`
// (npm start: its own output, its own process group).

import { join } from 'node:path';
import { request } from 'undici';
import { accountOptionsFromEnv, resolveAccounts } from '../sandbox/config.ts';
import type { DeliveryAttempt } from '../sandbox/deliveries.ts';
import {
	startSandbox,
	type RunningSandbox,
	type SandboxOptions,
	type SandboxStateSnapshot,
} from '../sandbox/server.ts';
import { log } from './log.ts';
import { cleanChildEnv } from './npmEnv.ts';
import { REPO_ROOT, artifactsDir, node24, timestampForFiles } from './paths.ts';
import { freePort, spawnTracked, stopProcess, tailFile } from './processes.ts';
import type { TlsMaterial } from './tls.ts';

export const SANDBOX_MAIN = join(REPO_ROOT, 'sandbox', 'main.ts');

export type { RunningSandbox, SandboxOptions };

/** What the tooling needs of a sandbox, in this process or a child process. */
export type SandboxHandle = Pick<RunningSandbox, 'url' | 'port' | 'accounts' | 'close'>;

/** A sandbox in a child process, with its output. */
export interface SandboxProcess extends SandboxHandle {
	logFile: string;
	output(): string;
	exited: Promise<number | string>;
}

/** A POST to the sandbox's control API (`/__sandbox/...`, not part of the service). */
export async function sandboxControl<T = unknown>(
	sandboxUrl: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const res = await request(`${sandboxUrl}/__sandbox/${path.replace(/^\/+/, '')}`, {
		method: body === undefined ? 'GET' : 'POST',
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.body.text();
	if (res.statusCode >= 400)
		throw new Error(`sandbox ${path} → ${res.statusCode}: ${text.slice(0, 300)}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

/** What the sandbox holds (documents, registrations) and has counted, from its control API. */
export async function sandboxState(sandboxUrl: string): Promise<SandboxStateSnapshot> {
	return await sandboxControl<SandboxStateSnapshot>(sandboxUrl, 'state');
}

export type { DeliveryAttempt, SandboxStateSnapshot };

/** Every webhook delivery attempt the sandbox has made, oldest first. */
export async function sandboxDeliveries(sandboxUrl: string): Promise<DeliveryAttempt[]> {
	return (await sandboxControl<{ deliveries: DeliveryAttempt[] }>(sandboxUrl, 'deliveries'))
		.deliveries;
}

/** Starts the sandbox inside this process, trusting the local CA. */
export async function startSandboxInProcess(
	tls: TlsMaterial,
	options: SandboxOptions = {},
): Promise<RunningSandbox> {
	const handle = await startSandbox({
		port: 0,
		host: '127.0.0.1',
		...options,
		trustCa: options.trustCa ?? tls.caPem,
	});
	log('sandbox', `in-process sandbox on ${handle.url}`);
	return handle;
}

/**
 * Starts `node sandbox/main.ts` (own process group, tracked) with SANDBOX_PORT and
 * SANDBOX_TRUST_CA, waits until it answers HTTP, and hands back its output lines.
 */
export async function startSandboxProcess(
	tls: TlsMaterial,
	options: {
		port?: number;
		env?: Record<string, string>;
		onLine?: (line: string) => void;
		timeoutMs?: number;
	} = {},
): Promise<SandboxProcess> {
	const port = options.port ?? (await freePort(4010));
	const url = `http://127.0.0.1:${port}`;
	const logFile = join(artifactsDir(), `sandbox-${timestampForFiles()}-${port}.log`);
	let output = '';
	const env = cleanChildEnv({
		SANDBOX_PORT: String(port),
		SANDBOX_TRUST_CA: tls.caCertFile,
		NODE_ENV: 'development',
		...(options.env ?? {}),
	});
	const proc = spawnTracked({
		name: 'sandbox',
		command: node24(),
		args: [SANDBOX_MAIN],
		cwd: REPO_ROOT,
		env,
		logFile,
		onLine: (line) => {
			output += `${line}\n`;
			options.onLine?.(line);
		},
	});
	const deadline = Date.now() + (options.timeoutMs ?? 30_000);
	for (;;) {
		if (proc.hasExited())
			throw new Error(`the sandbox exited before it was ready:\n${tailFile(logFile)}`);
		try {
			const res = await request(`${url}/__sandbox/health`, {
				headersTimeout: 2_000,
				bodyTimeout: 2_000,
			});
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
	// The child reads its accounts from the same environment (sandbox/main.ts).
	const accounts = resolveAccounts(accountOptionsFromEnv(env));
	return {
		url,
		port,
		accounts,
		logFile,
		output: () => output,
		exited: proc.exited,
		close: () => stopProcess(proc, 5_000),
	};
}
