/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// The example workflows (examples/*.workflow.json) imported into a real n8n as a user imports
// them (credential reference matched by its name, "Document Extraction (sandbox)"), activated, and
// run against the sandbox: files are POSTed to the intake webhooks as multipart field `file` (the
// Webhook node names the binary property after the field), reviews are approved or rejected in the
// sandbox, and the routes taken are read from n8n's executions API.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	REPO_ROOT,
	executedNodes,
	isActivatable,
	loadExampleWorkflows,
	nodeJson,
	sandboxControl,
	waitForWorkflowWebhooks,
	withCredentialsByName,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import { outputAfter } from './support/executionPath.ts';
import { executionWhere } from './support/laterInvoices.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const INTAKE = 'Invoice intake: extract and route';
const REVIEW_RESULTS = 'Review results: accounting record or notification';
const SPLIT = 'Split line items into rows';
const APPROVAL = 'Invoice approval: extract and wait for review';
const AI_AGENT = "AI agent: ask about an invoice's review";

// The credential `npm start` creates: the sandbox's pilot account, under the name the examples use.
const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST, tier: 'pilot' });
const ids: Record<string, string> = {};
const paths: Record<string, string> = {};

/** POSTs an example file as multipart field `file`, as `curl -F file=@…` does; the workflow's answer (HTTP 200). */
async function upload<Item = Record<string, unknown>>(
	path: string,
	fileName: string,
	bytes = readFileSync(join(REPO_ROOT, 'examples', 'files', fileName)),
): Promise<Item[]> {
	const form = new FormData();
	form.append('file', new Blob([bytes]), fileName);
	const encoded = new Response(form);
	const body = Buffer.from(await encoded.arrayBuffer());
	const answer = await fixture.stack.client.callWebhook(path, {
		body,
		headers: { 'content-type': encoded.headers.get('content-type') as string },
	});
	expect(answer.status, answer.text).toBe(200);
	return answer.json as Item[];
}

/** The execution of the example named `workflow` in which `nodeName` output an item for `documentId`. */
async function executionFor(
	workflow: string,
	nodeName: string,
	documentId: string,
): Promise<DecodedExecution> {
	return await executionWhere(fixture.stack.client, ids[workflow], nodeName, documentId);
}

