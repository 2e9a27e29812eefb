/* eslint-disable @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-restricted-imports -- tooling: plain errors outside any node; it reads and writes files */
// n8n in queue mode, the way teams run it at scale: Postgres, Redis, one main process (editor, API,
// activation; no production webhooks), workers that run the executions, webhook processes that
// receive production webhooks behind an HTTPS load balancer (HAProxy). Binary data in the database.
// Every n8n process has its own user folder, with the package installed into it the way n8n
// documents manual installation (`.n8n/nodes`), as on separate machines.

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerSecret, step } from '../log.ts';
import { N8nClient } from '../n8nApi.ts';
import { startN8n, type N8nInstance } from '../n8nProcess.ts';
import { freePort, reapStaleProcesses, stopAll } from '../processes.ts';
import {
	prepareStack,
	startStack,
	type PreparedStack,
	type Stack,
	type StackOptions,
} from '../stack.ts';
import { makeFolderOnce, removeTmpDirs } from '../paths.ts';
import { startLoadBalancer, type Balance, type LoadBalancer } from './haproxy.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { startRedis, type RedisServer } from './redis.ts';

export interface QueueStackOptions {
	/** Workers (default 2). */
	workers?: number;
	/** Webhook processes behind the load balancer (default 2). */
	webhooks?: number;
	/** Load-balancer mode (default `signature`: copies of one delivery go to one process). */
	balance?: Balance;
	/** Load-balancer port (default: a free one). */
	lbPort?: number;
	/** Main's port (default: a free one). */
	mainPort?: number;
	package?: StackOptions['package'];
	extraPackages?: StackOptions['extraPackages'];
	build?: boolean;
	fileAccessDirs?: string[];
	/** Extra environment for every n8n process. */
	n8nEnv?: Record<string, string | undefined>;
}

export interface QueueStack extends Stack {
	postgres: PostgresServer;
	redis: RedisServer;
	lb: LoadBalancer;
	/** The public base URL for webhooks (the load balancer), `https://localhost:<port>`. */
	publicUrl: string;
	main: N8nInstance;
	workers: N8nInstance[];
	/** Webhook processes, each reachable directly on its `baseUrl`. */
	webhooks: N8nInstance[];
	/** Clients (not logged in) for webhook calls straight to each webhook process. */
	webhookClients: N8nClient[];
	/** Client (not logged in) for webhook calls through the load balancer. */
	lbClient: N8nClient;
	/** Runs SQL in n8n's database; rows as text (psql -At). */
	sql(query: string): string;
	/** The environment shared by every n8n process (queue mode, database, Redis, URLs). */
	sharedEnv: Record<string, string>;
	/** Every n8n process with its role, for logs and checks. */
	processes(): { role: 'main' | 'worker' | 'webhook'; name: string; instance: N8nInstance }[];
}

