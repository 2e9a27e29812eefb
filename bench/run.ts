/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling runs in plain Node (it asks git for a measured package's commit), never inside n8n */
// `npm run bench`: the benchmarks in a real n8n (the e2e harness) against the sandbox,
// each ours vs the baseline a user would build by hand, measured in the same run. Prints a table and
// writes bench/results.json. Exits non-zero only when something could not be measured.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import {
	N8N_VERSION,
	REPO_ROOT,
	startSandboxInProcess,
	startStack,
	stopAll,
} from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { benchCredentials, progress } from './context.ts';
import { footprint } from './footprint.ts';
import { rateLimitedBatch } from './rateLimitedBatch.ts';
import type { ResultRow } from './stats.ts';
import { renderTable } from './stats.ts';
import { packMinimalTrigger } from './minimalTrigger.ts';
import type { TemplateName } from './monthEndTemplates.ts';
import { monthEndTemplates, renderMonthEndTemplates } from './monthEndTemplates.ts';
import type { MonthEndPart } from './parallelBatch.ts';
import { parallelBatch } from './parallelBatch.ts';
import type { QueueSetting } from './queueMode.ts';
import { queueModeBenchmarks } from './queueMode.ts';
import type { ProfileTarget } from './profileWebhooks.ts';
import { profileWebhookProcesses, renderProfiles } from './profileWebhooks.ts';
import { triggerThroughput } from './triggerThroughput.ts';
import { uploadMemory } from './uploadMemory.ts';

const started = Date.now();
// `--queue`: only the queue-mode benchmarks (queueMode.ts); otherwise they run after the others.
// `--upload`: only the upload-memory benchmarks (with `--queue`: only the queue-mode one);
// `--rounds=N` sets their rounds.
const queueOnly = process.argv.includes('--queue');
const uploadOnly = process.argv.includes('--upload');
// `--throughput` (with `--queue`): only the trigger throughput; `--settings=defaults-2,lazy-1,…` and
// `--targets=ours,minimal,…` only those settings and targets, `--throughput-rounds=N` its rounds
// (development runs; a full run measures all, 3 rounds).
const throughputOnly = process.argv.includes('--throughput');
// `--month-end`: only the month-end batch (parallelBatch.ts); `--month-end-parts=enterprise,growth,memory`
// only those parts of it, `--cpu-prof` with n8n's CPU profiled during the Enterprise rounds.
const monthEndOnly = process.argv.includes('--month-end');
const roundsArgument = process.argv.find((argument) => argument.startsWith('--rounds='));
const uploadRounds = roundsArgument ? Number(roundsArgument.slice('--rounds='.length)) : undefined;
if (uploadRounds !== undefined && !(Number.isInteger(uploadRounds) && uploadRounds > 0))
	throw new Error(`--rounds needs a whole number above 0, not "${roundsArgument}"`);
const rows: ResultRow[] = [];
let failure: unknown;
const cpu = cpus();
const machine = {
	cpus: cpu.length,
	cpuModel: cpu[0]?.model ?? 'unknown',
	memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
	node: process.version,
	n8n: N8N_VERSION,
};
const argumentValue = (name: string) =>
	process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
// `--package-dir=<folder>`: measure that built package folder instead of this repository, e.g. a
// candidate change to the trigger built elsewhere, or a base commit's month-end figures.
const packageDir = argumentValue('package-dir');
const monthEndParts = argumentValue('month-end-parts')?.split(',') as MonthEndPart[] | undefined;
/** `--binary-mode=database`: n8n keeps binaries in its database, as queue mode does (filesystem otherwise). */
const binaryMode = argumentValue('binary-mode') === 'database' ? 'database' : 'filesystem';
/** The package measured, when not this repository: its folder and commit. */
function measuredPackage(): { package?: { dir: string; commit: string } } {
	if (!packageDir) return {};
	let commit = 'unknown';
	try {
		commit = execFileSync('git', ['-C', packageDir, 'rev-parse', 'HEAD'], {
			encoding: 'utf8',
		}).trim();
	} catch {
		// Not a git checkout: the folder alone names it.
	}
	return { package: { dir: packageDir, commit } };
}

