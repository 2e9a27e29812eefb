/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// Resident memory of a process while something runs: the kernel's own peak (VmHWM, reset just
// before through /proc/<pid>/clear_refs) where the kernel allows it, else VmRSS sampled from
// /proc/<pid>/status. Sampling alone misses peaks shorter than its interval (a large buffer that
// lives for a few milliseconds).

import { closeSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';

function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status);
	if (!match) throw new Error(`no ${field} for process ${pid}`);
	return Number(match[1]) * 1024;
}

export function rssBytes(pid: number): number {
	return statusBytes(pid, 'VmRSS');
}

/** Sets the kernel's peak RSS of `pid` back to its current RSS; false where that is not allowed (Linux < 4.0, another user's process). */
function resetPeakRss(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** How often RSS is sampled (the kernel's peak, where allowed, misses nothing between samples). */
const SAMPLE_MS = 25;

export interface RssPeak {
	baselineBytes: number;
	peakBytes: number;
	growthBytes: number;
	samples: number;
	/** true: the peak is the kernel's (VmHWM); false: the highest sample. */
	exact: boolean;
}

/**
 * Runs `work` while sampling the RSS of `pid` every SAMPLE_MS; the baseline is the RSS just before,
 * or, with `from`, the RSS when `from()` first holds (polled at each sample): what ran before it in
 * the same execution, and its peak, are then left out.
 */
export async function peakRssDuring(
	pid: number,
	work: () => Promise<void>,
	options: { from?: () => boolean } = {},
): Promise<RssPeak> {
	let baselineBytes = rssBytes(pid);
	let started = !options.from;
	let exact = started && resetPeakRss(pid);
	let peakBytes = baselineBytes;
	let samples = 0;
	const timer = setInterval(() => {
		try {
			if (!started && options.from!()) {
				started = true;
				baselineBytes = rssBytes(pid);
				exact = resetPeakRss(pid);
				peakBytes = baselineBytes;
			}
			if (started) {
				peakBytes = Math.max(peakBytes, rssBytes(pid));
				samples++;
			}
		} catch {
			// the process ended; the peak so far stands
		}
	}, SAMPLE_MS);
	try {
		await work();
	} finally {
		clearInterval(timer);
	}
	if (!started) throw new Error('the measured phase never began');
	peakBytes = Math.max(peakBytes, rssBytes(pid), exact ? statusBytes(pid, 'VmHWM') : 0);
	return { baselineBytes, peakBytes, growthBytes: peakBytes - baselineBytes, samples, exact };
}

/**
 * True once `file` has a line containing `text` written after this call: a phase of a run that
 * n8n's log announces.
 */
export function logSays(file: string, text: string): () => boolean {
	let readUpTo = statSync(file).size;
	// The end of what was read, so that `text` split across two reads is still found.
	let carry = '';
	let seen = false;
	return () => {
		if (seen) return true;
		const size = statSync(file).size;
		if (size <= readUpTo) return false;
		const descriptor = openSync(file, 'r');
		try {
			const buffer = Buffer.alloc(size - readUpTo);
			readSync(descriptor, buffer, 0, buffer.length, readUpTo);
			readUpTo = size;
			const window = carry + buffer.toString('utf8');
			seen = window.includes(text);
			carry = window.slice(-text.length);
		} finally {
			closeSync(descriptor);
		}
		return seen;
	};
}

/**
 * Waits until the RSS of `pid` stays within `toleranceBytes` for `windowMs` (garbage collection after
 * the warm-up has settled), so that every measurement starts from a quiet baseline; gives up after `maxMs`.
 */
export async function waitForSteadyRss(
	pid: number,
	windowMs = 3_000,
	toleranceBytes = 1024 * 1024,
	maxMs = 30_000,
): Promise<void> {
	const deadline = Date.now() + maxMs;
	let windowStart = Date.now();
	let low = rssBytes(pid);
	let high = low;
	while (Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 100));
		const now = rssBytes(pid);
		low = Math.min(low, now);
		high = Math.max(high, now);
		if (high - low > toleranceBytes) {
			windowStart = Date.now();
			low = now;
			high = now;
		} else if (Date.now() - windowStart >= windowMs) {
			return;
		}
	}
}
