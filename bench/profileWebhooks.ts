/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// Where a webhook process's time goes under the queue benchmark's load, per start node
// (`npm run bench -- --profile`): the queue stack of queueMode.ts (2 webhook processes behind HAProxy,
// 1 worker), one target at a time. For each target both webhook processes restart with
// NODE_OPTIONS='--cpu-prof --cpu-prof-dir=…' (the worker, main and HAProxy are not profiled), take a
// warm-up, then the measured deliveries through the load balancer; the window runs from the first
// delivery until 2 s after the last answer, so the work a delivery leaves behind (queuing the run,
// saving static data) is in it. The processes then restart without the option, which writes the
// profiles. Per target: the profiles' self time by function, file and package within the window
// (cpuProfile.ts), the main thread's busy ms per delivery, and the CPU time of every thread of the
// processes from /proc (isolated-vm runs part of its work on threads of its own, which a V8 profile
// of the main thread does not see). Profiles stay in test/artifacts/cpu-profiles/; the summary goes to
// bench/results-profile.json.

import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { N8nInstance, QueueStack } from '../local-n8n/index.ts';
import { artifactsDir, timestampForFiles } from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { activeWebhookWorkflow, progress } from './context.ts';
import type { ProfileSummary } from './cpuProfile.ts';
import { cpuByRole, cpuSnapshot, difference, perDelivery } from './cpuTime.ts';
import { readProfile, renderSummary, summarize } from './cpuProfile.ts';
import { activeMinimalTriggerWorkflow } from './minimalTrigger.ts';
import {
	LAZY_ISOLATE_ENV,
	LB_SETTLE_MS,
	onQueueStack,
	setLazyIsolate,
	waitForQueueDrained,
} from './queueMode.ts';
import { activeTriggerWorkflow, fireDeliveries } from './triggerThroughput.ts';

