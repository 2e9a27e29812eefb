/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// Benchmark: month-end at the tier's speed (docs/spec-decisions.md#n44). A batch of distinct invoices
// read from disk, each extraction taking 1–3 s in the sandbox, through one Extract node with its
// defaults (Parallel Uploads: the tier's), through the same node with the safe settings on (Skip
// Files Already Submitted and Detect Same Invoice), and through n8n's HTTP Request node doing the
// same upload, with its defaults (every item at once) and, on Growth, with its batching set to the
// tier's rate. Each is compared with the shortest run the tier allows (boundMs). The sandbox's
// minute is a real minute here. Also n8n's peak RSS while 20 files of 20 MB go through Extract,
// several in flight (Growth's 8; Enterprise's default, held to the run's 64 MiB of files in flight)
// vs one at a time.

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
	artifactsDir,
	readFileNode,
	REPO_ROOT,
	sandboxControl,
	timestampForFiles,
} from '../local-n8n/index.ts';
import type { NodeSpec, SandboxCredential } from '../local-n8n/index.ts';
import type { TIER_LIMITS } from '../nodes/DocumentExtraction/tierLimits.ts';
import type { BenchContext } from './context.ts';
import type { CpuProfile } from './cpuProfile.ts';
import { readProfile, summarize } from './cpuProfile.ts';
import { activeWebhookWorkflow, extractNode, httpRequestUploadNode } from './context.ts';
import { logSays, peakRssDuring, waitForSteadyRss } from './rss.ts';
import type { ResultRow } from './stats.ts';
import { median, MiB } from './stats.ts';
import { writeBigPdf } from './uploadMemory.ts';

const LATENCY_MIN_MS = 1_000;
const LATENCY_MAX_MS = 3_000;
const MEAN_LATENCY_MS = (LATENCY_MIN_MS + LATENCY_MAX_MS) / 2;
/** Enterprise runs take seconds and wait for no rate window: its figures are medians of these rounds. */
const ENTERPRISE_ROUNDS = 9;
/** What an accounts-payable team turns on so that nothing is extracted or paid twice. */
const SAFE_OPTIONS = { skipDuplicates: true, detectSameInvoice: true };
const SAFE_NAME = 'Skip Files Already Submitted + Detect Same Invoice on';

interface Tier {
	name: 'Growth' | 'Enterprise';
	credential: SandboxCredential;
	perMinute: number | null;
	/** Extract's default Parallel Uploads in the package measured. */
	parallel: number;
}

interface Run {
	elapsedMs: number;
	/** Items on Extract's first output (Verified) or HTTP Request's output with a document_id. */
	succeeded: number;
	failed: number;
	created: number;
	status: number;
	/** The upload node's own time in n8n's execution data (executionTime), ms. */
	nodeMs: number | null;
	/** The run's window on the monotonic clock V8's profiles use, µs. */
	window: { from: number; to: number };
}

/** A way of sending the batch; `workflow` is called once per run (a new workflow: Skip Files Already Submitted remembers per workflow). */
interface Contender {
	name: string;
	/** The node that uploads: its time is read from the execution. */
	node: string;
	workflow: () => Promise<{ id: string; path: string }>;
}

/**
 * The shortest run for `documents` at `perMinute` with `parallel` in flight: the full windows of the
 * rate, then the rest at `parallel` / mean latency per second, or, when the rest is all in flight at
 * once, the slowest of its latencies (their expected maximum).
 */
export function boundMs(documents: number, perMinute: number | null, parallel: number): number {
	const fullWindows = perMinute === null ? 0 : Math.ceil(documents / perMinute) - 1;
	const rest = documents - fullWindows * (perMinute ?? 0);
	const restMs =
		parallel >= rest
			? LATENCY_MIN_MS + ((LATENCY_MAX_MS - LATENCY_MIN_MS) * rest) / (rest + 1)
			: (rest * MEAN_LATENCY_MS) / parallel;
	return fullWindows * 60_000 + restMs;
}

/**
 * Extract's tier limits as built into the package measured (`dist`, what n8n loaded): this
 * repository's, or with `--package-dir` that package's (another commit measured by this benchmark).
 */
