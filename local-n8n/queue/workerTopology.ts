/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- tooling runs in plain Node, never inside n8n: it starts PostgreSQL, Redis and n8n workers */
// A small n8n queue-mode topology (no webhook processes) for the queue e2e tests and benchmarks: PostgreSQL and Redis (own data folders,
// free ports), n8n main (the usual local stack: HTTPS, the package installed; it also serves the
// production and resume webhooks) in queue mode, and worker processes that run the executions.
// Binary data is kept in the database. Every process is tracked, so stopAll() ends them.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import {
	artifactsDir,
	freePort,
	log,
	makeTmpDir,
	N8N_PRELOAD,
	spawnTracked,
	startStack,
	stopProcess,
	tailFile,
	timestampForFiles,
	type Stack,
	type Tracked,
} from '../index.ts';

export interface Worker {
	name: string;
	process: Tracked;
	logFile: string;
	/** SIGKILL: the worker ends at once, without finishing or handing back its jobs. */
	kill(): Promise<void>;
}

export interface QueueWorkers {
	/** Stops worker `index` (SIGTERM) and starts a fresh one in its place. */
	restartWorker(index: number): Promise<Worker>;
}

export interface QueueTopology extends QueueWorkers {
	stack: Stack;
	workers: Worker[];
	/** Runs SQL in n8n's database and returns the rows as text (psql -At). */
	sql(query: string): string;
	stop(): Promise<void>;
}

function postgresBin(): string {
	const versions = readdirSync('/usr/lib/postgresql').sort();
	if (versions.length === 0) throw new Error('PostgreSQL is not installed (npm run setup installs it)');
	return join('/usr/lib/postgresql', versions[versions.length - 1], 'bin');
}

async function waitUntil(what: string, ready: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await ready())) {
		if (Date.now() > deadline) throw new Error(`${what} not ready after ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
}

async function startPostgres(): Promise<{ port: number; process: Tracked; psql: (query: string) => string }> {
	const bin = postgresBin();
	const dir = makeTmpDir('queue-pg');
	const port = await freePort();
	// PostgreSQL refuses to run as root: its data folder belongs to the postgres user.
	const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
	if (asPostgres.length > 0) {
		const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
		const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
		chownSync(dir, uid, gid);
	}
	const data = join(dir, 'data');
	const runAs = (command: string, args: string[]) =>
		asPostgres.length > 0 ? execFileSync(asPostgres[0], [...asPostgres.slice(1), command, ...args]) : execFileSync(command, args);
	runAs(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
	const command = asPostgres.length > 0 ? asPostgres[0] : join(bin, 'postgres');
	const args = [...asPostgres.slice(1), ...(asPostgres.length > 0 ? [join(bin, 'postgres')] : []), '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'];
	const proc = spawnTracked({ name: 'postgres', command, args, logFile: join(artifactsDir(), `postgres-${timestampForFiles()}-${port}.log`) });
	const psqlArgs = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];
	await waitUntil('PostgreSQL', () => {
		try {
			execFileSync(join(bin, 'pg_isready'), psqlArgs);
			return true;
		} catch {
			return false;
		}
	});
	execFileSync(join(bin, 'createdb'), [...psqlArgs, 'n8n']);
	log('postgres', `ready on 127.0.0.1:${port}`);
	return { port, process: proc, psql: (query) => execFileSync(join(bin, 'psql'), [...psqlArgs, '-d', 'n8n', '-At', '-c', query]).toString() };
}

async function startRedis(): Promise<{ port: number; process: Tracked }> {
	const port = await freePort();
	const proc = spawnTracked({
		name: 'redis',
		command: 'redis-server',
		args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		logFile: join(artifactsDir(), `redis-${timestampForFiles()}-${port}.log`),
	});
	await waitUntil('Redis', () => {
		try {
			return execFileSync('redis-cli', ['-p', String(port), 'ping']).toString().trim() === 'PONG';
		} catch {
			return false;
		}
	});
	log('redis', `ready on 127.0.0.1:${port}`);
	return { port, process: proc };
}

async function startWorker(stack: Stack, name: string, concurrency: number): Promise<Worker> {
	const healthPort = await freePort();
	const logFile = join(artifactsDir(), `${name}-${timestampForFiles()}-${healthPort}.log`);
	const proc = spawnTracked({
		name,
		command: stack.install.node,
		args: ['--require', N8N_PRELOAD, stack.install.bin, 'worker', `--concurrency=${concurrency}`],
		cwd: stack.n8n.userFolder,
		env: { ...stack.n8n.env, QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(healthPort), N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
		logFile,
	});
	await waitUntil(
		name,
		async () => {
			if (proc.hasExited()) throw new Error(`${name} exited: ${tailFile(logFile, 40)}`);
			try {
				const response = await request(`http://127.0.0.1:${healthPort}/healthz/readiness`);
				await response.body.text();
				return response.statusCode === 200;
			} catch {
				return false;
			}
		},
		180_000,
	);
	log(name, `ready (health on ${healthPort})`);
	return {
		name,
		process: proc,
		logFile,
		kill: async () => {
			process.kill(-proc.pid, 'SIGKILL');
			await proc.exited;
			log(name, 'killed (SIGKILL)');
		},
	};
}

export async function startQueueTopology(options: { workers?: number; concurrency?: number } = {}): Promise<QueueTopology> {
	const postgres = await startPostgres();
	const redis = await startRedis();
	const stack = await startStack({
		package: 'repo',
		n8nEnv: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		},
		n8nName: 'n8n-main',
	});
	const workers: Worker[] = [];
	for (let index = 1; index <= (options.workers ?? 2); index++) workers.push(await startWorker(stack, `n8n-worker-${index}`, options.concurrency ?? 10));
	return {
		stack,
		workers,
		restartWorker: async (index) => {
			const old = workers[index];
			await stopProcess(old.process, 20_000);
			workers[index] = await startWorker(stack, old.name, options.concurrency ?? 10);
			return workers[index];
		},
		sql: postgres.psql,
		stop: async () => {
			for (const worker of workers) await stopProcess(worker.process, 10_000);
			await stack.n8n.stop();
			await stopProcess(redis.process, 5_000);
			await stopProcess(postgres.process, 10_000);
			await stack.stop();
		},
	};
}