export type ProfileTarget = 'webhook' | 'minimal' | 'minimalCredential' | 'ours' | 'oursNoDedupe';
export const PROFILE_TARGET_NAMES: Record<ProfileTarget, string> = {
	webhook: "n8n's Webhook node (v2, static parameters)",
	minimal: 'minimal community trigger (webhook() returns the body)',
	minimalCredential: 'minimal community trigger with our credential attached (never read)',
	ours: 'our trigger (1.1, defaults)',
	oursNoDedupe: 'our trigger (1.1, Ignore Duplicates off)',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** After the worker ran the last delivery: the webhook processes' last answers and saves. */
const TAIL_MS = 2_000;
/** Functions whose inclusive time the summaries show: n8n's webhook path and our trigger's steps. */
const FOCUS = [
	'executeWebhook',
	'loadWebhookExecutionData',
	'acquireIsolate',
	'releaseIsolate',
	'runWebhook',
	'parseBody',
	'getDecrypted',
	'saveStaticData',
	'receiveDelivery',
	'readSignedDelivery',
	'credentialSigningSecret',
];

export interface TargetProfile {
	target: ProfileTarget;
	name: string;
	deliveries: number;
	/** Unprofiled pass: 200-answers per second through the load balancer. */
	perSecond: number;
	/** Unprofiled pass: CPU of both webhook processes, all threads (/proc), per delivery. */
	cpuMsPerDelivery: number;
	/** The same per thread name (`main` = the JavaScript thread). */
	cpuMsPerDeliveryByThread: Record<string, number>;
	/** Unprofiled pass: CPU per delivery of every process of the stack, by role, until the worker ran every delivery. */
	cpuMsPerDeliveryByRole: Record<string, number>;
	/** Profiled pass: the V8 profiles of both processes' main threads within the window. */
	profile: ProfileSummary;
	profileFiles: string[];
	/** The profiled window in V8 timestamps (µs), for `node bench/cpuProfile.ts … --from= --to=`. */
	window: { from: number; to: number };
	/** Size of the workflow's static data (JSON text) after the passes: n8n reads it with every delivery. */
	staticDataBytes: number;
}

function pidOf(instance: N8nInstance): number {
	const pid = instance.pid();
	if (pid === undefined) throw new Error(`${instance.baseUrl} is not running`);
	return pid;
}

async function profileTarget(
	context: BenchContext,
	stack: QueueStack,
	target: ProfileTarget,
	workflow: { id: string; path: string },
	dir: string,
	options: { deliveries: number; concurrency: number; warmUp: number },
): Promise<TargetProfile> {
	const { path } = workflow;
	const { signingSecret } = context.enterprise;
	const fire = async (deliveries: number, tag: string) => {
		const result = await fireDeliveries(stack.lbClient, path, signingSecret, {
			deliveries,
			concurrency: options.concurrency,
			tag: `${tag}_${target}`,
		});
		if (result.ok !== deliveries)
			throw new Error(`${target}: ${result.ok} of ${deliveries} deliveries answered 200`);
		return result;
	};
	const settle = async () => {
		await waitForQueueDrained(stack);
		await sleep(TAIL_MS);
	};

	// Unprofiled: throughput and CPU by thread and by role.
	await fire(options.warmUp, 'warm');
	await settle();
	const pids = stack.webhooks.map(pidOf);
	const threadsBefore = pids.map(cpuSnapshot);
	const rolesBefore = cpuByRole();
	const measured = await fire(options.deliveries, 'cpu');
	await settle();
	const threadsAfter = pids.map(cpuSnapshot);
	const roles = difference(cpuByRole(), rolesBefore);
	const threads = new Map<string, number>();
	let processMs = 0;
	for (let i = 0; i < pids.length; i++) {
		processMs += threadsAfter[i].processMs - threadsBefore[i].processMs;
		for (const [name, ms] of difference(threadsAfter[i].threads, threadsBefore[i].threads))
			threads.set(name, (threads.get(name) ?? 0) + ms);
	}

	// Profiled: the same load on webhook processes started with --cpu-prof.
	const profileDir = join(dir, target);
	mkdirSync(profileDir, { recursive: true });
	for (const instance of stack.webhooks) {
		instance.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
		// The profile is written when the process exits. A webhook process can wait for a run it
		// still counts as active although the worker finished it; n8n then exits after this many
		// seconds (default 30), before the harness's SIGKILL, which would write no profile.
		instance.env.N8N_GRACEFUL_SHUTDOWN_TIMEOUT = '5';
		await instance.restart();
	}
	await sleep(LB_SETTLE_MS);
	await fire(options.warmUp, 'warm_profiled');
	await settle();
	const profiledPids = stack.webhooks.map(pidOf);
	const from = Number(process.hrtime.bigint() / 1000n);
	await fire(options.deliveries, 'profiled');
	await settle();
	const to = Number(process.hrtime.bigint() / 1000n);
	// A restart without the option ends the profiled process, which writes its profile.
	for (const instance of stack.webhooks) {
		delete instance.env.NODE_OPTIONS;
		delete instance.env.N8N_GRACEFUL_SHUTDOWN_TIMEOUT;
		await instance.restart();
	}
	await sleep(LB_SETTLE_MS);
	const files = readdirSync(profileDir)
		// CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: the main thread is thread 0.
		.filter(
			(file) =>
				file.endsWith('.cpuprofile') && profiledPids.some((pid) => file.includes(`.${pid}.0.`)),
		)
		.map((file) => join(profileDir, file));
	if (files.length !== profiledPids.length)
		throw new Error(
			`${target}: expected ${profiledPids.length} profiles in ${profileDir}, found ${files.length}`,
		);
	return {
		target,
		name: PROFILE_TARGET_NAMES[target],
		deliveries: options.deliveries,
		perSecond: measured.perSecond,
		cpuMsPerDelivery: processMs / options.deliveries,
		cpuMsPerDeliveryByThread: perDelivery(threads, options.deliveries),
		cpuMsPerDeliveryByRole: perDelivery(roles, options.deliveries),
		profile: summarize(files.map(readProfile), {
			from,
			to,
			deliveries: options.deliveries,
			count: 15,
			focus: FOCUS,
			under: 'n8n-nodes-document-extraction',
		}),
		profileFiles: files,
		window: { from, to },
		staticDataBytes: Number(
			stack
				.sql(
					`SELECT coalesce(length("staticData"::text), 0) FROM workflow_entity WHERE id = '${workflow.id}'`,
				)
				.trim(),
		),
	};
}

/** Profiles the webhook processes for each target in turn, on one queue stack; with `lazy`, with LAZY_ISOLATE_ENV set. */
export async function profileWebhookProcesses(
	options: {
		targets?: ProfileTarget[];
		deliveries?: number;
		concurrency?: number;
		warmUp?: number;
		prefill?: number;
		lazy?: boolean;
		packageDir?: string;
		/** Extra environment of the webhook processes (n8n settings to compare). */
		webhookEnv?: Record<string, string>;
	} = {},
): Promise<{ setting: string; dir: string; results: TargetProfile[] }> {
	const targets = options.targets ?? ['webhook', 'minimal', 'ours'];
	return await onQueueStack('profile', options.packageDir, async (context, stack) => {
		const dir = join(artifactsDir(), 'cpu-profiles', timestampForFiles());
		const paths: Record<ProfileTarget, () => Promise<{ id: string; path: string }>> = {
			webhook: () =>
				activeWebhookWorkflow(context, 'bench profile: Webhook node', [], 'onReceived'),
			minimal: () => activeMinimalTriggerWorkflow(context, 'bench profile: minimal trigger'),
			minimalCredential: () =>
				activeMinimalTriggerWorkflow(
					context,
					'bench profile: minimal trigger with a credential',
					1.1,
					context.enterprise.credential,
				),
			ours: () => activeTriggerWorkflow(context, 'bench profile: our trigger'),
			oursNoDedupe: () =>
				activeTriggerWorkflow(context, 'bench profile: our trigger, Ignore Duplicates off', {
					ignoreDuplicates: false,
				}),
		};
		if (options.lazy) await setLazyIsolate(stack, true);
		if (options.webhookEnv) {
			for (const instance of stack.webhooks) {
				Object.assign(instance.env, options.webhookEnv);
				await instance.restart();
			}
			await sleep(LB_SETTLE_MS);
		}
		const results: TargetProfile[] = [];
		for (const target of targets) {
			const workflow = await paths[target]();
			const { path } = workflow;
			progress(`profile: ${PROFILE_TARGET_NAMES[target]} ...`);
			if (target === 'ours' && options.prefill) {
				// A busy workflow's duplicate memory is full: fill it before measuring.
				await fireDeliveries(stack.lbClient, path, context.enterprise.signingSecret, {
					deliveries: options.prefill,
					concurrency: options.concurrency ?? 10,
					tag: 'prefill',
				});
				await waitForQueueDrained(stack);
			}
			const result = await profileTarget(context, stack, target, workflow, dir, {
				deliveries: options.deliveries ?? 300,
				concurrency: options.concurrency ?? 10,
				warmUp: options.warmUp ?? 20,
			});
			progress(
				`profile: ${result.name}: ${result.perSecond.toFixed(1)}/s, webhook processes' CPU ${result.cpuMsPerDelivery.toFixed(1)} ms per delivery; by role ${JSON.stringify(result.cpuMsPerDeliveryByRole)}; static data ${result.staticDataBytes} bytes`,
			);
			results.push(result);
		}
		const env = Object.entries(options.webhookEnv ?? {}).map(([key, value]) => `${key}=${value}`);
		const setting =
			[...(options.lazy ? [`${LAZY_ISOLATE_ENV}=true`] : []), ...env].join(', ') || 'defaults';
		return { setting, dir, results };
	});
}

/** Text for the console and the docs: per target, CPU per delivery and the profile's tables. */
export function renderProfiles(results: TargetProfile[]): string {
	const roles = [
		...new Set(results.flatMap((result) => Object.keys(result.cpuMsPerDeliveryByRole))),
	];
	const lines = [
		`| target | deliveries/s | webhook processes: CPU ms per delivery (all threads) | of which main thread | main thread busy ms per delivery (profile) | ${roles.join(' | ')} |`,
		`|---|---|---|---|---|${roles.map(() => '---|').join('')}`,
	];
	for (const result of results) {
		const byRole = roles.map((role) => (result.cpuMsPerDeliveryByRole[role] ?? 0).toFixed(1));
		lines.push(
			`| ${result.name} | ${result.perSecond.toFixed(1)} | ${result.cpuMsPerDelivery.toFixed(1)} | ${(result.cpuMsPerDeliveryByThread.main ?? 0).toFixed(1)} | ${result.profile.busyMsPerDelivery?.toFixed(1) ?? '—'} | ${byRole.join(' | ')} |`,
		);
	}
	for (const result of results) {
		const threads = Object.entries(result.cpuMsPerDeliveryByThread)
			.map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
			.join(', ');
		lines.push(
			'',
			`### ${result.name}`,
			'',
			`Webhook processes' CPU ms per delivery by thread: ${threads}`,
			'',
			renderSummary(
				result.profile,
				`${result.deliveries} deliveries, window ${result.window.from}–${result.window.to} µs`,
			),
		);
	}
	return lines.join('\n');
}
