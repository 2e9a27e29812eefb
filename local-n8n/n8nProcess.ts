/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// Starts a real n8n (from the cache, on Node 24, unchanged: `node <n8n>/bin/n8n start`) over HTTPS,
// configured for offline local runs, in its own process group with its output in test/artifacts/.
// The packages it is given are installed into its user folder first (n8n's manual installation,
// communityPackage.ts), so n8n loads them as it starts. Waits for readiness
// (`/healthz/readiness`: database up and migrated; plain `/healthz` answers before migrations).
// Restart keeps the data (same N8N_USER_FOLDER, hence the same encryption key and database).
// A new SQLite user folder starts from a copy of the database n8n migrated once for its version
// (migratedSqlite below), since running its migrations is a third of each fresh start.

import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { installIntoUserFolder, type PackedPackage } from './communityPackage.ts';
import type { N8nInstall } from './installN8n.ts';
import { log } from './log.ts';
import { dispatcherTrusting } from './n8nApi.ts';
import { cleanChildEnv } from './npmEnv.ts';
import { artifactsDir, makeFolderOnce, makeTmpDir, timestampForFiles } from './paths.ts';
import { freePort, spawnTracked, stopProcess, tailFile, type Tracked } from './processes.ts';
import type { TlsMaterial } from './tls.ts';

export interface StartN8nOptions {
	install: N8nInstall;
	tls: TlsMaterial;
	/** Packed community packages to install into the user folder before n8n starts. */
	packages?: PackedPackage[];
	/** HTTPS port; default: a free one. */
	port?: number;
	/** n8n's user folder (database, encryption key, installed community packages); default: a new tmp dir. */
	userFolder?: string;
	/** Folders the Read/Write Files from Disk node may use; default: `<userFolder>/files`. */
	fileAccessDirs?: string[];
	/** Extra or overriding environment variables for n8n. */
	env?: Record<string, string | undefined>;
	/** How long to wait for readiness (default 180 s). */
	readyTimeoutMs?: number;
	/** Log name prefix (default "n8n"). */
	name?: string;
	/**
	 * n8n command (default `start`). `worker` serves no HTTP(S) app: `port` is then its plain-HTTP
	 * health server (`QUEUE_HEALTH_CHECK_PORT`), which also tells when it is ready.
	 */
	command?: 'start' | 'worker' | 'webhook';
}

export interface N8nInstance {
	/** `https://localhost:<port>` */
	baseUrl: string;
	port: number;
	userFolder: string;
	fileAccessDirs: string[];
	logFile: string;
	/** The environment n8n runs with (no secrets in it). */
	env: NodeJS.ProcessEnv;
	pid(): number | undefined;
	isRunning(): boolean;
	/** Resolves when the current n8n process exits (with its exit code or signal). */
	exited(): Promise<number | string>;
	/** Stops n8n (SIGTERM to its process group, SIGKILL after 20 s). */
	stop(): Promise<void>;
	/** Stops and starts again with the same user folder, port and environment. */
	restart(): Promise<void>;
	/** SIGKILL to its process group: it ends at once, without finishing or handing back any work. */
	kill(): Promise<void>;
	/**
	 * The registered secrets (log.ts `registerSecret`) that n8n has written to its output since it
	 * was first started (restarts included), found before the log file masks them: the way to prove
	 * that n8n never logged a secret, since the log file itself never shows one.
	 */
	secretsSeenInOutput(): string[];
}

