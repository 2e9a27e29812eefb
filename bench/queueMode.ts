/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling runs in plain Node, never inside n8n */
// The benchmarks in n8n's queue mode (PostgreSQL, Redis, n8n main serving the webhooks, one worker,
// binary data in the database: local-n8n/queue/workerTopology.ts; the sandbox behind HTTPS, as the
// service is reached), `npm run bench -- --queue`:
// - trigger throughput, ours vs n8n's Webhook node (the same benchmark as triggerThroughput.ts);
// - Extract of a 100 MB file read from disk into the database: the worker's peak RSS growth, ours vs
//   the HTTP Request node doing the same upload, and reading the file alone. The worker restarts
//   before every run (RSS does not shrink after a peak), then a warm-up with a 1 KB file and a
//   steady RSS; runs alternate ours / HTTP Request / read only.

import { join } from 'node:path';
import { readFileNode, sandboxCredential, startSandboxInProcess, stopAll } from '../local-n8n/index.ts';
import { startQueueTopology, type QueueWorkers } from '../local-n8n/queue/workerTopology.ts';
import type { BenchContext } from './context.ts';
import { behindHttps } from './httpsFront.ts';
import { activeWebhookWorkflow, extractNode, httpRequestUploadNode, progress } from './context.ts';
import { peakRssDuring, waitForSteadyRss } from './rss.ts';
import type { ResultRow } from './stats.ts';
import { median, MiB } from './stats.ts';
import { triggerThroughput } from './triggerThroughput.ts';
import { FILE_BYTES, writeBigPdf } from './uploadMemory.ts';

async function workerUploadMemory(context: BenchContext, topology: QueueWorkers, rounds: number): Promise<ResultRow[]> {
	const { stack, sandbox, enterprise } = context;
	const file = join(stack.n8n.fileAccessDirs[0], 'bench-queue-100mb.pdf');
	const warmUpFile = join(stack.n8n.fileAccessDirs[0], 'bench-queue-1kb.pdf');
	writeBigPdf(file, FILE_BYTES);
	writeBigPdf(warmUpFile, 1024);
	const read = readFileNode('Read file', '={{ $json.body.file }}');
	const workflows = {
		ours: await activeWebhookWorkflow(context, 'bench queue: upload (ours)', [read, extractNode(enterprise.credential)]),
		baseline: await activeWebhookWorkflow(context, 'bench queue: upload (HTTP Request)', [read, httpRequestUploadNode(sandbox.url, enterprise.apiKey)]),
		readOnly: await activeWebhookWorkflow(context, 'bench queue: upload (read only)', [read]),
	};
	const growth: Record<keyof typeof workflows, number[]> = { ours: [], baseline: [], readOnly: [] };
	for (let round = 1; round <= rounds; round++) {
		for (const which of ['ours', 'baseline', 'readOnly'] as const) {
			const workerPid = (await topology.restartWorker(0)).process.pid;
			const warmUp = await stack.client.callWebhook(workflows[which].path, { json: { file: warmUpFile } });
			if (warmUp.status !== 200) throw new Error(`the ${which} workflow answered ${warmUp.status} to the warm-up: ${warmUp.text}`);
			await waitForSteadyRss(workerPid);
			let status = 0;
			let text = '';
			const peak = await peakRssDuring(workerPid, async () => {
				({ status, text } = await stack.client.callWebhook(workflows[which].path, { json: { file }, timeoutMs: 600_000 }));
			});
			if (status !== 200) throw new Error(`the ${which} workflow answered ${status}: ${text.slice(0, 300)}`);
			growth[which].push(peak.growthBytes);
			context.progress(`queue upload memory, round ${round}/${rounds}, ${which}: worker RSS +${(peak.growthBytes / MiB).toFixed(1)} MiB`);
		}
	}
	const ours = median(growth.ours);
	const baseline = median(growth.baseline);
	const readOnly = median(growth.readOnly);
	const list = (values: number[]) => values.map((bytes) => (bytes / MiB).toFixed(1)).join(', ');
	return [
		{
			benchmark: 'queue mode: upload memory (100 MB, binary data in the database)',
			metric: 'worker peak RSS growth, MiB (median)',
			ours: ours / MiB,
			baseline: baseline / MiB,
			baselineName: 'HTTP Request',
			ratio: ours / baseline,
			target: 'ours <= HTTP Request',
			pass: ours <= baseline,
			notes: `rounds: ours ${list(growth.ours)}; HTTP Request ${list(growth.baseline)}; reading the file alone ${list(growth.readOnly)} MiB`,
		},
		{
			benchmark: 'queue mode: upload memory (100 MB, binary data in the database)',
			metric: 'growth beyond reading the file alone / file size',
			ours: Math.max(0, ours - readOnly) / FILE_BYTES,
			baseline: Math.max(0, baseline - readOnly) / FILE_BYTES,
			baselineName: 'HTTP Request',
			ratio: null,
			target: 'the upload itself adds little',
			pass: null,
			notes: `reading the 100 MB file into the database alone: +${(readOnly / MiB).toFixed(1)} MiB (median); n8n's database mode reads the whole row back into one buffer for the upload (N1)`,
		},
	];
}

/** Starts its own queue-mode topology and sandbox, measures, stops them (`throughput: false`: the upload only). */
export async function queueModeBenchmarks(rounds = 3, parts = { throughput: true }): Promise<ResultRow[]> {
	const topology = await startQueueTopology({ workers: 1 });
	const sandbox = await behindHttps(await startSandboxInProcess(topology.stack.tls, { reviewDelayMs: 600_000 }), topology.stack.tls);
	try {
		const context: BenchContext = {
			stack: topology.stack,
			sandbox,
			enterprise: await sandboxCredential(topology.stack.client, sandbox, 'enterprise', 'Bench queue (enterprise)'),
			pilot: await sandboxCredential(topology.stack.client, sandbox, 'pilot', 'Bench queue (pilot)'),
			progress,
		};
		const throughput = (parts.throughput ? await triggerThroughput(context) : []).map((row) => ({ ...row, benchmark: `queue mode (main serves webhooks, 1 worker): ${row.benchmark}` }));
		return [...throughput, ...(await workerUploadMemory(context, topology, rounds))];
	} finally {
		await sandbox.close();
		await topology.stop();
		await stopAll();
	}
}
