/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// Self-test of the e2e harness with a throwaway community package (no dependency on this
// repository's build): pack → install into n8n's user folder (`.n8n/nodes`, n8n's manual
// installation) → n8n loads it at start → run workflows
// by production webhook and manually → read executions → restart n8n keeping its data.
// If this fails, the harness or the environment is broken, not the Document Extraction nodes.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	codeNode,
	installedPackageVersion,
	loadedNodeTypes,
	manualWorkflow,
	nodeItems,
	nodeJson,
	readFileNode,
	startStack,
	stopAll,
	webhookWorkflow,
	type Stack,
} from '../../local-n8n/index.ts';

const PROBE = 'n8n-nodes-harness-probe';
let stack: Stack;

describe('e2e harness (throwaway probe package)', () => {
	beforeAll(async () => {
		stack = await startStack({ package: 'probe', n8nName: 'n8n-probe' });
	});

	afterAll(async () => {
		await stack?.stop();
		await stopAll();
	});

	it('n8n loads the probe package installed into its user folder (manual installation)', async () => {
		expect(stack.installedNodeTypes).toEqual([`${PROBE}.probe`]);
		expect(installedPackageVersion(stack.n8n.userFolder, PROBE)).toBe('0.0.1');
		const nodeTypes = (await stack.client.nodeTypes()).map((t) => t.name);
		expect(nodeTypes).toContain(`${PROBE}.probe`);
		const credentialTypes = (await stack.client.credentialTypes()).map((t) => t.name);
		expect(credentialTypes).toContain('probeApi');
	});

	it('runs a production-webhook workflow with the community node and a Code node', async () => {
		const credential = await stack.client.createCredential('probe credential', 'probeApi', {
			token: 'probe-token-not-secret',
		});
		const definition = webhookWorkflow({
			name: 'probe webhook',
			nodes: [
				{
					name: 'Probe',
					type: `${PROBE}.probe`,
					typeVersion: 1,
					parameters: { greeting: 'hi from e2e' },
					credentials: { probeApi: { id: credential.id, name: credential.name } },
				},
				codeNode(
					'Shape',
					'return $input.all().map((i) => ({ json: { greeting: i.json.greeting, got: i.json.body, viaRunner: true } }));',
				),
			],
		});
		const workflow = await stack.client.createWorkflow(definition);
		await stack.client.activateWorkflow(workflow.id);
		await stack.client.waitForWebhook(definition.webhookPath);
		const res = await stack.client.callWebhook(definition.webhookPath, { json: { invoice: 42 } });
		expect(res.status).toBe(200);
		expect(res.json).toEqual([{ greeting: 'hi from e2e', got: { invoice: 42 }, viaRunner: true }]);

		const [execution] = await stack.client.waitForExecutions(workflow.id, 1);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		expect(nodeJson(execution, 'Probe')[0]).toMatchObject({
			greeting: 'hi from e2e',
			body: { invoice: 42 },
		});
		expect(nodeJson(execution, 'Shape')).toEqual([
			{ greeting: 'hi from e2e', got: { invoice: 42 }, viaRunner: true },
		]);

		await stack.client.deactivateWorkflow(workflow.id);
		await stack.client.waitForWebhook(definition.webhookPath, 'POST', { gone: true });
		const after = await stack.client.callWebhook(definition.webhookPath, { json: {} });
		expect(after.status).toBe(404);
	});

	it('runs a workflow manually through the REST API', async () => {
		const workflow = await stack.client.createWorkflow(
			manualWorkflow({
				name: 'probe manual',
				nodes: [
					{
						name: 'Probe',
						type: `${PROBE}.probe`,
						typeVersion: 1,
						parameters: { greeting: 'manual' },
					},
				],
			}),
		);
		const executionId = await stack.client.runWorkflowManually(workflow.id, 'Start');
		const execution = await stack.client.waitForExecution(executionId);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('manual');
		expect(nodeJson(execution, 'Probe')).toEqual([{ greeting: 'manual' }]);
	});

	it('reads a file from the allowed folder into filesystem binary data', async () => {
		const file = join(stack.n8n.fileAccessDirs[0], 'probe-invoice.json');
		writeFileSync(file, JSON.stringify({ vendor: 'Probe GmbH', total: 12.5 }));
		const workflow = await stack.client.createWorkflow(
			manualWorkflow({
				name: 'probe read file',
				nodes: [
					readFileNode('Read', file),
					codeNode(
						'Inspect',
						'const b = $input.first().binary.data; return [{ json: { fileName: b.fileName, mimeType: b.mimeType, id: b.id ?? null, size: b.fileSize } }];',
					),
				],
			}),
		);
		const execution = await stack.client.waitForExecution(
			await stack.client.runWorkflowManually(workflow.id, 'Start'),
		);
		expect(execution.status).toBe('success');
		const [read] = nodeItems(execution, 'Read');
		expect(read.binary?.data?.fileName).toBe('probe-invoice.json');
		// filesystem mode: the binary is a reference to a file, not inline base64
		expect(String(read.binary?.data?.id ?? '')).toMatch(/^filesystem(-v2)?:/);
		expect(nodeJson(execution, 'Inspect')[0]).toMatchObject({ fileName: 'probe-invoice.json' });

		const outside = await stack.client.createWorkflow(
			manualWorkflow({
				name: 'probe read outside',
				nodes: [readFileNode('Read', '/etc/hostname')],
			}),
		);
		const refused = await stack.client.waitForExecution(
			await stack.client.runWorkflowManually(outside.id, 'Start'),
		);
		expect(refused.status).toBe('error');
	});

	it('keeps packages, workflows and activation across an n8n restart', async () => {
		const definition = webhookWorkflow({
			name: 'probe restart',
			nodes: [
				{
					name: 'Probe',
					type: `${PROBE}.probe`,
					typeVersion: 1,
					parameters: { greeting: 'again' },
				},
			],
		});
		const workflow = await stack.client.createWorkflow(definition);
		await stack.client.activateWorkflow(workflow.id);
		await stack.restartN8n();
		expect(await loadedNodeTypes(stack.client, PROBE)).toEqual([`${PROBE}.probe`]);
		await stack.client.waitForWebhook(definition.webhookPath);
		const res = await stack.client.callWebhook(definition.webhookPath, { json: { n: 1 } });
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject([{ greeting: 'again' }]);
	});
});