function tierLimitsOf(packageDir = REPO_ROOT): typeof TIER_LIMITS {
	const built = createRequire(import.meta.url)(
		join(packageDir, 'dist', 'nodes', 'DocumentExtraction', 'tierLimits.js'),
	) as { TIER_LIMITS: typeof TIER_LIMITS };
	return built.TIER_LIMITS;
}

/**
 * `documents` JSON invoices, each its own file and its own invoice (vendor, number and total differ),
 * so that neither Skip Files Already Submitted nor Detect Same Invoice holds one back.
 */
function writeDistinctInvoices(folder: string, documents: number): string {
	for (let index = 0; index < documents; index++) {
		const number = String(index + 1).padStart(3, '0');
		const subtotal = 100 + index * 7.25;
		const tax = Math.round(subtotal * 19) / 100;
		const invoice = {
			header: {
				vendor: `Month-End Supplier ${number} GmbH`,
				date: '2026-10-31',
				invoice_no: `ME-2026-${number}`,
			},
			amounts: { subtotal, tax, total: Math.round((subtotal + tax) * 100) / 100 },
			line_items: [
				{ description: 'Services, October', quantity: 1, unit_price: subtotal, amount: subtotal },
			],
			confidence: 0.98,
		};
		writeFileSync(join(folder, `month-end-${number}.json`), `${JSON.stringify(invoice)}\n`);
	}
	return join(folder, 'month-end-*.json');
}

/** Which parts run (`--month-end-parts=enterprise,growth,memory`, default all). */
export type MonthEndPart = 'enterprise' | 'growth' | 'memory';

export interface MonthEndOptions {
	documents?: number;
	/** `--package-dir`: the built package measured, when not this repository. */
	packageDir?: string;
	parts?: MonthEndPart[];
	/** `--cpu-prof`: n8n runs with V8's CPU profiler during the Enterprise rounds. */
	cpuProfile?: boolean;
	/** Where n8n keeps binaries (`--binary-mode`); in database mode the memory rows skip files already submitted. */
	binaryMode?: 'filesystem' | 'database';
}

export async function parallelBatch(
	context: BenchContext,
	options: MonthEndOptions = {},
): Promise<ResultRow[]> {
	const parts = new Set(options.parts ?? ['enterprise', 'growth', 'memory']);
	const { stack, sandbox } = context;
	const documents = options.documents ?? 200;
	const glob = writeDistinctInvoices(stack.n8n.fileAccessDirs[0], documents);
	const limits = tierLimitsOf(options.packageDir);
	await sandboxControl(sandbox.url, 'config', {
		minuteMs: 60_000,
		extractLatencyMinMs: LATENCY_MIN_MS,
		extractLatencyMaxMs: LATENCY_MAX_MS,
	});
	const tier = (name: Tier['name'], credential: SandboxCredential): Tier => {
		const { requestsPerMinute, parallelUploads } =
			limits[name === 'Growth' ? 'growth' : 'enterprise'];
		return { name, credential, perMinute: requestsPerMinute, parallel: parallelUploads };
	};
	const rows: ResultRow[] = [];
	try {
		// Enterprise first: its untimed warm-up also warms n8n for Growth's single runs.
		if (parts.has('enterprise'))
			rows.push(
				...(await enterpriseRows(
					context,
					tier('Enterprise', context.enterprise),
					glob,
					documents,
					options.cpuProfile === true,
				)),
			);
		if (parts.has('growth'))
			rows.push(...(await growthRows(context, tier('Growth', context.growth), glob, documents)));
		if (parts.has('memory'))
			rows.push(
				...(await memoryRows(
					context,
					limits.enterprise.parallelUploads,
					options.binaryMode ?? 'filesystem',
				)),
			);
	} finally {
		await sandboxControl(sandbox.url, 'config', { extractLatencyMinMs: 0, extractLatencyMaxMs: 0 });
	}
	return rows;
}

