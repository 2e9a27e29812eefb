// "No invoice paid twice" for invoices that arrive later, in a real n8n against the sandbox:
// - the Invoice to Xero example (intake with Extract's Detect Same Invoice, and the Document
//   Extraction Trigger followed by Check Invoice Duplicate, in one workflow), imported as a user
//   imports it and pointed at the local Xero stand-in. Reviews are approved in the sandbox, which
//   delivers the signed document.verified event to the trigger; what reaches the stand-in is
//   checked against Xero's schema there. This proves that n8n's deduplication store with scope
//   "workflow" is one memory for the Extract node and the Check Invoice Duplicate node.
// - Extract with Wait for Review, its Verified output followed by Check Invoice Duplicate (without
//   a credential: it calls no API): a confident invoice passes at once, a reviewed one after the
//   execution resumed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	actionNode,
	codeNode,
	eventually,
	extractParameters,
	nodeJson,
	sandboxControl,
	sandboxCredential,
	webhookWorkflow,
	type Credential,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import { startXeroStandIn, type XeroStandIn } from '../../local-n8n/accounting/index.ts';
import { activeBooksExample, STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import {
	afterApproval,
	laterCopyIsPossibleDuplicate,
	expectRunPosted,
	invoiceFile,
	postInvoiceFile,
} from './support/laterInvoices.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST, tier: 'pilot' });
let xero: XeroStandIn;
let xeroWorkflowId: string;
let xeroPath: string;

const postFile = (path: string, fileName: string, invoice: unknown) =>
	postInvoiceFile(fixture.stack.client, path, fileName, invoice);

/** The bills the stand-in received since the last call (each must have passed its schema check). */
function billNumbers(): string[] {
	const requests = xero.requests.splice(0);
	for (const request of requests) expect(request.errors, JSON.stringify(request.body)).toEqual([]);
	return requests
		.filter((request) => request.path.startsWith('/api.xro/2.0/Invoices?'))
		.flatMap((request) =>
			(request.body as { Invoices: Array<{ InvoiceNumber: string }> }).Invoices.map(
				(bill) => bill.InvoiceNumber,
			),
		);
}

describe('Invoices arriving later (trigger, Wait for Review) are checked against the same invoices, in a real n8n', () => {
	beforeAll(async () => {
		xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		({ id: xeroWorkflowId, webhookPath: xeroPath } = await activeBooksExample(fixture, 'xero', {
			xero_api_url: xero.url,
			xero_tenant_id: 'stand-in-tenant',
		}));
		// The example's trigger (Sent by This Workflow) registers nothing (N62): review results come to
		// the workflow's own address, which Extract gives each document.
	});

	afterAll(async () => {
		await xero?.close();
	});

	it('an invoice billed at once, arriving again in another file through review and the trigger, is a possible duplicate: one bill', async () => {
		const [first] = await postFile(
			xeroPath,
			'hooli-pdf.json',
			invoiceFile('Hooli Süd GmbH', 'HS-0077', 42, 0.98),
		);
		expect(first).toMatchObject({ route: 'xero', invoice_number: 'HS-0077' });
		expect(billNumbers()).toEqual(['HS-0077']);

		const execution = await laterCopyIsPossibleDuplicate(
			fixture,
			{ id: xeroWorkflowId, webhookPath: xeroPath },
			{ fileName: 'hooli-scan.json', invoice: invoiceFile('HOOLI SUD', 'hs 77', 42, 0.7) },
			first.document_id,
			'same vendor ("hooli sud"), same invoice number ("HS 77") and total 42.00',
		);
		expect(nodeJson(execution, 'Check for duplicate', { output: 1 })[0]).toMatchObject({
			event: 'document.verified',
			verified_by: 'human_reviewer',
			same_document: false,
		});
		expect(billNumbers()).toEqual([]);
	});

	it('another invoice of the same vendor through the trigger is a second bill; that invoice in another file at the intake is then a possible duplicate', async () => {
		const [pending] = await postFile(
			xeroPath,
			'hooli-next.json',
			invoiceFile('Hooli Süd GmbH', 'HS-0078', 42, 0.7),
		);
		const { execution } = await afterApproval(fixture, xeroWorkflowId, pending, 'Posted to Xero');
		expectRunPosted(
			execution,
			[
				'Review finished',
				'Check for duplicate',
				'Settings',
				'Build Xero bill',
				'Create bill in Xero',
				'Prepare attachment',
				'Original to attach?',
				'Posted to Xero',
			],
			{ route: 'xero', invoice_number: 'HS-0078' },
		);
		expect(billNumbers()).toEqual(['HS-0078']);

		// The other way round: what the Check node recorded, Extract's Detect Same Invoice sees.
		const [again] = await postFile(
			xeroPath,
			'hooli-next-copy.json',
			invoiceFile('HOOLI SÜD', 'HS 78', 42, 0.98),
		);
		expect(again).toMatchObject({ route: 'review', possible_duplicate_of: null });
		expect(billNumbers()).toEqual([]);
	});

	describe('after Wait for Review', () => {
		let waitingCredential: Credential;
		let workflow: { id: string; path: string };

		/** Starts the workflow with a file; resolves with the execution it started. */
		async function start(fileName: string, invoice: unknown): Promise<string> {
			const known = new Set(
				(await fixture.stack.client.listExecutions(workflow.id)).map((execution) => execution.id),
			);
			await postFile(workflow.path, fileName, invoice);
			const fresh = await eventually(
				'the execution the file started',
				async () =>
					(await fixture.stack.client.listExecutions(workflow.id)).find(
						(execution) => !known.has(execution.id),
					),
				(execution) => execution !== undefined,
			);
			return fresh!.id;
		}

		/** Waits until the execution waits for its review, approves it, and returns the resumed, finished execution. */
		async function approveWaiting(executionId: string): Promise<DecodedExecution> {
			await fixture.stack.client.waitForExecution(executionId, {
				until: (execution) => execution.status === 'waiting',
			});
			const document = await eventually(
				'the document uploaded with the resume URL',
				async () =>
					(await fixture.sandboxState()).documents.find((entry) =>
						entry.webhookUrl?.includes(`/webhook-waiting/${executionId}`),
					),
				(entry) => entry !== undefined,
			);
			await sandboxControl(fixture.sandbox.url, `reviews/${document!.reviewId}/approve`, {});
			return await fixture.stack.client.waitForExecution(executionId);
		}

		const routed = (execution: DecodedExecution) => ({
			new: nodeJson(execution, 'On New Invoice').map((item) => item.document_id),
			duplicate: nodeJson(execution, 'On Possible Duplicate').map((item) => [
				item.document_id,
				item.possible_duplicate_of,
			]),
		});

		beforeAll(async () => {
			// Another account than the example's, so its approvals are not delivered to the example's trigger.
			({ credential: waitingCredential } = await sandboxCredential(
				fixture.stack.client,
				fixture.sandbox,
				'enterprise',
				'Document Extraction (waiting)',
			));
			const definition = webhookWorkflow({
				name: 'e2e: Wait for Review, then Check Invoice Duplicate',
				responseMode: 'onReceived',
				nodes: [
					actionNode(
						'Extract',
						waitingCredential,
						extractParameters({
							binaryPropertyName: 'file',
							waitForReview: true,
							reviewTimeout: 10,
						}),
					),
					// It calls no API, so it runs without a credential.
					{
						...actionNode('Check Invoice Duplicate', waitingCredential, {
							resource: 'document',
							operation: 'checkInvoiceDuplicate',
						}),
						credentials: undefined,
					},
					codeNode('On New Invoice', 'return $input.all();'),
					codeNode('On Possible Duplicate', 'return $input.all();'),
				],
				connections: {
					Webhook: { main: [[{ node: 'Extract', type: 'main', index: 0 }]] },
					Extract: { main: [[{ node: 'Check Invoice Duplicate', type: 'main', index: 0 }]] },
					'Check Invoice Duplicate': {
						main: [
							[{ node: 'On New Invoice', type: 'main', index: 0 }],
							[{ node: 'On Possible Duplicate', type: 'main', index: 0 }],
						],
					},
				},
			});
			const created = await fixture.stack.client.createWorkflow(definition);
			await fixture.stack.client.activateWorkflow(created.id);
			await fixture.stack.client.waitForWebhook(definition.webhookPath);
			workflow = { id: created.id, path: definition.webhookPath };
		});

		it('a confident invoice passes at once as new; the same invoice in another file, reviewed and resumed, is a possible duplicate; another invoice is new', async () => {
			const confident = await fixture.stack.client.waitForExecution(
				await start('initech.json', invoiceFile('Initech Ltd', 'IT-501', 95.2, 0.98)),
			);
			expect(confident.status).toBe('success');
			const [firstId] = routed(confident).new;
			expect(routed(confident)).toEqual({ new: [expect.stringMatching(/^doc_/)], duplicate: [] });

			const resumed = await approveWaiting(
				await start('initech-scan.json', invoiceFile('INITECH LIMITED', 'it-0501', 95.2, 0.7)),
			);
			expect(resumed.status).toBe('success');
			const { duplicate } = routed(resumed);
			expect(routed(resumed).new).toEqual([]);
			expect(duplicate).toHaveLength(1);
			// Another execution saw it first: no earlier id is kept (docs/memory.md).
			expect(duplicate[0][1]).toBeNull();
			expect(duplicate[0][0]).not.toBe(firstId);
			expect(nodeJson(resumed, 'Extract')[0]).toMatchObject({
				status: 'verified',
				verified_by: 'human_reviewer',
			});

			const other = await approveWaiting(
				await start('initech-next.json', invoiceFile('Initech Ltd', 'IT-502', 95.2, 0.7)),
			);
			expect(routed(other)).toEqual({ new: [expect.stringMatching(/^doc_/)], duplicate: [] });
		});
	});
});
