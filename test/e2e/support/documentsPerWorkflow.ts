// Several workflows on one account (docs/spec-decisions.md#n40), as a team builds them: an intake that
// only extracts, a "Xero" and a "QuickBooks" workflow that each extract and book what their trigger
// receives, and a review log that hears the whole account. Shared by the single-process and the
// queue-mode test, which differ only in how n8n runs.

import { expect } from 'vitest';
import {
	actionNode,
	eventually,
	extractParameters,
	nodeJson,
	reviewTriggerNode,
	sandboxControl,
	sandboxState,
	triggerWorkflow,
	webhookWorkflow,
	type Credential,
	type N8nClient,
	type NodeSpec,
	type WorkflowDefinition,
} from '../../../local-n8n/index.ts';
import { invoiceFile } from './laterInvoices.ts';

export interface OneAccount {
	/** n8n's REST API (main). */
	client: N8nClient;
	/** Where production webhooks are called (main, or the load balancer in queue mode). */
	caller: N8nClient;
	/** The public base of production webhooks: `https://…/webhook`. */
	webhookBase: string;
	credential: Credential;
	sandboxUrl: string;
	/** Resolves once `path` is served where `caller` calls it. */
	served(path: string): Promise<void>;
	/** Lets late deliveries arrive before counting. */
	settle(): Promise<void>;
}

export interface ActiveFlow {
	name: string;
	id: string;
	/** The intake's webhook path (flows with an Extract). */
	intakePath?: string;
	/** The trigger's production URL as the service holds it (flows with a trigger). */
	triggerUrl?: string;
	triggerPath?: string;
}

const TRIGGER = 'Review finished';

function trigger(credential: Credential, documents?: 'account'): NodeSpec {
	const node = reviewTriggerNode(credential, undefined, 1.2);
	return {
		...node,
		parameters: {
			...(node.parameters as Record<string, unknown>),
			...(documents ? { documents } : {}),
		},
	};
}

const noOp = (name: string): NodeSpec => ({
	name,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	parameters: {},
});

/**
 * Webhook → Extract → Respond to Webhook (the intake answers with Extract's items at once) → Wait
 * `holdSeconds`, so that the execution that submitted a document is still running when its review
 * finishes; with `withTrigger`, the workflow's own trigger → Booked.
 */
function intakeWorkflow(
	name: string,
	credential: Credential,
	withTrigger: boolean,
	holdSeconds: number,
): WorkflowDefinition & { webhookPath: string } {
	const definition = webhookWorkflow({
		name,
		responseMode: 'responseNode',
		nodes: [
			actionNode('Extract', credential, extractParameters({ binaryPropertyName: 'file' }), {
				typeVersion: 1.2,
			}),
			{
				name: 'Answer',
				type: 'n8n-nodes-base.respondToWebhook',
				typeVersion: 1.1,
				parameters: { respondWith: 'allIncomingItems', options: {} },
			},
			{
				name: 'Still running',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				parameters: { resume: 'timeInterval', amount: holdSeconds, unit: 'seconds' },
			},
			...(withTrigger ? [trigger(credential), noOp('Booked')] : []),
		],
		connections: {
			Webhook: { main: [[{ node: 'Extract', type: 'main', index: 0 }]] },
			// Verified and Needs Review both answer.
			Extract: {
				main: [
					[{ node: 'Answer', type: 'main', index: 0 }],
					[{ node: 'Answer', type: 'main', index: 0 }],
				],
			},
			Answer: { main: [[{ node: 'Still running', type: 'main', index: 0 }]] },
			...(withTrigger
				? { [TRIGGER]: { main: [[{ node: 'Booked', type: 'main', index: 0 }]] } }
				: {}),
		},
	});
	return definition;
}

