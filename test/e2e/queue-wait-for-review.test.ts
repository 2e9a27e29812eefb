/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// Wait for Review at scale in n8n's queue mode (PostgreSQL, Redis, main + 2 workers:
// local-n8n/queue/workerTopology.ts) against the sandbox: 20 executions wait at once, each for its
// own document; one worker is killed (SIGKILL) while they wait; the sandbox delivers the signed
// review results to their resume URLs; each execution continues, on the surviving worker, on the
// output its result says (Verified / Rejected); forged callbacks are refused and change nothing; a
// short Review Timeout still ends a wait on Timed Out. The single-execution cases are in
// test/e2e/wait-for-review.test.ts.

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	extractParameters,
	createExtractRouteWorkflow,
	actionNode,
	log,
	nodeJson,
	sandboxControl,
	sandboxState,
	sandboxCredential,
	startSandboxInProcess,
	stopAll,
	type Credential,
	type DecodedExecution,
	type SandboxHandle,
	type Stack,
} from '../../local-n8n/index.ts';
import { startQueueTopology, type QueueTopology } from '../../local-n8n/queue/workerTopology.ts';

const WAITING = 20;
const OUTPUTS = ['On Verified', 'On Rejected', 'On Timed Out'];

let topology: QueueTopology;
let stack: Stack;
let sandbox: SandboxHandle;
let credential: Credential;
let signingSecret = '';

async function waitingWorkflow(name: string, parameters: Record<string, unknown> = {}) {
	return await createExtractRouteWorkflow(stack.client, {
		name,
		fileDir: stack.n8n.fileAccessDirs[0],
		fileName: 'invoice-blurry.json',
		extract: actionNode('Extract', credential, extractParameters({ waitForReview: true, ...parameters })),
		outputs: OUTPUTS,
	});
}

