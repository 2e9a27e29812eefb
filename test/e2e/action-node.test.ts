/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// The Document Extraction action node in a real n8n (HTTPS, the packed package installed into its
// user folder as n8n documents manual installation) against the sandbox. Each workflow starts with a
// production Webhook, reads a file with Read/Write Files from Disk (filesystem binary mode, so the
// node streams it) and runs the node; outputs are read back through n8n's executions API.

import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	PACKAGE_NAME,
	REPO_ROOT,
	actionNode,
	executionError,
	extractParameters,
	nodeJson,
	readFileNode,
	sandboxState,
	sandboxCredential,
	startSandboxInProcess,
	startStack,
	stopAll,
	webhookWorkflow,
	type Credential,
	type NodeSpec,
	type SandboxHandle,
	type Stack,
} from '../../local-n8n/index.ts';

let stack: Stack;
let sandbox: SandboxHandle;
let enterprise: Credential;
let pilot: Credential;
const secrets: string[] = [];

const state = async () => await sandboxState(sandbox.url);


/** Copies an example file into n8n's allowed folder and returns its path there. */
function allowedCopy(fileName: string): string {
	const target = join(stack.n8n.fileAccessDirs[0], fileName);
	copyFileSync(join(REPO_ROOT, 'examples', 'files', fileName), target);
	return target;
}

/** Creates and activates Webhook → nodes, calls it once, and returns the answer and the stored execution. */
async function runWorkflow(name: string, nodes: NodeSpec[], connections?: Record<string, unknown>) {
	const definition = webhookWorkflow({ name, nodes, connections });
	const workflow = await stack.client.createWorkflow(definition);
	await stack.client.activateWorkflow(workflow.id);
	await stack.client.waitForWebhook(definition.webhookPath);
	const response = await stack.client.callWebhook(definition.webhookPath, { json: {} });
	const [execution] = await stack.client.waitForExecutions(workflow.id, 1);
	for (const secret of secrets) expect(JSON.stringify(execution.raw).includes(secret), `a secret in the execution of "${name}"`).toBe(false);
	return { response, execution };
}

