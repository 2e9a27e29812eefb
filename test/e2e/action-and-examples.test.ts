/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
 
// The action node's operations and the example workflows, in a real n8n against the sandbox.

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	PACKAGE_NAME,
	REPO_ROOT,
	executionError,
	loadExampleWorkflows,
	nodeJson,
	readFileNode,
	sandboxAvailable,
	sandboxControl,
	sandboxDemoAccount,
	startSandboxInProcess,
	startStack,
	stopAll,
	waitForWorkflowWebhooks,
	webhookWorkflow,
	type Credential,
	type SandboxHandle,
	type Stack,
} from './harness/index.ts';

let stack: Stack;
let sandbox: SandboxHandle;
let enterprise: Credential;
let pilot: Credential;
const keys: string[] = [];

interface SandboxState {
	documents: Array<{ id: string }>;
	webhooks: Array<{ url: string; events: string[] }>;
	counts: { extractRequests: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function actionNode(name: string, credential: Credential, parameters: Record<string, unknown>) {
	return { name, type: `${PACKAGE_NAME}.documentExtraction`, typeVersion: 1, parameters, credentials: { documentExtractionApi: { id: credential.id, name: credential.name } } };
}

/** Copies an example file into n8n's allowed folder and returns its path there. */
function allowedCopy(fileName: string): string {
	const target = join(stack.n8n.fileAccessDirs[0], fileName);
	copyFileSync(join(REPO_ROOT, 'examples', 'files', fileName), target);
	return target;
}

async function runWorkflow(name: string, nodes: Array<Record<string, unknown>>) {
	const definition = webhookWorkflow({ name, nodes: nodes as never });
	const workflow = await stack.client.createWorkflow(definition);
	await stack.client.activateWorkflow(workflow.id);
	await stack.client.waitForWebhook(definition.webhookPath);
	const response = await stack.client.callWebhook(definition.webhookPath, { json: {} });
	const [execution] = await stack.client.waitForExecutions(workflow.id, 1);
	return { response, execution };
}

/** POSTs a file as multipart field `file`, as `curl -F file=@…` does. */
async function upload(path: string, fileName: string) {
	const form = new FormData();
	form.append('file', new Blob([readFileSync(join(REPO_ROOT, 'examples', 'files', fileName))]), fileName);
	const encoded = new Response(form);
	const body = Buffer.from(await encoded.arrayBuffer());
	return await stack.client.callWebhook(path, { body, headers: { 'content-type': encoded.headers.get('content-type') as string } });
}

describe.skipIf(!sandboxAvailable())('Action node and example workflows in a real n8n', () => {
	beforeAll(async () => {
		stack = await startStack({ package: 'repo' });
		sandbox = await startSandboxInProcess(stack.tls, { reviewDelayMs: 600_000, retryBaseMs: 300 });
		const big = await sandboxDemoAccount('enterprise', sandbox);
		const small = await sandboxDemoAccount('pilot', sandbox);
		if (!big || !small) throw new Error('the sandbox has no demo accounts');
		keys.push(big.apiKey, small.apiKey, big.signingSecret);
		enterprise = await stack.client.createDocumentExtractionCredential('Document Extraction (sandbox)', { baseUrl: sandbox.url, apiKey: big.apiKey, signingSecret: big.signingSecret, tier: 'enterprise' });
		pilot = await stack.client.createDocumentExtractionCredential('Document Extraction (pilot)', { baseUrl: sandbox.url, apiKey: small.apiKey, signingSecret: small.signingSecret, tier: 'pilot' });
	});

	afterAll(async () => {
		await sandbox?.close();
		await stack?.stop();
		await stopAll();
	});

	it('extracts a low-confidence document (needs review) and looks up its status', async () => {
		const file = allowedCopy('invoice-blurry.json');
		const { response, execution } = await runWorkflow('e2e needs review + status', [
			readFileNode('Read invoice', file),
			actionNode('Extract', enterprise, { resource: 'document', operation: 'extract', binaryPropertyName: 'data', outputMode: 'simplified', options: {} }),
			actionNode('Get Status', enterprise, { resource: 'document', operation: 'getStatus', documentId: '={{ $json.document_id }}', options: {} }),
		]);
		expect(response.status, response.text).toBe(200);
		const [extracted] = nodeJson(execution, 'Extract');
		expect(extracted).toMatchObject({ status: 'needs_review', confidence: 0.71, verified_by: null, vendor: null, total: null, line_items: [] });
		expect(extracted.review_id).toMatch(/^rev_/);
		const [status] = nodeJson(execution, 'Get Status');
		expect(status).toMatchObject({ document_id: extracted.document_id, status: 'needs_review', review_id: extracted.review_id, confidence: 0.71 });
		expect(typeof status.estimated_time).toBe('string');
		expect(typeof status.created_at).toBe('string');
	});

	it('registers a webhook and outputs its id, never the secret', async () => {
		// Secret left empty: the credential's signing secret signs the deliveries, and it appears
		// nowhere in the execution (a secret typed into the node is part of the workflow, as any parameter).
		const { execution } = await runWorkflow('e2e register', [
			actionNode('Register', enterprise, { resource: 'webhook', operation: 'register', url: 'https://hooks.example/accounting', events: ['document.verified'], secret: '' }),
		]);
		const [item] = nodeJson(execution, 'Register');
		expect(item).toEqual({ webhook_id: expect.stringMatching(/^wh_/), url: 'https://hooks.example/accounting', status: 'active', events: ['document.verified'] });
		const state = await sandboxControl<SandboxState>(sandbox.url, 'state');
		expect(state.webhooks.filter((webhook) => webhook.url === 'https://hooks.example/accounting')).toHaveLength(1);
		for (const secret of keys) expect(JSON.stringify(execution.raw)).not.toContain(secret);
	});

	it('refuses a file above the tier limit before uploading it, with a message that says what to do', async () => {
		const path = join(stack.n8n.fileAccessDirs[0], 'too-big.pdf');
		const bytes = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
		bytes.write('%PDF-1.4');
		writeFileSync(path, bytes);
		const before = (await sandboxControl<SandboxState>(sandbox.url, 'state')).counts.extractRequests;
		const { execution } = await runWorkflow('e2e oversize', [
			readFileNode('Read invoice', path),
			actionNode('Extract', pilot, { resource: 'document', operation: 'extract', binaryPropertyName: 'data', outputMode: 'simplified', options: {} }),
		]);
		expect(execution.status).toBe('error');
		const error = executionError(execution, 'Extract');
		expect(error?.message).toMatch(/too large for your tier/);
		expect(error?.description).toMatch(/10\.0 MB limit of the Pilot \(free\) tier/);
		expect((await sandboxControl<SandboxState>(sandbox.url, 'state')).counts.extractRequests).toBe(before);
	});

	describe('example workflows', () => {
		const paths: Record<string, string> = {};
		const ids: Record<string, string> = {};

		beforeAll(async () => {
			for (const { workflow } of loadExampleWorkflows()) {
				const created = await stack.client.createWorkflow(workflow, { credentials: { documentExtractionApi: enterprise } });
				await stack.client.activateWorkflow(created.id);
				await waitForWorkflowWebhooks(stack.client, workflow);
				ids[workflow.name] = created.id;
				const hook = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
				if (hook) paths[workflow.name] = String(hook.parameters.path);
			}
			expect(Object.keys(ids)).toHaveLength(3);
			// n8n serves the trigger's path a moment before its create() has registered it with the service.
			const deadline = Date.now() + 15_000;
			while (!(await sandboxControl<SandboxState>(sandbox.url, 'state')).webhooks.some((webhook) => webhook.url.includes('/webhook/7d1e0c52-3b0a-4f4e-9d0e-2b8f8f3c9a11/'))) {
				if (Date.now() > deadline) throw new Error('the Review results trigger did not register with the sandbox');
				await sleep(200);
			}
		});

		it('invoice intake routes a confident invoice to accounting and a blurry one to human review', async () => {
			const intake = paths['Invoice intake: extract and route'];
			const verified = await upload(intake, 'invoice-acme.json');
			expect(verified.status, verified.text).toBe(200);
			expect(verified.json).toEqual([
				{ route: 'accounting', document_id: expect.stringMatching(/^doc_/), vendor: 'Acme Supplies GmbH', invoice_no: 'INV-2026-0042', invoice_date: '2026-10-02', total: 1487.5, arithmetic_ok: true },
			]);
			const review = await upload(intake, 'invoice-blurry.json');
			expect(review.json).toEqual([{ route: 'human_review', document_id: expect.stringMatching(/^doc_/), review_id: expect.stringMatching(/^rev_/), confidence: 0.71 }]);
		});

		it('review results turns an approval into an accounting record and a rejection into a notification', async () => {
			const intake = paths['Invoice intake: extract and route'];
			const reviewResults = ids['Review results: accounting record or notification'];
			const approved = ((await upload(intake, 'invoice-blurry.json')).json as Array<{ review_id: string; document_id: string }>)[0];
			await sandboxControl(sandbox.url, `reviews/${approved.review_id}/approve`, {});
			const [first] = await stack.client.waitForExecutions(reviewResults, 1);
			expect(nodeJson(first, 'Accounting record')[0]).toMatchObject({
				record_type: 'supplier_invoice',
				document_id: approved.document_id,
				supplier: 'Northwind Traders',
				invoice_number: 'NW-88123',
				net_amount: 420,
				tax_amount: 79.8,
				gross_amount: 499.8,
				line_count: 1,
				reviewed_by: 'human_reviewer',
				corrections_made: false,
			});

			const rejected = ((await upload(intake, 'invoice-blurry.json')).json as Array<{ review_id: string; document_id: string }>)[0];
			await sandboxControl(sandbox.url, `reviews/${rejected.review_id}/reject`, { reason: 'Stamp covers the total' });
			const executions = await stack.client.waitForExecutions(reviewResults, 2);
			const notification = executions.flatMap((execution) => nodeJson(execution, 'Rejection notification'));
			expect(notification).toEqual([
				expect.objectContaining({ channel: 'accounts-payable', document_id: rejected.document_id, text: `Document ${rejected.document_id} was rejected by the reviewer: Stamp covers the total` }),
			]);
		});

		it('split line items gives one row per line of a CSV invoice', async () => {
			// A CSV carries no confidence of its own: choose the auto-verified path.
			await sandboxControl(sandbox.url, 'next-confidence', { confidence: 0.99 });
			const rows = await upload(paths['Split line items into rows'], 'invoice-globex.csv');
			expect(rows.status, rows.text).toBe(200);
			expect(rows.json).toEqual([
				expect.objectContaining({ invoice_no: 'GX-2026-311', line_number: 1, description: 'Consulting hours', quantity: 10, unit_price: 120, amount: 1200 }),
				expect.objectContaining({ invoice_no: 'GX-2026-311', line_number: 2, description: 'Travel expenses', quantity: 1, unit_price: 300, amount: 300 }),
			]);
		});
	});
});
