/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- test tooling: starts local processes (npm, openssl, n8n); plain errors outside any node */
// Installs n8n into a cache folder outside the repository, keyed by version
// (~/.cache/n8n-nodes-document-extraction/n8n-<version>, or N8N_CACHE_DIR), for Node 24.
//
// Recipe: `npm install n8n@<version> --ignore-scripts` (npm 11 blocks dependency install scripts
// anyway), then rebuild only the native modules n8n needs at run time:
//   - sqlite3 (the database): its own install script, which downloads the prebuilt binary for this
//     platform (Linux, macOS) and compiles with node-gyp against Node 24's headers
//     (npm_config_nodedir) only when the download fails (offline: ~1.5 min on 2 cores, and it needs
//     a C++ toolchain);
//   - isolated-vm (the expression engine): ships a prebuilt binary for Node 24 (ABI 137), which
//     `npm rebuild` only checks; forcing a source build would take many minutes.
// The other packages with install scripts are not needed here (kafka, oracledb, sentry profiler,
// ssh2's optional crypto binding, browser downloads, analytics) and are left alone.
// A marker file is written only after both modules load under Node 24, so an interrupted install
// is redone. A lock folder keeps two runs from installing into the same folder at once.

import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { log, step } from './log.ts';
import { cleanChildEnv } from './npmEnv.ts';
import { N8N_VERSION, n8nCacheDir, node24, node24HeadersDir } from './paths.ts';
import { run, spawnTracked } from './processes.ts';

export interface N8nInstall {
	version: string;
	dir: string;
	/** `<dir>/node_modules/n8n/bin/n8n`, to be run with Node 24. */
	bin: string;
	node: string;
}

interface Marker {
	version: string;
	nodeVersion: string;
	installedAt: string;
}

const MARKER = '.install-complete.json';

