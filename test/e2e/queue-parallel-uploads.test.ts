// Month-end batches (docs/spec-decisions.md#n44) in n8n's queue mode (the full queue stack: Postgres,
// Redis, main, 2 workers, 2 webhook processes behind HAProxy) against the sandbox on Growth (100
// requests a window, 8 uploads at a time by default) with 1–3 s extraction latency, each execution
// started through the public (load balancer) URL and run on a worker.
// - One batch of 30 behaves as in one process (test/e2e/parallel-uploads.test.ts): each document
//   uploaded once, outputs in input order with their pairedItem, the document the service fails on
//   alone on Needs Review, several and never more than 8 uploads in flight.
// - Two batches of 30 started at the same moment, with the account's window already partly used
//   (the sandbox's "minute" shortened to 20 s, 60 of its 100 requests spent before: the two batches
//   need 60, 40 are left). What queue mode guarantees is per node run, not per account: each run has
//   its own pacer (transport/pacer.ts) and its own 8 uploads, whichever worker runs it; it follows the
//   service's X-RateLimit headers, which count the whole account but do not yet show the other run's
//   uploads still in flight. So together the runs may have up to 2 × 8 uploads in flight and may start
//   more than the window has left; the service answers those 429 (before extracting anything), and
//   the run waits Retry-After and uploads them again. Asserted: both runs succeed, every document is
//   uploaded exactly once (no 429 became a failure or a second document), at most 16 in flight. Not
//   asserted (it depends on timing): that the runs overlap, that they exceed 8 together, or that any
//   429 happens; those figures go to the log. The account stays within its rate because the service
//   enforces it, not because the workers coordinate.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { request } from 'undici';
import {
	log,
	sandboxControl,
	sandboxCredential,
	sandboxState,
	type Credential,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import {
	expectEachUploadedOnce,
	expectMonthEndOutputs,
	monthEndWorkflow,
	writeMonthEndBatch,
} from './support/monthEndBatch.ts';
import {
	startQueueFixture,
	stopQueueFixture,
	waitForPublicWebhook,
	type QueueFixture,
	workersThatRan,
} from './support/queueFixture.ts';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';

const BATCH = 30;
/** Growth's uploads at a time (Extract's default) and requests per window (the service's). */
const GROWTH = { parallelUploads: 8, perWindow: 100 };
/** The sandbox's "minute" in the second test, and the requests of it spent before the batches start. */
const WINDOW = { ms: 20_000, spentBefore: 60 };

let fixture: QueueFixture;
let growth: { credential: Credential; apiKey: string };

/** An active month-end workflow over a fresh batch of files `<prefix>-*.json`, served by the public URL. */
async function activeBatch(prefix: string) {
	const glob = writeMonthEndBatch(fixture.fileDir, prefix, BATCH);
	const definition = monthEndWorkflow(`e2e queue: month-end ${prefix}`, growth.credential, glob);
	const { id } = await fixture.stack.client.createWorkflow(definition);
	await fixture.stack.client.activateWorkflow(id);
	await waitForPublicWebhook(fixture.stack, definition.webhookPath);
	return { id, path: definition.webhookPath };
}

/** The one finished execution of `workflow`, after calling it through the load balancer. */
async function finishedRun(workflow: { id: string; path: string }): Promise<DecodedExecution> {
	const [execution] = await fixture.stack.client.waitForExecutions(workflow.id, 1, {
		timeoutMs: 240_000,
	});
	return execution;
}

/** The workers whose log says they ran `execution`. */
const workersOf = (execution: DecodedExecution) => workersThatRan(fixture.stack, execution.id);

const extractMs = (execution: DecodedExecution) =>
	execution.data.resultData.runData.Extract?.[0]?.executionTime ?? 0;

describeNeeding(QUEUE_MODE_REQUIREMENTS, 'month-end batches on workers (queue mode)', () => {
	beforeAll(async () => {
		fixture = await startQueueFixture({
			sandbox: { reviewDelayMs: 600_000, extractLatencyMinMs: 1_000, extractLatencyMaxMs: 3_000 },
		});
		const account = await sandboxCredential(
			fixture.stack.client,
			fixture.sandbox,
			'growth',
			'Document Extraction (sandbox, Growth)',
		);
		growth = { credential: account.credential, apiKey: account.apiKey };
	});

	afterAll(async () => {
		await stopQueueFixture(fixture);
	});

	it(`a batch of ${BATCH} on a worker: each uploaded once, in input order with pairedItem, the failing one alone on Needs Review, at most ${GROWTH.parallelUploads} in flight`, async () => {
		const { stack, sandbox } = fixture;
		const workflow = await activeBatch('month-end');
		await sandboxControl(sandbox.url, 'reset', {});
		// The service fails on one upload (whichever arrives first).
		await sandboxControl(sandbox.url, 'faults', { mode: '500', count: 1, paths: ['/v1/extract'] });

		expect((await stack.lbClient.callWebhook(workflow.path, { json: {} })).status).toBe(200);
		const execution = await finishedRun(workflow);

		expect(execution.status).toBe('success');
		expect(workersOf(execution)).toHaveLength(1);
		const { failed, fileNames } = expectMonthEndOutputs(execution, BATCH);
		expect(failed).toHaveLength(1);
		await expectEachUploadedOnce(
			sandbox.url,
			fileNames.filter((_, index) => index !== failed[0]),
		);
		const { counts } = await sandboxState(sandbox.url);
		expect(counts.extractRequests).toBe(BATCH - 1);
		expect(counts.extractInFlightMost).toBeGreaterThan(1);
		expect(counts.extractInFlightMost).toBeLessThanOrEqual(GROWTH.parallelUploads);
		log(
			'queue-parallel-uploads',
			`one batch on ${workersOf(execution).join(', ')}: ${BATCH - 1} uploads + 1 failed, at most ${counts.extractInFlightMost} in flight, Extract ${extractMs(execution)} ms, ${counts.rateLimited} answered 429`,
		);
	});

	it(`two batches of ${BATCH} at once, ${GROWTH.perWindow - WINDOW.spentBefore} requests left in the window: both succeed, every document once, at most ${2 * GROWTH.parallelUploads} in flight`, async () => {
		const { stack, sandbox } = fixture;
		const workflows = [await activeBatch('month-end-a'), await activeBatch('month-end-b')];
		await sandboxControl(sandbox.url, 'reset', {});
		await sandboxControl(sandbox.url, 'config', { minuteMs: WINDOW.ms });
		// Another use of the account earlier in the window (status look-ups count as requests too).
		const spent = await Promise.all(
			Array.from({ length: WINDOW.spentBefore }, async () => {
				const answer = await request(`${sandbox.url}/v1/status/doc_spent_before`, {
					headers: { 'x-api-key': growth.apiKey },
				});
				await answer.body.dump();
				return Number(answer.headers['x-ratelimit-remaining']);
			}),
		);
		expect(Math.min(...spent)).toBe(GROWTH.perWindow - WINDOW.spentBefore);

		const answers = await Promise.all(
			workflows.map(
				async (workflow) => await stack.lbClient.callWebhook(workflow.path, { json: {} }),
			),
		);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		const executions = await Promise.all(workflows.map(finishedRun));

		const fileNames: string[] = [];
		for (const execution of executions) {
			expect(execution.status).toBe('success');
			expect(workersOf(execution)).toHaveLength(1);
			const outputs = expectMonthEndOutputs(execution, BATCH);
			expect(outputs.failed).toEqual([]);
			fileNames.push(...outputs.fileNames);
		}
		await expectEachUploadedOnce(sandbox.url, fileNames);
		const { counts } = await sandboxState(sandbox.url);
		// A 429 is answered before the upload is read: only admitted uploads count, one per document.
		expect(counts.extractRequests).toBe(2 * BATCH);
		expect(counts.extractInFlightMost).toBeGreaterThan(1);
		expect(counts.extractInFlightMost).toBeLessThanOrEqual(2 * GROWTH.parallelUploads);
		const spans = executions.map(
			(execution) =>
				`${workersOf(execution).join(', ')} ${execution.startedAt?.slice(11, 23)}–${execution.stoppedAt?.slice(11, 23)} (Extract ${extractMs(execution)} ms)`,
		);
		log(
			'queue-parallel-uploads',
			`two batches (${spans.join('; ')}): ${counts.extractRequests} uploads, at most ${counts.extractInFlightMost} in flight together, ${counts.rateLimited} answered 429 with ${GROWTH.perWindow - WINDOW.spentBefore} of ${GROWTH.perWindow} left in a ${WINDOW.ms / 1000} s window`,
		);
	});
});
