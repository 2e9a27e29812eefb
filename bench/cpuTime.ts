/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// CPU time from /proc (Linux): per process, per thread name, and for every process this benchmark
// started, by role. Unlike a rate of answers, CPU per delivery barely moves when other work shares
// the machine, so it anchors comparisons made on a busy machine.

import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ, the unit of /proc's CPU times: 100 on every Linux architecture n8n runs on. */
const CLOCK_TICKS = 100;

/**
 * `/proc/<pid>/stat` (or a thread's): name, parent, user + system CPU in ms, and the same of the
 * children it has reaped (a Postgres backend that ended moves its time there).
 */
export function statCpu(file: string): {
	name: string;
	ppid: number;
	ms: number;
	reapedMs: number;
} {
	const stat = readFileSync(file, 'utf8');
	const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
	// Fields from the 3rd on (state, ppid, …); utime, stime, cutime, cstime are the 14th to 17th.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const ms = (from: number) =>
		((Number(fields[from]) + Number(fields[from + 1])) * 1000) / CLOCK_TICKS;
	return { name, ppid: Number(fields[1]), ms: ms(11), reapedMs: ms(13) };
}

/** The role of this process in cpuByRole(). */
export const BENCH_ROLE = 'bench (load, sandbox)';

/**
 * CPU ms of every process this benchmark started, by role: each direct child (n8n main, worker,
 * webhook processes, Postgres, Redis, HAProxy) with all its descendants (Postgres backends, n8n's
 * task runner), and this process (load generator, sandbox, HTTPS front).
 */
export function cpuByRole(): Map<string, number> {
	const processes = new Map<number, { ppid: number; ms: number }>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// With the time of reaped children, so that a process ending in the window takes nothing back.
			const { ppid, ms, reapedMs } = statCpu(`/proc/${entry}/stat`);
			processes.set(Number(entry), { ppid, ms: ms + reapedMs });
		} catch {
			// ended meanwhile
		}
	}
	const roleOf = (child: number): string => {
		const command = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
		const n8n = command.findIndex((part) => part.endsWith('/n8n/bin/n8n'));
		if (n8n >= 0)
			return (
				{ start: 'n8n main', worker: 'n8n worker', webhook: 'n8n webhook processes' }[
					command[n8n + 1]
				] ?? 'n8n'
			);
		const program = command[0].split('/').pop() ?? '';
		return /postgres/.test(command.join(' '))
			? 'postgres'
			: program.startsWith('redis')
				? 'redis'
				: program || 'other';
	};
	const roles = new Map<string, number>([[BENCH_ROLE, statCpu(`/proc/${process.pid}/stat`).ms]]);
	const topChild = new Map<number, number | null>();
	const findTop = (pid: number): number | null => {
		if (topChild.has(pid)) return topChild.get(pid) as number | null;
		const parent = processes.get(pid)?.ppid;
		const top =
			parent === undefined || parent <= 1 ? null : parent === process.pid ? pid : findTop(parent);
		topChild.set(pid, top);
		return top;
	};
	for (const [pid, { ms }] of processes) {
		const top = findTop(pid);
		if (top === null) continue;
		try {
			const role = roleOf(top);
			roles.set(role, (roles.get(role) ?? 0) + ms);
		} catch {
			// ended meanwhile
		}
	}
	return roles;
}

export interface CpuSnapshot {
	/** The whole process (threads that ended included). */
	processMs: number;
	/** Per thread name (several threads can share one), the main thread as `main`. */
	threads: Map<string, number>;
}

export function cpuSnapshot(pid: number): CpuSnapshot {
	const threads = new Map<string, number>();
	for (const tid of readdirSync(`/proc/${pid}/task`)) {
		try {
			const { name, ms } = statCpu(`/proc/${pid}/task/${tid}/stat`);
			const key = tid === String(pid) ? 'main' : name;
			threads.set(key, (threads.get(key) ?? 0) + ms);
		} catch {
			// the thread ended meanwhile
		}
	}
	return { processMs: statCpu(`/proc/${pid}/stat`).ms, threads };
}

/** CPU ms of the processes `pids` (all their threads), added up. */
export function processesCpuMs(pids: number[]): number {
	return pids.reduce((sum, pid) => sum + statCpu(`/proc/${pid}/stat`).ms, 0);
}

export const perDelivery = (
	byName: Map<string, number>,
	deliveries: number,
): Record<string, number> =>
	Object.fromEntries(
		[...byName.entries()]
			.filter(([, ms]) => ms > 0)
			.sort((a, b) => b[1] - a[1])
			.map(([name, ms]) => [name, ms / deliveries]),
	);

export function difference(
	after: Map<string, number>,
	before: Map<string, number>,
): Map<string, number> {
	return new Map([...after.entries()].map(([name, ms]) => [name, ms - (before.get(name) ?? 0)]));
}