export async function activateFlows(
	account: OneAccount,
	holdSeconds: number,
): Promise<Record<'intake' | 'xero' | 'quickBooks' | 'reviewLog', ActiveFlow>> {
	const definitions = {
		intake: intakeWorkflow('Invoice intake (extract only)', account.credential, false, holdSeconds),
		xero: intakeWorkflow('Invoices to Xero', account.credential, true, holdSeconds),
		quickBooks: intakeWorkflow('Invoices to QuickBooks', account.credential, true, holdSeconds),
		reviewLog: triggerWorkflow({
			name: 'Review log (every document on the account)',
			trigger: trigger(account.credential, 'account'),
			nodes: [noOp('Logged')],
		}),
	};
	const flows = {} as Record<keyof typeof definitions, ActiveFlow>;
	for (const [key, definition] of Object.entries(definitions) as Array<
		[keyof typeof definitions, WorkflowDefinition & { webhookPath?: string }]
	>) {
		const { id } = await account.client.createWorkflow(definition);
		await account.client.activateWorkflow(id);
		const triggerNode = definition.nodes.find((node) => node.name === TRIGGER);
		const flow: ActiveFlow = { name: definition.name, id };
		if (key !== 'reviewLog') {
			flow.intakePath = definition.webhookPath;
			await account.served(definition.webhookPath!);
		}
		if (triggerNode) {
			flow.triggerPath = `${triggerNode.webhookId}/webhook`;
			flow.triggerUrl = `${account.webhookBase}/${flow.triggerPath}`;
			await account.served(flow.triggerPath);
			// Only Every Document on the Account registers (docs/spec-decisions.md#n62).
			if (key === 'reviewLog')
				await eventually(
					`the sandbox holds the registration of ${flow.name}`,
					async () =>
						(await sandboxState(account.sandboxUrl)).webhooks.some(
							(webhook) => webhook.url === flow.triggerUrl,
						),
					(held) => held,
					30_000,
				);
		}
		flows[key] = flow;
	}
	return flows;
}

/** Sends an invoice (confidence 0.7: to review) to a flow's intake; its document_id. */
export async function submit(account: OneAccount, flow: ActiveFlow, invoiceNo: string) {
	const form = new FormData();
	const invoice = invoiceFile('Acme Supplies GmbH', invoiceNo, 120, 0.7);
	form.append(
		'file',
		new Blob([JSON.stringify(invoice)], { type: 'application/json' }),
		`${invoiceNo}.json`,
	);
	const encoded = new Response(form);
	const answer = await account.caller.callWebhook(flow.intakePath!, {
		body: Buffer.from(await encoded.arrayBuffer()),
		headers: { 'content-type': encoded.headers.get('content-type') as string },
	});
	expect(answer.status, answer.text).toBe(200);
	const [item] = answer.json as Array<{ document_id: string; status: string }>;
	expect(item.status, `${flow.name}: ${invoiceNo}`).toBe('needs_review');
	return item.document_id;
}

export async function review(
	account: OneAccount,
	documentId: string,
	outcome: 'approve' | 'reject',
) {
	const document = (await sandboxState(account.sandboxUrl)).documents.find(
		(entry) => entry.id === documentId,
	);
	expect(document?.state, documentId).toBe('needs_review');
	await sandboxControl(
		account.sandboxUrl,
		`reviews/${document!.reviewId}/${outcome}`,
		outcome === 'reject' ? { reason: 'unreadable total' } : {},
	);
}

export interface TriggerRun {
	executionId: string;
	documentId: string;
	event: string;
	startedAt: string;
}

/** Every run of `flow`'s trigger: the document and event it ran for. */
export async function triggerRuns(account: OneAccount, flow: ActiveFlow): Promise<TriggerRun[]> {
	const runs: TriggerRun[] = [];
	for (const summary of await account.client.listExecutions(flow.id)) {
		const execution = await account.client.getExecution(summary.id);
		for (const item of nodeJson(execution, TRIGGER)) {
			runs.push({
				executionId: summary.id,
				documentId: String(item.document_id),
				event: String(item.event),
				startedAt: summary.startedAt ?? '',
			});
		}
	}
	return runs.sort((a, b) => a.documentId.localeCompare(b.documentId));
}

