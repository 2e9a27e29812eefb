/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// Continue On Fail (regular output) on Extract, in a real n8n (HTTPS, the package installed through
// n8n's community-packages API) against the sandbox: a failed item is an error item on the output that
// needs a person (Needs Review; Rejected with Wait for Review), paired with its input, and never on
// Verified. Each workflow also runs once without a fault, so the Verified branch is shown to work.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	REPO_ROOT,
	codeNode,
	nodeItems,
	nodeJson,
	readFileNode,
	sandboxControl,
	sandboxCredential,
	startSandboxInProcess,
	startStack,
	stopAll,
	webhookWorkflow,
	type Credential,
	type DecodedExecution,
	type NodeSpec,
	type SandboxHandle,
	type Stack,
} from '../../local-n8n/index.ts';
import { NODE_TYPES } from '../../nodes/shared/nodeTypes.ts';

let stack: Stack;
let sandbox: SandboxHandle;
let credential: Credential;
const secrets: string[] = [];

/** Echoes its items with the caller of the Webhook item each descends from (pairedItem lineage). */
const echo = (name: string) =>
	codeNode(name, "return $input.all().map((item, index) => ({ json: { ...item.json, caller: $('Webhook').itemMatching(index).json.body.caller } }));");

/** Webhook → Read a confident invoice → Extract (Continue On Fail) → one Code node per output. */
async function createWorkflow(name: string, waitForReview: boolean) {
	const outputs = waitForReview ? ['On Verified', 'On Rejected', 'On Timed Out'] : ['On Verified', 'On Needs Review'];
	const file = join(stack.n8n.fileAccessDirs[0], 'invoice-acme.json');
	copyFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'), file);
	const extract: NodeSpec = {
		name: 'Extract',
		type: NODE_TYPES.action,
		typeVersion: 1,
		onError: 'continueRegularOutput',
		parameters: { resource: 'document', operation: 'extract', binaryPropertyName: 'data', outputMode: 'simplified', waitForReview, options: {} },
		credentials: { documentExtractionApi: { id: credential.id, name: credential.name } },
	};
	const definition = webhookWorkflow({
		name,
		responseMode: 'onReceived',
		nodes: [readFileNode('Read invoice', file), extract, ...outputs.map(echo)],
		connections: {
			Webhook: { main: [[{ node: 'Read invoice', type: 'main', index: 0 }]] },
			'Read invoice': { main: [[{ node: 'Extract', type: 'main', index: 0 }]] },
			Extract: { main: outputs.map((node) => [{ node, type: 'main', index: 0 }]) },
		},
	});
	const workflow = await stack.client.createWorkflow(definition);
	await stack.client.activateWorkflow(workflow.id);
	await stack.client.waitForWebhook(definition.webhookPath);
	return { id: workflow.id, path: definition.webhookPath };
}

/** Calls the workflow and returns its finished execution (checked for secrets). */
async function run(workflow: { id: string; path: string }, caller: string): Promise<DecodedExecution> {
	const known = (await stack.client.listExecutions(workflow.id)).length;
	const response = await stack.client.callWebhook(workflow.path, { json: { caller } });
	expect(response.status, response.text).toBe(200);
	const executions = await stack.client.waitForExecutions(workflow.id, known + 1);
	const newest = executions.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));
	const execution = await stack.client.waitForExecution(newest.id);
	const raw = JSON.stringify(execution.raw);
	for (const secret of secrets) expect(raw.includes(secret), 'a secret in the execution').toBe(false);
	return execution;
}

/** Which output nodes ran, with their items. */
function outputsOf(execution: DecodedExecution, names: string[]): Record<string, Array<Record<string, unknown>>> {
	return Object.fromEntries(names.map((name) => [name, nodeJson(execution, name)]).filter(([, items]) => (items as unknown[]).length > 0));
}

const failExtractOnce = async () => await sandboxControl(sandbox.url, 'faults', { mode: '500', count: 1, paths: ['/v1/extract'] });

describe('Continue On Fail on Extract in a real n8n', () => {
	beforeAll(async () => {
		stack = await startStack({ package: 'repo' });
		sandbox = await startSandboxInProcess(stack.tls, { reviewDelayMs: 600_000, retryBaseMs: 300 });
		const account = await sandboxCredential(stack.client, sandbox, 'enterprise');
		credential = account.credential;
		secrets.push(account.apiKey, account.signingSecret);
	});

	afterAll(async () => {
		await sandbox?.close();
		await stack?.stop();
		await stopAll();
	});

	it('without waiting: the failed item arrives on Needs Review, paired with its input; nothing on Verified', async () => {
		const names = ['On Verified', 'On Needs Review'];
		const workflow = await createWorkflow('e2e continue on fail', false);

		await failExtractOnce();
		const failed = await run(workflow, 'faulty');
		expect(failed.status).toBe('success');
		expect(nodeItems(failed, 'Extract', { output: 0 })).toEqual([]);
		expect(nodeItems(failed, 'Extract', { output: 1 }).map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(outputsOf(failed, names)).toEqual({
			'On Needs Review': [{ error: expect.stringMatching(/\(500\)/), error_description: expect.any(String), http_code: 500, caller: 'faulty' }],
		});

		// The same workflow without a fault: the confident invoice is on Verified.
		const passed = await run(workflow, 'healthy');
		expect(Object.keys(outputsOf(passed, names))).toEqual(['On Verified']);
		expect(nodeJson(passed, 'On Verified')[0]).toMatchObject({ status: 'verified', caller: 'healthy' });
	});

	it('with Wait for Review: the failed item arrives on Rejected, paired with its input; nothing on Verified', async () => {
		const names = ['On Verified', 'On Rejected', 'On Timed Out'];
		const workflow = await createWorkflow('e2e continue on fail (wait for review)', true);

		await failExtractOnce();
		const failed = await run(workflow, 'faulty');
		expect(failed.status).toBe('success');
		expect(nodeItems(failed, 'Extract', { output: 0 })).toEqual([]);
		expect(nodeItems(failed, 'Extract', { output: 1 }).map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(outputsOf(failed, names)).toEqual({
			'On Rejected': [{ error: expect.stringMatching(/\(500\)/), error_description: expect.any(String), http_code: 500, caller: 'faulty' }],
		});

		const passed = await run(workflow, 'healthy');
		expect(Object.keys(outputsOf(passed, names))).toEqual(['On Verified']);
		expect(nodeJson(passed, 'On Verified')[0]).toMatchObject({ status: 'verified', caller: 'healthy' });
	});
});
