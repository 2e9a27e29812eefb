/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// What the single-process e2e files start with: a real n8n with this package installed
// (startStack), the sandbox in this process trusting n8n's CA, and an n8n credential for one of the
// sandbox's accounts, all stopped after the file. The n8n is shared by the files that neither
// configure, stop nor restart it: vitest runs the e2e files one after another in one process
// (test/vitest.config.ts), and each file leaves it as it found it (no workflow, Data Table,
// credential or file). Plus what those files ask of them again and again:
// signed deliveries, the sandbox's registrations and deliveries, documents sent to review, secrets
// kept out of executions, and execution counts that wait for a settle (so a late extra one is seen).

import { createHmac } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { afterAll, beforeAll, expect } from 'vitest';
import {
	documentInReview,
	eventually,
	removeTmpDirs,
	sandboxCredential,
	sandboxDeliveries,
	sandboxState,
	startOutliving,
	startSandboxInProcess,
	startStack,
	stopAll,
	reviewTriggerNode,
	triggerWorkflow,
	type Credential,
	type DecodedExecution,
	type DeliveryAttempt,
	type ExecutionSummary,
	type N8nClient,
	type NodeSpec,
	type RunningSandbox,
	type SandboxCredential,
	type SandboxOptions,
	type SandboxStateSnapshot,
	type Stack,
	type StackOptions,
} from '../../../local-n8n/index.ts';
import type { Tier } from '../../../sandbox/config.ts';
import { triggerRuns, type TriggerRun } from './triggerRuns.ts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sandbox options for files whose reviews finish only when a test approves or rejects them (the
 * sandbox's own approval would come after 90 s, inside a run), and whose failed deliveries are
 * retried at once (0.3 s, 0.6 s, …) rather than after 10 s.
 */
export const REVIEWS_DECIDED_BY_THE_TEST: SandboxOptions = {
	reviewDelayMs: 600_000,
	retryBaseMs: 300,
};

export interface N8nAndSandboxOptions {
	/** startStack's options; the package installed is this repository's unless `package` says otherwise. */
	stack?: StackOptions;
	/** The sandbox's options (default: the sandbox's own). */
	sandbox?: SandboxOptions;
	/**
	 * The sandbox account that the credential "Document Extraction (sandbox)" is made for (default
	 * enterprise: no rate limit); null for no credential.
	 */
	tier?: Tier | null;
	/** How long a count waits after reaching its number before it is checked (default 2 s): n8n saves an execution, and the trigger registers, well within it. */
	settleMs?: number;
	/** An n8n of the file's own, which it may stop, restart or read the whole log of (default with `stack` options; otherwise the shared one). */
	ownN8n?: boolean;
	/**
	 * The shared n8n, which this file may restart (not stop or kill): n8n keeps its data and settings,
	 * and the next file finds it running. Its log and output hold the other files' lines too: a file
	 * that looks there for a line of its own reads from a point of its own, and one that needs them
	 * free of lines it did not make takes `ownN8n`.
	 */
	restartsN8n?: boolean;
}

/** The n8n of the files without an n8n of their own: started by the first, stopped with vitest's process. */
let sharedStack: Promise<Stack> | undefined;

async function sharedN8n(): Promise<Stack> {
	const running = await sharedStack?.catch(() => undefined);
	if (running?.n8n.isRunning()) return running;
	sharedStack = startOutliving(() => startStack({ package: 'repo' }));
	return await sharedStack;
}

/** The shared n8n as one file sees it: it may not stop or kill it, nor restart it unless `restarts`. */
function borrowed(stack: Stack, restarts: boolean): Stack {
	const refuse = async () => {
		throw new Error(
			'this file shares n8n with other e2e files: give useN8nAndSandbox { restartsN8n: true } to restart it, { ownN8n: true } to stop or kill it',
		);
	};
	return {
		...stack,
		n8n: {
			...stack.n8n,
			stop: refuse,
			// Started again, n8n outlives the file as it did before.
			restart: restarts ? () => startOutliving(() => stack.n8n.restart()) : refuse,
			kill: refuse,
		},
		restartN8n: restarts ? () => startOutliving(() => stack.restartN8n()) : refuse,
		stop: refuse,
	};
}