/** Read the batch → Extract (its defaults, or the safe settings) or HTTP Request. */
function contenders(context: BenchContext, tier: Tier, glob: string): Record<string, Contender> {
	const read = readFileNode('Read files', glob);
	let created = 0;
	const contender = (name: string, node: NodeSpec): Contender => ({
		name,
		node: String(node.name),
		workflow: () =>
			activeWebhookWorkflow(context, `bench: month-end ${tier.name}, ${name} (${++created})`, [
				read,
				node,
			]),
	});
	const { apiKey, credential } = tier.credential;
	return {
		ours: contender('ours, defaults', extractNode(credential)),
		safe: contender(`ours, ${SAFE_NAME}`, extractNode(credential, { options: SAFE_OPTIONS })),
		http: contender('HTTP Request, defaults', httpRequestUploadNode(context.sandbox.url, apiKey)),
		// The tier's rate as HTTP Request's batching: a tenth of a minute's requests every 6 s.
		batched: contender(
			'HTTP Request, batching at the rate',
			httpRequestUploadNode(context.sandbox.url, apiKey, {
				batching: {
					batch: { batchSize: Math.max(1, (tier.perMinute ?? 600) / 10), batchInterval: 6_000 },
				},
			}),
		),
	};
}

const tierLabel = (tier: Tier, documents: number) =>
	`month-end batch (${documents} distinct invoices, ${tier.name}${tier.perMinute ? ` ${tier.perMinute}/min` : ''}, ${LATENCY_MIN_MS / 1000}–${LATENCY_MAX_MS / 1000} s per extraction)`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Growth: one run each (a rate window is a real minute), each after a fresh window. */
async function growthRows(
	context: BenchContext,
	tier: Tier,
	glob: string,
	documents: number,
): Promise<ResultRow[]> {
	const all = contenders(context, tier, glob);
	const runs: Array<{ contender: Contender; run: Run }> = [];
	for (const contender of [all.ours, all.safe, all.http, all.batched]) {
		// A fresh rate-limit window for every run.
		await new Promise((resolve) => setTimeout(resolve, 61_000));
		const run = await timedRun(context, contender, await contender.workflow(), documents);
		runs.push({ contender, run });
	}
	const bound = boundMs(documents, tier.perMinute, tier.parallel);
	const fraction = (run: Run) => (run.failed > 0 ? 0 : bound / run.elapsedMs);
	for (const { contender, run } of runs) logRun(context, tier, contender, run, documents, bound);
	const [ours, safe, ...others] = runs;
	const label = tierLabel(tier, documents);
	const metric = `throughput / bound (${tier.parallel} in flight)`;
	return [
		{
			benchmark: label,
			metric: `${metric}, ${SAFE_NAME}`,
			ours: fraction(safe.run),
			baseline: fraction(ours.run),
			baselineName: 'ours, defaults, same run',
			ratio: fraction(ours.run) > 0 ? fraction(safe.run) / fraction(ours.run) : null,
			target: '>= 0.9 of the bound',
			pass: fraction(safe.run) >= 0.9,
			notes: `safe settings ${seconds(safe.run.elapsedMs)}, defaults ${seconds(ours.run.elapsedMs)}; bound ${seconds(bound)}`,
		},
		{
			benchmark: label,
			metric: `items out on Verified, ${SAFE_NAME}`,
			ours: safe.run.succeeded,
			baseline: ours.run.succeeded,
			baselineName: 'ours, defaults',
			ratio: null,
			target: `all ${documents} (none held as the same file or invoice)`,
			pass: safe.run.succeeded === documents && ours.run.succeeded === documents,
			notes: `documents created at the service: safe settings ${safe.run.created}, defaults ${ours.run.created}`,
		},
		...others.flatMap(({ contender, run }) => [
			{
				benchmark: label,
				metric,
				ours: fraction(ours.run),
				baseline: fraction(run),
				baselineName: contender.name,
				ratio: fraction(ours.run),
				target: '>= 0.9 of the bound',
				pass: fraction(ours.run) >= 0.9,
				notes: `ours ${seconds(ours.run.elapsedMs)}, ${contender.name} ${seconds(run.elapsedMs)} (${run.status}); bound ${seconds(bound)}`,
			},
			{
				benchmark: label,
				metric: 'failed items',
				ours: ours.run.failed,
				baseline: run.failed,
				baselineName: contender.name,
				ratio: null,
				target: '0 failed items',
				pass: ours.run.failed === 0,
				notes: `${contender.name}: ${run.created} documents created at the service, ${run.succeeded} items out`,
			},
		]),
	];
}

