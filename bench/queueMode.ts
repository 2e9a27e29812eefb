/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// The benchmarks in n8n's queue mode, on the full topology teams run at scale (local-n8n/queue/queueStack.ts:
// PostgreSQL, Redis, n8n main, 2 webhook processes behind HAProxy, 1 worker, binary data in the
// database; the sandbox behind HTTPS, as the service is reached), `npm run bench -- --queue`:
// - trigger throughput through the load balancer: ours (version 1.1, and version 1 as in workflows
//   made before 1.1) vs the minimal community trigger (minimalTrigger.ts: what any community
//   trigger can reach), n8n's Webhook node (answering at once, static parameters: the one start
//   node n8n runs without an expression isolate) and the Webhook node typeVersion 1 (which, like
//   every other trigger node, gets an isolate per request); with 2 and with 1 webhook process; with
//   n8n's defaults and with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on the webhook processes
//   (docs/queue-mode.md); and ours with Ignore Duplicates off. The worker runs every delivery of a
//   target before the next target is measured, so none shares the cores with another's backlog;
// - Extract of a 100 MB file read from disk into the database: the worker's peak RSS growth, ours vs
//   the HTTP Request node doing the same upload, and reading the file alone. The worker restarts
//   before every run (RSS does not shrink after a peak), then a warm-up with a 1 KB file and a
//   steady RSS; runs alternate ours / HTTP Request / read only.

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { N8nInstance, QueueStack } from '../local-n8n/index.ts';
import {
	makeTmpDir,
	readFileNode,
	startQueueStack,
	startSandboxInProcess,
	stopAll,
	webhookWorkflow,
} from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { behindHttps } from './httpsFront.ts';
import {
	activeWebhookWorkflow,
	benchCredentials,
	extractNode,
	httpRequestUploadNode,
	progress,
} from './context.ts';
import { BENCH_ROLE, cpuByRole, processesCpuMs } from './cpuTime.ts';
import { peakRssDuring, waitForSteadyRss } from './rss.ts';
import type { ResultRow } from './stats.ts';
import { median, MiB } from './stats.ts';
import { activeMinimalTriggerWorkflow, packMinimalTrigger } from './minimalTrigger.ts';
import {
	activeTriggerWorkflow,
	executionsAfterSettling,
	fireDeliveries,
} from './triggerThroughput.ts';
import { FILE_BYTES, writeBigPdf } from './uploadMemory.ts';

/** The recommended setting for webhook processes (docs/queue-mode.md, "Trigger throughput"). */
export const LAZY_ISOLATE_ENV = 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** HAProxy checks every second and marks a backend down or up after 2 checks. */
export const LB_SETTLE_MS = 4_000;

/**
 * Waits until the worker has run every queued execution. A target measured while the worker still
 * runs the previous target's backlog would share the 2 cores with it.
 */
export async function waitForQueueDrained(stack: QueueStack, timeoutMs = 300_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const pending = Number(
			stack.sql("SELECT count(*) FROM execution_entity WHERE status IN ('new', 'running')").trim(),
		);
		if (pending === 0) return;
		if (Date.now() > deadline)
			throw new Error(`${pending} executions still queued or running after ${timeoutMs / 1000} s`);
		await sleep(500);
	}
}

function workerPid(stack: QueueStack): number {
	const pid = stack.workers[0].pid();
	if (pid === undefined) throw new Error('the worker is not running');
	return pid;
}

