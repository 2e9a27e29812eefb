/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// Resident memory of a process, sampled from /proc/<pid>/status (VmRSS) while something runs.

import { readFileSync } from 'node:fs';

export function rssBytes(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
	if (!match) throw new Error(`no VmRSS for process ${pid}`);
	return Number(match[1]) * 1024;
}

export interface RssPeak {
	baselineBytes: number;
	peakBytes: number;
	growthBytes: number;
	samples: number;
}

/** Runs `work` while sampling the RSS of `pid` every `intervalMs`; the baseline is the RSS just before. */
export async function peakRssDuring(pid: number, work: () => Promise<void>, intervalMs = 25): Promise<RssPeak> {
	const baselineBytes = rssBytes(pid);
	let peakBytes = baselineBytes;
	let samples = 0;
	const timer = setInterval(() => {
		try {
			peakBytes = Math.max(peakBytes, rssBytes(pid));
			samples++;
		} catch {
			// the process ended; the peak so far stands
		}
	}, intervalMs);
	try {
		await work();
	} finally {
		clearInterval(timer);
	}
	peakBytes = Math.max(peakBytes, rssBytes(pid));
	return { baselineBytes, peakBytes, growthBytes: peakBytes - baselineBytes, samples };
}
