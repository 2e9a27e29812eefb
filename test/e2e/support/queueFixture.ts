/* eslint-disable @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n; it rethrows plain errors after cleaning up and reads the workers' logs */
// What every queue-mode test starts with: the full queue stack (local-n8n/queue/queueStack.ts), a
// sandbox trusting its CA, an enterprise credential, and one folder that main and every worker may
// read files from (Read/Write Files from Disk runs on the workers). Plus the workflows the queue
// tests activate, each waited for on both webhook processes and the load balancer (main serves no
// production webhooks in this topology).

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { clearForNextFile } from './n8nAndSandbox.ts';
import {
	createExtractRouteWorkflow,
	eventually,
	log,
	makeTmpDir,
	reviewTriggerNode,
	sandboxState,
	sandboxCredential,
	startQueueStack,
	startSandboxInProcess,
	removeTmpDirs,
	startOutliving,
	stopAll,
	triggerWorkflow,
	type NodeSpec,
	type QueueStack,
	type QueueStackOptions,
	type SandboxCredential,
	type SandboxHandle,
	type SandboxOptions,
	type WorkflowDefinition,
} from '../../../local-n8n/index.ts';

export interface QueueFixture {
	stack: QueueStack;
	sandbox: SandboxHandle;
	account: SandboxCredential;
	/** Folder that Read/Write Files from Disk may use on main and on every worker. */
	fileDir: string;
	/** Whether the stack serves other files too (then the file may not stop or restart it). */
	shared: boolean;
}

/**
 * The queue stack of the files that do not configure one: started by the first, it serves the others
 * in turn (vitest runs the e2e files one after another in one process), each leaving it as it found
 * it (no workflow, credential or file). A file may restart or kill its n8n processes: the next file
 * gets every process running again (restarting a process is a third of a stack's start).
 */
let sharedStack: Promise<{ stack: QueueStack; fileDir: string }> | undefined;

async function sharedQueueStack(): Promise<{ stack: QueueStack; fileDir: string }> {
	const running = await sharedStack?.catch(() => undefined);
	if (running) {
		const stopped = running.stack.processes().filter(({ instance }) => !instance.isRunning());
		if (stopped.length === 0) return running;
		const restarted = await startOutliving(async () => await restartStopped(running.stack));
		if (restarted) return running;
	}
	await running?.stack.stop();
	sharedStack = startOutliving(async () => {
		const fileDir = makeTmpDir('queue-files');
		const stack = await startQueueStack({ fileAccessDirs: [fileDir], balance: SHARED_BALANCE });
		// A process a file restarts outlives the file, as the one it replaces did.
		for (const { instance } of stack.processes()) {
			const restart = instance.restart;
			instance.restart = () => startOutliving(restart);
		}
		return { stack, fileDir };
	});
	return await sharedStack;
}

/**
 * Starts again the n8n processes of `stack` that a file stopped or killed; for a webhook process,
 * waits until the load balancer's health check takes it back. False when that fails (the caller
 * then starts a new stack).
 */
async function restartStopped(stack: QueueStack): Promise<boolean> {
	const stopped = stack.processes().filter(({ instance }) => !instance.isRunning());
	const upBefore = new Map(stopped.map(({ name }) => [name, healthChecksUp(stack, name)]));
	try {
		await Promise.all(stopped.map(async ({ instance }) => await instance.restart()));
		for (const { role, name } of stopped)
			if (role === 'webhook')
				await eventually(
					`HAProxy takes ${name} back`,
					async () => healthChecksUp(stack, name),
					(count) => count > (upBefore.get(name) ?? 0),
					30_000,
				);
		log('queue-test', `shared stack: ${stopped.map(({ name }) => name).join(', ')} started again`);
		return true;
	} catch (error) {
		log(
			'queue-test',
			`shared stack: restarting ${stopped.map(({ name }) => name).join(', ')} failed (${String(error)}); starting a new one`,
		);
		return false;
	}
}

/** How often HAProxy's health check has marked webhook process `name` UP (a line of its log each time). */
function healthChecksUp(stack: QueueStack, name: string): number {
	return readFileSync(stack.lb.logFile, 'utf8')
		.split('\n')
		.filter((line) => line.startsWith(`Server n8n_webhook_processes/${name} is UP,`)).length;
}

/** The load balancer's mode on the shared stack between files. */
const SHARED_BALANCE = 'signature';

/**
 * Starts stack, sandbox and credential; stops whatever started when a step fails. `balance`: the
 * load balancer's mode for this file (on the shared stack too; set back when the file ends).
 */
export async function startQueueFixture(
	options: {
		stack?: QueueStackOptions;
		sandbox?: SandboxOptions;
		ownStack?: boolean;
		balance?: QueueStackOptions['balance'];
	} = {},
): Promise<QueueFixture> {
	const shared = !options.ownStack && !options.stack;
	let stack: QueueStack | undefined;
	let sandbox: SandboxHandle | undefined;
	try {
		let fileDir: string;
		if (shared) {
			({ stack, fileDir } = await sharedQueueStack());
			const { lb } = stack;
			if (options.balance && lb.balance() !== options.balance)
				await startOutliving(() => lb.setBalance(options.balance!));
		} else {
			fileDir = makeTmpDir('queue-files');
			stack = await startQueueStack({
				fileAccessDirs: [fileDir],
				balance: options.balance,
				...options.stack,
			});
		}
		sandbox = await startSandboxInProcess(stack.tls, options.sandbox);
		const account = await sandboxCredential(stack.client, sandbox, 'enterprise');
		return { stack, sandbox, account, fileDir, shared };
	} catch (error) {
		await sandbox?.close();
		if (!shared) await stack?.stop();
		await stopAll();
		throw error;
	}
}