/**
 * Enterprise (no rate limit): after one untimed run of each, rounds of ours with defaults, HTTP
 * Request sending every item at once, and ours with the safe settings, the first of each round
 * changing; medians.
 */
async function enterpriseRows(
	context: BenchContext,
	tier: Tier,
	glob: string,
	documents: number,
	cpuProfile: boolean,
): Promise<ResultRow[]> {
	const all = contenders(context, tier, glob);
	const order = [all.ours, all.http, all.safe];
	const profiler = cpuProfile ? await startProfiling(context) : undefined;
	const runs = new Map<Contender, Run[]>(order.map((contender) => [contender, []]));
	const bound = boundMs(documents, tier.perMinute, tier.parallel);
	// One untimed run of each, so that no round measures n8n's first run of a node.
	for (const contender of order)
		await timedRun(context, contender, await contender.workflow(), documents);
	for (let round = 0; round < ENTERPRISE_ROUNDS; round++)
		for (let turn = 0; turn < order.length; turn++) {
			const contender = order[(round + turn) % order.length];
			const workflow = await contender.workflow();
			// Let the previous run's sockets and garbage settle.
			await new Promise((resolve) => setTimeout(resolve, 3_000));
			const run = await timedRun(context, contender, workflow, documents);
			logRun(context, tier, contender, run, documents, bound, round + 1);
			runs.get(contender)?.push(run);
		}
	const profiles = profiler ? await profiler.stop() : undefined;
	const time = (contender: Contender) =>
		median((runs.get(contender) ?? []).map((run) => run.elapsedMs));
	const nodeTime = (contender: Contender) =>
		median((runs.get(contender) ?? []).flatMap((run) => (run.nodeMs === null ? [] : [run.nodeMs])));
	const failed = (contender: Contender) =>
		(runs.get(contender) ?? []).reduce((sum, run) => sum + run.failed, 0);
	const rounds = (contender: Contender) =>
		(runs.get(contender) ?? []).map((run) => (run.elapsedMs / 1000).toFixed(1)).join(', ');
	const label = tierLabel(tier, documents);
	const ours = time(all.ours);
	const http = time(all.http);
	const safe = time(all.safe);
	// Each round ran both: its own ratio is free of what the machine did between rounds.
	const perRound = (runs.get(all.ours) ?? []).map(
		(run, round) => (runs.get(all.http)?.[round]?.elapsedMs ?? Number.NaN) / run.elapsedMs,
	);
	const faster = perRound.filter((ratio) => ratio >= 1).length;
	return [
		{
			benchmark: label,
			metric: `run time, s (median of ${ENTERPRISE_ROUNDS}), defaults (${tier.parallel} in flight)`,
			ours: ours / 1000,
			baseline: http / 1000,
			baselineName: all.http.name,
			ratio: http / ours,
			target: '>= 1: at least as fast as HTTP Request',
			pass: http / ours >= 1 && failed(all.ours) === 0,
			notes: `rounds (s): ours ${rounds(all.ours)}; HTTP Request ${rounds(all.http)}; ratio = HTTP Request's time / ours; per round: median ${median(perRound).toFixed(3)}, ${Math.min(...perRound).toFixed(3)}–${Math.max(...perRound).toFixed(3)}, ours as fast or faster in ${faster} of ${perRound.length}`,
		},
		{
			benchmark: label,
			metric: `throughput / bound (${tier.parallel} in flight, median)`,
			ours: failed(all.ours) > 0 ? 0 : bound / ours,
			baseline: failed(all.http) > 0 ? 0 : bound / http,
			baselineName: all.http.name,
			ratio: failed(all.ours) > 0 ? 0 : bound / ours,
			target: 'info',
			pass: null,
			notes: `bound ${seconds(bound)}: ${tier.parallel >= documents ? 'every document in flight at once, the slowest extraction' : `${tier.parallel} in flight at the mean latency`}`,
		},
		{
			benchmark: label,
			metric: `failed items (${ENTERPRISE_ROUNDS} rounds)`,
			ours: failed(all.ours),
			baseline: failed(all.http),
			baselineName: all.http.name,
			ratio: null,
			target: '0 failed items',
			pass: failed(all.ours) === 0,
		},
		{
			benchmark: label,
			metric: `run time, s (median of ${ENTERPRISE_ROUNDS}), ${SAFE_NAME}`,
			ours: safe / 1000,
			baseline: ours / 1000,
			baselineName: 'ours, defaults, same rounds',
			ratio: ours / safe,
			target: 'info: the safe settings cost little',
			pass: null,
			notes: `rounds (s): ${rounds(all.safe)}; failed items ${failed(all.safe)}; ratio = defaults' time / the safe settings'`,
		},
		{
			benchmark: label,
			metric: `the upload node's own time, s (median of ${ENTERPRISE_ROUNDS}), defaults`,
			ours: nodeTime(all.ours) / 1000,
			baseline: nodeTime(all.http) / 1000,
			baselineName: 'the HTTP Request node',
			ratio: nodeTime(all.ours) / nodeTime(all.http),
			target: 'info: where the run time goes',
			pass: null,
			notes: `n8n's execution data (executionTime): Extract vs HTTP Request; the rest of the run time (reading the files, starting and answering) is n8n's: ours ${seconds(ours - nodeTime(all.ours))}, HTTP Request ${seconds(http - nodeTime(all.http))}; safe settings' Extract ${seconds(nodeTime(all.safe))}`,
		},
		...(profiles ? profileRows(context, label, profiles, runs, all) : []),
	];
}

