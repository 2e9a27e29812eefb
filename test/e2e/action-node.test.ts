/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// The Document Extraction action node in a real n8n (HTTPS, the packed package installed into its
// user folder as n8n documents manual installation) against the sandbox. Each workflow starts with a
// production Webhook, reads a file with Read/Write Files from Disk (filesystem binary mode, so the
// node streams it) and runs the node; outputs are read back through n8n's executions API.

import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	PACKAGE_NAME,
	REPO_ROOT,
	actionNode,
	executionError,
	extractParameters,
	nodeJson,
	readFileNode,
	sandboxCredential,
	webhookWorkflow,
	type Credential,
	type NodeSpec,
} from '../../local-n8n/index.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST });
/** The pilot account's credential besides the fixture's enterprise one: its 10 MiB limit is the one the oversize test meets. */
let pilot: Credential;

/** Copies an example file into n8n's allowed folder and returns its path there. */
function allowedCopy(fileName: string): string {
	const target = join(fixture.stack.n8n.fileAccessDirs[0], fileName);
	copyFileSync(join(REPO_ROOT, 'examples', 'files', fileName), target);
	return target;
}

/** Creates and activates Webhook → nodes, calls it once, and returns the answer and the stored execution. */
async function runWorkflow(name: string, nodes: NodeSpec[], connections?: Record<string, unknown>) {
	const definition = webhookWorkflow({ name, nodes, connections });
	const workflow = await fixture.stack.client.createWorkflow(definition);
	await fixture.stack.client.activateWorkflow(workflow.id);
	await fixture.stack.client.waitForWebhook(definition.webhookPath);
	const response = await fixture.stack.client.callWebhook(definition.webhookPath, { json: {} });
	const [execution] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
	fixture.expectNoSecretIn(execution, `a secret in the execution of "${name}"`);
	return { response, execution };
}

describe('Document Extraction action node in a real n8n', () => {
	beforeAll(async () => {
		const small = await sandboxCredential(
			fixture.stack.client,
			fixture.sandbox,
			'pilot',
			'Document Extraction (pilot)',
		);
		fixture.secrets.push(small.apiKey);
		pilot = small.credential;
	});

	it('is installed as a user gets it (community package node types)', () => {
		expect(fixture.stack.installedNodeTypes).toEqual(
			expect.arrayContaining([
				`${PACKAGE_NAME}.documentExtraction`,
				`${PACKAGE_NAME}.documentExtractionTrigger`,
			]),
		);
	});

	it('extracts a confident invoice (auto-verified) into the simplified fields', async () => {
		const before = (await fixture.sandboxState()).counts.extractRequests;
		const { response, execution } = await runWorkflow('e2e extract (verified)', [
			readFileNode('Read invoice', allowedCopy('invoice-acme.json')),
			actionNode('Extract', pilot, extractParameters()),
		]);
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
			checks: {
				subtotal_plus_tax_equals_total: true,
				line_items_sum_equals_subtotal: true,
				line_amounts_match: true,
				all_passed: true,
			},
			ready_to_post: true,
			not_ready_because: [],
			summary: 'Acme Supplies GmbH, INV-2026-0042, 2026-10-02, 1,487.50, 2 lines',
			summary_html: 'Acme Supplies GmbH, INV-2026-0042, 2026-10-02, 1,487.50, 2 lines',
			lines_markdown: expect.stringContaining('| Toner cartridge | 2 | 125.00 | 250.00 |'),
			lines_html: expect.stringContaining('<td>Paper A4, 500 sheets</td>'),
		});
		// The webhook answers with the same item, and exactly one extract request reached the service.
		expect(response.json).toEqual([item]);
		const after = await fixture.sandboxState();
		expect(after.counts.extractRequests).toBe(before + 1);
		expect(after.documents.map((document) => document.id)).toContain(item.document_id);
	});

	it('extracts a low-confidence invoice (needs review: review_id, invoice fields null) and looks up its status', async () => {
		const { response, execution } = await runWorkflow(
			'e2e extract (needs review) + status',
			[
				readFileNode('Read invoice', allowedCopy('invoice-blurry.json')),
				actionNode('Extract', fixture.credential, extractParameters()),
				actionNode('Get Status', fixture.credential, {
					resource: 'document',
					operation: 'getStatus',
					documentId: '={{ $json.document_id }}',
					options: {},
				}),
			],
			{
				Webhook: { main: [[{ node: 'Read invoice', type: 'main', index: 0 }]] },
				'Read invoice': { main: [[{ node: 'Extract', type: 'main', index: 0 }]] },
				Extract: { main: [[], [{ node: 'Get Status', type: 'main', index: 0 }]] },
			},
		);
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
		expect(status).toMatchObject({
			document_id: extracted.document_id,
			status: 'needs_review',
			review_id: extracted.review_id,
			confidence: 0.71,
		});
		expect(typeof status.estimated_time).toBe('string');
		expect(new Date(String(status.created_at)).toISOString()).toBe(status.created_at);
		expect(response.json).toEqual([status]);
	});

	it('registers a webhook (https URL) and outputs webhook_id, never the secret', async () => {
		// Secret left empty: the credential's signing secret signs the deliveries and appears nowhere in
		// the execution (runWorkflow checks every secret).
		const url = 'https://hooks.example/accounting';
		const { execution } = await runWorkflow('e2e register', [
			actionNode('Register', fixture.credential, {
				resource: 'webhook',
				operation: 'register',
				url,
				events: ['document.verified'],
				secret: '',
			}),
		]);
		const [item] = nodeJson(execution, 'Register');
		expect(item).toEqual({
			webhook_id: expect.stringMatching(/^wh_/),
			url,
			status: 'active',
			events: ['document.verified'],
		});
		expect(Object.keys(item)).not.toContain('secret');
		const registered = (await fixture.sandboxState()).webhooks.filter(
			(webhook) => webhook.url === url,
		);
		expect(registered.map((webhook) => ({ id: webhook.id, events: webhook.events }))).toEqual([
			{ id: item.webhook_id, events: ['document.verified'] },
		]);
		expect(registered[0].secret).toBe(fixture.signingSecret); // the credential's signing secret was sent, and only there
	});

	it('refuses a file above the tier limit before uploading it, with a clear message, and nothing reaches the service', async () => {
		const path = join(fixture.stack.n8n.fileAccessDirs[0], 'too-big.pdf');
		const bytes = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20); // 10 MiB + 1 byte, the Pilot limit + 1 (D20)
		bytes.write('%PDF-1.4\n');
		writeFileSync(path, bytes);
		const before = await fixture.sandboxState();
		const { execution } = await runWorkflow('e2e oversize', [
			readFileNode('Read invoice', path),
			actionNode('Extract', pilot, extractParameters()),
		]);
		expect(execution.status).toBe('error');
		const error = executionError(execution, 'Extract');
		expect(error?.message).toBe('"too-big.pdf" is too large for your tier');
		expect(error?.description).toMatch(/10\.0 MB limit of the Pilot \(free\) tier/);
		const after = await fixture.sandboxState();
		expect(after.counts).toEqual(before.counts); // no extract request (not even a refused or rate-limited one)
		expect(after.documents).toHaveLength(before.documents.length);
	});
});
