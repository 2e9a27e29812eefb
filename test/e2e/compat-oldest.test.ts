/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// The core of the package on the OLDEST n8n the README claims (N8N_OLDEST_VERSION), installed the way a
// user installs it: both nodes and the credential load, Extract routes a confident invoice to Verified,
// the trigger starts exactly one execution when a review is approved, and Extract with Wait for Review
// pauses and resumes on Verified when the reviewer approves. The newest version runs the full suite.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	N8N_OLDEST_VERSION,
	PACKAGE_NAME,
	REPO_ROOT,
	codeNode,
	installedPackageVersion,
	log,
	nodeJson,
	readFileNode,
	reviewTriggerNode,
	sandboxControl,
	triggerWorkflow,
	webhookWorkflow,
	type NodeSpec,
} from '../../local-n8n/index.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const ACTION = `${PACKAGE_NAME}.documentExtraction`;
const TRIGGER = `${PACKAGE_NAME}.documentExtractionTrigger`;

const fixture = useN8nAndSandbox({
	stack: { n8nVersion: N8N_OLDEST_VERSION },
	sandbox: REVIEWS_DECIDED_BY_THE_TEST,
});

/** Webhook (answers at once) → Read invoice → Extract → one Code node per output, echoing its items. */
async function extractWorkflow(
	name: string,
	parameters: Record<string, unknown>,
	outputs: string[],
) {
	const file = join(fixture.stack.n8n.fileAccessDirs[0], 'invoice-blurry.json');
	copyFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-blurry.json'), file);
	const extract: NodeSpec = {
		name: 'Extract',
		type: ACTION,
		typeVersion: 1,
		parameters: {
			resource: 'document',
			operation: 'extract',
			binaryPropertyName: 'data',
			outputMode: 'simplified',
			...parameters,
		},
		credentials: {
			documentExtractionApi: { id: fixture.credential.id, name: fixture.credential.name },
		},
	};
	const definition = webhookWorkflow({
		name,
		responseMode: 'onReceived',
		nodes: [
			readFileNode('Read invoice', file),
			extract,
			...outputs.map((output) => codeNode(output, 'return $input.all();')),
		],
		connections: {
			Webhook: { main: [[{ node: 'Read invoice', type: 'main', index: 0 }]] },
			'Read invoice': { main: [[{ node: 'Extract', type: 'main', index: 0 }]] },
			Extract: { main: outputs.map((node) => [{ node, type: 'main', index: 0 }]) },
		},
	});
	const workflow = await fixture.stack.client.createWorkflow(definition);
	await fixture.stack.client.activateWorkflow(workflow.id);
	await fixture.stack.client.waitForWebhook(definition.webhookPath);
	return { id: workflow.id, path: definition.webhookPath };
}

/** The output nodes of an execution that received items. */
function outputsWithItems(execution: Parameters<typeof nodeJson>[0], outputs: string[]): string[] {
	return outputs.filter((name) => nodeJson(execution, name).length > 0);
}

describe(`the core of the package on the oldest supported n8n (${N8N_OLDEST_VERSION})`, () => {
	it(`runs n8n ${N8N_OLDEST_VERSION} with both nodes and the credential type loaded from the installed package`, async () => {
		expect(fixture.stack.install.version).toBe(N8N_OLDEST_VERSION);
		expect(fixture.stack.installedNodeTypes.sort()).toEqual([ACTION, TRIGGER].sort());
		expect(installedPackageVersion(fixture.stack.n8n.userFolder, PACKAGE_NAME)).toBe(
			fixture.stack.packed?.version,
		);
		const names = (await fixture.stack.client.nodeTypes()).map((t) => t.name);
		expect(names).toEqual(expect.arrayContaining([ACTION, TRIGGER, `${ACTION}Tool`]));
		expect((await fixture.stack.client.credentialTypes()).map((t) => t.name)).toContain(
			'documentExtractionApi',
		);
	});

	it('Extract: a confident invoice comes out on Verified with its fields', async () => {
		const outputs = ['On Verified', 'On Needs Review'];
		const workflow = await extractWorkflow('compat: extract', {}, outputs);
		await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: 0.99 });
		expect((await fixture.stack.client.callWebhook(workflow.path, { json: {} })).status).toBe(200);
		const [execution] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
		expect(execution.status).toBe('success');
		expect(outputsWithItems(execution, outputs)).toEqual(['On Verified']);
		expect(nodeJson(execution, 'On Verified')).toEqual([
			expect.objectContaining({
				document_id: expect.stringMatching(/^doc_/),
				status: 'verified',
				vendor: expect.any(String),
				total: expect.any(Number),
			}),
		]);
	});

	it('the trigger starts exactly one execution when a review is approved', async () => {
		const definition = triggerWorkflow({
			name: 'compat: trigger',
			trigger: reviewTriggerNode(fixture.credential),
		});
		const workflow = await fixture.stack.client.createWorkflow(definition);
		await fixture.stack.client.activateWorkflow(workflow.id);
		await fixture.stack.client.waitForWebhook(`${definition.webhookId}/webhook`);
		const url = `${fixture.stack.n8n.baseUrl}/webhook/${definition.webhookId}/webhook`;
		await fixture.waitForRegistrations(url);

		const document = await fixture.documentInReview();
		await sandboxControl(fixture.sandbox.url, `reviews/${document.review_id}/approve`, {});
		const [execution] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
		await fixture.settle();
		expect(await fixture.stack.client.listExecutions(workflow.id)).toHaveLength(1);
		expect(nodeJson(execution, 'Review finished')).toEqual([
			expect.objectContaining({
				event: 'document.verified',
				document_id: document.document_id,
				status: 'verified',
				verified_by: 'human_reviewer',
			}),
		]);
	});

	it('Wait for Review: the execution waits, and resumes on Verified when the reviewer approves', async () => {
		const outputs = ['On Verified', 'On Rejected', 'On Timed Out'];
		const workflow = await extractWorkflow(
			'compat: wait for review',
			{ waitForReview: true },
			outputs,
		);
		await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: 0.7 });
		expect((await fixture.stack.client.callWebhook(workflow.path, { json: {} })).status).toBe(200);
		const [waiting] = await fixture.stack.client.waitForExecutions(workflow.id, 1, {
			filter: (e) => e.status === 'waiting',
		});
		const document = (await fixture.sandboxState()).documents.find((d) =>
			d.webhookUrl?.includes(`/webhook-waiting/${waiting.id}`),
		);
		expect(document?.state).toBe('needs_review');

		await sandboxControl(fixture.sandbox.url, `reviews/${document!.reviewId}/approve`, {});
		const execution = await fixture.stack.client.waitForExecution(waiting.id);
		expect(execution.status).toBe('success');
		expect(outputsWithItems(execution, outputs)).toEqual(['On Verified']);
		expect(nodeJson(execution, 'On Verified')).toEqual([
			expect.objectContaining({
				document_id: document!.id,
				status: 'verified',
				verified_by: 'human_reviewer',
			}),
		]);
		log(
			'compat',
			`n8n ${N8N_OLDEST_VERSION}: nodes load, Extract → Verified, trigger → 1 execution, Wait for Review → resumed on Verified`,
		);
	});
});