export async function stopQueueFixture(fixture: QueueFixture | undefined): Promise<void> {
	// Before the sandbox closes: unpublishing a trigger may call it.
	if (fixture?.shared) await clearForNextFile(fixture.stack.client, [fixture.fileDir]);
	await fixture?.sandbox.close();
	const lb = fixture?.shared ? fixture.stack.lb : undefined;
	// Restarted, HAProxy is the shared stack's again: it outlives this file.
	if (lb && lb.balance() !== SHARED_BALANCE)
		await startOutliving(() => lb.setBalance(SHARED_BALANCE));
	if (!fixture?.shared) await fixture?.stack.stop();
	await stopAll();
	removeTmpDirs();
}

/**
 * Inside a suite's describe: starts the queue fixture before the suite's tests and hands it to
 * `started`; stops it after them, when the suite's own afterAll hooks have run. A suite that is not
 * run starts nothing.
 */
export function useQueueFixture(
	options: Parameters<typeof startQueueFixture>[0],
	started: (fixture: QueueFixture) => void,
): void {
	let fixture: QueueFixture | undefined;
	beforeAll(async () => {
		const t0 = Date.now();
		fixture = await startQueueFixture(options);
		log('queue-test', `stack up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		started(fixture);
	});
	afterAll(async () => {
		await stopQueueFixture(fixture);
	});
}

/** Resolves once both webhook processes and the load balancer serve the production webhook `path`. */
export async function waitForPublicWebhook(stack: QueueStack, path: string): Promise<void> {
	for (const client of [...stack.webhookClients, stack.lbClient]) await client.waitForWebhook(path);
}

/** An active workflow started by the review trigger (registered at the sandbox on activation). */
export async function activeTrigger(
	fixture: QueueFixture,
	name: string,
	options: Record<string, unknown> = {},
): Promise<{ id: string; path: string; url: string }> {
	const trigger = reviewTriggerNode(fixture.account.credential);
	const definition = triggerWorkflow({
		name,
		trigger: {
			...trigger,
			parameters: { ...(trigger.parameters as Record<string, unknown>), options },
		},
	});
	return await activateTriggerWorkflow(fixture, definition);
}

/** Activates (publishes) `workflow` again; resolves once the public URL serves it. */
export async function republish(
	fixture: QueueFixture,
	workflow: { id: string; path: string },
): Promise<void> {
	await fixture.stack.client.activateWorkflow(workflow.id);
	await waitForPublicWebhook(fixture.stack, workflow.path);
}

/**
 * Creates and activates a workflow started by the review trigger; resolves once the public URL
 * serves it and the sandbox holds its registration.
 */
export async function activateTriggerWorkflow(
	fixture: QueueFixture,
	definition: WorkflowDefinition & { webhookId: string },
): Promise<{ id: string; path: string; url: string }> {
	const { id } = await fixture.stack.client.createWorkflow(definition);
	const path = `${definition.webhookId}/webhook`;
	await fixture.stack.client.activateWorkflow(id);
	await waitForPublicWebhook(fixture.stack, path);
	const url = `${fixture.stack.publicUrl}/webhook/${path}`;
	await waitForRegistration(fixture, url);
	return { id, path, url };
}

/**
 * Resolves once the sandbox holds a registration for `url`. n8n answers the activation, and serves the
 * path, before the trigger's registration has reached the service; an event finished before then is
 * sent nowhere (correct service behaviour), so a test that makes events waits for this first.
 */
export async function waitForRegistration(fixture: QueueFixture, url: string): Promise<void> {
	await eventually(
		`the sandbox holds the registration of ${url}`,
		async () =>
			(await sandboxState(fixture.sandbox.url)).webhooks.some((webhook) => webhook.url === url),
		(held) => held,
		30_000,
	);
}

/**
 * Webhook → Read File (`examples/files/<fileName>`, copied into the shared folder) → `extract` (named
 * "Extract") → one caller-echo node per output; active and served by the public URL.
 */
export async function activeExtractRoute(
	fixture: QueueFixture,
	options: { name: string; fileName: string; extract: NodeSpec; outputs: string[] },
): Promise<{ id: string; path: string }> {
	return await createExtractRouteWorkflow(fixture.stack.client, {
		...options,
		fileDir: fixture.fileDir,
		waitForServed: async (path) => await waitForPublicWebhook(fixture.stack, path),
	});
}

/** The workers (`worker1`, …) whose log says they started execution `executionId`. */
export function workersThatRan(stack: QueueStack, executionId: string): string[] {
	return stack.workers
		.map((worker, index) => ({
			name: `worker${index + 1}`,
			log: readFileSync(worker.logFile, 'utf8'),
		}))
		.filter((worker) => worker.log.includes(`Worker started execution ${executionId} `))
		.map((worker) => worker.name);
}