/** Starts `count` executions at once and waits until all of them wait; each with the document it uploaded. */
async function startWaiting(workflow: { id: string; path: string }, count: number) {
	const answers = await Promise.all(
		Array.from({ length: count }, async (_, index) => await stack.client.callWebhook(workflow.path, { json: { caller: `caller-${index}` } })),
	);
	expect(answers.map((answer) => answer.status)).toEqual(Array(count).fill(200));
	const deadline = Date.now() + 120_000;
	for (;;) {
		const executions = await stack.client.listExecutions(workflow.id);
		const failed = executions.filter((execution) => !['waiting', 'running', 'new'].includes(execution.status));
		if (failed.length > 0) throw new Error(`executions ended instead of waiting: ${failed.map((execution) => `${execution.id} ${execution.status}`).join(', ')}`);
		const waiting = executions.filter((execution) => execution.status === 'waiting');
		if (waiting.length === count) {
			const documents = (await sandboxState(sandbox.url)).documents;
			return waiting.map((execution) => {
				const document = documents.find((entry) => new RegExp(`/webhook-waiting/${execution.id}(?:[/?]|$)`).test(entry.webhookUrl ?? ''));
				expect(document, `execution ${execution.id} uploaded its document with its resume URL`).toBeDefined();
				expect(document!.state).toBe('needs_review');
				return { executionId: execution.id, document: document! };
			});
		}
		if (Date.now() > deadline) throw new Error(`${waiting.length} of ${count} executions waiting after 120 s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

function outputsOf(execution: DecodedExecution): Record<string, Array<Record<string, unknown>>> {
	return Object.fromEntries(OUTPUTS.map((name) => [name, nodeJson(execution, name)]).filter(([, items]) => (items as unknown[]).length > 0));
}

async function postTo(url: string, body: string, headers: Record<string, string>) {
	const response = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, dispatcher: stack.client.dispatcher });
	return { status: response.statusCode, text: await response.body.text() };
}

const sign = (body: string, secret = signingSecret) => createHmac('sha256', secret).update(body).digest('hex');

describe(`Wait for Review with ${WAITING} executions waiting at once`, () => {
	beforeAll(async () => {
		topology = await startQueueTopology({ workers: 2 });
		stack = topology.stack;
		sandbox = await startSandboxInProcess(stack.tls, { reviewDelayMs: 600_000, retryBaseMs: 300 });
		({ credential, signingSecret } = await sandboxCredential(stack.client, sandbox, 'enterprise'));
	});

	afterAll(async () => {
		await sandbox?.close();
		await topology?.stop();
		await stopAll();
	});

	it('each resumes on the output of its own review result, on the surviving worker after the other was killed; forged callbacks get 401 and leave them waiting', async () => {
		const workflow = await waitingWorkflow('e2e scale: wait for review');
		const waiting = await startWaiting(workflow, WAITING);
		const ranOn = (executionId: string, marker: string) => topology.workers.filter((worker) => readFileSync(worker.logFile, 'utf8').includes(`${marker} execution ${executionId} `));
		const startedPerWorker = topology.workers.map((worker) => waiting.filter(({ executionId }) => ranOn(executionId, 'Worker started').includes(worker)).length);
		expect(startedPerWorker.every((count) => count > 0), `started per worker: ${startedPerWorker.join(', ')}`).toBe(true);

		const [killed, survivor] = topology.workers;
		await killed.kill();
		const survivorLogBefore = readFileSync(survivor.logFile, 'utf8').length;
		const resumedOnSurvivor = (executionId: string) => readFileSync(survivor.logFile, 'utf8').slice(survivorLogBefore).includes(`Worker started execution ${executionId} `);

		const forgedBody = (documentId: string) =>
			JSON.stringify({ event: 'document.rejected', timestamp: new Date().toISOString(), document_id: documentId, review_id: 'rev_forged', reason: 'forged' });
		for (const { document } of waiting.slice(0, 5)) {
			const body = forgedBody(document.id);
			expect((await postTo(document.webhookUrl!, body, { 'x-service-signature': sign(body, 'whsec_not_the_secret') })).status).toBe(401);
			expect((await postTo(document.webhookUrl!, body, {})).status).toBe(401);
		}
		const statuses = await stack.client.listExecutions(workflow.id);
		expect(statuses.filter((execution) => execution.status === 'waiting')).toHaveLength(WAITING);

		const decisions = waiting.map(({ executionId, document }, index) => ({ executionId, document, approve: index % 2 === 0 }));
		await Promise.all(
			decisions.map(async ({ document, approve }) =>
				await sandboxControl(sandbox.url, `reviews/${document.reviewId}/${approve ? 'approve' : 'reject'}`, approve ? {} : { reason: `rejected ${document.id}` }),
			),
		);
		for (const { executionId, document, approve } of decisions) {
			const execution = await stack.client.waitForExecution(executionId, { timeoutMs: 120_000 });
			expect(resumedOnSurvivor(executionId), `execution ${executionId} resumed on ${survivor.name}`).toBe(true);
			expect(execution.status).toBe('success');
			const outputs = outputsOf(execution);
			expect(Object.keys(outputs)).toEqual([approve ? 'On Verified' : 'On Rejected']);
			expect(outputs[approve ? 'On Verified' : 'On Rejected'][0]).toMatchObject(
				approve ? { document_id: document.id, status: 'verified' } : { document_id: document.id, status: 'rejected', rejection_reason: `rejected ${document.id}` },
			);
		}
		log('queue-wait-for-review', `${WAITING} executions waited at once (started per worker: ${startedPerWorker.join(', ')}); ${killed.name} killed; 10 forged callbacks → 401; each resumed on ${survivor.name} on its own result (${WAITING / 2} Verified, ${WAITING / 2} Rejected)`);
	});

	it('a short Review Timeout still ends a wait on Timed Out', async () => {
		const workflow = await waitingWorkflow('e2e scale: review timeout', { reviewTimeout: 0.1 });
		const [{ executionId, document }] = await startWaiting(workflow, 1);
		// n8n's wait tracker looks for due executions once a minute.
		const execution = await stack.client.waitForExecution(executionId, { timeoutMs: 150_000 });
		expect(execution.status).toBe('success');
		expect(Object.keys(outputsOf(execution))).toEqual(['On Timed Out']);
		expect(outputsOf(execution)['On Timed Out'][0]).toMatchObject({ document_id: document.id, timed_out: true });
	});
});