/** Waits until each flow's trigger ran `expected` (document → event) and, after a settle, no more. */
export async function expectTriggerRuns(
	account: OneAccount,
	expected: Array<[ActiveFlow, Array<[documentId: string, event: string]>]>,
): Promise<void> {
	for (const [flow, runs] of expected) {
		await eventually(
			`${runs.length} trigger run(s) of ${flow.name}`,
			async () => await triggerRuns(account, flow),
			(found) => found.length >= runs.length,
			60_000,
		);
	}
	await account.settle();
	for (const [flow, runs] of expected) {
		const found = (await triggerRuns(account, flow)).map((run) => [run.documentId, run.event]);
		expect(found, flow.name).toEqual(
			[...runs].sort((a, b) => a[0].localeCompare(b[0])).map(([id, event]) => [id, event]),
		);
	}
}

/**
 * Fails unless the execution of `flow` that submitted a document (any execution other than its
 * trigger's `run`) was still running when `run` started: the review result came before the
 * submitting execution ended.
 */
export async function expectSubmitterStillRan(
	account: OneAccount,
	flow: ActiveFlow,
	run: TriggerRun,
): Promise<void> {
	const submitters = (await account.client.listExecutions(flow.id)).filter(
		(summary) => summary.id !== run.executionId,
	);
	expect(submitters, `${flow.name}: the submitting execution`).toHaveLength(1);
	const submitter = await account.client.waitForExecution(submitters[0].id, { timeoutMs: 120_000 });
	expect(submitter.status).toBe('success');
	const stoppedAt = (await account.client.listExecutions(flow.id)).find(
		(summary) => summary.id === submitter.id,
	)?.stoppedAt;
	expect(Date.parse(stoppedAt ?? '')).toBeGreaterThan(Date.parse(run.startedAt));
}

/**
 * The scenario both tests run: an invoice sent to each of the intake, Xero and QuickBooks flows, the
 * reviews decided (the intake's `outcomes[0]`, Xero's `[1]`, QuickBooks' `[2]`) while the submitting
 * executions still run; each document's result runs exactly its own flow's trigger and the review
 * log. Returns the flows and the documents (intake's, Xero's, QuickBooks').
 */
export async function eachResultToItsWorkflow(
	account: OneAccount,
	prefix: string,
	outcomes: ['approve' | 'reject', 'approve' | 'reject', 'approve' | 'reject'],
): Promise<{ flows: Awaited<ReturnType<typeof activateFlows>>; documents: string[] }> {
	const flows = await activateFlows(account, 20);
	const documents = [
		await submit(account, flows.intake, `${prefix}-INTAKE-1`),
		await submit(account, flows.xero, `${prefix}-XERO-1`),
		await submit(account, flows.quickBooks, `${prefix}-QBO-1`),
	];
	for (const [index, documentId] of documents.entries())
		await review(account, documentId, outcomes[index]);
	const event = (index: number) =>
		outcomes[index] === 'approve' ? 'document.verified' : 'document.rejected';
	await expectTriggerRuns(account, [
		[flows.xero, [[documents[1], event(1)]]],
		[flows.quickBooks, [[documents[2], event(2)]]],
		[flows.reviewLog, documents.map((documentId, index) => [documentId, event(index)])],
	]);
	// Sent by This Workflow registered nothing: the service delivers those triggers only their own
	// documents, at their workflow's address (docs/spec-decisions.md#n62).
	const registered = (await sandboxState(account.sandboxUrl)).webhooks.map(
		(webhook) => webhook.url,
	);
	expect(registered).not.toContain(flows.xero.triggerUrl);
	expect(registered).not.toContain(flows.quickBooks.triggerUrl);
	// Each result arrived while the execution that submitted the document still ran (it waits 20 s).
	for (const flow of [flows.xero, flows.quickBooks]) {
		const [run] = await triggerRuns(account, flow);
		await expectSubmitterStillRan(account, flow, run);
	}
	return { flows, documents };
}