// `--profile`: only CPU profiles of the webhook processes (profileWebhooks.ts), written to
// bench/results-profile.json; `--lazy` with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, `--env=K=V,…`
// with other settings on the webhook processes, `--targets=a,b` (webhook, minimal, ours,
// minimalCredential, oursNoDedupe), `--deliveries=N` per target, `--prefill=N` deliveries to ours before it is measured.
if (process.argv.includes('--profile')) {
	const targets = argumentValue('targets')?.split(',') as ProfileTarget[] | undefined;
	const deliveries = argumentValue('deliveries');
	const prefill = argumentValue('prefill');
	const webhookEnv = argumentValue('env');
	const profiled = await profileWebhookProcesses({
		targets,
		deliveries: deliveries ? Number(deliveries) : undefined,
		prefill: prefill ? Number(prefill) : undefined,
		lazy: process.argv.includes('--lazy'),
		packageDir,
		webhookEnv: webhookEnv
			? Object.fromEntries(
					webhookEnv
						.split(',')
						.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
				)
			: undefined,
	});
	const text = renderProfiles(profiled.results);
	const load = loadavg()
		.map((value) => value.toFixed(2))
		.join(' ');
	process.stdout.write(
		`\n${text}\n\nsetting: ${profiled.setting}; profiles in ${profiled.dir}; load average at the end ${load}\n`,
	);
	const suffix = `${process.argv.includes('--lazy') ? '-lazy' : ''}${
		webhookEnv
			? `-${webhookEnv
					.toLowerCase()
					.replace(/^n8n_/, '')
					.replace(/[\W_]+/g, '-')}`
			: ''
	}${prefill ? `-prefill-${prefill}` : ''}`;
	writeFileSync(
		join(REPO_ROOT, 'bench', `results-profile${suffix}.json`),
		`${JSON.stringify({ date: new Date().toISOString(), machine, loadAverageAtEnd: load, setting: profiled.setting, results: profiled.results, text }, null, 2)}\n`,
	);
	process.exit(0);
}

