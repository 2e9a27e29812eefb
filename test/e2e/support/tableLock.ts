/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test code runs in plain Node, never inside n8n; it runs psql to hold a database lock */
// Holds a lock on one of n8n's tables from a psql session of the test, so that n8n's writes to it
// wait until the test releases it: a way to stop n8n at a chosen step (creating an execution) and
// look at what it has already done (answered or not).

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { requirementPath, type PostgresServer } from '../../../local-n8n/index.ts';

export interface TableLock {
	/** Ends the transaction: the waiting writes go on. */
	release(): Promise<void>;
}

/** Locks `table` IN SHARE MODE (reads go on, INSERT/UPDATE/DELETE wait) until `release()`. */
export async function holdTableLock(postgres: PostgresServer, table: string): Promise<TableLock> {
	const bin = requirementPath('postgres', 'the queue tests');
	const psql: ChildProcessWithoutNullStreams = spawn(join(bin, 'psql'), [
		'-h',
		postgres.host,
		'-p',
		String(postgres.port),
		'-U',
		postgres.user,
		'-d',
		postgres.database,
		'-At',
		'-v',
		'ON_ERROR_STOP=1',
	]);
	const exited = new Promise<number | null>((resolve) =>
		psql.once('exit', (code) => resolve(code)),
	);
	let output = '';
	await new Promise<void>((resolve, reject) => {
		psql.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			if (output.includes('locked')) resolve();
		});
		psql.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		void exited.then((code) =>
			reject(new Error(`psql ended (${code}) before locking ${table}: ${output}`)),
		);
		psql.stdin.write(`BEGIN; LOCK TABLE ${table} IN SHARE MODE; SELECT 'locked';\n`);
	});
	let released = false;
	return {
		async release() {
			if (released) return;
			released = true;
			psql.stdin.end('COMMIT;\n');
			await exited;
		},
	};
}

/** How many sessions wait for a lock in an INSERT into `table` (n8n creating executions). */
export function insertsWaitingOn(postgres: PostgresServer, table: string): number {
	const rows = postgres.sql(
		`SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE 'insert into%${table}%'`,
	);
	return Number(rows.trim());
}
