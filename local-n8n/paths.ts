/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test/tooling code runs in plain Node, never inside n8n */
// Where things live: the repository, the Node 24 binary that n8n must run on, the n8n cache
// outside the repository, and the artifacts folder for logs.

import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest n8n version this project is tested against: the one the tools run by default. */
export const N8N_VERSION = '2.41.1';

/** The oldest n8n version this project is tested against (test/e2e/compat-oldest.test.ts). */
export const N8N_OLDEST_VERSION = '2.33.7';

/** The n8n version to run: the environment's `N8N_VERSION` (e.g. N8N_OLDEST_VERSION), else N8N_VERSION. */
export function selectedN8nVersion(): string {
	return process.env.N8N_VERSION || N8N_VERSION;
}

/** The npm package name of this project (and so the prefix of its node types in n8n). */
export const PACKAGE_NAME = 'n8n-nodes-document-extraction';

/** Repository root (this file is local-n8n/paths.ts). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** `<repo>/node_modules/.bin`: holds the `node` 24 of the devDependency `node`. */
export const REPO_BIN = join(REPO_ROOT, 'node_modules', '.bin');

/** The Node 24 binary (devDependency `node`) that runs n8n, whatever `node` is on PATH. */
export function node24(): string {
	const candidates = [
		join(REPO_ROOT, 'node_modules', 'node', 'bin', 'node'),
		join(REPO_ROOT, 'node_modules', '.bin', 'node'),
	];
	for (const c of candidates) if (existsSync(c)) return c;
	throw new Error(
		`Node 24 not found in ${REPO_ROOT}/node_modules (devDependency "node"). Run "npm ci" first.`,
	);
}

/** Headers of Node 24, for node-gyp (`npm_config_nodedir`): contains include/node/node.h. */
export function node24HeadersDir(): string {
	const dir = join(
		REPO_ROOT,
		'node_modules',
		'node',
		'node_modules',
		`node-${process.platform}-${process.arch}`,
	);
	if (!existsSync(join(dir, 'include', 'node', 'node.h'))) {
		throw new Error(`Node 24 headers not found at ${dir}/include/node/node.h`);
	}
	return dir;
}

/** PATH with `<repo>/node_modules/.bin` first, so `node` and `npm`'s `#!/usr/bin/env node` are Node 24. */
export function pathWithNode24(): string {
	return [REPO_BIN, process.env.PATH ?? ''].filter(Boolean).join(delimiter);
}

/** Root of all cached runtime things (n8n installs, TLS material): `~/.cache/<package>`. */
export function cacheRoot(): string {
	return process.env.N8N_CACHE_ROOT ?? join(homedir(), '.cache', PACKAGE_NAME);
}

/** The cache folder of one n8n version; `N8N_CACHE_DIR` overrides it. */
export function n8nCacheDir(version = N8N_VERSION): string {
	return process.env.N8N_CACHE_DIR ?? join(cacheRoot(), `n8n-${version}`);
}

/** The oldest Node major version the tools and n8n run on (n8n 2.x requires Node 24). */
export const MINIMUM_NODE_MAJOR = 24;

/**
 * Where `npm start` keeps its data across runs (n8n's user folder, the sandbox's state):
 * `$XDG_DATA_HOME/<package>` or `~/.local/share/<package>`; `N8N_LOCAL_DATA_DIR` overrides it.
 */
export function localDataDir(): string {
	return (
		process.env.N8N_LOCAL_DATA_DIR ??
		join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), PACKAGE_NAME)
	);
}

/** `<repo>/test/artifacts` (gitignored): logs of every process the harness starts. */
export function artifactsDir(): string {
	const dir = process.env.E2E_ARTIFACTS_DIR ?? join(REPO_ROOT, 'test', 'artifacts');
	mkdirSync(dir, { recursive: true });
	return dir;
}

const tmpDirs = new Set<string>();

/** A fresh temporary folder for one run (removed by removeTmpDirs(), e.g. when a stack stops). */
export function makeTmpDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
	tmpDirs.add(dir);
	return dir;
}

/** The folders makeTmpDir has made and removeTmpDirs() has not removed yet. */
export function tmpDirsNow(): Set<string> {
	return new Set(tmpDirs);
}

/** Takes the folders made since `known` out of removeTmpDirs(): they go when this process exits. */
export function keepTmpDirsMadeSince(known: ReadonlySet<string>): void {
	const kept = [...tmpDirs].filter((dir) => !known.has(dir));
	for (const dir of kept) tmpDirs.delete(dir);
	if (kept.length === 0 || process.env.E2E_KEEP_TMP === '1') return;
	process.once('exit', () => {
		for (const dir of kept) rmSync(dir, { recursive: true, force: true });
	});
}

/** Removes the temporary folders made by makeTmpDir (not with E2E_KEEP_TMP=1). Logs stay in artifacts. */
export function removeTmpDirs(): void {
	if (process.env.E2E_KEEP_TMP === '1') return;
	for (const dir of tmpDirs) {
		try {
			rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
		} catch {
			// best effort
		}
	}
	tmpDirs.clear();
}

/** `yyyymmdd-hhmmss`, for file names. */
export function timestampForFiles(): string {
	return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * Makes the cache folder `dir` whole or not at all: `fill` writes into a folder of this process's
 * own, renamed to `dir` at the end; when another process made `dir` meanwhile, its copy is kept.
 */
export function makeFolderOnce(dir: string, fill: (folder: string) => void): void {
	const making = `${dir}.${process.pid}`;
	rmSync(making, { recursive: true, force: true });
	mkdirSync(making, { recursive: true });
	fill(making);
	try {
		renameSync(making, dir);
	} catch (error) {
		if (!existsSync(dir)) throw error;
		rmSync(making, { recursive: true, force: true });
	}
}