async function workerUploadMemory(
	context: BenchContext,
	stack: QueueStack,
	rounds: number,
): Promise<ResultRow[]> {
	const { sandbox, enterprise } = context;
	const client = context.webhookClient ?? stack.lbClient;
	const file = join(stack.n8n.fileAccessDirs[0], 'bench-queue-100mb.pdf');
	const warmUpFile = join(stack.n8n.fileAccessDirs[0], 'bench-queue-1kb.pdf');
	writeBigPdf(file, FILE_BYTES);
	writeBigPdf(warmUpFile, 1024);
	const read = readFileNode('Read file', '={{ $json.body.file }}');
	const workflows = {
		ours: await activeWebhookWorkflow(context, 'bench queue: upload (ours)', [
			read,
			extractNode(enterprise.credential),
		]),
		baseline: await activeWebhookWorkflow(context, 'bench queue: upload (HTTP Request)', [
			read,
			httpRequestUploadNode(sandbox.url, enterprise.apiKey),
		]),
		readOnly: await activeWebhookWorkflow(context, 'bench queue: upload (read only)', [read]),
	};
	const growth: Record<keyof typeof workflows, number[]> = { ours: [], baseline: [], readOnly: [] };
	for (let round = 1; round <= rounds; round++) {
		for (const which of ['ours', 'baseline', 'readOnly'] as const) {
			await stack.workers[0].restart();
			const pid = workerPid(stack);
			const warmUp = await client.callWebhook(workflows[which].path, {
				json: { file: warmUpFile },
				timeoutMs: 120_000,
			});
			if (warmUp.status !== 200)
				throw new Error(
					`the ${which} workflow answered ${warmUp.status} to the warm-up: ${warmUp.text}`,
				);
			await waitForSteadyRss(pid);
			let status = 0;
			let text = '';
			const peak = await peakRssDuring(pid, async () => {
				({ status, text } = await client.callWebhook(workflows[which].path, {
					json: { file },
					timeoutMs: 600_000,
				}));
			});
			if (status !== 200)
				throw new Error(`the ${which} workflow answered ${status}: ${text.slice(0, 300)}`);
			growth[which].push(peak.growthBytes);
			context.progress(
				`queue upload memory, round ${round}/${rounds}, ${which}: worker RSS +${(peak.growthBytes / MiB).toFixed(1)} MiB`,
			);
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
			notes: `reading the 100 MB file into the database alone: +${(readOnly / MiB).toFixed(1)} MiB (median); n8n's database mode reads the whole row back into one buffer for the upload (docs/spec-decisions.md#n1)`,
		},
	];
}

/** Medians per target: 200-answers per second, CPU ms per delivery of the webhook processes and of every process of the stack. */
interface Measured {
	rate: Record<Target, number>;
	webhookCpu: Record<Target, number>;
	stackCpu: Record<Target, number>;
}

/** CPU ms of every process of the stack (not this process: load generator and sandbox). */
function stackCpuMs(): number {
	let sum = 0;
	for (const [role, ms] of cpuByRole()) if (role !== BENCH_ROLE) sum += ms;
	return sum;
}

type Target =
	| 'ours'
	| 'oursV1'
	| 'oursNoDedupe'
	| 'minimal'
	| 'minimalV1'
	| 'webhook'
	| 'webhookV1';
const TARGET_NAMES: Record<Target, string> = {
	ours: 'our trigger',
	oursV1: 'our trigger v1',
	oursNoDedupe: 'our trigger, Ignore Duplicates off',
	minimal: 'minimal trigger',
	minimalV1: 'minimal trigger v1',
	webhook: 'Webhook node',
	webhookV1: 'Webhook node v1',
};

/** n8n's Webhook node answering at once, in typeVersion 1: n8n takes an expression isolate for it. */
async function activeWebhookV1Workflow(context: BenchContext, name: string) {
	const definition = webhookWorkflow({ name, nodes: [], responseMode: 'onReceived' });
	definition.nodes[0].typeVersion = 1;
	const workflow = await context.stack.client.createWorkflow(definition);
	await context.stack.client.activateWorkflow(workflow.id);
	for (const client of context.servingClients ?? [])
		await client.waitForWebhook(definition.webhookPath);
	return { id: workflow.id, path: definition.webhookPath };
}

/** Restarts every webhook process with `LAZY_ISOLATE_ENV` set or unset, and proves it took effect. */
export async function setLazyIsolate(stack: QueueStack, on: boolean): Promise<void> {
	for (const instance of stack.webhooks) {
		// A restart reuses the instance's environment object: this is how an operator changes it.
		if (on) instance.env[LAZY_ISOLATE_ENV] = 'true';
		else delete instance.env[LAZY_ISOLATE_ENV];
		await instance.restart();
		const environ = readFileSync(`/proc/${instance.pid()}/environ`, 'utf8').split('\0');
		if (environ.includes(`${LAZY_ISOLATE_ENV}=true`) !== on)
			throw new Error(
				`${LAZY_ISOLATE_ENV} is not ${on ? 'set' : 'unset'} in ${instance.baseUrl}'s process`,
			);
	}
	await sleep(LB_SETTLE_MS);
}

async function withOneWebhookProcess<T>(stack: QueueStack, work: () => Promise<T>): Promise<T> {
	const second: N8nInstance = stack.webhooks[1];
	await second.stop();
	await sleep(LB_SETTLE_MS);
	try {
		return await work();
	} finally {
		await second.restart();
		await sleep(LB_SETTLE_MS);
	}
}

