/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// In a real n8n with the package installed from the local registry, against the sandbox:
// 1. Read/Write Files from Disk (filesystem binary mode) → Document Extraction → Extract, run
//    through a production webhook; the answer and the stored execution carry the invoice.
// 2. An active Document Extraction Trigger registers n8n's HTTPS webhook with the sandbox; a review
//    approved in the sandbox is delivered (signed, over HTTPS with the local CA) and starts it.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	PACKAGE_NAME,
	REPO_ROOT,
	nodeJson,
	readFileNode,
	sandboxAvailable,
	sandboxControl,
	sandboxDemoAccount,
	startSandboxInProcess,
	triggerWorkflow,
	startStack,
	stopAll,
	webhookWorkflow,
	type Credential,
	type SandboxHandle,
	type Stack,
} from './harness/index.ts';

let stack: Stack;
let sandbox: SandboxHandle;
let credential: Credential;
let apiKey: string;
let extractPath: string;

describe.skipIf(!sandboxAvailable())('Extract in a real n8n against the sandbox', () => {
	beforeAll(async () => {
		stack = await startStack({ package: 'repo' });
		// Reviews finish only when the test says so; failed deliveries are retried quickly.
		sandbox = await startSandboxInProcess(stack.tls, { reviewDelayMs: 10 * 60_000, retryBaseMs: 500 });
		const account = await sandboxDemoAccount('pilot', sandbox);
		if (!account) throw new Error('the sandbox has no pilot account');
		apiKey = account.apiKey;
		credential = await stack.client.createDocumentExtractionCredential('Document Extraction (sandbox)', {
			baseUrl: sandbox.url,
			apiKey: account.apiKey,
			signingSecret: account.signingSecret,
			tier: 'pilot',
		});
	});

	afterAll(async () => {
		await sandbox?.close();
		await stack?.stop();
		await stopAll();
	});

	it('extracts invoice-acme.json and answers with the simplified fields', async () => {
		const file = join(stack.n8n.fileAccessDirs[0], 'invoice-acme.json');
		copyFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'), file);
		const definition = webhookWorkflow({
			name: 'e2e extract',
			nodes: [
				readFileNode('Read invoice', file),
				{
					name: 'Document Extraction',
					type: `${PACKAGE_NAME}.documentExtraction`,
					typeVersion: 1,
					parameters: { resource: 'document', operation: 'extract', binaryPropertyName: 'data', outputMode: 'simplified', options: {} },
					credentials: { documentExtractionApi: { id: credential.id, name: credential.name } },
				},
			],
		});
		const workflow = await stack.client.createWorkflow(definition);
		await stack.client.activateWorkflow(workflow.id);
		await stack.client.waitForWebhook(definition.webhookPath);

		extractPath = definition.webhookPath;
		const res = await stack.client.callWebhook(definition.webhookPath, { json: {} });
		expect(res.status, res.text).toBe(200);
		const [item] = res.json as Array<Record<string, unknown>>;
		expect(item.document_id).toMatch(/^doc_/);
		expect(item).toMatchObject({ vendor: 'Acme Supplies GmbH', invoice_no: 'INV-2026-0042', total: 1487.5 });

		const [execution] = await stack.client.waitForExecutions(workflow.id, 1);
		expect(execution.status).toBe('success');
		expect(nodeJson(execution, 'Document Extraction')[0]).toMatchObject({ document_id: item.document_id });
		// The API key never appears in the stored execution.
		expect(JSON.stringify(execution.raw)).not.toContain(apiKey);
	});

	it('starts the trigger workflow when a reviewer approves a low-confidence document', async () => {
		const definition = triggerWorkflow({
			name: 'e2e review results',
			trigger: {
				name: 'Document Extraction Trigger',
				type: `${PACKAGE_NAME}.documentExtractionTrigger`,
				typeVersion: 1,
				parameters: { events: ['document.verified', 'document.rejected'], outputMode: 'simplified', options: {} },
				credentials: { documentExtractionApi: { id: credential.id, name: credential.name } },
			},
		});
		const trigger = await stack.client.createWorkflow(definition);
		await stack.client.activateWorkflow(trigger.id);
		await stack.client.waitForWebhook(`${definition.webhookId}/webhook`);
		// n8n serves the path a moment before the trigger's create() has registered it with the service.
		const deadline = Date.now() + 15_000;
		while (!(await sandboxControl<{ webhooks: Array<{ url: string }> }>(sandbox.url, 'state')).webhooks.some((webhook) => webhook.url.includes(definition.webhookId))) {
			if (Date.now() > deadline) throw new Error('the trigger did not register with the sandbox');
			await new Promise((resolve) => setTimeout(resolve, 200));
		}

		await sandboxControl(sandbox.url, 'next-confidence', { confidence: 0.7 });
		const res = await stack.client.callWebhook(extractPath, { json: {} });
		expect(res.status, res.text).toBe(200);
		const [extracted] = res.json as Array<Record<string, unknown>>;
		expect(extracted.status).toBe('needs_review');
		expect(extracted.review_id).toMatch(/^rev_/);

		await sandboxControl(sandbox.url, `reviews/${extracted.review_id as string}/approve`, {});
		const [execution] = await stack.client.waitForExecutions(trigger.id, 1, { timeoutMs: 60_000 });
		expect(execution.status).toBe('success');
		expect(nodeJson(execution, 'Document Extraction Trigger')[0]).toMatchObject({
			event: 'document.verified',
			document_id: extracted.document_id,
			status: 'verified',
			vendor: 'Acme Supplies GmbH',
		});
	});
});