/** Restarts n8n with V8's CPU profiler; `stop()` restarts it without, which writes the profiles. */
async function startProfiling(context: BenchContext) {
	const { stack } = context;
	const dir = join(artifactsDir(), 'cpu-profiles', `month-end-${timestampForFiles()}`);
	mkdirSync(dir, { recursive: true });
	const before = stack.n8n.env.NODE_OPTIONS;
	stack.n8n.env.NODE_OPTIONS = `${before ?? ''} --cpu-prof --cpu-prof-dir=${dir}`.trim();
	await stack.restartN8n();
	context.progress(`n8n restarted with its CPU profiled into ${dir}`);
	return {
		stop: async (): Promise<CpuProfile[]> => {
			if (before === undefined) delete stack.n8n.env.NODE_OPTIONS;
			else stack.n8n.env.NODE_OPTIONS = before;
			await stack.restartN8n();
			return readdirSync(dir)
				.filter((file) => file.endsWith('.cpuprofile'))
				.map((file) => readProfile(join(dir, file)));
		},
	};
}

/**
 * n8n's CPU during each contender's timed runs (their windows on the profile's clock): busy time per
 * run, and where ours spends it against HTTP Request's, by package and by function.
 */
function profileRows(
	context: BenchContext,
	label: string,
	profiles: CpuProfile[],
	runs: Map<Contender, Run[]>,
	all: Record<string, Contender>,
): ResultRow[] {
	const of = (contender: Contender) => {
		const windows = (runs.get(contender) ?? []).map((run) =>
			summarize(profiles, { ...run.window, count: 40 }),
		);
		const sum = (
			pick: (summary: ReturnType<typeof summarize>) => Array<{ name: string; ms: number }>,
		) => {
			const total = new Map<string, number>();
			for (const summary of windows)
				for (const entry of pick(summary))
					total.set(entry.name, (total.get(entry.name) ?? 0) + entry.ms);
			return [...total.entries()]
				.map(([name, ms]) => ({ name, ms: ms / windows.length }))
				.sort((a, b) => b.ms - a.ms);
		};
		return {
			busyMs: median(windows.map((summary) => summary.busyMs)),
			gcMs: median(windows.map((summary) => summary.gcMs)),
			byPackage: sum((summary) => summary.inclusiveByPackage),
			byFunction: sum((summary) => summary.selfByFunction),
		};
	};
	const ours = of(all.ours);
	const http = of(all.http);
	const safe = of(all.safe);
	const list = (entries: Array<{ name: string; ms: number }>, count: number) =>
		entries
			.slice(0, count)
			.map((entry) => `${entry.name} ${entry.ms.toFixed(0)} ms`)
			.join('; ');
	for (const [name, summary] of [
		['ours', ours],
		['HTTP Request', http],
		['ours, safe settings', safe],
	] as const)
		context.progress(
			`n8n CPU per run, ${name}: busy ${summary.busyMs.toFixed(0)} ms (GC ${summary.gcMs.toFixed(0)}); under packages: ${list(summary.byPackage, 8)}; self: ${list(summary.byFunction, 12)}`,
		);
	return [
		{
			benchmark: label,
			metric: `n8n's busy CPU per run, ms (median, profiled rounds)`,
			ours: ours.busyMs,
			baseline: http.busyMs,
			baselineName: 'HTTP Request, defaults',
			ratio: ours.busyMs / http.busyMs,
			target: 'info: where the run time goes',
			pass: null,
			notes: `under packages, ours: ${list(ours.byPackage, 6)}; HTTP Request: ${list(http.byPackage, 6)}; ours' top self time: ${list(ours.byFunction, 8)}; safe settings busy ${safe.busyMs.toFixed(0)} ms`,
		},
	];
}

