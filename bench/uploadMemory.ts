/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling runs in plain Node, never inside n8n */
// Benchmark 1: n8n's peak RSS growth while extracting a 100 MB file read from disk (filesystem binary
// mode), our node vs n8n's HTTP Request node doing the same multipart upload. n8n restarts before
// every measurement so each starts from the same memory state, and the same workflow first runs once
// with a 1 KB file (unmeasured) so that loading code is not counted as memory for the file, then the
// measurement waits for n8n's RSS to hold steady; 5 rounds (single rounds spread over 7-27 MiB here); runs
// alternate ours/baseline. Ours also extracts a 50 MB file, so the table shows whether the growth
// scales with the file or levels off.
// Then a batch (uploadBatchMemory): Enterprise's largest files among ordinary invoices, in whichever
// binary mode n8n runs (`--binary-mode`), with its default Parallel Uploads vs one at a time: what
// the run holds beside one file alone, against the bound docs/memory.md states.

import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeSpec, RunningSandbox } from '../local-n8n/index.ts';
import { readFileNode, sandboxControl, sandboxCredential } from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { activeWebhookWorkflow, extractNode, httpRequestUploadNode } from './context.ts';
import { behindHttps } from './httpsFront.ts';
import { logSays, peakRssDuring, waitForSteadyRss } from './rss.ts';
import type { ResultRow } from './stats.ts';
import { median, MiB } from './stats.ts';

export const FILE_BYTES = 100_000_000;
/** A second, half-size file: the difference tells how the growth scales with the file (the marginal cost). */
export const HALF_FILE_BYTES = 50_000_000;

/**
 * A PDF-looking file of `bytes` bytes (the sandbox accepts it; the content is not held anywhere here).
 * Files of one size are the same file unless each has its own `mark`: Skip Files Already Submitted
 * would upload one of them.
 */