/** Removes what a file made in a shared n8n: its workflows (their executions go with them), Data Tables, credentials and files. */
export async function clearForNextFile(client: N8nClient, fileDirs: string[]): Promise<void> {
	for (const workflow of await client.listWorkflows()) await client.deleteWorkflow(workflow.id);
	await client.deleteDataTables();
	for (const credential of await client.listCredentials())
		await client.deleteCredential(credential.id);
	for (const dir of fileDirs)
		for (const entry of readdirSync(dir))
			rmSync(join(dir, entry), { recursive: true, force: true });
}

/** Registers beforeAll/afterAll hooks that start and stop n8n + sandbox; the handle is usable from beforeAll on. */
export function useN8nAndSandbox(options: N8nAndSandboxOptions = {}): N8nAndSandbox {
	const fixture = new N8nAndSandbox(options.settleMs ?? 2_000);
	beforeAll(async () => await fixture.start(options));
	afterAll(async () => await fixture.stop());
	return fixture;
}

export class N8nAndSandbox {
	/** Every secret of the credentials the file made; none may appear in an execution (a file adds its other credentials' secrets). */
	readonly secrets: string[] = [];
	/** How long a count waits after reaching its number before it is checked. */
	readonly settleMs: number;
	private startedStack?: Stack;
	private sharesN8n = false;
	private startedSandbox?: RunningSandbox;
	private account?: SandboxCredential;
	private currentSigningSecret?: string;

	constructor(settleMs: number) {
		this.settleMs = settleMs;
	}

	async start(options: N8nAndSandboxOptions): Promise<void> {
		// In a worker thread (the e2e-waiting project) nothing stops a shared n8n when vitest ends the
		// thread, so each file there has its own, stopped with the file.
		this.sharesN8n = !options.ownN8n && !options.stack && isMainThread;
		this.startedStack = this.sharesN8n
			? borrowed(await sharedN8n(), options.restartsN8n === true)
			: await startStack({ package: 'repo', ...options.stack });
		this.startedSandbox = await startSandboxInProcess(this.startedStack.tls, options.sandbox);
		const tier = options.tier === undefined ? 'enterprise' : options.tier;
		if (tier === null) return;
		this.account = await sandboxCredential(this.startedStack.client, this.startedSandbox, tier);
		this.currentSigningSecret = this.account.signingSecret;
		this.secrets.push(this.account.apiKey, this.account.signingSecret);
	}

	/** Stops whatever started, also after a failed start. */
	async stop(): Promise<void> {
		// Before the sandbox closes: unpublishing a trigger may call it.
		if (this.sharesN8n && this.startedStack)
			await clearForNextFile(this.startedStack.client, this.startedStack.n8n.fileAccessDirs);
		await this.startedSandbox?.close();
		if (!this.sharesN8n) await this.startedStack?.stop();
		await stopAll();
		removeTmpDirs();
	}

	get stack(): Stack {
		return started(this.startedStack, 'n8n');
	}

	get sandbox(): RunningSandbox {
		return started(this.startedSandbox, 'the sandbox');
	}

	get credential(): Credential {
		return started(this.account, 'the credential').credential;
	}

	get apiKey(): string {
		return started(this.account, 'the credential').apiKey;
	}

	/** The signing secret the credential holds now. */
	get signingSecret(): string {
		return started(this.currentSigningSecret, 'the credential');
	}

	/** A test that changes the credential's secret in n8n records the new one here (for sign() and secrets). */
	set signingSecret(secret: string) {
		this.currentSigningSecret = secret;
		this.secrets.push(secret);
	}

