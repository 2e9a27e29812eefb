/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling runs in plain Node, never inside n8n */
// Benchmark 1: n8n's peak RSS growth while extracting a 100 MB file read from disk (filesystem binary
// mode), our node vs n8n's HTTP Request node doing the same multipart upload. n8n restarts before
// every measurement so each starts from the same memory state, and the same workflow first runs once
// with a 1 KB file (unmeasured) so that loading code is not counted as memory for the file, then the
// measurement waits for n8n's RSS to hold steady; 5 rounds (single rounds spread over 7-27 MiB here); runs
// alternate ours/baseline. Ours also extracts a 50 MB file, so the table shows whether the growth
// scales with the file or levels off.

import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readFileNode } from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { activeWebhookWorkflow, extractNode, httpRequestUploadNode } from './context.ts';
import { peakRssDuring, waitForSteadyRss } from './rss.ts';
import type { ResultRow } from './stats.ts';
import { median, MiB } from './stats.ts';

export const FILE_BYTES = 100_000_000;
/** A second, half-size file: the difference tells how the growth scales with the file (the marginal cost). */
export const HALF_FILE_BYTES = 50_000_000;

/** A PDF-looking file of `bytes` bytes (the sandbox accepts it; the content is not held anywhere here). */
export function writeBigPdf(path: string, bytes: number): void {
	const fd = openSync(path, 'w');
	try {
		const header = Buffer.from('%PDF-1.7\n');
		writeSync(fd, header);
		const chunk = Buffer.alloc(MiB, 0x41);
		let written = header.length;
		while (written < bytes) {
			const size = Math.min(chunk.length, bytes - written);
			writeSync(fd, chunk, 0, size);
			written += size;
		}
	} finally {
		closeSync(fd);
	}
}

const spread = (values: number[]): number => Math.max(...values) - Math.min(...values);

export async function uploadMemory(context: BenchContext, rounds = 5): Promise<ResultRow[]> {
	const { stack, sandbox, enterprise } = context;
	const file = join(stack.n8n.fileAccessDirs[0], 'bench-100mb.pdf');
	const halfFile = join(stack.n8n.fileAccessDirs[0], 'bench-50mb.pdf');
	const warmUpFile = join(stack.n8n.fileAccessDirs[0], 'bench-1kb.pdf');
	writeBigPdf(file, FILE_BYTES);
	writeBigPdf(halfFile, HALF_FILE_BYTES);
	writeBigPdf(warmUpFile, 1024);
	const readRequestedFile = readFileNode('Read file', '={{ $json.body.file }}');
	const ours = await activeWebhookWorkflow(context, 'bench: upload (ours)', [
		readRequestedFile,
		extractNode(enterprise.credential),
	]);
	const baseline = await activeWebhookWorkflow(context, 'bench: upload (HTTP Request)', [
		readRequestedFile,
		httpRequestUploadNode(sandbox.url, enterprise.apiKey),
	]);
	// Reading the file alone: what both workflows spend before any upload.
	const readOnly = await activeWebhookWorkflow(context, 'bench: upload (read only)', [
		readRequestedFile,
	]);

	const growth: Record<'ours' | 'baseline' | 'readOnly' | 'oursHalf', number[]> = {
		ours: [],
		baseline: [],
		readOnly: [],
		oursHalf: [],
	};
	for (let round = 1; round <= rounds; round++) {
		for (const [which, workflow] of [
			['ours', ours],
			['baseline', baseline],
			['readOnly', readOnly],
			['oursHalf', ours],
		] as const) {
			await stack.restartN8n();
			await stack.client.waitForWebhook(workflow.path);
			const warmUp = await stack.client.callWebhook(workflow.path, { json: { file: warmUpFile } });
			if (warmUp.status !== 200)
				throw new Error(`the ${which} upload workflow answered ${warmUp.status} to the warm-up`);
			const pid = stack.n8n.pid();
			if (!pid) throw new Error('n8n has no process id');
			await waitForSteadyRss(pid);
			let status = 0;
			const peak = await peakRssDuring(pid, async () => {
				const requested = which === 'oursHalf' ? halfFile : file;
				status = (
					await stack.client.callWebhook(workflow.path, {
						json: { file: requested },
						timeoutMs: 600_000,
					})
				).status;
			});
			if (status !== 200) throw new Error(`the ${which} upload workflow answered ${status}`);
			growth[which].push(peak.growthBytes);
			context.progress(
				`upload memory, round ${round}/${rounds}, ${which}: RSS +${(peak.growthBytes / MiB).toFixed(1)} MiB (${peak.exact ? "the kernel's peak" : `${peak.samples} samples`})`,
			);
		}
	}
	const oursMedian = median(growth.ours);
	const baselineMedian = median(growth.baseline);
	const ofFile = oursMedian / FILE_BYTES;
	const oursHalfMedian = median(growth.oursHalf);
	return [
		{
			benchmark: 'upload memory (100 MB file)',
			metric: 'n8n peak RSS growth, MiB (median)',
			ours: oursMedian / MiB,
			baseline: baselineMedian / MiB,
			baselineName: 'HTTP Request',
			ratio: oursMedian / baselineMedian,
			target: 'ours <= HTTP Request',
			pass: oursMedian <= baselineMedian,
			notes: `rounds: ours ${growth.ours.map((b) => (b / MiB).toFixed(1)).join(', ')}; HTTP Request ${growth.baseline.map((b) => (b / MiB).toFixed(1)).join(', ')}; reading the file alone (no upload) ${growth.readOnly.map((b) => (b / MiB).toFixed(1)).join(', ')} MiB; medians differ by ${((oursMedian - baselineMedian) / MiB).toFixed(1)} MiB where rounds spread over ${(spread(growth.ours) / MiB).toFixed(1)} MiB (ours) and ${(spread(growth.baseline) / MiB).toFixed(1)} MiB (HTTP Request)`,
		},
		{
			benchmark: 'upload memory (100 MB file)',
			metric: 'peak RSS growth / file size',
			ours: ofFile,
			baseline: baselineMedian / FILE_BYTES,
			baselineName: 'HTTP Request',
			ratio: ofFile,
			target: '<= 0.25 x file size',
			pass: ofFile <= 0.25,
		},
		{
			benchmark: 'upload memory (100 MB file)',
			metric: 'growth beyond reading the file alone / file size',
			ours: Math.max(0, oursMedian - median(growth.readOnly)) / FILE_BYTES,
			baseline: Math.max(0, baselineMedian - median(growth.readOnly)) / FILE_BYTES,
			baselineName: 'HTTP Request',
			ratio: null,
			target: 'the upload itself adds little',
			pass: null,
			notes: `reading the 100 MB file into n8n's binary storage alone: +${(median(growth.readOnly) / MiB).toFixed(1)} MiB (median)`,
		},
		{
			benchmark: 'upload memory (50 MB vs 100 MB file)',
			metric: 'extra growth per extra byte of file (ours)',
			ours: (oursMedian - oursHalfMedian) / (FILE_BYTES - HALF_FILE_BYTES),
			baseline: '—',
			baselineName: 'n/a',
			ratio: null,
			target: 'well below 1: memory does not follow the file',
			pass: null,
			notes: `ours with the 50 MB file: ${growth.oursHalf.map((b) => (b / MiB).toFixed(1)).join(', ')} MiB (median ${(oursHalfMedian / MiB).toFixed(1)}); with the 100 MB file: median ${(oursMedian / MiB).toFixed(1)} MiB`,
		},
	];
}
