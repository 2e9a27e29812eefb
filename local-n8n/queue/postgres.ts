/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- tooling: starts Postgres; plain errors outside any node */
// A throwaway Postgres (Debian's or Homebrew's) for n8n in queue mode: a fresh data folder, loopback
// on a free port, fsync off (test data). Run by a normal user, initdb and the server run as that
// user; Postgres refuses to run as root, so as root they run as the `postgres` system user, which
// then owns the data and socket folders.

import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '../log.ts';
import { artifactsDir, makeTmpDir, timestampForFiles } from '../paths.ts';
import { freePort, spawnTracked, stopProcess, tailFile, type Tracked } from '../processes.ts';
import { requirementPath } from '../systemPackages.ts';

export interface PostgresServer {
	host: string;
	port: number;
	user: string;
	database: string;
	logFile: string;
	/** The server's major version, e.g. `16`. */
	majorVersion: string;
	/** Runs SQL in the database and returns the rows as text, one per line, columns split by `|` (psql -At). */
	sql(query: string): string;
	/** Writes the database as SQL (pg_dump, no owners or privileges) to `file`. */
	dump(file: string): void;
	/** Runs the SQL of `file` (a dump) in the database, stopping at the first error. */
	restore(file: string): void;
	stop(): Promise<void>;
}

function postgresIds(): { uid: number; gid: number } {
	const out = execFileSync('id', ['postgres'], { encoding: 'utf8' });
	const uid = /uid=(\d+)/.exec(out)?.[1];
	const gid = /gid=(\d+)/.exec(out)?.[1];
	if (!uid || !gid)
		throw new Error(
			`no "postgres" system user (id postgres: ${out.trim()}); which Debian's postgresql package creates`,
		);
	return { uid: Number(uid), gid: Number(gid) };
}

function runningAsRoot(): boolean {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** `runuser -u postgres -- <cmd>` when we are root (Postgres refuses root), the command itself as a normal user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return runningAsRoot()
		? ['runuser', ['-u', 'postgres', '--', command, ...args]]
		: [command, args];
}

export async function startPostgres(options: { database?: string } = {}): Promise<PostgresServer> {
	const bin = requirementPath('postgres');
	const root = makeTmpDir('queue-postgres');
	const dataDir = join(root, 'data');
	const socketDir = join(root, 'socket');
	const owner = runningAsRoot() ? postgresIds() : undefined;
	for (const dir of [root, dataDir, socketDir]) {
		mkdirSync(dir, { recursive: true });
		if (owner) chownSync(dir, owner.uid, owner.gid);
	}
	const [initCmd, initArgs] = asPostgres(join(bin, 'initdb'), [
		'-D',
		dataDir,
		'-U',
		'postgres',
		'--auth=trust',
		'-E',
		'UTF8',
		'--no-instructions',
	]);
	execFileSync(initCmd, initArgs, { stdio: 'pipe', cwd: root });
	const port = await freePort();
	const logFile = join(artifactsDir(), `postgres-${timestampForFiles()}-${port}.log`);
	const [cmd, args] = asPostgres(join(bin, 'postgres'), [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-k',
		socketDir,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	const proc: Tracked = spawnTracked({ name: 'postgres', command: cmd, args, cwd: root, logFile });
	const database = options.database ?? 'n8n';
	const deadline = Date.now() + 60_000;
	for (;;) {
		if (proc.hasExited())
			throw new Error(`postgres exited before it was ready:\n${tailFile(logFile)}`);
		try {
			execFileSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q'], {
				stdio: 'ignore',
			});
			break;
		} catch {
			if (Date.now() > deadline) {
				await stopProcess(proc, 5_000);
				throw new Error(`postgres not ready on port ${port} after 60 s:\n${tailFile(logFile)}`);
			}
			await new Promise((r) => setTimeout(r, 200));
		}
	}
	execFileSync(
		join(bin, 'createdb'),
		['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database],
		{ stdio: 'pipe' },
	);
	log('postgres', `ready on 127.0.0.1:${port}, database ${database}`);
	const connection = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database];
	const sql = (query: string) =>
		execFileSync(join(bin, 'psql'), [...connection, '-At', '-c', query], { encoding: 'utf8' });
	const majorVersion =
		/\d+/.exec(execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }))?.[0] ??
		'unknown';
	return {
		host: '127.0.0.1',
		port,
		user: 'postgres',
		database,
		logFile,
		majorVersion,
		sql,
		dump: (file) =>
			execFileSync(
				join(bin, 'pg_dump'),
				[...connection, '--no-owner', '--no-privileges', '-f', file],
				{
					stdio: 'pipe',
				},
			),
		restore: (file) =>
			execFileSync(join(bin, 'psql'), [...connection, '-q', '-v', 'ON_ERROR_STOP=1', '-f', file], {
				stdio: 'pipe',
			}),
		stop: () => stopProcess(proc, 10_000),
	};
}