/** Trigger throughput through the load balancer, every setting side by side with the baselines. */
async function queueTriggerThroughput(
	context: BenchContext,
	stack: QueueStack,
	settings: QueueSetting[],
	only?: string[],
	deliveries = 100,
	concurrency = 10,
	// Single rounds spread by ±10 % (a target measured first in a round is often slowest), more than
	// the gap the ours / minimal target tells apart; 7 rounds give a median that holds still.
	rounds = 7,
): Promise<ResultRow[]> {
	const paths: Record<Target, { id: string; path: string }> = {
		ours: await activeTriggerWorkflow(context, 'bench queue: trigger (ours)'),
		oursV1: await activeTriggerWorkflow(context, 'bench queue: trigger (ours, version 1)', {}, 1),
		oursNoDedupe: await activeTriggerWorkflow(
			context,
			'bench queue: trigger (ours, Ignore Duplicates off)',
			{ ignoreDuplicates: false },
		),
		minimal: await activeMinimalTriggerWorkflow(context, 'bench queue: trigger (minimal trigger)'),
		minimalV1: await activeMinimalTriggerWorkflow(
			context,
			'bench queue: trigger (minimal trigger, version 1)',
			1,
		),
		webhook: await activeWebhookWorkflow(
			context,
			'bench queue: trigger (Webhook node)',
			[],
			'onReceived',
		),
		webhookV1: await activeWebhookV1Workflow(context, 'bench queue: trigger (Webhook node v1)'),
	};
	const accepted: Partial<Record<Target, number>> = {};
	const measure = async (label: string, targets: Target[]): Promise<Measured> => {
		const samples = Object.fromEntries(
			targets.map((t) => [
				t,
				{ rate: [] as number[], webhookCpu: [] as number[], stackCpu: [] as number[] },
			]),
		) as Record<Target, Record<keyof Measured, number[]>>;
		for (let round = 1; round <= rounds; round++) {
			const line: string[] = [];
			// Each round starts with another target, so that none always follows the same one.
			const order = targets.map((_, i) => targets[(i + round - 1) % targets.length]);
			for (const target of order) {
				// CPU from the first delivery until the worker ran the last one.
				const webhookPids = stack.webhooks
					.filter((instance) => instance.isRunning())
					.map((instance) => instance.pid() as number);
				const before = { webhook: processesCpuMs(webhookPids), stack: stackCpuMs() };
				const result = await fireDeliveries(
					stack.lbClient,
					paths[target].path,
					context.enterprise.signingSecret,
					{ deliveries, concurrency, tag: `${label}_${round}`.replace(/\W+/g, '_') },
				);
				if (result.ok !== deliveries)
					throw new Error(
						`${TARGET_NAMES[target]} (${label}) answered ${result.ok} of ${deliveries} deliveries with 200`,
					);
				await waitForQueueDrained(stack);
				accepted[target] = (accepted[target] ?? 0) + result.ok;
				samples[target].rate.push(result.perSecond);
				samples[target].webhookCpu.push(
					(processesCpuMs(webhookPids) - before.webhook) / deliveries,
				);
				samples[target].stackCpu.push((stackCpuMs() - before.stack) / deliveries);
				line.push(
					`${TARGET_NAMES[target]} ${result.perSecond.toFixed(1)}/s (webhook processes ${samples[target].webhookCpu.at(-1)?.toFixed(0)} ms CPU per delivery${result.retried ? `; ${result.retried} sent again on a closed connection` : ''})`,
				);
			}
			context.progress(
				`queue trigger throughput (${label}), round ${round}/${rounds}, load average ${loadavg()[0].toFixed(1)}: ${line.join(', ')}`,
			);
		}
		const medians = (key: keyof Measured) =>
			Object.fromEntries(targets.map((t) => [t, median(samples[t][key])])) as Record<
				Target,
				number
			>;
		return {
			rate: medians('rate'),
			webhookCpu: medians('webhookCpu'),
			stackCpu: medians('stackCpu'),
		};
	};

	// `only`: development runs measure some targets (rows of the others show NaN).
	const chosen = (targets: Target[]) => targets.filter((target) => !only || only.includes(target));
	const all = chosen([
		'ours',
		'minimal',
		'webhook',
		'oursV1',
		'minimalV1',
		'webhookV1',
		'oursNoDedupe',
	]);
	const core = chosen(['ours', 'minimal', 'webhook', 'oursV1', 'minimalV1', 'webhookV1']);
	const results: { setting: string; processes: number; measured: Measured }[] = [];
	if (settings.includes('defaults-2'))
		results.push({
			setting: 'defaults',
			processes: 2,
			measured: await measure('defaults, 2 webhook processes', all),
		});
	if (settings.includes('defaults-1'))
		results.push({
			setting: 'defaults',
			processes: 1,
			measured: await withOneWebhookProcess(stack, () =>
				measure('defaults, 1 webhook process', core),
			),
		});
	if (settings.some((setting) => setting.startsWith('lazy-'))) {
		await setLazyIsolate(stack, true);
		try {
			if (settings.includes('lazy-2'))
				results.push({
					setting: `${LAZY_ISOLATE_ENV}=true`,
					processes: 2,
					measured: await measure(`${LAZY_ISOLATE_ENV}=true, 2 webhook processes`, core),
				});
			if (settings.includes('lazy-1'))
				results.push({
					setting: `${LAZY_ISOLATE_ENV}=true`,
					processes: 1,
					measured: await withOneWebhookProcess(stack, () =>
						measure(`${LAZY_ISOLATE_ENV}=true, 1 webhook process`, core),
					),
				});
		} finally {
			await setLazyIsolate(stack, false);
		}
	}

	// Every accepted delivery of our trigger started exactly one execution (none lost, none doubled).
	const executions = await executionsAfterSettling(context, paths.ours.id, accepted.ours ?? 0);
	const benchmark = (processes: number, setting: string) =>
		`queue mode (${processes} webhook process${processes > 1 ? 'es' : ''} behind HAProxy, 1 worker, ${setting}): trigger throughput (${deliveries} signed deliveries x ${rounds}, concurrency ${concurrency})`;
	const rows: ResultRow[] = [];
	for (const { setting, processes, measured } of results) {
		const rates = measured.rate;
		const others = (Object.keys(rates) as Target[])
			.map(
				(t) =>
					`${TARGET_NAMES[t]} ${rates[t].toFixed(1)}/s, ${measured.webhookCpu[t].toFixed(0)} ms`,
			)
			.join('; ');
		const row = (
			metric: string,
			ours: Target,
			baseline: Target,
			target: string,
			pass: boolean | null,
			notes?: string,
		): ResultRow[] =>
			rates[ours] === undefined || rates[baseline] === undefined
				? []
				: [
						{
							benchmark: benchmark(processes, setting),
							metric,
							ours: rates[ours],
							baseline: rates[baseline],
							baselineName: TARGET_NAMES[baseline],
							ratio: rates[ours] / rates[baseline],
							target,
							pass,
							...(notes ? { notes } : {}),
						},
					];
		const cpuRow = (
			key: 'webhookCpu' | 'stackCpu',
			what: string,
			ours: Target,
			baseline: Target,
		): ResultRow[] =>
			rates[ours] === undefined || rates[baseline] === undefined
				? []
				: [
						{
							benchmark: benchmark(processes, setting),
							metric: `${what} CPU ms per delivery (median), ${TARGET_NAMES[ours]} vs ${TARGET_NAMES[baseline]}`,
							ours: measured[key][ours],
							baseline: measured[key][baseline],
							baselineName: TARGET_NAMES[baseline],
							ratio: measured[key][ours] / measured[key][baseline],
							target: 'info (lower is cheaper)',
							pass: null,
						},
					];
		rows.push(
			...row(
				'deliveries per second (median), our trigger vs the minimal trigger',
				'ours',
				'minimal',
				'>= 0.95 x minimal trigger',
				rates.ours / rates.minimal >= 0.95,
				`deliveries per second and webhook processes' CPU ms per delivery: ${others}`,
			),
		);
		rows.push(
			...row(
				"deliveries per second (median), minimal trigger vs n8n's Webhook node: n8n's cost for any community trigger",
				'minimal',
				'webhook',
				'info',
				null,
			),
		);
		rows.push(
			...row(
				'deliveries per second (median), our trigger vs the Webhook node',
				'ours',
				'webhook',
				"info (n8n's share: row above)",
				null,
			),
		);
		rows.push(
			...row(
				'deliveries per second (median), our trigger v1 (workflows made before 1.1) vs the minimal trigger v1',
				'oursV1',
				'minimalV1',
				'info',
				null,
			),
		);
		rows.push(
			...row(
				'deliveries per second (median), minimal trigger v1 vs the Webhook node v1',
				'minimalV1',
				'webhookV1',
				'info',
				null,
			),
		);
		rows.push(
			...row(
				'deliveries per second (median), our trigger with Ignore Duplicates off vs the minimal trigger',
				'oursNoDedupe',
				'minimal',
				'info',
				null,
			),
		);
		rows.push(...cpuRow('webhookCpu', "webhook processes'", 'ours', 'minimal'));
		rows.push(...cpuRow('webhookCpu', "webhook processes'", 'minimal', 'webhook'));
		rows.push(
			...cpuRow(
				'stackCpu',
				'whole stack (webhook processes, worker, main, Postgres, Redis, HAProxy)',
				'ours',
				'minimal',
			),
		);
	}
	for (const setting of ['defaults', `${LAZY_ISOLATE_ENV}=true`]) {
		const two = results.find((r) => r.setting === setting && r.processes === 2)?.measured.rate;
		const one = results.find((r) => r.setting === setting && r.processes === 1)?.measured.rate;
		if (!two || !one) continue;
		rows.push({
			benchmark: `queue mode (${setting}): trigger throughput, 2 webhook processes / 1 (2-core machine, shared with HAProxy, Postgres, Redis, main, worker)`,
			metric: 'scaling factor',
			ours: two.ours / one.ours,
			baseline: two.minimal / one.minimal,
			baselineName: 'minimal trigger',
			ratio: null,
			target: 'info',
			pass: null,
			notes: `Webhook node ${(two.webhook / one.webhook).toFixed(2)}, our trigger v1 ${(two.oursV1 / one.oursV1).toFixed(2)}, minimal trigger v1 ${(two.minimalV1 / one.minimalV1).toFixed(2)}, Webhook node v1 ${(two.webhookV1 / one.webhookV1).toFixed(2)}`,
		});
	}
	rows.push({
		benchmark: 'queue mode: trigger throughput, duplicate check',
		metric: 'executions of our trigger / accepted deliveries',
		ours: executions,
		baseline: accepted.ours ?? 0,
		baselineName: 'accepted',
		ratio: executions / (accepted.ours ?? 1),
		target: '1 (none lost, none doubled)',
		pass: executions === accepted.ours,
	});
	return rows;
}