function logRun(
	context: BenchContext,
	tier: Tier,
	contender: Contender,
	run: Run,
	documents: number,
	bound: number,
	round?: number,
): void {
	context.progress(
		`month-end ${tier.name}${round ? ` round ${round}` : ''}, ${contender.name}: ${run.succeeded}/${documents} out in ${seconds(run.elapsedMs)}, ${run.created} documents created, answer ${run.status} (bound ${seconds(bound)})`,
	);
}

async function timedRun(
	context: BenchContext,
	contender: Contender,
	workflow: { id: string; path: string },
	documents: number,
): Promise<Run> {
	const { stack, sandbox } = context;
	const createdBefore = (await sandboxControl<{ documents: unknown[] }>(sandbox.url, 'state'))
		.documents.length;
	const from = monotonicUs();
	const started = Date.now();
	const answer = await stack.client.callWebhook(workflow.path, { json: {}, timeoutMs: 900_000 });
	const elapsedMs = Date.now() - started;
	const to = monotonicUs();
	const items = Array.isArray(answer.json) ? (answer.json as Array<Record<string, unknown>>) : [];
	const succeeded = items.filter((item) => typeof item.document_id === 'string').length;
	const created =
		(await sandboxControl<{ documents: unknown[] }>(sandbox.url, 'state')).documents.length -
		createdBefore;
	// A new workflow per run: its one execution is this run's.
	const [execution] = await stack.client.waitForExecutions(workflow.id, 1);
	const nodeMs = execution?.data.resultData.runData[contender.node]?.[0]?.executionTime ?? null;
	return {
		elapsedMs,
		succeeded,
		failed: documents - succeeded,
		created,
		status: answer.status,
		nodeMs,
		window: { from, to },
	};
}

