/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// Benchmark 2: N documents against the Pilot tier's 10 requests per "minute" (the sandbox's minute
// shortened), our node vs n8n's HTTP Request node with default settings. Throughput is reported as a
// fraction of what the rate limit allows: the shortest possible run lasts (ceil(N / limit) - 1)
// windows (each batch of `limit` requests can start no earlier than its window), so
// fraction = that duration / the measured duration (1.0 = as fast as the limit allows).

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFileNode, REPO_ROOT, sandboxControl } from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { activeWebhookWorkflow, extractNode, httpRequestUploadNode } from './context.ts';
import type { ResultRow } from './stats.ts';
import { median } from './stats.ts';

const LIMIT = 10; // Pilot: requests per minute (spec, Limits)

interface State {
	documents: unknown[];
}

/** The run: 30 documents, the sandbox's minute shortened to a 15 s window, 2 rounds. */
const RUN = { documents: 30, windowMs: 15_000, rounds: 2 };

export async function rateLimitedBatch(context: BenchContext): Promise<ResultRow[]> {
	const { documents, windowMs, rounds } = RUN;
	const { stack, sandbox, pilot } = context;
	await sandboxControl(sandbox.url, 'config', { minuteMs: windowMs });
	const folder = stack.n8n.fileAccessDirs[0];
	for (let index = 0; index < documents; index++)
		copyFileSync(
			join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'),
			join(folder, `batch-${String(index).padStart(3, '0')}.json`),
		);
	const glob = join(folder, 'batch-*.json');
	const ours = await activeWebhookWorkflow(context, 'bench: batch (ours)', [
		readFileNode('Read files', glob),
		extractNode(pilot.credential, { options: { rateLimitRetries: 10 } }),
	]);
	const baseline = await activeWebhookWorkflow(context, 'bench: batch (HTTP Request)', [
		readFileNode('Read files', glob),
		httpRequestUploadNode(sandbox.url, pilot.apiKey),
	]);
	const idealMs = (Math.ceil(documents / LIMIT) - 1) * windowMs;
	const freshWindow = async () =>
		await new Promise((resolve) => setTimeout(resolve, windowMs + 1_000));

	const run = async (workflow: { id: string; path: string }) => {
		await freshWindow();
		const createdBefore = (await sandboxControl<State>(sandbox.url, 'state')).documents.length;
		const started = Date.now();
		const answer = await stack.client.callWebhook(workflow.path, { json: {}, timeoutMs: 600_000 });
		const elapsedMs = Date.now() - started;
		const items = Array.isArray(answer.json) ? (answer.json as Array<Record<string, unknown>>) : [];
		const succeeded = items.filter((item) => typeof item.document_id === 'string').length;
		const created =
			(await sandboxControl<State>(sandbox.url, 'state')).documents.length - createdBefore;
		return { elapsedMs, succeeded, failed: documents - succeeded, created, status: answer.status };
	};

	const oursRuns = [];
	for (let round = 1; round <= rounds; round++) {
		const result = await run(ours);
		oursRuns.push(result);
		context.progress(
			`batch, round ${round}/${rounds}, ours: ${result.succeeded}/${documents} in ${(result.elapsedMs / 1000).toFixed(1)} s (limit allows ${(idealMs / 1000).toFixed(0)} s)`,
		);
	}
	const baselineRun = await run(baseline);
	context.progress(
		`batch, HTTP Request (defaults): ${baselineRun.succeeded}/${documents} items out, ${baselineRun.created} documents created at the service, answer ${baselineRun.status}`,
	);
	await sandboxControl(sandbox.url, 'config', { minuteMs: 60_000 });

	const oursFraction = idealMs / median(oursRuns.map((result) => result.elapsedMs));
	const oursFailed = Math.max(...oursRuns.map((result) => result.failed));
	const baselineFraction = baselineRun.failed > 0 ? 0 : idealMs / baselineRun.elapsedMs;
	return [
		{
			benchmark: `batch under a rate limit (${documents} docs, Pilot ${LIMIT}/window of ${windowMs / 1000} s)`,
			metric: 'throughput / rate-limit bound (median)',
			ours: oursFraction,
			baseline: baselineFraction,
			baselineName: 'HTTP Request, defaults',
			ratio: oursFraction,
			target: '>= 0.95 of the bound',
			pass: oursFraction >= 0.95,
			notes: `ours: ${oursRuns.map((result) => `${(result.elapsedMs / 1000).toFixed(1)} s`).join(', ')}; shortest possible ${(idealMs / 1000).toFixed(0)} s`,
		},
		{
			benchmark: `batch under a rate limit (${documents} docs, Pilot ${LIMIT}/window of ${windowMs / 1000} s)`,
			metric: 'failed items',
			ours: oursFailed,
			baseline: baselineRun.failed,
			baselineName: 'HTTP Request, defaults',
			ratio: null,
			target: '0 failed items',
			pass: oursFailed === 0,
			notes: `HTTP Request stopped at the first 429; ${baselineRun.created} documents were created at the service but none reached the workflow's output`,
		},
	];
}
