/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- test tooling: starts local processes (npm, openssl, n8n) */
// Child processes the harness starts: each in its own process group (detached), its output in a
// log file, its group recorded in a pid file so that a run killed hard is cleaned up by the next
// one, and every group killed on normal exit, SIGINT, SIGTERM and uncaught errors.

import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { log, longestSecretLength, redact, secretsIn } from './log.ts';
import { artifactsDir, keepTmpDirsMadeSince, tmpDirsNow } from './paths.ts';

export interface Tracked {
	name: string;
	pid: number;
	child: ChildProcess;
	logFile?: string;
	/** Resolves with the exit code (or signal name) when the process has exited. */
	exited: Promise<number | string>;
	hasExited(): boolean;
}

const tracked = new Map<number, Tracked>();

function pidFile(): string {
	return join(artifactsDir(), '.harness-pids.json');
}

interface PidRecord {
	owner: number;
	pgid: number;
	name: string;
}

function readPidRecords(): PidRecord[] {
	try {
		return JSON.parse(readFileSync(pidFile(), 'utf8')) as PidRecord[];
	} catch {
		return [];
	}
}

function writePidRecords(records: PidRecord[]): void {
	try {
		writeFileSync(pidFile(), JSON.stringify(records, null, 1));
	} catch {
		// best effort
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
	// A zombie (killed, not yet reaped) still answers signal 0.
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
	} catch {
		return true;
	}
}

function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Kills process groups left behind by an earlier harness run whose owner process is gone
 * (e.g. vitest killed by a timeout). Called once before anything is started.
 */
export function reapStaleProcesses(): void {
	const records = readPidRecords();
	const keep: PidRecord[] = [];
	for (const r of records) {
		if (r.owner !== process.pid && isAlive(r.owner)) {
			keep.push(r);
			continue;
		}
		if (r.owner !== process.pid && groupAlive(r.pgid)) {
			log('cleanup', `killing process group ${r.pgid} (${r.name}) left by dead run ${r.owner}`);
			try {
				process.kill(-r.pgid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
		if (r.owner === process.pid) keep.push(r);
	}
	writePidRecords(keep);
}

let handlersInstalled = false;
let signalHandling = true;

/**
 * Whether the harness handles SIGINT/SIGTERM/SIGHUP itself (stop every process, then exit). A
 * script with its own handlers (that call stopAll()) turns this off. The 'exit' safety net stays.
 */
export function setSignalHandling(enabled: boolean): void {
	signalHandling = enabled;
}

function installExitHandlers(): void {
	if (handlersInstalled) return;
	handlersInstalled = true;
	process.once('exit', () => killAllSync('SIGKILL'));
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			if (!signalHandling) return;
			if (tracked.size > 0) log('cleanup', `${signal}: stopping ${tracked.size} process(es)`);
			void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
		});
	}
}

export interface SpawnTrackedOptions {
	name: string;
	command: string;
	args: string[];
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Output goes here (appended); default `<artifacts>/<name>.log`. */
	logFile?: string;
	/** Also hand each output line to this callback (e.g. to detect readiness). */
	onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
	/**
	 * Called with every registered secret (log.ts `registerSecret`) found in the raw output, before it
	 * is masked in the log file; also across chunk boundaries.
	 */
	onSecret?: (secret: string) => void;
}

/** Starts a child in its own process group, output to a log file, tracked for cleanup. */
export function spawnTracked(options: SpawnTrackedOptions): Tracked {
	installExitHandlers();
	const logFile = options.logFile ?? join(artifactsDir(), `${options.name}.log`);
	const spawnOptions: SpawnOptions = {
		cwd: options.cwd,
		env: options.env ?? process.env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	};
	const child = spawn(options.command, options.args, spawnOptions);
	if (child.pid === undefined)
		throw new Error(`could not start ${options.name} (${options.command})`);
	const pid = child.pid;
	const fd = openSync(logFile, 'a');
	const pending = { stdout: '', stderr: '' };
	// The end of the previous raw chunk per stream, so a secret split across two chunks is still found.
	const carry = { stdout: '', stderr: '' };
	const onData = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
		const raw = chunk.toString('utf8');
		if (options.onSecret) {
			const window = carry[stream] + raw;
			for (const secret of secretsIn(window)) options.onSecret(secret);
			const keep = Math.max(0, longestSecretLength() - 1);
			carry[stream] = keep === 0 ? '' : window.slice(-keep);
		}
		const text = redact(raw);
		try {
			writeFileSync(fd, text);
		} catch {
			// log file closed
		}
		if (options.onLine) {
			pending[stream] += text;
			const lines = pending[stream].split('\n');
			pending[stream] = lines.pop() ?? '';
			for (const line of lines) options.onLine(line, stream);
		}
	};
	child.stdout?.on('data', onData('stdout'));
	child.stderr?.on('data', onData('stderr'));
	const flushPending = () => {
		for (const stream of ['stdout', 'stderr'] as const) {
			if (pending[stream] && options.onLine) options.onLine(pending[stream], stream);
			pending[stream] = '';
		}
	};
	let done = false;
	const exited = new Promise<number | string>((resolvePromise) => {
		let settled = false;
		const finish = (code: number | null, signal: NodeJS.Signals | null) => {
			if (settled) return;
			settled = true;
			done = true;
			flushPending();
			tracked.delete(pid);
			writePidRecords(readPidRecords().filter((r) => r.pgid !== pid));
			setTimeout(() => {
				try {
					closeSync(fd);
				} catch {
					// already closed
				}
			}, 50);
			resolvePromise(code ?? signal ?? 'unknown');
		};
		// 'close' comes after the output is drained; a grandchild that keeps the pipes open must
		// not keep us waiting forever, so 'exit' + 3 s also counts.
		child.once('close', finish);
		child.once('exit', (code, signal) => {
			setTimeout(() => finish(code, signal), 3_000).unref();
		});
	});
	const entry: Tracked = { name: options.name, pid, child, logFile, exited, hasExited: () => done };
	tracked.set(pid, entry);
	writePidRecords([...readPidRecords(), { owner: process.pid, pgid: pid, name: options.name }]);
	log(options.name, `started (pid ${pid}), log: ${logFile}`);
	return entry;
}

