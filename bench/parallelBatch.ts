/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// Benchmark: month-end at the tier's speed (docs/spec-decisions.md#n43). A batch of invoices read
// from disk, each extraction taking 1–3 s in the sandbox, through one Extract node with its defaults
// (Parallel Uploads: the tier's) vs n8n's HTTP Request node doing the same upload, with its defaults
// (every item at once) and with its batching set to the tier's rate. Each is compared with the
// shortest run the tier allows: for a limit of L per minute, C uploads in flight and mean latency T,
// (ceil(N / L) - 1) minutes for the full windows, then the rest at C / T per second. The sandbox's
// minute is a real minute here. Also n8n's peak RSS while 20 files of 20 MB go through Extract on
// Growth, several in flight vs one at a time.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFileNode, REPO_ROOT, sandboxControl } from '../local-n8n/index.ts';
import type { SandboxCredential } from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { activeWebhookWorkflow, extractNode, httpRequestUploadNode } from './context.ts';
import { peakRssDuring, waitForSteadyRss } from './rss.ts';
import type { ResultRow } from './stats.ts';
import { MiB } from './stats.ts';
import { writeBigPdf } from './uploadMemory.ts';

const LATENCY_MIN_MS = 1_000;
const LATENCY_MAX_MS = 3_000;
const MEAN_LATENCY_MS = (LATENCY_MIN_MS + LATENCY_MAX_MS) / 2;

interface Tier {
	name: 'Growth' | 'Enterprise';
	credential: SandboxCredential;
	perMinute: number | null;
	parallel: number;
}

interface Run {
	elapsedMs: number;
	succeeded: number;
	failed: number;
	created: number;
	status: number;
}

/** The shortest run for `documents` at `perMinute` with `parallel` in flight at the mean latency. */
export function boundMs(documents: number, perMinute: number | null, parallel: number): number {
	const fullWindows = perMinute === null ? 0 : Math.ceil(documents / perMinute) - 1;
	const rest = documents - fullWindows * (perMinute ?? 0);
	return fullWindows * 60_000 + (rest * MEAN_LATENCY_MS) / parallel;
}

export async function parallelBatch(context: BenchContext, documents = 200): Promise<ResultRow[]> {
	const { stack, sandbox } = context;
	const folder = stack.n8n.fileAccessDirs[0];
	for (let index = 0; index < documents; index++)
		copyFileSync(
			join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'),
			join(folder, `month-end-${String(index).padStart(3, '0')}.json`),
		);
	const glob = join(folder, 'month-end-*.json');
	await sandboxControl(sandbox.url, 'config', {
		minuteMs: 60_000,
		extractLatencyMinMs: LATENCY_MIN_MS,
		extractLatencyMaxMs: LATENCY_MAX_MS,
	});
	const tiers: Tier[] = [
		{ name: 'Growth', credential: context.growth, perMinute: 100, parallel: 8 },
		{ name: 'Enterprise', credential: context.enterprise, perMinute: null, parallel: 16 },
	];
	const rows: ResultRow[] = [];
	try {
		for (const tier of tiers) rows.push(...(await tierRows(context, tier, glob, documents)));
		rows.push(...(await memoryRows(context)));
	} finally {
		await sandboxControl(sandbox.url, 'config', { extractLatencyMinMs: 0, extractLatencyMaxMs: 0 });
	}
	return rows;
}

async function tierRows(
	context: BenchContext,
	tier: Tier,
	glob: string,
	documents: number,
): Promise<ResultRow[]> {
	const { sandbox } = context;
	const read = readFileNode('Read files', glob);
	const ours = await activeWebhookWorkflow(context, `bench: month-end ${tier.name} (ours)`, [
		read,
		extractNode(tier.credential.credential),
	]);
	const plain = await activeWebhookWorkflow(
		context,
		`bench: month-end ${tier.name} (HTTP Request)`,
		[read, httpRequestUploadNode(sandbox.url, tier.credential.apiKey)],
	);
	const runs: Array<{ name: string; run: Run }> = [
		{ name: 'ours', run: await timedRun(context, ours, documents) },
		{ name: 'HTTP Request, defaults', run: await timedRun(context, plain, documents) },
	];
	if (tier.perMinute !== null) {
		// The tier's rate as HTTP Request's batching: a tenth of a minute's requests every 6 s.
		const batched = await activeWebhookWorkflow(
			context,
			`bench: month-end ${tier.name} (HTTP Request, batched)`,
			[
				read,
				httpRequestUploadNode(sandbox.url, tier.credential.apiKey, {
					batching: { batch: { batchSize: tier.perMinute / 10, batchInterval: 6_000 } },
				}),
			],
		);
		runs.push({
			name: 'HTTP Request, batching at the rate',
			run: await timedRun(context, batched, documents),
		});
	}
	const bound = boundMs(documents, tier.perMinute, tier.parallel);
	const fraction = (run: Run) => (run.failed > 0 ? 0 : bound / run.elapsedMs);
	const [oursRun, ...others] = runs;
	for (const { name, run } of runs)
		context.progress(
			`month-end ${tier.name}, ${name}: ${run.succeeded}/${documents} out in ${(run.elapsedMs / 1000).toFixed(1)} s, ${run.created} documents created, answer ${run.status} (bound ${(bound / 1000).toFixed(1)} s)`,
		);
	const label = `month-end batch (${documents} docs, ${tier.name}${tier.perMinute ? ` ${tier.perMinute}/min` : ''}, ${LATENCY_MIN_MS / 1000}–${LATENCY_MAX_MS / 1000} s per extraction)`;
	return others.flatMap(({ name, run }) => [
		{
			benchmark: label,
			metric: `throughput / bound (${tier.parallel} in flight)`,
			ours: fraction(oursRun.run),
			baseline: fraction(run),
			baselineName: name,
			ratio: fraction(oursRun.run),
			target: '>= 0.9 of the bound',
			pass: fraction(oursRun.run) >= 0.9,
			notes: `ours ${(oursRun.run.elapsedMs / 1000).toFixed(1)} s, ${name} ${(run.elapsedMs / 1000).toFixed(1)} s (${run.status}); bound ${(bound / 1000).toFixed(1)} s`,
		},
		{
			benchmark: label,
			metric: 'failed items',
			ours: oursRun.run.failed,
			baseline: run.failed,
			baselineName: name,
			ratio: null,
			target: '0 failed items',
			pass: oursRun.run.failed === 0,
			notes: `${name}: ${run.created} documents created at the service, ${run.succeeded} items out`,
		},
	]);
}