	/** A workflow started by `trigger`, created (not active): its production and test webhook URLs. */
	async createTriggerWorkflow(
		name: string,
		trigger: NodeSpec,
	): Promise<{ id: string; path: string; url: string; testUrl: string; webhookId: string }> {
		const definition = triggerWorkflow({ name, trigger });
		const workflow = await this.stack.client.createWorkflow(definition);
		const path = `${definition.webhookId}/webhook`;
		return {
			id: workflow.id,
			path,
			url: `${this.stack.n8n.baseUrl}/webhook/${path}`,
			testUrl: `${this.stack.n8n.baseUrl}/webhook-test/${path}`,
			webhookId: definition.webhookId,
		};
	}

	/** A workflow started by the review trigger (default: the credential's, v1.1), active and served. */
	async activeTriggerWorkflow(
		name: string,
		trigger: NodeSpec = reviewTriggerNode(this.credential),
	): Promise<{ id: string; path: string }> {
		const { id, path } = await this.createTriggerWorkflow(name, trigger);
		await this.stack.client.activateWorkflow(id);
		await this.stack.client.waitForWebhook(path);
		return { id, path };
	}

	/** The x-service-signature of `body`: HMAC-SHA256 in lowercase hex (bytes as given, so a forged body stays as forged). */
	sign(body: string | Buffer, secret = this.signingSecret): string {
		return createHmac('sha256', secret).update(body).digest('hex');
	}

	/** Fails when any secret of `secrets` is in the stored execution. */
	expectNoSecretIn(execution: DecodedExecution, message = 'a secret in the execution'): void {
		const raw = JSON.stringify(execution.raw);
		for (const secret of this.secrets) expect(raw.includes(secret), message).toBe(false);
	}

	/** Lets a late extra execution or registration arrive before a count is checked. */
	async settle(): Promise<void> {
		await sleep(this.settleMs);
	}

	async sandboxState(): Promise<SandboxStateSnapshot> {
		return await sandboxState(this.sandbox.url);
	}

	/** The sandbox's registrations for `url`. */
	async registrationsFor(url: string) {
		return (await this.sandboxState()).webhooks.filter((webhook) => webhook.url === url);
	}

	/** Waits until the sandbox holds exactly `count` registrations for `url`. */
	async waitForRegistrations(url: string, count = 1) {
		return await eventually(
			`${count} registration(s) for ${url}`,
			() => this.registrationsFor(url),
			(found) => found.length === count,
			30_000,
		);
	}

	/** The registrations for `url` once at least `atLeast` exist and a settle has passed (so a late extra one is seen too). */
	async settledRegistrations(url: string, atLeast = 1) {
		await eventually(
			`${atLeast} registration(s) for ${url}`,
			() => this.registrationsFor(url),
			(found) => found.length >= atLeast,
			30_000,
		);
		await this.settle();
		return await this.registrationsFor(url);
	}

	/**
	 * Waits until the sandbox holds `count` registrations of this n8n's production webhooks: the
	 * Document Extraction Triggers of the active example workflows register theirs on activation.
	 */
	async waitForTriggerRegistrations(count: number): Promise<void> {
		const prefix = `${this.stack.n8n.baseUrl}/webhook/`;
		await eventually(
			`${count} example trigger(s) registered with the sandbox`,
			async () =>
				(await this.sandboxState()).webhooks.filter((webhook) => webhook.url.startsWith(prefix))
					.length,
			(found) => found === count,
			30_000,
		);
	}

	/** The sandbox's delivery attempts that match `filter`, oldest first. */
	async deliveries(
		filter: (delivery: DeliveryAttempt) => boolean = () => true,
	): Promise<DeliveryAttempt[]> {
		return (await sandboxDeliveries(this.sandbox.url)).filter(filter);
	}

	/** Waits until `okCount` of the attempts that match `filter` succeeded; returns every matching attempt, failed ones too. */
	async deliveriesOnceOk(
		what: string,
		filter: (delivery: DeliveryAttempt) => boolean,
		okCount: number,
	): Promise<DeliveryAttempt[]> {
		return await eventually(
			what,
			() => this.deliveries(filter),
			(list) => list.filter((delivery) => delivery.ok).length >= okCount,
		);
	}

