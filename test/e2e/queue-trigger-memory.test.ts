/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// What the trigger remembers, in n8n's queue mode (Postgres, Redis, main, 2 workers, 2 webhook
// processes behind HAProxy), where an event's copies meet on different processes and executions run on
// workers (docs/memory.md, docs/spec-decisions.md#n63):
//   - the same event sent to both webhook processes at the same instant (the service retrying a slow
//     answer; two registrations of one account) starts one run that reaches the workflow;
//   - an Extract execution on a worker, in the workflow that also holds the trigger (as the Xero and
//     QuickBooks examples do), does not erase what the trigger remembers: its registrations stay, and
//     the signed bytes of a review result that ran, replayed after it, start nothing.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
	actionNode,
	eventually,
	executionError,
	extractParameters,
	readFileNode,
	REPO_ROOT,
	reviewTriggerNode,
	triggerWorkflow,
	webhookWorkflow,
} from '../../local-n8n/index.ts';
import { deliverCopy, lost, verifiedPayload } from './support/queueDeliveries.ts';
import {
	activateTriggerWorkflow,
	activeTrigger,
	useQueueFixture,
	waitForPublicWebhook,
	type QueueFixture,
} from './support/queueFixture.ts';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';
import { runsPerDocument } from './support/triggerRuns.ts';

const EVENTS = 20;

let fixture: QueueFixture;

/** Waits until every execution of `workflowId` has finished, then the runs per document. */
async function settledRuns(workflowId: string, atLeast: number) {
	const { client } = fixture.stack;
	const executions = await eventually(
		`${atLeast} finished executions of ${workflowId}`,
		async () => await client.listExecutions(workflowId, { limit: Number.POSITIVE_INFINITY }),
		(list) =>
			list.length >= atLeast &&
			list.every((execution) => !['new', 'running'].includes(execution.status)),
		180_000,
	);
	await new Promise((resolve) => setTimeout(resolve, 3_000));
	// Every execution succeeds: a copy the claim recognised stops at the trigger, it does not fail.
	const failures: string[] = [];
	for (const summary of executions)
		if (summary.status !== 'success')
			failures.push(
				`execution ${summary.id} ${summary.status}: ${executionError(await client.getExecution(summary.id))?.message ?? '(no error)'}`,
			);
	expect(failures).toEqual([]);
	return await runsPerDocument(client, workflowId);
}

describeNeeding(QUEUE_MODE_REQUIREMENTS, "the trigger's memory (queue mode)", () => {
	useQueueFixture({ sandbox: { reviewDelayMs: 600_000 } }, (started) => (fixture = started));

	it(`${EVENTS} events, each sent to both webhook processes at the same instant: one run each, none lost`, async () => {
		const { stack, account } = fixture;
		const flow = await activeTrigger(fixture, 'queue: copies at the same instant');
		const ids = Array.from({ length: EVENTS }, (_, index) => `doc_same_instant_${index}`);
		for (const documentId of ids) {
			const body = verifiedPayload(documentId);
			const statuses = await Promise.all(
				stack.webhookClients.map(
					async (client) => await deliverCopy(client, flow.path, body, account.signingSecret),
				),
			);
			expect(statuses).toEqual([200, 200]);
		}
		const runs = await settledRuns(flow.id, EVENTS * 2);
		expect(lost(runs, ids)).toEqual([]);
		const twice = ids.filter((id) => (runs.get(id) ?? 0) > 1);
		process.stdout.write(
			`same instant, both webhook processes: ${EVENTS} events × 2 copies → runs ${[...runs.values()].reduce((a, b) => a + b, 0)}, ran twice ${twice.length}\n`,
		);
		expect(twice).toEqual([]);
	});

	it('an Extract execution on a worker does not erase the trigger’s memory: registrations kept, the replayed review result starts nothing', async () => {
		const { stack, account } = fixture;
		const file = join(fixture.fileDir, 'invoice-acme.json');
		copyFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'), file);
		const intake = webhookWorkflow({
			name: 'intake',
			responseMode: 'onReceived',
			nodes: [
				readFileNode('Read invoice', file),
				actionNode(
					'Extract',
					account.credential,
					extractParameters({ options: { skipDuplicates: true } }),
				),
			],
		});
		const definition = triggerWorkflow({
			name: 'queue: Extract and the trigger in one workflow',
			trigger: reviewTriggerNode(account.credential),
			nodes: intake.nodes,
			connections: intake.connections,
		});
		const flow = await activateTriggerWorkflow(fixture, definition);
		await waitForPublicWebhook(stack, intake.webhookPath);
		const registered = async () =>
			JSON.stringify((await stack.client.getWorkflow(flow.id)).staticData ?? {});
		const heldBefore = await registered();
		expect(heldBefore).toContain('secretFingerprint');

		const body = verifiedPayload('doc_worker_replay_1');
		expect(await deliverCopy(stack.lbClient, flow.path, body, account.signingSecret)).toBe(200);
		expect((await settledRuns(flow.id, 1)).get('doc_worker_replay_1')).toBe(1);

		// An Extract execution, on a worker, in the same workflow.
		expect((await stack.lbClient.callWebhook(intake.webhookPath, { json: {} })).status).toBe(200);
		const executions = await stack.client.waitForExecutions(flow.id, 2, { timeoutMs: 120_000 });
		expect(executions.every((execution) => execution.status === 'success')).toBe(true);
		expect(await registered()).toBe(heldBefore);

		for (const client of [stack.lbClient, ...stack.webhookClients])
			expect(await deliverCopy(client, flow.path, body, account.signingSecret)).toBe(200);
		const runs = await settledRuns(flow.id, 2 + 3);
		expect(runs.get('doc_worker_replay_1')).toBe(1);
		expect(await registered()).toBe(heldBefore);
	});
});