export function writeBigPdf(path: string, bytes: number, mark = ''): void {
	const fd = openSync(path, 'w');
	try {
		const header = Buffer.from(`%PDF-1.7\n${mark ? `%${mark}\n` : ''}`);
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
	return [
		...(await singleFileMemory(context, rounds)),
		...(await uploadBatchMemory(context, rounds)),
	];
}

async function singleFileMemory(context: BenchContext, rounds: number): Promise<ResultRow[]> {
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

/** The batch: Enterprise's largest files (100 MiB is its limit) among ordinary invoices. */
const BATCH = { largeFiles: 3, largeBytes: FILE_BYTES, smallFiles: 40, smallBytes: 300_000 };
/** What a run's files may hold at once (MAX_BYTES_IN_FLIGHT in parallelUploads.ts). */
const BUDGET_BYTES = 64 * MiB;

/**
 * n8n's peak RSS growth while Extract (Enterprise, Skip Files Already Submitted: each file opened to
 * hash it, then to send it) takes the batch with its default Parallel Uploads and one at a time, n8n
 * restarted before each run, alternating which goes first. Measured from Extract's first log line,
 * after a quiet 15 s: reading the files into n8n's binary storage is n8n's, not the node's.
 */
async function uploadBatchMemory(context: BenchContext, rounds: number): Promise<ResultRow[]> {
	// Over TLS, as the service is reached: the encrypted bytes of a write wait in memory (httpsFront.ts).
	const front = context.sandbox.url.startsWith('https:')
		? undefined
		: await behindHttps(
				{ ...(context.sandbox as RunningSandbox), close: async () => {} },
				context.stack.tls,
			);
	// The service extracts during the upload, 1–3 s as in the month-end batch: a file that goes alone
	// holds the others back for that long.
	await sandboxControl(context.sandbox.url, 'config', {
		extractLatencyMinMs: 1_000,
		extractLatencyMaxMs: 3_000,
	});
	try {
		return await batchRows(context, rounds, front);
	} finally {
		await sandboxControl(context.sandbox.url, 'config', {
			extractLatencyMinMs: 0,
			extractLatencyMaxMs: 0,
		});
		await front?.close();
	}
}

async function batchRows(
	context: BenchContext,
	rounds: number,
	front: RunningSandbox | undefined,
): Promise<ResultRow[]> {
	const { stack } = context;
	const enterprise = front
		? await sandboxCredential(stack.client, front, 'enterprise', 'Bench batch (enterprise, HTTPS)')
		: context.enterprise;
	const folder = stack.n8n.fileAccessDirs[0];
	// Each file its own content, so that every one is hashed and uploaded.
	for (let index = 0; index < BATCH.largeFiles; index++)
		writeBigPdf(join(folder, `batch-large-${index}.pdf`), BATCH.largeBytes, `large ${index}`);
	for (let index = 0; index < BATCH.smallFiles; index++) {
		const name = `batch-small-${String(index).padStart(2, '0')}`;
		writeBigPdf(join(folder, `${name}.pdf`), BATCH.smallBytes, name);
	}
	const read = readFileNode('Read files', join(folder, 'batch-*.pdf'));
	const settle: NodeSpec = {
		name: 'Settle',
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		parameters: { resume: 'timeInterval', amount: 15, unit: 'seconds' },
	};
	const contenders = {
		defaults: extractNode(enterprise.credential, { options: { skipDuplicates: true } }),
		oneAtATime: extractNode(enterprise.credential, {
			options: { skipDuplicates: true, parallelUploads: 1 },
		}),
	};
	const runs: Record<keyof typeof contenders, Array<{ growth: number; extractMs: number }>> = {
		defaults: [],
		oneAtATime: [],
	};
	let mode = 'unknown';
	let created = 0;
	const files = BATCH.largeFiles + BATCH.smallFiles;
	for (let round = 1; round <= rounds; round++) {
		const order = (
			round % 2 === 1 ? ['defaults', 'oneAtATime'] : ['oneAtATime', 'defaults']
		) as Array<keyof typeof contenders>;
		for (const which of order) {
			const extract = contenders[which];
			// A new workflow per run: its memory of files submitted starts empty.
			const workflow = await activeWebhookWorkflow(
				context,
				`bench: upload batch, ${which} (${++created})`,
				[read, settle, extract],
			);
			await stack.restartN8n();
			await stack.client.waitForWebhook(workflow.path);
			const pid = stack.n8n.pid();
			if (!pid) throw new Error('n8n has no process id');
			await waitForSteadyRss(pid);
			let status = 0;
			const peak = await peakRssDuring(
				pid,
				async () => {
					status = (await stack.client.callWebhook(workflow.path, { json: {}, timeoutMs: 900_000 }))
						.status;
				},
				{ from: logSays(stack.n8n.logFile, 'files to extract, up to') },
			);
			if (status !== 200) throw new Error(`the upload batch (${which}) answered ${status}`);
			const [execution] = await stack.client.waitForExecutions(workflow.id, 1);
			const runData = execution?.data.resultData.runData as
				| Record<string, Array<{ executionTime?: number; data?: unknown }>>
				| undefined;
			const outputs = runData?.[String(extract.name)]?.[0];
			const items =
				(
					outputs?.data as { main?: Array<Array<{ json: { status?: unknown } }>> } | undefined
				)?.main?.flat() ?? [];
			const uploaded = items.filter((item) => item.json.status !== 'already_submitted').length;
			if (items.length !== files || uploaded !== files)
				throw new Error(
					`the upload batch (${which}) output ${items.length} items, ${uploaded} uploaded, not ${files}`,
				);
			const readItem = (runData?.['Read files']?.[0]?.data as { main?: unknown[][] } | undefined)
				?.main?.[0]?.[0] as { binary?: { data?: { id?: string } } } | undefined;
			mode = readItem?.binary?.data?.id?.split(':')[0].replace(/-v\d+$/, '') ?? mode;
			runs[which].push({ growth: peak.growthBytes, extractMs: outputs?.executionTime ?? NaN });
			context.progress(
				`upload batch, round ${round}/${rounds}, ${which} (${mode}): RSS +${(peak.growthBytes / MiB).toFixed(1)} MiB (${peak.exact ? "the kernel's peak" : `${peak.samples} samples`}), Extract ${((outputs?.executionTime ?? NaN) / 1000).toFixed(1)} s`,
			);
		}
	}
	const growth = (which: keyof typeof contenders) => median(runs[which].map((run) => run.growth));
	const seconds = (which: keyof typeof contenders) =>
		median(runs[which].map((run) => run.extractMs)) / 1000;
	const list = (
		which: keyof typeof contenders,
		of: (run: { growth: number; extractMs: number }) => string,
	) => runs[which].map(of).join(', ');
	// A file read whole (database) costs twice its size, a streamed one at most 512 KiB: upload.ts.
	const readWhole = mode === 'database' || mode === 'unknown';
	const largestCost = readWhole ? 2 * BATCH.largeBytes : 512 * 1024;
	const bound = Math.max(BUDGET_BYTES, largestCost);
	const benchmark = `upload batch (${BATCH.largeFiles} × 100 MB + ${BATCH.smallFiles} × 300 KB over HTTPS, 1–3 s each, Enterprise, Skip Files Already Submitted, ${mode} binary mode)`;
	return [
		{
			benchmark,
			metric: 'n8n peak RSS growth in Extract, MiB (median)',
			ours: growth('defaults') / MiB,
			baseline: growth('oneAtATime') / MiB,
			baselineName: 'ours, one at a time',
			ratio: growth('defaults') / Math.max(growth('oneAtATime'), 1),
			target: 'at most 64 MiB above one at a time',
			pass: growth('defaults') <= growth('oneAtATime') + BUDGET_BYTES,
			notes: `rounds: defaults ${list('defaults', (run) => (run.growth / MiB).toFixed(1))}; one at a time ${list('oneAtATime', (run) => (run.growth / MiB).toFixed(1))} MiB; the stated bound of the files held at once: max(64 MiB, the largest file's cost) = ${(bound / MiB).toFixed(0)} MiB`,
		},
		{
			benchmark,
			metric: "Extract's own time, s (median)",
			ours: seconds('defaults'),
			baseline: seconds('oneAtATime'),
			baselineName: 'ours, one at a time',
			ratio: seconds('defaults') / seconds('oneAtATime'),
			target: 'info',
			pass: null,
			notes: `rounds: defaults ${list('defaults', (run) => (run.extractMs / 1000).toFixed(1))}; one at a time ${list('oneAtATime', (run) => (run.extractMs / 1000).toFixed(1))} s`,
		},
	];
}