	/** A document sent to human review (confidence 0.7), straight to the sandbox's service API with the credential's key. */
	async documentInReview(fileName?: string): Promise<{ document_id: string; review_id: string }> {
		const body = await documentInReview(this.sandbox.url, this.apiKey, fileName);
		expect(body.status).toBe('needs_review');
		return body;
	}

	/** The executions of a workflow, only those of `mode` ('webhook', 'manual', …) when given. */
	async executions(workflowId: string, mode?: string): Promise<ExecutionSummary[]> {
		const list = await this.stack.client.listExecutions(workflowId);
		return mode ? list.filter((execution) => execution.mode === mode) : list;
	}

	async executionCount(workflowId: string, mode?: string): Promise<number> {
		return (await this.executions(workflowId, mode)).length;
	}

	/** Waits for `count` executions (of `mode`), lets a settle pass and checks that no more came; returns the count. */
	async exactlyExecutions(workflowId: string, count: number, mode?: string): Promise<number> {
		await this.exactlyExecutionsOfEach([[workflowId, count, mode]]);
		return count;
	}

	/** exactlyExecutions() for several workflows at once, with one settle: `[[id1, 2], [id2, 0]]`. */
	async exactlyExecutionsOfEach(
		expected: Array<[workflowId: string, count: number, mode?: string]>,
	): Promise<void> {
		for (const [workflowId, count, mode] of expected) {
			if (count > 0)
				await eventually(
					`${count} execution(s) of ${workflowId}`,
					() => this.executions(workflowId, mode),
					(list) => list.length >= count,
					60_000,
				);
		}
		await this.settle();
		for (const [workflowId, count, mode] of expected) {
			expect(
				await this.executionCount(workflowId, mode),
				`executions (${mode ?? 'any'}) of workflow ${workflowId}`,
			).toBe(count);
		}
	}

	/** The executions of a trigger's workflow that reached it (support/triggerRuns.ts), of `mode` when given. */
	async runs(workflowId: string, mode?: string): Promise<TriggerRun[]> {
		return await triggerRuns(this.stack.client, workflowId, mode);
	}

	/** The newest execution of `workflowId` that reached the workflow. */
	async lastRun(workflowId: string): Promise<DecodedExecution> {
		const run = (await this.runs(workflowId)).at(-1);
		if (!run) throw new Error(`workflow ${workflowId} has no run`);
		return await this.stack.client.getExecution(run.executionId);
	}

	/** exactlyExecutions() counting runs that reached the workflow: a copy stops at the trigger. */
	async exactlyRuns(workflowId: string, count: number, mode?: string): Promise<number> {
		await this.exactlyRunsOfEach([[workflowId, count, mode]]);
		return count;
	}

	/** exactlyRuns() for several workflows at once, with one settle. */
	async exactlyRunsOfEach(
		expected: Array<[workflowId: string, count: number, mode?: string]>,
	): Promise<void> {
		for (const [workflowId, count, mode] of expected) {
			if (count > 0)
				await eventually(
					`${count} run(s) of ${workflowId}`,
					() => this.runs(workflowId, mode),
					(list) => list.length >= count,
					60_000,
				);
		}
		await this.settle();
		for (const [workflowId, count, mode] of expected) {
			// A run's trigger decides after its claim settles: count once every execution has finished.
			await eventually(
				`every execution of ${workflowId} finished`,
				() => this.executions(workflowId),
				(list) => list.every((execution) => !['new', 'running'].includes(execution.status)),
				60_000,
			);
			expect(
				(await this.runs(workflowId, mode)).length,
				`runs (${mode ?? 'any'}) of workflow ${workflowId}`,
			).toBe(count);
		}
	}
}

function started<T>(value: T | undefined, what: string): T {
	if (value === undefined)
		throw new Error(`${what} is not started yet: useN8nAndSandbox() starts it in beforeAll`);
	return value;
}