// `--month-end-templates`: only the month-end through the two email-to-books templates
// (monthEndTemplates.ts, ≈ 20 minutes: 4 runs of about 5), written to
// bench/results-month-end-templates.json; `--templates=xero,quickbooks` and `--windows=fixed,rolling`
// only those (results-month-end-templates-<templates>-<windows>.json), `--deadline-minutes=N` per run
// (default 15), `--books-delay-ms=N` each books call's delay at the stand-in (default none),
// `--tier=growth|enterprise` the service's tier (default pilot).
if (process.argv.includes('--month-end-templates')) {
	const templates = argumentValue('templates')?.split(',') as TemplateName[] | undefined;
	const windows = argumentValue('windows')?.split(',') as Array<'fixed' | 'rolling'> | undefined;
	for (const template of templates ?? [])
		if (!['xero', 'quickbooks'].includes(template))
			throw new Error(`--templates: "${template}" is not xero or quickbooks`);
	for (const window of windows ?? [])
		if (!['fixed', 'rolling'].includes(window))
			throw new Error(`--windows: "${window}" is not fixed or rolling`);
	const deadlineMinutes = argumentValue('deadline-minutes');
	const booksDelayMs = argumentValue('books-delay-ms');
	const tier = argumentValue('tier') as 'pilot' | 'growth' | 'enterprise' | undefined;
	let measured: Awaited<ReturnType<typeof monthEndTemplates>> | undefined;
	try {
		measured = await monthEndTemplates({
			templates,
			windows,
			deadlineMs: deadlineMinutes ? Number(deadlineMinutes) * 60_000 : undefined,
			booksDelayMs: booksDelayMs ? Number(booksDelayMs) : undefined,
			tier,
		});
	} catch (error) {
		failure = error;
	} finally {
		await stopAll();
	}
	if (measured) {
		const table = renderTable(measured.rows);
		const text = renderMonthEndTemplates(measured.runs);
		const load = loadavg()
			.map((value) => value.toFixed(2))
			.join(' ');
		process.stdout.write(
			`\n${table}\n\n${measured.rows
				.filter((row) => row.notes)
				.map((row) => `- ${row.benchmark} / ${row.metric}: ${row.notes}`)
				.join('\n')}\n\n${text}\n`,
		);
		process.stdout.write(
			`\nmachine: ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB; Node ${machine.node}; n8n ${machine.n8n}; load average at the end ${load}; commit ${measured.tree.commit}${measured.tree.uncommitted.length ? ` with ${measured.tree.uncommitted.length} uncommitted file(s) in nodes/examples/sandbox` : ''}; ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
		);
		const suffix = `${
			templates || windows
				? `-${(templates ?? ['all']).join('-')}-${(windows ?? ['all']).join('-')}`
				: ''
		}${booksDelayMs ? `-books-delay-${booksDelayMs}` : ''}${tier ? `-${tier}` : ''}`;
		writeFileSync(
			join(REPO_ROOT, 'bench', `results-month-end-templates${suffix}.json`),
			`${JSON.stringify({ date: new Date().toISOString(), machine, loadAverageAtEnd: load, tree: measured.tree, rows: measured.rows, runs: measured.runs, table, text }, null, 2)}\n`,
		);
	}
	if (failure) {
		process.stderr.write(
			`\nThe month-end templates benchmark could not be measured: ${(failure as Error).stack ?? String(failure)}\n`,
		);
		process.exit(1);
	}
	process.exit(0);
}

async function singleProcessBenchmarks(): Promise<void> {
	const stack = await startStack({
		package: packageDir ? { dir: packageDir } : 'repo',
		extraPackages: [await packMinimalTrigger()],
		// glibc then returns a freed large buffer to the system, so that RSS follows what n8n holds.
		n8nEnv: { N8N_DEFAULT_BINARY_DATA_MODE: binaryMode, MALLOC_MMAP_THRESHOLD_: '131072' },
	});
	const sandbox = await startSandboxInProcess(stack.tls, { reviewDelayMs: 600_000 });
	try {
		const context: BenchContext = {
			stack,
			sandbox,
			...(await benchCredentials(stack, sandbox, 'Bench')),
			progress,
		};
		for (const [name, bench] of [
			['trigger throughput', triggerThroughput],
			['batch under a rate limit', rateLimitedBatch],
			[
				'month-end batch',
				(benchContext: BenchContext) =>
					parallelBatch(benchContext, {
						packageDir,
						parts: monthEndParts,
						binaryMode,
						cpuProfile: process.argv.includes('--cpu-prof'),
					}),
			],
			['upload memory', (benchContext: BenchContext) => uploadMemory(benchContext, uploadRounds)],
			['footprint', footprint],
		] as const) {
			if (uploadOnly && name !== 'upload memory') continue;
			if (monthEndOnly && name !== 'month-end batch') continue;
			progress(`${name} ...`);
			rows.push(...(await bench(context)));
		}
	} catch (error) {
		failure = error;
	} finally {
		await sandbox.close();
		await stack.stop();
		await stopAll();
	}
}

if (!queueOnly) await singleProcessBenchmarks();
if (!failure && !monthEndOnly) {
	try {
		progress('queue mode ...');
		const settings = argumentValue('settings')?.split(',') as QueueSetting[] | undefined;
		const targets = argumentValue('targets')?.split(',');
		const throughputRounds = argumentValue('throughput-rounds');
		rows.push(
			...(await queueModeBenchmarks(uploadRounds, {
				throughput: !uploadOnly,
				upload: !throughputOnly,
				settings,
				targets,
				throughputRounds: throughputRounds ? Number(throughputRounds) : undefined,
				packageDir,
			})),
		);
	} catch (error) {
		failure = error;
	}
}

const table = renderTable(rows);
process.stdout.write(
	`\n${table}\n\n${rows
		.filter((row) => row.notes)
		.map((row) => `- ${row.benchmark} / ${row.metric}: ${row.notes}`)
		.join('\n')}\n`,
);
process.stdout.write(
	`\nmachine: ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB; Node ${machine.node}; n8n ${machine.n8n}; ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
);
// A run of another package (`--package-dir`) writes beside, never over, this repository's results.
const resultsFile = `results${monthEndOnly ? '-month-end' : ''}${monthEndParts ? `-${monthEndParts.join('-')}` : ''}${binaryMode === 'database' ? '-database' : ''}${process.argv.includes('--cpu-prof') ? '-cpu-prof' : ''}${packageDir && !queueOnly ? '-package-dir' : ''}${uploadOnly ? '-upload' : ''}${throughputOnly ? '-throughput' : ''}${queueOnly ? '-queue' : ''}.json`;
writeFileSync(
	join(REPO_ROOT, 'bench', resultsFile),
	`${JSON.stringify({ date: new Date().toISOString(), machine, ...measuredPackage(), rows, table }, null, 2)}\n`,
);
if (failure) {
	process.stderr.write(
		`\nA benchmark could not be measured: ${(failure as Error).stack ?? String(failure)}\n`,
	);
	process.exit(1);
}
