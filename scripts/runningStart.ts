/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// Where a running `npm start` is, so that `npm run send-invoice` mails the mailboxes of the start
// that runs, whatever --data or --fresh it was given. Each start writes a small record in a fixed
// place of this user's (`$XDG_RUNTIME_DIR/n8n-nodes-document-extraction/`, else
// `<tmp>/n8n-nodes-document-extraction-<uid>/`, made private): its process id, data folder, and
// whether its mailboxes run; it removes the record when it stops. A record whose process is gone
// (a start that was killed) is ignored and removed.

import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	realpathSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PACKAGE_NAME } from '../local-n8n/paths.ts';

export interface StartRecord {
	pid: number;
	dataDir: string;
	/** ISO time the start began. */
	startedAt: string;
	/** 'starting' until the start prints that it is running. */
	state: 'starting' | 'running';
	/** Whether its local mailboxes run, and if not, why. */
	mailboxes?: { started: true } | { started: false; why: string };
}

/** The folder of the records: private to this user. */
export function runningStartsDir(env: NodeJS.ProcessEnv = process.env): string {
	const runtime = env.XDG_RUNTIME_DIR;
	if (runtime && existsSync(runtime)) return join(runtime, PACKAGE_NAME);
	return join(tmpdir(), `${PACKAGE_NAME}-${process.getuid?.() ?? 'user'}`);
}

/** The folder, made when missing; refused when another user owns it or may write to it. */
function ownedStartsDir(): string {
	const dir = runningStartsDir();
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const stat = statSync(dir);
	const uid = process.getuid?.();
	if ((uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0)
		throw new Error(`${dir} is not private to this user: remove it and start again`);
	return dir;
}

/**
 * Writes (or rewrites) this process's record; returns how to remove it. It is also removed when the
 * process exits.
 */
export function recordStart(record: StartRecord): { update(next: Partial<StartRecord>): void } {
	const file = join(ownedStartsDir(), `start-${record.pid}.json`);
	let current = record;
	const write = () => {
		writeFileSync(`${file}.tmp`, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
		renameSync(`${file}.tmp`, file);
	};
	write();
	process.once('exit', () => rmSync(file, { force: true }));
	return {
		update(next) {
			current = { ...current, ...next };
			write();
		},
	};
}

/** Whether process `pid` runs (a process of another user counts). */
export function processRuns(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The records of the starts whose process runs; the others are removed. */
export function runningStarts(alive: (pid: number) => boolean = processRuns): StartRecord[] {
	const dir = runningStartsDir();
	if (!existsSync(dir)) return [];
	const records: StartRecord[] = [];
	for (const name of readdirSync(dir)) {
		if (!/^start-\d+\.json$/.test(name)) continue;
		const file = join(dir, name);
		try {
			const record = JSON.parse(readFileSync(file, 'utf8')) as StartRecord;
			if (alive(record.pid)) records.push(record);
			else rmSync(file, { force: true });
		} catch {
			// half written or removed meanwhile
		}
	}
	return records;
}

/** A folder's path with its links resolved (so /tmp and /private/tmp on macOS are one). */
export function samePlace(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return resolve(path);
	}
}

const HOW_TO_START =
	'Start it in another terminal with "npm start" and wait until it prints "is running"';

/**
 * Which running start send-invoice mails (pure): the one on `data` when given, else the one started
 * last; or why none.
 */
export function chooseStart(
	starts: StartRecord[],
	data: string | undefined,
	place: (path: string) => string = samePlace,
): { start: StartRecord; note?: string } | { error: string } {
	const newestFirst = [...starts].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
	const wanted = data === undefined ? undefined : place(data);
	const candidates = wanted
		? newestFirst.filter((start) => place(start.dataDir) === wanted)
		: newestFirst;
	const start = candidates[0];
	if (!start) {
		if (newestFirst.length === 0)
			return {
				error: `No npm start is running${data ? ` on ${data}` : ''}. ${HOW_TO_START}${data ? ` (npm start -- --data ${data})` : ''}, then send again.`,
			};
		return {
			error: `No npm start is running on ${data}; running: ${newestFirst.map((other) => other.dataDir).join(', ')}. Leave out --data to mail the one started last, or start one on it (npm start -- --data ${data}).`,
		};
	}
	if (start.state === 'starting')
		return {
			error: `npm start (process ${start.pid}, data ${start.dataDir}) is still starting: send again once it prints "is running".`,
		};
	if (start.mailboxes && !start.mailboxes.started)
		return {
			error: `npm start (process ${start.pid}, data ${start.dataDir}) runs no local mailboxes: ${start.mailboxes.why}`,
		};
	const others = newestFirst.filter((other) => other !== start);
	const note =
		others.length > 0 && !wanted
			? `${others.length + 1} npm starts are running; this went to the one started last (data ${start.dataDir}); --data <folder> picks another: ${others.map((other) => other.dataDir).join(', ')}`
			: undefined;
	return { start, note };
}