/** The full environment of a local n8n (documented in the harness README). */
export function n8nEnvironment(args: {
	port: number;
	brokerPort: number;
	userFolder: string;
	tls: TlsMaterial;
	fileAccessDirs: string[];
}): Record<string, string> {
	const baseUrl = `https://localhost:${args.port}/`;
	return {
		NODE_ENV: 'production',
		N8N_USER_FOLDER: args.userFolder,
		// Server: HTTPS on loopback with the local CA's localhost certificate.
		N8N_PORT: String(args.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_PROTOCOL: 'https',
		N8N_SSL_KEY: args.tls.keyFile,
		N8N_SSL_CERT: args.tls.certFile,
		N8N_EDITOR_BASE_URL: baseUrl,
		N8N_WEBHOOK_URL: baseUrl,
		N8N_SECURE_COOKIE: 'true',
		// n8n (and the nodes in it) trust the local CA for outgoing HTTPS too.
		NODE_EXTRA_CA_CERTS: args.tls.caCertFile,
		// No outbound calls: telemetry, version checks, templates, banners, surveys, licence, MCP registry.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_DISABLED_MODULES: 'mcp-registry',
		// Community packages (n8n's default): n8n loads the packages in <user folder>/.n8n/nodes.
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// No vetted-list fetch from api.n8n.io.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		// Task runner for Code nodes: internal (a child of n8n) on a free broker port.
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_PORT: String(args.brokerPort),
		N8N_RUNNERS_TASK_TIMEOUT: '120',
		// Binary data on disk: the action node streams files from filesystem mode.
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		// Read/Write Files from Disk may use these folders only.
		N8N_RESTRICT_FILE_ACCESS_TO: args.fileAccessDirs.join(';'),
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
		// Keep every execution with its data, so tests can read them.
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		EXECUTIONS_DATA_PRUNE: 'false',
		GENERIC_TIMEZONE: 'UTC',
		N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		NO_COLOR: '1',
	};
}

/** Starts n8n and waits until it is ready; throws with the last log lines if it is not. */
export async function startN8n(options: StartN8nOptions): Promise<N8nInstance> {
	const port = options.port ?? (await freePort());
	const brokerPort = await freePort();
	const userFolder = options.userFolder ?? makeTmpDir('n8n-user');
	mkdirSync(userFolder, { recursive: true });
	const fileAccessDirs = options.fileAccessDirs ?? [join(userFolder, 'files')];
	for (const d of fileAccessDirs) mkdirSync(d, { recursive: true });
	for (const packed of options.packages ?? []) await installIntoUserFolder(userFolder, packed);
	const command = options.command ?? 'start';
	const dataFolder = join(userFolder, '.n8n');
	if (command === 'start' && !options.env?.DB_TYPE && !existsSync(join(dataFolder, 'config'))) {
		const migrated = await migratedSqlite(options);
		mkdirSync(dataFolder, { recursive: true });
		for (const file of readdirSync(migrated))
			copyFileSync(join(migrated, file), join(dataFolder, file));
	}
	const env = cleanChildEnv({
		...n8nEnvironment({ port, brokerPort, userFolder, tls: options.tls, fileAccessDirs }),
		...(options.env ?? {}),
	});
	if (command === 'worker') {
		env.QUEUE_HEALTH_CHECK_ACTIVE = 'true';
		env.QUEUE_HEALTH_CHECK_PORT = String(port);
		env.N8N_WORKER_SERVER_ADDRESS = '127.0.0.1';
	}
	const baseUrl = command === 'worker' ? `http://127.0.0.1:${port}` : `https://localhost:${port}`;
	const name = options.name ?? 'n8n';
	const logFile = join(artifactsDir(), `${name}-${timestampForFiles()}-${port}.log`);
	const dispatcher = dispatcherTrusting(options.tls.caPem);
	let proc: Tracked | undefined;
	const secretsSeen = new Set<string>();

	const launch = async () => {
		const t0 = Date.now();
		proc = spawnTracked({
			name,
			command: options.install.node,
			args: [options.install.bin, command],
			cwd: userFolder,
			env,
			logFile,
			onSecret: (secret) => secretsSeen.add(secret),
		});
		const current = proc;
		const deadline = t0 + (options.readyTimeoutMs ?? 180_000);
		for (;;) {
			if (current.hasExited()) {
				throw new Error(
					`n8n exited (${await current.exited}) before it was ready. Last lines of ${logFile}:\n${tailFile(logFile, 60)}`,
				);
			}
			try {
				const res = await request(`${baseUrl}/healthz/readiness`, {
					dispatcher,
					headersTimeout: 5_000,
					bodyTimeout: 5_000,
				});
				await res.body.text();
				if (res.statusCode === 200) break;
			} catch {
				// not listening yet
			}
			if (Date.now() > deadline) {
				await stopProcess(current, 5_000);
				throw new Error(
					`n8n was not ready on ${baseUrl} after ${Math.round((Date.now() - t0) / 1000)} s. Last lines of ${logFile}:\n${tailFile(logFile, 60)}`,
				);
			}
			await new Promise((r) => setTimeout(r, 500));
		}
		log(name, `ready on ${baseUrl} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	};

	await launch();
	const instance: N8nInstance = {
		baseUrl,
		port,
		userFolder,
		fileAccessDirs,
		logFile,
		env,
		pid: () => proc?.pid,
		isRunning: () => Boolean(proc && !proc.hasExited()),
		exited: () => proc?.exited ?? Promise.resolve('not started'),
		stop: async () => {
			if (proc) await stopProcess(proc, 20_000);
		},
		restart: async () => {
			if (proc) await stopProcess(proc, 20_000);
			log(name, 'restarting with the same user folder');
			await launch();
		},
		kill: async () => {
			if (!proc || proc.hasExited()) return;
			process.kill(-proc.pid, 'SIGKILL');
			await proc.exited;
			log(name, 'killed (SIGKILL)');
		},
		secretsSeenInOutput: () => [...secretsSeen],
	};
	return instance;
}

/**
 * A SQLite database and encryption key as n8n left them after its first start (migrated, no owner
 * yet), made once per n8n version beside its install; a fresh user folder starts from a copy.
 */
async function migratedSqlite(options: StartN8nOptions): Promise<string> {
	const dir = join(options.install.dir, 'migrated-sqlite');
	if (existsSync(dir)) return dir;
	const userFolder = makeTmpDir('n8n-migrate');
	const first = await startN8n({
		install: options.install,
		tls: options.tls,
		userFolder,
		name: 'n8n-migrate',
		// n8n's default database, named so that this start migrates instead of copying.
		env: { DB_TYPE: 'sqlite' },
	});
	await first.stop();
	makeFolderOnce(dir, (folder) => {
		for (const file of readdirSync(join(userFolder, '.n8n')))
			if (file === 'config' || file.startsWith('database.sqlite'))
				copyFileSync(join(userFolder, '.n8n', file), join(folder, file));
	});
	return dir;
}