async function timedRun(
	context: BenchContext,
	workflow: { id: string; path: string },
	documents: number,
): Promise<Run> {
	const { stack, sandbox } = context;
	// A fresh rate-limit window for every run.
	await new Promise((resolve) => setTimeout(resolve, 61_000));
	const createdBefore = (await sandboxControl<{ documents: unknown[] }>(sandbox.url, 'state'))
		.documents.length;
	const started = Date.now();
	const answer = await stack.client.callWebhook(workflow.path, { json: {}, timeoutMs: 900_000 });
	const elapsedMs = Date.now() - started;
	const items = Array.isArray(answer.json) ? (answer.json as Array<Record<string, unknown>>) : [];
	const succeeded = items.filter((item) => typeof item.document_id === 'string').length;
	const created =
		(await sandboxControl<{ documents: unknown[] }>(sandbox.url, 'state')).documents.length -
		createdBefore;
	return { elapsedMs, succeeded, failed: documents - succeeded, created, status: answer.status };
}

/** Peak RSS of n8n while 20 files of 20 MB go through Extract on Growth: in parallel vs one at a time. */
async function memoryRows(context: BenchContext): Promise<ResultRow[]> {
	const { stack } = context;
	const folder = stack.n8n.fileAccessDirs[0];
	const files = 20;
	const fileBytes = 20 * MiB;
	for (let index = 0; index < files; index++)
		writeBigPdf(join(folder, `large-${String(index).padStart(2, '0')}.pdf`), fileBytes);
	const read = readFileNode('Read files', join(folder, 'large-*.pdf'));
	const peak = async (parallelUploads: number) => {
		const workflow = await activeWebhookWorkflow(
			context,
			`bench: 20 × 20 MB, ${parallelUploads} at a time`,
			[read, extractNode(context.growth.credential, { options: { parallelUploads } })],
		);
		await stack.restartN8n();
		const pid = stack.n8n.pid();
		if (!pid) throw new Error('n8n has no process id');
		await waitForSteadyRss(pid);
		let answer = { status: 0 };
		const measured = await peakRssDuring(pid, async () => {
			answer = await stack.client.callWebhook(workflow.path, { json: {}, timeoutMs: 900_000 });
		});
		if (answer.status !== 200) throw new Error(`the 20 × 20 MB run answered ${answer.status}`);
		return measured;
	};
	await sandboxControl(context.sandbox.url, 'config', {
		extractLatencyMinMs: 0,
		extractLatencyMaxMs: 0,
	});
	const one = await peak(1);
	const eight = await peak(8);
	context.progress(
		`20 × 20 MB on Growth: peak RSS growth ${(eight.growthBytes / MiB).toFixed(0)} MiB with 8 in flight, ${(one.growthBytes / MiB).toFixed(0)} MiB one at a time`,
	);
	return [
		{
			benchmark: '20 files of 20 MB on Growth (filesystem binary mode)',
			metric: 'n8n peak RSS growth, MiB',
			ours: eight.growthBytes / MiB,
			baseline: one.growthBytes / MiB,
			baselineName: 'ours, one at a time',
			ratio: eight.growthBytes / Math.max(one.growthBytes, 1),
			target: 'at most 64 MiB + one file above one at a time',
			pass: eight.growthBytes <= one.growthBytes + 64 * MiB + fileBytes,
			notes: `8 in flight would be 160 MiB of files; the run holds at most 64 MiB (${eight.exact ? "kernel's peak" : 'sampled'})`,
		},
	];
}