/** CLOCK_MONOTONIC in µs: the clock of V8's profile timestamps (bench/cpuProfile.ts). */
function monotonicUs(): number {
	return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Peak RSS of n8n while 20 files of 20 MB go through Extract: Growth with 8 in flight and Enterprise
 * with its default (`enterpriseParallel`, held to 64 MiB of files in flight), each vs one at a time.
 * In database binary mode with Skip Files Already Submitted on: every file is read whole to hash it.
 */
async function memoryRows(
	context: BenchContext,
	enterpriseParallel: number,
	binaryMode: 'filesystem' | 'database',
): Promise<ResultRow[]> {
	const mode =
		binaryMode === 'database'
			? 'database binary mode, Skip Files Already Submitted'
			: 'filesystem binary mode';
	const skip = binaryMode === 'database' ? { skipDuplicates: true } : {};
	const { stack } = context;
	const folder = stack.n8n.fileAccessDirs[0];
	const files = 20;
	const fileBytes = 20 * MiB;
	for (let index = 0; index < files; index++)
		writeBigPdf(join(folder, `large-${String(index).padStart(2, '0')}.pdf`), fileBytes);
	const read = readFileNode('Read files', join(folder, 'large-*.pdf'));
	// Quiet after the read, so that V8 collects the read's garbage before Extract is measured.
	const settle: NodeSpec = {
		name: 'Settle',
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		parameters: { resume: 'timeInterval', amount: 15, unit: 'seconds' },
	};
	const peak = async (name: string, extract: NodeSpec) => {
		const workflow = await activeWebhookWorkflow(context, `bench: 20 × 20 MB, ${name}`, [
			read,
			settle,
			extract,
		]);
		await stack.restartN8n();
		const pid = stack.n8n.pid();
		if (!pid) throw new Error('n8n has no process id');
		await waitForSteadyRss(pid);
		let answer = { status: 0 };
		// From Extract's first line: reading the 400 MB into n8n's database is n8n's, not the node's.
		const extractStarts = logSays(stack.n8n.logFile, 'files to extract, up to');
		const measured = await peakRssDuring(
			pid,
			async () => {
				answer = await stack.client.callWebhook(workflow.path, { json: {}, timeoutMs: 900_000 });
			},
			{ from: extractStarts },
		);
		if (answer.status !== 200)
			throw new Error(`the 20 × 20 MB run (${name}) answered ${answer.status}`);
		return measured;
	};
	await sandboxControl(context.sandbox.url, 'config', {
		extractLatencyMinMs: 0,
		extractLatencyMaxMs: 0,
	});
	const growth = context.growth.credential;
	const enterprise = context.enterprise.credential;
	const one = await peak(
		'Growth, 1 at a time',
		extractNode(growth, { options: { parallelUploads: 1, ...skip } }),
	);
	const eight = await peak(
		'Growth, 8 at a time',
		extractNode(growth, { options: { parallelUploads: 8, ...skip } }),
	);
	const enterpriseOne = await peak(
		'Enterprise, 1 at a time',
		extractNode(enterprise, { options: { parallelUploads: 1, ...skip } }),
	);
	const enterpriseDefault = await peak(
		'Enterprise, defaults',
		extractNode(enterprise, { options: { ...skip } }),
	);
	context.progress(
		`20 × 20 MB: peak RSS growth on Growth ${(eight.growthBytes / MiB).toFixed(0)} MiB with 8 in flight, ${(one.growthBytes / MiB).toFixed(0)} MiB one at a time; on Enterprise ${(enterpriseDefault.growthBytes / MiB).toFixed(0)} MiB with its default (${enterpriseParallel}), ${(enterpriseOne.growthBytes / MiB).toFixed(0)} MiB one at a time`,
	);
	const bound = (single: number) => single + 64 * MiB + fileBytes;
	const peakTaken = (measured: { exact: boolean }) =>
		measured.exact ? "kernel's peak" : 'sampled';
	return [
		{
			benchmark: `20 files of 20 MB on Growth (${mode})`,
			metric: 'n8n peak RSS growth in Extract, MiB',
			ours: eight.growthBytes / MiB,
			baseline: one.growthBytes / MiB,
			baselineName: 'ours, one at a time',
			ratio: eight.growthBytes / Math.max(one.growthBytes, 1),
			target: 'at most 64 MiB + one file above one at a time',
			pass: eight.growthBytes <= bound(one.growthBytes),
			notes: `8 in flight would be 160 MiB of files; the run holds at most 64 MiB (${peakTaken(eight)})`,
		},
		{
			benchmark: `20 files of 20 MB on Enterprise, defaults (${mode})`,
			metric: 'n8n peak RSS growth in Extract, MiB',
			ours: enterpriseDefault.growthBytes / MiB,
			baseline: enterpriseOne.growthBytes / MiB,
			baselineName: 'ours, one at a time',
			ratio: enterpriseDefault.growthBytes / Math.max(enterpriseOne.growthBytes, 1),
			target: 'at most 64 MiB + one file above one at a time',
			pass: enterpriseDefault.growthBytes <= bound(enterpriseOne.growthBytes),
			notes: `Parallel Uploads ${enterpriseParallel} by default would be all 400 MiB of files at once; the run holds at most 64 MiB (${peakTaken(enterpriseDefault)})`,
		},
	];
}