/** Stops one tracked process group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(entry: Tracked, graceMs = 10_000): Promise<void> {
	if (entry.hasExited()) return;
	try {
		process.kill(-entry.pid, 'SIGTERM');
	} catch {
		// group gone
	}
	const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs).unref());
	const result = await Promise.race([entry.exited, timer]);
	if (result === 'timeout' || groupAlive(entry.pid)) {
		try {
			process.kill(-entry.pid, 'SIGKILL');
		} catch {
			// group gone
		}
		await Promise.race([entry.exited, new Promise((r) => setTimeout(r, 2_000).unref())]);
	}
	log(entry.name, `stopped (pid ${entry.pid})`);
}

/** Process groups stopAll() leaves running (they still end with this process). */
const outliving = new Set<number>();

/**
 * Runs `start` so that what it starts serves several tests in turn: its processes outlive
 * stopAll() and its folders removeTmpDirs(); both end with this process.
 */
export async function startOutliving<T>(start: () => Promise<T>): Promise<T> {
	const pids = new Set(tracked.keys());
	const dirs = tmpDirsNow();
	const started = await start();
	for (const pid of tracked.keys()) if (!pids.has(pid)) outliving.add(pid);
	keepTmpDirsMadeSince(dirs);
	return started;
}

/** Stops every tracked process group (children first started last), but those that outlive it. */
export async function stopAll(): Promise<void> {
	const entries = [...tracked.values()].filter((e) => !outliving.has(e.pid)).reverse();
	for (const e of entries) await stopProcess(e);
}

/** Synchronous last resort (process 'exit'): SIGKILL every tracked group. */
export function killAllSync(signal: NodeJS.Signals = 'SIGKILL'): void {
	for (const e of tracked.values()) {
		try {
			process.kill(-e.pid, signal);
		} catch {
			// gone
		}
	}
	tracked.clear();
}

/** The last `n` lines of a log file (for error messages). */
export function tailFile(file: string | undefined, n = 40): string {
	if (!file || !existsSync(file)) return '(no log)';
	const lines = readFileSync(file, 'utf8').split('\n');
	return lines.slice(-n).join('\n');
}

/** A TCP port that is free on 127.0.0.1 right now. */
export async function freePort(preferred?: number): Promise<number> {
	const tryListen = (port: number) =>
		new Promise<number>((resolvePromise, reject) => {
			const server = createServer();
			server.unref();
			server.once('error', reject);
			server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
				const address = server.address();
				const got = typeof address === 'object' && address ? address.port : port;
				server.close(() => resolvePromise(got));
			});
		});
	if (preferred) {
		try {
			return await tryListen(preferred);
		} catch {
			// taken: fall through
		}
	}
	return await tryListen(0);
}

export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Where output goes; default: stderr of this process with a prefix. */
	logFile?: string;
	name: string;
	timeoutMs?: number;
}

export interface RunResult {
	stdout: string;
	/** stdout and stderr interleaved. */
	output: string;
}

/** Runs a command to completion (tracked, own process group); rejects on a non-zero exit. */
export async function run(
	command: string,
	args: string[],
	options: RunOptions,
): Promise<RunResult> {
	let output = '';
	let stdout = '';
	const entry = spawnTracked({
		name: options.name,
		command,
		args,
		cwd: options.cwd,
		env: options.env,
		logFile: options.logFile,
		onLine: (line, stream) => {
			output += `${line}\n`;
			if (stream === 'stdout') stdout += `${line}\n`;
		},
	});
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<'timeout'>((r) => {
		if (options.timeoutMs) timer = setTimeout(() => r('timeout'), options.timeoutMs);
	});
	const result = await Promise.race([entry.exited, timeout]);
	if (timer) clearTimeout(timer);
	const shown = `${command} ${args.join(' ')}`;
	if (result === 'timeout') {
		await stopProcess(entry, 2_000);
		throw new Error(
			`${options.name}: "${shown}" timed out after ${options.timeoutMs} ms\n${output.slice(-3000)}`,
		);
	}
	if (result !== 0) {
		throw new Error(`${options.name}: "${shown}" exited with ${result}\n${output.slice(-3000)}`);
	}
	return { stdout, output };
}
