// Continue On Fail (regular output) on Extract, in a real n8n (HTTPS, the package installed as n8n
// documents manual installation) against the sandbox: a failed item is an error item on the output that
// needs a person (Needs Review; Rejected with Wait for Review), paired with its input, and never on
// Verified. Each workflow also runs once without a fault, so the Verified branch is shown to work.

import { describe, expect, it } from 'vitest';
import {
	extractParameters,
	createExtractRouteWorkflow,
	actionNode,
	nodeItems,
	nodeJson,
	sandboxControl,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import { outputsOf } from './support/executionPath.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST });

/** Webhook → Read a confident invoice → Extract (Continue On Fail) → one Code node per output. */
async function createWorkflow(name: string, waitForReview: boolean) {
	return await createExtractRouteWorkflow(fixture.stack.client, {
		name,
		fileDir: fixture.stack.n8n.fileAccessDirs[0],
		fileName: 'invoice-acme.json',
		extract: actionNode('Extract', fixture.credential, extractParameters({ waitForReview }), {
			onError: 'continueRegularOutput',
		}),
		outputs: waitForReview
			? ['On Verified', 'On Rejected', 'On Timed Out']
			: ['On Verified', 'On Needs Review'],
	});
}

/** Calls the workflow and returns its finished execution (checked for secrets). */
async function run(
	workflow: { id: string; path: string },
	caller: string,
): Promise<DecodedExecution> {
	const known = (await fixture.stack.client.listExecutions(workflow.id)).length;
	const response = await fixture.stack.client.callWebhook(workflow.path, { json: { caller } });
	expect(response.status, response.text).toBe(200);
	const executions = await fixture.stack.client.waitForExecutions(workflow.id, known + 1);
	const newest = executions.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));
	const execution = await fixture.stack.client.waitForExecution(newest.id);
	fixture.expectNoSecretIn(execution);
	return execution;
}

const failExtractOnce = async () =>
	await sandboxControl(fixture.sandbox.url, 'faults', {
		mode: '500',
		count: 1,
		paths: ['/v1/extract'],
	});

describe('Continue On Fail on Extract in a real n8n', () => {
	it.each([
		{
			mode: 'without waiting',
			failedOn: 'On Needs Review',
			workflowName: 'e2e continue on fail',
			waitForReview: false,
			names: ['On Verified', 'On Needs Review'],
		},
		{
			mode: 'with Wait for Review',
			failedOn: 'On Rejected',
			workflowName: 'e2e continue on fail (wait for review)',
			waitForReview: true,
			names: ['On Verified', 'On Rejected', 'On Timed Out'],
		},
	])(
		'$mode: the failed item arrives on $failedOn, paired with its input; nothing on Verified',
		async ({ failedOn, workflowName, waitForReview, names }) => {
			const workflow = await createWorkflow(workflowName, waitForReview);

			await failExtractOnce();
			const failed = await run(workflow, 'faulty');
			expect(failed.status).toBe('success');
			expect(nodeItems(failed, 'Extract', { output: 0 })).toEqual([]);
			expect(nodeItems(failed, 'Extract', { output: 1 }).map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
			]);
			expect(outputsOf(failed, names)).toEqual({
				[failedOn]: [
					{
						error: expect.stringMatching(/\(500\)/),
						error_description: expect.any(String),
						http_code: 500,
						ready_to_post: false,
						not_ready_because: [expect.stringMatching(/^The node failed on this item: /)],
						caller: 'faulty',
					},
				],
			});

			// The same workflow without a fault: the confident invoice is on Verified.
			const passed = await run(workflow, 'healthy');
			expect(Object.keys(outputsOf(passed, names))).toEqual(['On Verified']);
			expect(nodeJson(passed, 'On Verified')[0]).toMatchObject({
				status: 'verified',
				caller: 'healthy',
			});
		},
	);
});