export async function startQueueStack(options: QueueStackOptions = {}): Promise<QueueStack> {
	reapStaleProcesses();
	try {
		const postgres = await step('queue', 'start Postgres', () => startPostgres());
		const redis = await step('queue', 'start Redis', () => startRedis());
		const lbPort = options.lbPort ?? (await freePort());
		const publicUrl = `https://localhost:${lbPort}`;
		const prepared = await prepareStack({
			package: options.package,
			extraPackages: options.extraPackages,
			build: options.build,
		});
		const migrated = join(prepared.install.dir, `migrated-postgres-${postgres.majorVersion}`);
		// n8n encrypts its own keys in the database with this one, so a database made from the
		// migrated one runs with the key it was made with.
		const fromMigrated = existsSync(migrated);
		const encryptionKey = fromMigrated
			? readFileSync(join(migrated, 'encryption-key'), 'utf8')
			: randomBytes(24).toString('base64url');
		registerSecret(encryptionKey);
		const sharedEnv: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: postgres.host,
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			// n8n's default is 2 connections per process: a worker running 10 jobs at once, or the one
			// webhook process left after the other died, then waits for a connection until it times out
			// ("timeout exceeded when trying to connect"), its readiness turns 503 and executions fail.
			DB_POSTGRESDB_POOL_SIZE: '10',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			// One key for every process: credentials encrypted by main are read by workers and webhooks.
			N8N_ENCRYPTION_KEY: encryptionKey,
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			// Production webhooks are public on the load balancer only; main does not serve them.
			N8N_WEBHOOK_URL: `${publicUrl}/`,
			WEBHOOK_URL: `${publicUrl}/`,
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			...Object.fromEntries(
				Object.entries(options.n8nEnv ?? {}).filter(
					(e): e is [string, string] => e[1] !== undefined,
				),
			),
		};
		await step('queue', 'migrate the database', () =>
			migrateDatabase(postgres, prepared, sharedEnv, migrated, fromMigrated),
		);
		const start = (command: 'worker' | 'webhook', name: string) =>
			step('queue', `start ${name}`, () =>
				startN8n({
					install: prepared.install,
					tls: prepared.tls,
					packages: prepared.packages,
					command,
					name,
					env: sharedEnv,
					fileAccessDirs: options.fileAccessDirs,
				}),
			);
		// The database migrated, main, the workers and the webhook processes start side by side; each
		// waits for its own readiness.
		const numbered = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
		const [base, workers, webhooks] = await Promise.all([
			startStack({
				prepared,
				n8nPort: options.mainPort,
				fileAccessDirs: options.fileAccessDirs,
				n8nEnv: sharedEnv,
				n8nName: 'n8n-main',
			}),
			Promise.all(numbered(options.workers ?? 2).map((i) => start('worker', `n8n-worker${i}`))),
			Promise.all(numbered(options.webhooks ?? 2).map((i) => start('webhook', `n8n-webhook${i}`))),
		]);
		const lb = await step('queue', 'start HAProxy', () =>
			startLoadBalancer({
				tls: base.tls,
				port: lbPort,
				balance: options.balance,
				backends: webhooks.map((w, i) => ({ name: `webhook${i + 1}`, port: w.port })),
				// Test webhooks ("Listen for test event") are served by main only.
				testWebhooks: { name: 'main', port: base.n8n.port },
			}),
		);
		const stack: QueueStack = {
			...base,
			postgres,
			redis,
			lb,
			publicUrl,
			main: base.n8n,
			workers,
			webhooks,
			webhookClients: webhooks.map((w) => new N8nClient(w.baseUrl, base.tls.caPem)),
			lbClient: new N8nClient(publicUrl, base.tls.caPem),
			sql: postgres.sql,
			sharedEnv,
			processes: () => [
				{ role: 'main', name: 'main', instance: base.n8n },
				...workers.map((instance, i) => ({
					role: 'worker' as const,
					name: `worker${i + 1}`,
					instance,
				})),
				...webhooks.map((instance, i) => ({
					role: 'webhook' as const,
					name: `webhook${i + 1}`,
					instance,
				})),
			],
			stop: async () => {
				await lb.stop();
				for (const w of [...webhooks, ...workers]) await w.stop();
				await base.stop();
				await redis.stop();
				await postgres.stop();
				await stopAll();
				removeTmpDirs();
			},
		};
		return stack;
	} catch (error) {
		await stopAll();
		removeTmpDirs();
		throw error;
	}
}

/**
 * Brings the stack's empty database to n8n's schema from `migrated`: the dump of n8n's first start
 * on Postgres (migrated, no owner yet) and the encryption key it ran with, made once per n8n and
 * Postgres version beside the n8n install. n8n's migrations took half of a queue stack's start and
 * kept every other process waiting.
 */
async function migrateDatabase(
	postgres: PostgresServer,
	prepared: PreparedStack,
	env: Record<string, string>,
	migrated: string,
	fromMigrated: boolean,
): Promise<void> {
	if (fromMigrated) {
		postgres.restore(join(migrated, 'n8n.sql'));
		return;
	}
	const first = await startN8n({
		install: prepared.install,
		tls: prepared.tls,
		name: 'n8n-migrate',
		env,
	});
	await first.stop();
	makeFolderOnce(migrated, (folder) => {
		postgres.dump(join(folder, 'n8n.sql'));
		writeFileSync(join(folder, 'encryption-key'), env.N8N_ENCRYPTION_KEY, { mode: 0o600 });
	});
}