/** The settings of the trigger throughput: n8n's defaults or lazy acquisition, with 2 or 1 webhook processes. */
export const QUEUE_SETTINGS = ['defaults-2', 'defaults-1', 'lazy-2', 'lazy-1'] as const;
export type QueueSetting = (typeof QUEUE_SETTINGS)[number];

/** Starts its own queue-mode stack and sandbox, measures the parts asked for, stops them. */
export async function queueModeBenchmarks(
	rounds = 3,
	parts: {
		throughput: boolean;
		upload: boolean;
		settings?: QueueSetting[];
		targets?: string[];
		throughputRounds?: number;
		packageDir?: string;
	} = {
		throughput: true,
		upload: true,
	},
): Promise<ResultRow[]> {
	return await onQueueStack('queue', parts.packageDir, async (context, stack) => {
		const throughput = parts.throughput
			? await queueTriggerThroughput(
					context,
					stack,
					parts.settings ?? [...QUEUE_SETTINGS],
					parts.targets,
					100,
					10,
					parts.throughputRounds,
				)
			: [];
		return [
			...throughput,
			...(parts.upload ? await workerUploadMemory(context, stack, rounds) : []),
		];
	});
}

/**
 * Runs `measure` on a queue stack of its own (1 worker, 2 webhook processes, the minimal trigger
 * installed next to ours; `packageDir` instead of this repository when given) with the sandbox
 * behind an HTTPS front and credentials named `Bench <label> (<tier>)`; stops them afterwards.
 */
export async function onQueueStack<T>(
	label: string,
	packageDir: string | undefined,
	measure: (context: BenchContext, stack: QueueStack) => Promise<T>,
): Promise<T> {
	const minimal = await packMinimalTrigger();
	const stack = await startQueueStack({
		workers: 1,
		webhooks: 2,
		...(packageDir ? { package: { dir: packageDir } } : {}),
		extraPackages: [minimal],
		fileAccessDirs: [makeTmpDir(`bench-${label}-files`)],
	});
	const sandbox = await behindHttps(
		await startSandboxInProcess(stack.tls, { reviewDelayMs: 600_000 }),
		stack.tls,
	);
	try {
		const context: BenchContext = {
			stack,
			sandbox,
			...(await benchCredentials(stack, sandbox, `Bench ${label}`)),
			progress,
			webhookClient: stack.lbClient,
			servingClients: [...stack.webhookClients, stack.lbClient],
		};
		return await measure(context, stack);
	} finally {
		await sandbox.close();
		await stack.stop();
		await stopAll();
	}
}