describe('Document Extraction action node in a real n8n', () => {
	beforeAll(async () => {
		stack = await startStack({ package: 'repo' });
		// Reviews finish only when a test says so.
		sandbox = await startSandboxInProcess(stack.tls, { reviewDelayMs: 600_000, retryBaseMs: 300 });
		const big = await sandboxCredential(stack.client, sandbox, 'enterprise');
		const small = await sandboxCredential(stack.client, sandbox, 'pilot', 'Document Extraction (pilot)');
		secrets.push(big.apiKey, small.apiKey, big.signingSecret);
		({ credential: enterprise } = big);
		({ credential: pilot } = small);
	});

	afterAll(async () => {
		await sandbox?.close();
		await stack?.stop();
		await stopAll();
	});

	it('is installed as a user gets it (community package node types)', () => {
		expect(stack.installedNodeTypes).toEqual(expect.arrayContaining([`${PACKAGE_NAME}.documentExtraction`, `${PACKAGE_NAME}.documentExtractionTrigger`]));
	});

	it('extracts a confident invoice (auto-verified) into the simplified fields', async () => {
		const before = (await state()).counts.extractRequests;
		const { response, execution } = await runWorkflow('e2e extract (verified)', [readFileNode('Read invoice', allowedCopy('invoice-acme.json')), actionNode('Extract', pilot, extractParameters())]);
		expect(response.status, response.text).toBe(200);
		expect(execution.status).toBe('success');
		const [item] = nodeJson(execution, 'Extract');
		expect(item).toEqual({
			document_id: expect.stringMatching(/^doc_[a-z0-9]+$/),
			status: 'verified',
			confidence: 0.98,
			verified_by: 'ai_auto',
			review_id: null,
			vendor: 'Acme Supplies GmbH',
			invoice_date: '2026-10-02',
			invoice_no: 'INV-2026-0042',
			currency: null,
			subtotal: 1250,
			tax: 237.5,
			total: 1487.5,
			line_items: [
				{ description: 'Paper A4, 500 sheets', quantity: 40, unit_price: 25, amount: 1000 },
				{ description: 'Toner cartridge', quantity: 2, unit_price: 125, amount: 250 },
			],
			checks: { subtotal_plus_tax_equals_total: true, line_items_sum_equals_subtotal: true, line_amounts_match: true, all_passed: true },
			ready_to_post: true,
			not_ready_because: [],
		});
		// The webhook answers with the same item, and exactly one extract request reached the service.
		expect(response.json).toEqual([item]);
		const after = await state();
		expect(after.counts.extractRequests).toBe(before + 1);
		expect(after.documents.map((document) => document.id)).toContain(item.document_id);
	});

	it('extracts a low-confidence invoice (needs review: review_id, invoice fields null) and looks up its status', async () => {
		const { response, execution } = await runWorkflow('e2e extract (needs review) + status', [
			readFileNode('Read invoice', allowedCopy('invoice-blurry.json')),
			actionNode('Extract', enterprise, extractParameters()),
			actionNode('Get Status', enterprise, { resource: 'document', operation: 'getStatus', documentId: '={{ $json.document_id }}', options: {} }),
		], {
			Webhook: { main: [[{ node: 'Read invoice', type: 'main', index: 0 }]] },
			'Read invoice': { main: [[{ node: 'Extract', type: 'main', index: 0 }]] },
			Extract: { main: [[], [{ node: 'Get Status', type: 'main', index: 0 }]] },
		});
		expect(response.status, response.text).toBe(200);
		// Extract's second output, Needs Review, carries it (and feeds Get Status).
		expect(nodeJson(execution, 'Extract')).toEqual([]);
		const [extracted] = nodeJson(execution, 'Extract', { output: 1 });
		expect(extracted).toMatchObject({
			document_id: expect.stringMatching(/^doc_/),
			status: 'needs_review',
			confidence: 0.71,
			review_id: expect.stringMatching(/^rev_/),
			verified_by: null,
			vendor: null,
			invoice_date: null,
			invoice_no: null,
			subtotal: null,
			tax: null,
			total: null,
			line_items: [],
		});
		const [status] = nodeJson(execution, 'Get Status');
		expect(status).toMatchObject({ document_id: extracted.document_id, status: 'needs_review', review_id: extracted.review_id, confidence: 0.71 });
		expect(typeof status.estimated_time).toBe('string');
		expect(new Date(String(status.created_at)).toISOString()).toBe(status.created_at);
		expect(response.json).toEqual([status]);
	});

	it('registers a webhook (https URL) and outputs webhook_id, never the secret', async () => {
		// Secret left empty: the credential's signing secret signs the deliveries and appears nowhere in
		// the execution (runWorkflow checks every secret).
		const url = 'https://hooks.example/accounting';
		const { execution } = await runWorkflow('e2e register', [actionNode('Register', enterprise, { resource: 'webhook', operation: 'register', url, events: ['document.verified'], secret: '' })]);
		const [item] = nodeJson(execution, 'Register');
		expect(item).toEqual({ webhook_id: expect.stringMatching(/^wh_/), url, status: 'active', events: ['document.verified'] });
		expect(Object.keys(item)).not.toContain('secret');
		const registered = (await state()).webhooks.filter((webhook) => webhook.url === url);
		expect(registered.map((webhook) => ({ id: webhook.id, events: webhook.events }))).toEqual([{ id: item.webhook_id, events: ['document.verified'] }]);
		expect(registered[0].secret).toBe(secrets[2]); // the credential's signing secret was sent, and only there
	});

	it('refuses a file above the tier limit before uploading it, with a clear message, and nothing reaches the service', async () => {
		const path = join(stack.n8n.fileAccessDirs[0], 'too-big.pdf');
		const bytes = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20); // 10 MiB + 1 byte, the Pilot limit + 1 (D20)
		bytes.write('%PDF-1.4\n');
		writeFileSync(path, bytes);
		const before = await state();
		const { execution } = await runWorkflow('e2e oversize', [readFileNode('Read invoice', path), actionNode('Extract', pilot, extractParameters())]);
		expect(execution.status).toBe('error');
		const error = executionError(execution, 'Extract');
		expect(error?.message).toBe('"too-big.pdf" is too large for your tier');
		expect(error?.description).toMatch(/10\.0 MB limit of the Pilot \(free\) tier/);
		const after = await state();
		expect(after.counts).toEqual(before.counts); // no extract request (not even a refused or rate-limited one)
		expect(after.documents).toHaveLength(before.documents.length);
	});
});
