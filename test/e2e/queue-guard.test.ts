/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// The duplicate guard (N12) when executions submit the same file at the same moment, in n8n's queue
// mode (the full queue stack: Postgres, Redis, main, 2 workers, 2 webhook processes behind HAProxy)
// against the sandbox: 10 calls at once to the public (load balancer) URL, each an execution that
// reads the same file and extracts it with Skip Files Already Submitted, spread over both workers.
// The sandbox counts the uploads it received.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';
import {
	actionNode,
	extractParameters,
	log,
	nodeJson,
	sandboxState,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import { activeExtractRoute, useQueueFixture, type QueueFixture } from './support/queueFixture.ts';

const CONTENDERS = 10;

let fixture: QueueFixture;

async function guardedWorkflow(name: string, fileName: string) {
	return await activeExtractRoute(fixture, {
		name,
		fileName,
		extract: actionNode(
			'Extract',
			fixture.account.credential,
			extractParameters({ options: { skipDuplicates: true } }),
		),
		outputs: ['On Verified', 'On Needs Review', 'On Already Submitted'],
	});
}

const outputOf = (execution: DecodedExecution) =>
	['On Verified', 'On Needs Review', 'On Already Submitted'].flatMap((node) =>
		nodeJson(execution, node).map((json) => ({ node, json })),
	);

describeNeeding(
	QUEUE_MODE_REQUIREMENTS,
	'duplicate guard: the same file from executions at the same moment',
	() => {
		useQueueFixture({ sandbox: { reviewDelayMs: 600_000 } }, (started) => (fixture = started));

		it(`${CONTENDERS} executions submit one file at once: exactly one upload, the others on Already Submitted`, async () => {
			const { stack, sandbox } = fixture;
			const workflow = await guardedWorkflow('e2e queue: duplicate guard', 'invoice-acme.json');
			const before = (await sandboxState(sandbox.url)).counts.extractRequests;

			const answers = await Promise.all(
				Array.from(
					{ length: CONTENDERS },
					async (_, index) =>
						await stack.lbClient.callWebhook(workflow.path, {
							json: { caller: `contender-${index}` },
						}),
				),
			);
			expect(answers.map((answer) => answer.status)).toEqual(Array(CONTENDERS).fill(200));
			const executions = await stack.client.waitForExecutions(workflow.id, CONTENDERS, {
				timeoutMs: 120_000,
			});

			expect(executions.map((execution) => execution.status)).toEqual(
				Array(CONTENDERS).fill('success'),
			);
			expect((await sandboxState(sandbox.url)).counts.extractRequests - before).toBe(1);
			const items = executions.flatMap(outputOf);
			expect(items).toHaveLength(CONTENDERS);
			const uploaded = items.filter((item) => item.node !== 'On Already Submitted');
			expect(uploaded).toHaveLength(1);
			const documentId = uploaded[0].json.document_id;
			const skipped = items
				.filter((item) => item.node === 'On Already Submitted')
				.map((item) => item.json);
			expect(new Set(skipped.map((json) => json.content_sha256)).size).toBe(1);
			for (const json of skipped) {
				expect(json).toMatchObject({ status: 'already_submitted', duplicate: true });
				// The winner's document_id is kept nowhere another execution can read it (docs/memory.md):
				// null, and the message says where the result is.
				expect(json.document_id).toBeNull();
				expect(String(json.message)).toMatch(/another execution|earlier execution/);
			}
			const callers = new Set(items.map((item) => item.json.caller));
			expect(callers.size).toBe(CONTENDERS);
			const perWorker = stack.workers.map(
				(worker) =>
					executions.filter((execution) =>
						readFileSync(worker.logFile, 'utf8').includes(
							`Worker started execution ${execution.id} `,
						),
					).length,
			);
			expect(perWorker.reduce((sum, count) => sum + count, 0)).toBe(CONTENDERS);
			expect(
				perWorker.every((count) => count > 0),
				`executions per worker: ${perWorker.join(', ')}`,
			).toBe(true);
			log(
				'queue-guard',
				`${CONTENDERS} simultaneous submissions of one file (per worker: ${perWorker.join(', ')}) → 1 upload (${documentId}), ${skipped.length} on Already Submitted (${skipped.filter((json) => json.submitted_concurrently).length} lost the race)`,
			);

			// Later, the content is known at once. No execution wrote the workflow's static data (a worker's
			// save would replace what the trigger stored there): the document is not in it.
			expect(
				stack.sql(`select "staticData" from workflow_entity where id = '${workflow.id}'`),
			).not.toContain(String(documentId));
			await stack.lbClient.callWebhook(workflow.path, { json: { caller: 'later' } });
			const later = (await stack.client.waitForExecutions(workflow.id, CONTENDERS + 1))[CONTENDERS];
			expect(outputOf(later)).toEqual([
				{
					node: 'On Already Submitted',
					json: expect.objectContaining({
						document_id: null,
						duplicate: true,
						submitted_concurrently: false,
						caller: 'later',
					}),
				},
			]);
			expect((await sandboxState(sandbox.url)).counts.extractRequests - before).toBe(1);
		});
	},
);
