/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// Wait for Review at scale in n8n's queue mode (the full queue stack: Postgres, Redis, main, 2
// workers, 2 webhook processes behind HAProxy over HTTPS) against the sandbox: 20 executions wait at
// once, each for its own document, its resume URL on the public (load balancer) address; one worker
// is killed (SIGKILL) while they wait; the sandbox delivers the signed review results to those
// resume URLs through HAProxy to either webhook process; each execution continues, on the surviving
// worker, on the output its result says (Verified / Rejected); forged callbacks are refused and
// change nothing; a short Review Timeout still ends a wait on Timed Out. The single-execution cases
// are in test/e2e/wait-for-review.test.ts.

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';
import {
	actionNode,
	extractParameters,
	log,
	sandboxControl,
	sandboxDeliveries,
	sandboxState,
} from '../../local-n8n/index.ts';
import { outputsOf } from './support/executionPath.ts';
import { activeExtractRoute, useQueueFixture, type QueueFixture } from './support/queueFixture.ts';
import { postToResumeUrl } from './support/resumeUrl.ts';

const WAITING = 20;
const OUTPUTS = ['On Verified', 'On Rejected', 'On Timed Out'];

let fixture: QueueFixture;

async function waitingWorkflow(name: string, parameters: Record<string, unknown> = {}) {
	return await activeExtractRoute(fixture, {
		name,
		fileName: 'invoice-blurry.json',
		extract: actionNode(
			'Extract',
			fixture.account.credential,
			extractParameters({ waitForReview: true, ...parameters }),
		),
		outputs: OUTPUTS,
	});
}

