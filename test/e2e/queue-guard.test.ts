/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The duplicate guard (N11) when executions submit the same file at the same moment, in a real n8n
// against the sandbox: 10 webhook calls at once, each an execution that reads the same file and
// extracts it with Skip Files Already Submitted. The sandbox counts the uploads it received.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	PACKAGE_NAME,
	REPO_ROOT,
	codeNode,
	log,
	nodeJson,
	readFileNode,
	sandboxAvailable,
	sandboxState,
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

const CONTENDERS = 10;

let stack: Stack;
let sandbox: SandboxHandle;
let credential: Credential;

const echo = (name: string) => codeNode(name, "return $input.all().map((item, index) => ({ json: { ...item.json, caller: $('Webhook').itemMatching(index).json.body.caller } }));");

async function guardedWorkflow(name: string, fileName: string) {
	const target = join(stack.n8n.fileAccessDirs[0], fileName);
	copyFileSync(join(REPO_ROOT, 'examples', 'files', fileName), target);
	const outputs = ['On Verified', 'On Needs Review', 'On Already Submitted'];
	const extract: NodeSpec = {
		name: 'Extract',
		type: `${PACKAGE_NAME}.documentExtraction`,
		typeVersion: 1,
		parameters: { resource: 'document', operation: 'extract', binaryPropertyName: 'data', outputMode: 'simplified', options: { skipDuplicates: true } },
		credentials: { documentExtractionApi: { id: credential.id, name: credential.name } },
	};
	const definition = webhookWorkflow({
		name,
		responseMode: 'onReceived',
		nodes: [readFileNode('Read invoice', target), extract, ...outputs.map(echo)],
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

const outputOf = (execution: DecodedExecution) =>
	['On Verified', 'On Needs Review', 'On Already Submitted'].flatMap((node) => nodeJson(execution, node).map((json) => ({ node, json })));

describe.skipIf(!sandboxAvailable())('duplicate guard: the same file from executions at the same moment', () => {
	beforeAll(async () => {
		stack = await startStack({ package: 'repo' });
		sandbox = await startSandboxInProcess(stack.tls, { reviewDelayMs: 600_000 });
		({ credential } = await sandboxCredential(stack.client, sandbox, 'enterprise'));
	});

	afterAll(async () => {
		await sandbox?.close();
		await stack?.stop();
		await stopAll();
	});

	it(`${CONTENDERS} executions submit one file at once: exactly one upload, the others on Already Submitted`, async () => {
		const workflow = await guardedWorkflow('e2e queue: duplicate guard', 'invoice-acme.json');
		const before = (await sandboxState(sandbox.url)).counts.extractRequests;

		const answers = await Promise.all(
			Array.from({ length: CONTENDERS }, async (_, index) => await stack.client.callWebhook(workflow.path, { json: { caller: `contender-${index}` } })),
		);
		expect(answers.map((answer) => answer.status)).toEqual(Array(CONTENDERS).fill(200));
		const executions = await stack.client.waitForExecutions(workflow.id, CONTENDERS, { timeoutMs: 120_000 });

		expect(executions.map((execution) => execution.status)).toEqual(Array(CONTENDERS).fill('success'));
		expect((await sandboxState(sandbox.url)).counts.extractRequests - before).toBe(1);
		const items = executions.flatMap(outputOf);
		expect(items).toHaveLength(CONTENDERS);
		const uploaded = items.filter((item) => item.node !== 'On Already Submitted');
		expect(uploaded).toHaveLength(1);
		const documentId = uploaded[0].json.document_id;
		const skipped = items.filter((item) => item.node === 'On Already Submitted').map((item) => item.json);
		expect(new Set(skipped.map((json) => json.content_sha256)).size).toBe(1);
		for (const json of skipped) {
			expect(json).toMatchObject({ status: 'already_submitted', duplicate: true });
			// While the winner uploads, its document_id is nowhere a contender can read it (N11): null, and the message says where it is.
			if (json.document_id !== documentId) {
				expect(json.document_id).toBeNull();
				expect(String(json.message)).toMatch(/another execution|execution still running/);
			}
		}
		const callers = new Set(items.map((item) => item.json.caller));
		expect(callers.size).toBe(CONTENDERS);
		log('queue-guard', `${CONTENDERS} simultaneous submissions of one file → 1 upload (${documentId}), ${skipped.length} on Already Submitted (${skipped.filter((json) => json.submitted_concurrently).length} lost the race)`);

		// Later, the content is known at once and the earlier document_id comes from the workflow's static data.
		await stack.client.callWebhook(workflow.path, { json: { caller: 'later' } });
		const later = (await stack.client.waitForExecutions(workflow.id, CONTENDERS + 1))[CONTENDERS];
		expect(outputOf(later)).toEqual([{ node: 'On Already Submitted', json: expect.objectContaining({ document_id: documentId, submitted_concurrently: false, caller: 'later' }) }]);
		expect((await sandboxState(sandbox.url)).counts.extractRequests - before).toBe(1);
	});
});