describe('Example workflows in a real n8n against the sandbox', () => {
	beforeAll(async () => {
		// The examples that post to an accounting system run in books.test.ts, next to their stand-ins;
		// the one that emails an approver in approval-flow.test.ts, next to a mail server; the email
		// intake in email-intake.test.ts, next to an IMAP server; the whole templates (email to the
		// books) in inbox-to-books.test.ts, next to both and the Xero stand-in; the morning digest in
		// morning-digest.test.ts, next to a mail server.
		const examples = loadExampleWorkflows().filter(
			({ file }) =>
				file.endsWith('.workflow.json') &&
				!file.startsWith('invoice-to-') &&
				!file.startsWith('invoices-email-to-') &&
				file !== 'invoice-approval-by-manager.workflow.json' &&
				file !== 'invoice-email-intake.workflow.json' &&
				file !== 'invoice-register-morning-digest.workflow.json',
		);
		expect(examples.map(({ workflow }) => workflow.name).sort()).toEqual([
			AI_AGENT,
			APPROVAL,
			INTAKE,
			REVIEW_RESULTS,
			SPLIT,
		]);
		for (const { workflow } of examples) {
			const created = await fixture.stack.client.createWorkflow(
				withCredentialsByName(workflow, [fixture.credential]),
			);
			ids[workflow.name] = created.id;
			// The AI agent example starts by hand (and needs a chat model credential): imported, not activated.
			if (!isActivatable(workflow)) continue;
			await fixture.stack.client.activateWorkflow(created.id);
			await waitForWorkflowWebhooks(fixture.stack.client, workflow);
			const hook = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
			if (hook) paths[workflow.name] = String(hook.parameters.path);
		}
		expect(Object.keys(paths).sort()).toEqual([APPROVAL, INTAKE, SPLIT]);
		// The review-results trigger registers its HTTPS URL with the sandbox on activation.
		await fixture.waitForTriggerRegistrations(1);
	});

	it('invoice intake routes a confident invoice to "Ready for accounting"', async () => {
		const answer = await upload<{ document_id: string }>(paths[INTAKE], 'invoice-acme.json');
		expect(answer).toEqual([
			{
				route: 'accounting',
				document_id: expect.stringMatching(/^doc_/),
				vendor: 'Acme Supplies GmbH',
				invoice_no: 'INV-2026-0042',
				invoice_date: '2026-10-02',
				total: 1487.5,
				arithmetic_ok: true,
			},
		]);
		const documentId = answer[0].document_id;
		const execution = await executionFor(INTAKE, 'Ready for accounting', documentId);
		expect(execution.status).toBe('success');
		// Extract's own Verified output leads straight to accounting.
		expect(executedNodes(execution)).toEqual([
			'Receive invoice',
			'Extract invoice',
			'Ready for accounting',
		]);
		expect(nodeJson(execution, 'Extract invoice')[0]).toMatchObject({
			status: 'verified',
			verified_by: 'ai_auto',
			document_id: documentId,
		});
	});

	it('invoice intake routes a blurry invoice to "Waiting for human review", and a processing one to "Still processing"', async () => {
		const answer = await upload<{ document_id: string }>(paths[INTAKE], 'invoice-blurry.json');
		expect(answer).toEqual([
			{
				route: 'human_review',
				document_id: expect.stringMatching(/^doc_/),
				review_id: expect.stringMatching(/^rev_/),
				confidence: 0.71,
			},
		]);
		const documentId = answer[0].document_id;
		const execution = await executionFor(INTAKE, 'Waiting for human review', documentId);
		expect(executedNodes(execution)).toEqual([
			'Receive invoice',
			'Extract invoice',
			'Route by status',
			'Waiting for human review',
		]);

		await sandboxControl(fixture.sandbox.url, 'next-status', { status: 'processing' });
		const later = await upload<{ document_id: string }>(paths[INTAKE], 'invoice-acme.json');
		expect(later).toEqual([
			{ route: 'check_status_later', document_id: expect.stringMatching(/^doc_/) },
		]);
		const processing = await executionFor(INTAKE, 'Still processing', later[0].document_id);
		expect(executedNodes(processing)).toEqual([
			'Receive invoice',
			'Extract invoice',
			'Route by status',
			'Still processing',
		]);
	});

	it('invoice intake holds a verified invoice whose amounts do not add up: "Not ready to post" with the reason', async () => {
		const acme = JSON.parse(
			readFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'), 'utf8'),
		) as { header: Record<string, unknown>; amounts: Record<string, number> };
		acme.header.invoice_no = 'INV-2026-0043';
		acme.amounts.total = 1500;
		const answer = await upload(
			paths[INTAKE],
			'invoice-acme-off.json',
			Buffer.from(JSON.stringify(acme)),
		);
		expect(answer).toEqual([
			{
				route: 'not_ready_to_post',
				document_id: expect.stringMatching(/^doc_/),
				vendor: 'Acme Supplies GmbH',
				invoice_no: 'INV-2026-0043',
				reason: expect.stringContaining('does not equal the total 1500'),
			},
		]);
	});

	it('review results turns an approval into an "Accounting record" and a rejection into a "Rejection notification"', async () => {
		const [approved] = await upload<{ review_id: string; document_id: string }>(
			paths[INTAKE],
			'invoice-blurry.json',
		);
		await sandboxControl(fixture.sandbox.url, `reviews/${approved.review_id}/approve`, {});
		const approval = await executionFor(REVIEW_RESULTS, 'Accounting record', approved.document_id);
		expect(approval.status).toBe('success');
		expect(
			outputAfter(approval, ['Review finished', 'Verified or rejected', 'Accounting record']),
		).toEqual([
			expect.objectContaining({
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
			}),
		]);

		const [rejected] = await upload<{ review_id: string; document_id: string }>(
			paths[INTAKE],
			'invoice-blurry.json',
		);
		await sandboxControl(fixture.sandbox.url, `reviews/${rejected.review_id}/reject`, {
			reason: 'Stamp covers the total',
		});
		const rejection = await executionFor(
			REVIEW_RESULTS,
			'Rejection notification',
			rejected.document_id,
		);
		expect(
			outputAfter(rejection, ['Review finished', 'Verified or rejected', 'Rejection notification']),
		).toEqual([
			expect.objectContaining({
				channel: 'accounts-payable',
				document_id: rejected.document_id,
				text: `Document ${rejected.document_id} was rejected by the reviewer: Stamp covers the total`,
			}),
		]);
		// One execution per review outcome.
		await fixture.settle();
		expect(await fixture.stack.client.listExecutions(ids[REVIEW_RESULTS])).toHaveLength(2);
	});

	it('split line items gives one row per line of invoice-globex.csv', async () => {
		// A CSV carries no confidence of its own: choose the auto-verified path.
		await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: 0.99 });
		const rows = await upload(paths[SPLIT], 'invoice-globex.csv');
		expect(rows).toEqual([
			expect.objectContaining({
				invoice_no: 'GX-2026-311',
				vendor: 'Globex Corporation',
				line_number: 1,
				description: 'Consulting hours',
				quantity: 10,
				unit_price: 120,
				amount: 1200,
			}),
			expect.objectContaining({
				invoice_no: 'GX-2026-311',
				vendor: 'Globex Corporation',
				line_number: 2,
				description: 'Travel expenses',
				quantity: 1,
				unit_price: 300,
				amount: 300,
			}),
		]);
		const [execution] = await fixture.stack.client.waitForExecutions(ids[SPLIT], 1);
		expect(nodeJson(execution, 'Extract line items')).toHaveLength(2);
		expect(nodeJson(execution, 'Line item rows')).toHaveLength(2);
	});

	it('invoice approval waits for the review: an approval continues to "Post to accounting"; the same file again is "Already handled"', async () => {
		await upload(paths[APPROVAL], 'invoice-blurry.json');
		const deadline = Date.now() + 60_000;
		let waiting: { id: string } | undefined;
		while (!waiting && Date.now() < deadline) {
			waiting = (await fixture.stack.client.listExecutions(ids[APPROVAL])).find(
				(execution) => execution.status === 'waiting',
			);
			if (!waiting) await sleep(300);
		}
		expect(waiting, 'an execution waiting for the review').toBeDefined();
		const { documents } = await fixture.sandboxState();
		const document = documents.find((entry) =>
			entry.webhookUrl?.includes(`/webhook-waiting/${waiting!.id}`),
		);
		expect(document?.reviewId).toMatch(/^rev_/);

		await sandboxControl(fixture.sandbox.url, `reviews/${document!.reviewId}/approve`, {});
		const approved = await fixture.stack.client.waitForExecution(waiting!.id);
		expect(approved.status).toBe('success');
		expect(
			outputAfter(approved, [
				'Receive invoice',
				'Extract and wait for review',
				'Post to accounting',
			]),
		).toEqual([
			expect.objectContaining({
				route: 'accounting',
				document_id: document!.id,
				vendor: 'Northwind Traders',
				verified_by: 'human_reviewer',
				arithmetic_ok: true,
			}),
		]);

		const before = (await fixture.stack.client.listExecutions(ids[APPROVAL])).length;
		await upload(paths[APPROVAL], 'invoice-blurry.json');
		// The file's earlier document is not kept across executions (docs/memory.md): its run is the new one.
		const [duplicate] = (
			await fixture.stack.client.waitForExecutions(ids[APPROVAL], before + 1)
		).filter((execution) => nodeJson(execution, 'Already handled').length > 0);
		expect(nodeJson(duplicate, 'Already handled')[0]).toMatchObject({ route: 'duplicate' });
		expect(executedNodes(duplicate)).toEqual([
			'Receive invoice',
			'Extract and wait for review',
			'Already handled',
		]);
	});

	it("the AI agent example imports with the action node as the agent's tool (n8n knows the tool type; running it needs a chat model)", async () => {
		const workflow = await fixture.stack.client.getWorkflow(ids[AI_AGENT]);
		const tool = (workflow.nodes as Array<{ name: string; type: string }>).find(
			(node) => node.name === 'Look up document status',
		);
		expect(tool?.type).toBe('n8n-nodes-document-extraction.documentExtractionTool');
		const known = (await fixture.stack.client.nodeTypes()).map((type) => type.name);
		expect(known).toEqual(
			expect.arrayContaining([
				'n8n-nodes-document-extraction.documentExtractionTool',
				'@n8n/n8n-nodes-langchain.agent',
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
			]),
		);
		expect(
			(workflow.connections as Record<string, { ai_tool?: unknown }>)['Look up document status']
				.ai_tool,
		).toBeDefined();
	});
});