function nodeVersionOf(nodeBin: string): string {
	return execFileSync(nodeBin, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
}

function readMarker(dir: string): Marker | undefined {
	try {
		return JSON.parse(readFileSync(join(dir, MARKER), 'utf8')) as Marker;
	} catch {
		return undefined;
	}
}

/** The version of the package `name` installed in `dir`, if any. */
function installedVersion(dir: string, name: string): string | undefined {
	try {
		return (
			JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as {
				version: string;
			}
		).version;
	} catch {
		return undefined;
	}
}

function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
	const lock = `${dir}.lock`;
	const deadline = Date.now() + 30 * 60_000;
	let announced = false;
	for (;;) {
		try {
			mkdirSync(lock);
			writeFileSync(join(lock, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			let holder = NaN;
			try {
				holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
			} catch {
				// pid not written yet
			}
			const age = Date.now() - statSync(lock).mtimeMs;
			if (
				(Number.isFinite(holder) && !pidAlive(holder)) ||
				(!Number.isFinite(holder) && age > 60_000)
			) {
				rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (!announced) {
				log(
					'n8n-install',
					`another process (pid ${holder}) is installing n8n into ${dir}; waiting`,
				);
				announced = true;
			}
			if (Date.now() > deadline) throw new Error(`timed out waiting for the install lock ${lock}`);
			await new Promise((r) => setTimeout(r, 2_000));
		}
	}
	try {
		return await fn();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

/** Whether `require(name)` works under Node 24 in `dir` (a native module built for it). */
function loads(dir: string, nodeBin: string, name: string): boolean {
	try {
		execFileSync(nodeBin, ['-e', `require(${JSON.stringify(name)})`], {
			cwd: dir,
			stdio: 'ignore',
		});
		return true;
	} catch {
		return false;
	}
}

/**
 * Copies sqlite3's compiled binding from another complete n8n install beside `dir` that has the
 * same sqlite3 version: an N-API binary, the same for every Node version, so the copy saves the
 * compile (1 to 3 minutes where the prebuilt download is unreachable, e.g. the oldest n8n after
 * the newest). Returns whether the copy loads; the caller rebuilds when it does not.
 */
function reuseSqliteBinding(dir: string, nodeBin: string): boolean {
	const version = installedVersion(dir, 'sqlite3');
	const parent = dirname(dir);
	if (!version || !existsSync(parent)) return false;
	for (const sibling of readdirSync(parent).map((name) => join(parent, name))) {
		const built = join(sibling, 'node_modules', 'sqlite3', 'build');
		if (sibling === dir || !readMarker(sibling) || installedVersion(sibling, 'sqlite3') !== version)
			continue;
		if (!existsSync(join(built, 'Release', 'node_sqlite3.node'))) continue;
		cpSync(built, join(dir, 'node_modules', 'sqlite3', 'build'), { recursive: true });
		if (loads(dir, nodeBin, 'sqlite3')) {
			log('n8n-install', `sqlite3 ${version}: the binding compiled for ${sibling}, reused`);
			return true;
		}
	}
	return false;
}

/** Checks that n8n's native modules load under Node 24 (throws with the reason if not). */
function verifyNativeModules(dir: string, nodeBin: string): void {
	const script = [
		"const sqlite3 = require('sqlite3');",
		"const db = new sqlite3.Database(':memory:');",
		"db.get('select sqlite_version() as v', (e, r) => { if (e) { console.error(e); process.exit(1); }",
		"  const ivm = require('isolated-vm'); const iso = new ivm.Isolate({ memoryLimit: 16 });",
		"  const out = iso.compileScriptSync('6 * 7').runSync(iso.createContextSync());",
		"  if (out !== 42) process.exit(2); process.stdout.write('sqlite ' + r.v + ', isolated-vm ok'); db.close(); });",
	].join('\n');
	const out = execFileSync(nodeBin, ['-e', script], {
		cwd: dir,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	log('n8n-install', `native modules load under Node 24: ${out.trim()}`);
}

/**
 * Makes sure n8n `version` is installed in the cache and usable with Node 24; installs it when
 * missing or incomplete. Prints progress for every slow step. Returns where it is.
 */
export async function ensureN8n(version = N8N_VERSION): Promise<N8nInstall> {
	const dir = n8nCacheDir(version);
	const nodeBin = node24();
	const nodeVersion = nodeVersionOf(nodeBin);
	const result: N8nInstall = {
		version,
		dir,
		bin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		node: nodeBin,
	};
	const isComplete = () => {
		const marker = readMarker(dir);
		return (
			marker?.version === version &&
			marker.nodeVersion === nodeVersion &&
			installedVersion(dir, 'n8n') === version &&
			existsSync(result.bin)
		);
	};
	if (isComplete()) return result;

	mkdirSync(dir, { recursive: true });
	return await withLock(dir, async () => {
		if (isComplete()) return result;
		rmSync(join(dir, MARKER), { force: true });
		log(
			'n8n-install',
			`installing n8n ${version} for Node ${nodeVersion} into ${dir} (first run only; several minutes)`,
		);
		const logFile = join(dir, 'install.log');
		writeFileSync(
			join(dir, 'package.json'),
			`${JSON.stringify({ name: 'n8n-runtime-cache', private: true, description: `n8n ${version} for local tests of n8n-nodes-document-extraction` }, null, 2)}\n`,
		);
		const env = cleanChildEnv({
			npm_config_nodedir: node24HeadersDir(),
			npm_config_audit: 'false',
			npm_config_fund: 'false',
			npm_config_update_notifier: 'false',
		});

		// 1. Download n8n and its dependencies (no install scripts).
		let requests = 0;
		const t0 = Date.now();
		const heartbeat = setInterval(() => {
			log(
				'n8n-install',
				`npm install n8n@${version}: ${requests} registry requests, ${Math.round((Date.now() - t0) / 1000)} s so far`,
			);
		}, 20_000);
		try {
			await step('n8n-install', `npm install n8n@${version} --ignore-scripts`, async () => {
				const entry = spawnTracked({
					name: 'npm-install-n8n',
					command: 'npm',
					args: [
						'install',
						`n8n@${version}`,
						'--save-exact',
						'--ignore-scripts',
						'--no-audit',
						'--no-fund',
						'--loglevel=http',
					],
					cwd: dir,
					env,
					logFile,
					onLine: (line) => {
						if (line.includes('http fetch')) requests++;
					},
				});
				const code = await entry.exited;
				if (code !== 0) {
					const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
					throw new Error(
						`npm install n8n@${version} failed (exit ${code}); see ${logFile}\n${tail}`,
					);
				}
			});
		} finally {
			clearInterval(heartbeat);
		}

		// 2. isolated-vm: its install script only checks that the bundled Node 24 binary loads.
		if (!loads(dir, nodeBin, 'isolated-vm')) {
			await step('n8n-install', 'npm rebuild isolated-vm (prebuilt binary check)', async () => {
				await run('npm', ['rebuild', 'isolated-vm', '--foreground-scripts'], {
					name: 'npm-rebuild-isolated-vm',
					cwd: dir,
					env,
					logFile,
					timeoutMs: 20 * 60_000,
				});
			});
		}

		// 3. sqlite3: the binding of another install with the same sqlite3, else the prebuilt binary
		// if it can be downloaded, else compiled against Node 24's headers.
		if (!loads(dir, nodeBin, 'sqlite3') && !reuseSqliteBinding(dir, nodeBin)) {
			await step(
				'n8n-install',
				'npm rebuild sqlite3 (prebuilt binary, or compiled with node-gyp: ~2 min)',
				async () => {
					await run('npm', ['rebuild', 'sqlite3', '--foreground-scripts'], {
						name: 'npm-rebuild-sqlite3',
						cwd: dir,
						env,
						logFile,
						timeoutMs: 20 * 60_000,
					});
				},
			);
		}

		verifyNativeModules(dir, nodeBin);
		if (installedVersion(dir, 'n8n') !== version)
			throw new Error(`n8n ${version} was not installed in ${dir}`);
		const marker: Marker = { version, nodeVersion, installedAt: new Date().toISOString() };
		writeFileSync(join(dir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
		log(
			'n8n-install',
			`n8n ${version} ready in ${dir} (${Math.round((Date.now() - t0) / 1000)} s)`,
		);
		return result;
	});
}