/** Starts `count` executions at once and waits until all of them wait; each with the document it uploaded. */
async function startWaiting(workflow: { id: string; path: string }, count: number) {
	const { stack, sandbox } = fixture;
	const answers = await Promise.all(
		Array.from(
			{ length: count },
			async (_, index) =>
				await stack.lbClient.callWebhook(workflow.path, { json: { caller: `caller-${index}` } }),
		),
	);
	expect(answers.map((answer) => answer.status)).toEqual(Array(count).fill(200));
	const deadline = Date.now() + 120_000;
	for (;;) {
		const executions = await stack.client.listExecutions(workflow.id);
		const failed = executions.filter(
			(execution) => !['waiting', 'running', 'new'].includes(execution.status),
		);
		if (failed.length > 0)
			throw new Error(
				`executions ended instead of waiting: ${failed.map((execution) => `${execution.id} ${execution.status}`).join(', ')}`,
			);
		const waiting = executions.filter((execution) => execution.status === 'waiting');
		if (waiting.length === count) {
			const documents = (await sandboxState(sandbox.url)).documents;
			return waiting.map((execution) => {
				const document = documents.find((entry) =>
					new RegExp(`/webhook-waiting/${execution.id}(?:[/?]|$)`).test(entry.webhookUrl ?? ''),
				);
				expect(
					document,
					`execution ${execution.id} uploaded its document with its resume URL`,
				).toBeDefined();
				expect(
					document!.webhookUrl!.startsWith(`${stack.publicUrl}/webhook-waiting/`),
					`resume URL ${document!.webhookUrl} is on the public address`,
				).toBe(true);
				expect(document!.state).toBe('needs_review');
				return { executionId: execution.id, document: document! };
			});
		}
		if (Date.now() > deadline)
			throw new Error(`${waiting.length} of ${count} executions waiting after 120 s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

const sign = (body: string, secret = fixture.account.signingSecret) =>
	createHmac('sha256', secret).update(body).digest('hex');

describeNeeding(
	QUEUE_MODE_REQUIREMENTS,
	`Wait for Review with ${WAITING} executions waiting at once`,
	() => {
		useQueueFixture(
			{ sandbox: { reviewDelayMs: 600_000, retryBaseMs: 300 } },
			(started) => (fixture = started),
		);

		it('each resumes on the output of its own review result, on the surviving worker after the other was killed; forged callbacks get 401 and leave them waiting', async () => {
			const { stack, sandbox } = fixture;
			const workflow = await waitingWorkflow('e2e scale: wait for review');
			const waiting = await startWaiting(workflow, WAITING);
			const ranOn = (executionId: string, marker: string) =>
				stack.workers.filter((worker) =>
					readFileSync(worker.logFile, 'utf8').includes(`${marker} execution ${executionId} `),
				);
			const startedPerWorker = stack.workers.map(
				(worker) =>
					waiting.filter(({ executionId }) => ranOn(executionId, 'Worker started').includes(worker))
						.length,
			);
			expect(
				startedPerWorker.every((count) => count > 0),
				`started per worker: ${startedPerWorker.join(', ')}`,
			).toBe(true);

			const [killed, survivor] = stack.workers;
			await killed.kill();
			const survivorLogBefore = readFileSync(survivor.logFile, 'utf8').length;
			const resumesOnSurvivor = (executionId: string) =>
				readFileSync(survivor.logFile, 'utf8')
					.slice(survivorLogBefore)
					.split(`Worker started execution ${executionId} `).length - 1;

			const forgedBody = (documentId: string) =>
				JSON.stringify({
					event: 'document.rejected',
					timestamp: new Date().toISOString(),
					document_id: documentId,
					review_id: 'rev_forged',
					reason: 'forged',
				});
			for (const { document } of waiting.slice(0, 5)) {
				const body = forgedBody(document.id);
				expect(
					(
						await postToResumeUrl(fixture.stack.client, document.webhookUrl!, body, {
							'x-service-signature': sign(body, 'whsec_not_the_secret'),
						})
					).status,
				).toBe(401);
				expect(
					(await postToResumeUrl(fixture.stack.client, document.webhookUrl!, body, {})).status,
				).toBe(401);
			}
			const statuses = await stack.client.listExecutions(workflow.id);
			expect(statuses.filter((execution) => execution.status === 'waiting')).toHaveLength(WAITING);

			const decisions = waiting.map(({ executionId, document }, index) => ({
				executionId,
				document,
				approve: index % 2 === 0,
			}));
			await Promise.all(
				decisions.map(
					async ({ document, approve }) =>
						await sandboxControl(
							sandbox.url,
							`reviews/${document.reviewId}/${approve ? 'approve' : 'reject'}`,
							approve ? {} : { reason: `rejected ${document.id}` },
						),
				),
			);
			for (const { executionId, document, approve } of decisions) {
				const execution = await stack.client.waitForExecution(executionId, { timeoutMs: 120_000 });
				expect(
					resumesOnSurvivor(executionId),
					`execution ${executionId} resumed once, on worker2`,
				).toBe(1);
				expect(execution.status).toBe('success');
				const outputs = outputsOf(execution, OUTPUTS);
				expect(Object.keys(outputs)).toEqual([approve ? 'On Verified' : 'On Rejected']);
				expect(outputs[approve ? 'On Verified' : 'On Rejected'][0]).toMatchObject(
					approve
						? { document_id: document.id, status: 'verified' }
						: {
								document_id: document.id,
								status: 'rejected',
								rejection_reason: `rejected ${document.id}`,
							},
				);
			}
			// The results came from the sandbox, signed, to the public resume URLs, once each.
			const deliveries = (await sandboxDeliveries(sandbox.url)).filter((attempt) =>
				waiting.some(({ document }) => document.id === attempt.documentId),
			);
			for (const { document } of waiting)
				expect(
					deliveries.filter((attempt) => attempt.documentId === document.id && attempt.ok),
					document.id,
				).toHaveLength(1);
			expect(
				deliveries.every((attempt) =>
					attempt.url.startsWith(`${stack.publicUrl}/webhook-waiting/`),
				),
			).toBe(true);
			const haproxyLog = readFileSync(stack.lb.logFile, 'utf8')
				.split('\n')
				.filter((line) => line.includes('/webhook-waiting/'));
			const perProcess = stack.webhooks.map(
				(_, i) =>
					haproxyLog.filter((line) => line.includes(`n8n_webhook_processes/webhook${i + 1} `))
						.length,
			);
			log(
				'queue-wait-for-review',
				`${WAITING} executions waited at once (started per worker: ${startedPerWorker.join(', ')}); worker1 killed; 10 forged callbacks → 401; ${deliveries.length} sandbox delivery attempts to the public URL (failed, retried later: ${
					deliveries
						.filter((attempt) => !attempt.ok)
						.map((attempt) => attempt.status ?? attempt.error)
						.join(', ') || 'none'
				}); resume requests per webhook process (forged included): ${perProcess.join(', ')}; each resumed on worker2 on its own result (${WAITING / 2} Verified, ${WAITING / 2} Rejected)`,
			);
		});

		it('a short Review Timeout still ends a wait on Timed Out', async () => {
			const { stack } = fixture;
			const workflow = await waitingWorkflow('e2e scale: review timeout', { reviewTimeout: 0.1 });
			const [{ executionId, document }] = await startWaiting(workflow, 1);
			// n8n's wait tracker looks for due executions once a minute.
			const execution = await stack.client.waitForExecution(executionId, { timeoutMs: 150_000 });
			expect(execution.status).toBe('success');
			expect(Object.keys(outputsOf(execution, OUTPUTS))).toEqual(['On Timed Out']);
			expect(outputsOf(execution, OUTPUTS)['On Timed Out'][0]).toMatchObject({
				document_id: document.id,
				timed_out: true,
			});
		});
	},
);
