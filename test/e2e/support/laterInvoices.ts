// Shared by the "to the books" tests of invoices that arrive later: invoice files as the sandbox
// reads them, posting them to an example's intake, approving their reviews in the sandbox, and
// finding the execution in which a node of an example handled a document.

import { expect } from 'vitest';
import {
	eventually,
	executedNodes,
	executionError,
	nodeJson,
	sandboxControl,
	sandboxState,
	type DecodedExecution,
	type N8nClient,
} from '../../../local-n8n/index.ts';
import { outputAfter } from './executionPath.ts';
import type { N8nAndSandbox } from './n8nAndSandbox.ts';

/** An invoice file as the sandbox reads JSON files: its data, and the confidence it asks for. */
export function invoiceFile(vendor: string, invoiceNo: string, total: number, confidence: number) {
	return {
		header: { vendor, date: '2026-10-12', invoice_no: invoiceNo },
		amounts: { subtotal: total, tax: 0, total },
		line_items: [{ description: 'Widgets', quantity: 1, unit_price: total, amount: total }],
		confidence,
	};
}

/** POSTs a JSON invoice file to a webhook as multipart field `file`; the workflow's answer. */
export async function postInvoiceFile(
	client: N8nClient,
	path: string,
	fileName: string,
	invoice: unknown,
) {
	const form = new FormData();
	form.append('file', new Blob([JSON.stringify(invoice)], { type: 'application/json' }), fileName);
	const encoded = new Response(form);
	const body = Buffer.from(await encoded.arrayBuffer());
	const answer = await client.callWebhook(path, {
		body,
		headers: { 'content-type': encoded.headers.get('content-type') as string },
	});
	expect(answer.status, answer.text).toBe(200);
	return answer.json as Array<Record<string, unknown>>;
}

/**
 * POSTs an invoice to an example's webhook as multipart field `file`: JSON data as a .json file (the
 * sandbox parses JSON files as they are), a Buffer as the file's bytes; the workflow's answer. Any
 * other status than 200 fails with the node that failed and why (the answer only says "Error in
 * workflow").
 */
export async function sendToExample(
	client: N8nClient,
	example: { id: string; webhookPath: string },
	fileName: string,
	invoice: unknown,
) {
	const form = new FormData();
	const content = Buffer.isBuffer(invoice) ? invoice : JSON.stringify(invoice);
	form.append(
		'file',
		new Blob([content], {
			type: Buffer.isBuffer(invoice) ? 'application/octet-stream' : 'application/json',
		}),
		fileName,
	);
	const encoded = new Response(form);
	const body = Buffer.from(await encoded.arrayBuffer());
	const answer = await client.callWebhook(example.webhookPath, {
		body,
		headers: { 'content-type': encoded.headers.get('content-type') as string },
	});
	if (answer.status !== 200) {
		const [latest] = await client.listExecutions(example.id, { limit: 1 });
		const failed = latest ? await client.getExecution(latest.id) : undefined;
		const error = failed ? executionError(failed) : undefined;
		throw new Error(
			`${fileName}: HTTP ${answer.status} ${answer.text}; ${JSON.stringify({ nodes: failed && executedNodes(failed), error: error && { message: error.message, description: error.description, node: (error.node as { name?: string } | undefined)?.name } })}`,
		);
	}
	return answer.json as Array<Record<string, unknown>>;
}

/** Approves the pending review of `documentId` in the sandbox (which then delivers document.verified). */
export async function approveReviewOf(sandboxUrl: string, documentId: string): Promise<void> {
	const document = (await sandboxState(sandboxUrl)).documents.find(
		(entry) => entry.id === documentId,
	);
	expect(document?.state, `document ${documentId}`).toBe('needs_review');
	await sandboxControl(sandboxUrl, `reviews/${document!.reviewId}/approve`, {});
}

/** The finished execution of `workflowId` in which `nodeName` output an item for `documentId`. */
export async function executionWhere(
	client: N8nClient,
	workflowId: string,
	nodeName: string,
	documentId: string,
): Promise<DecodedExecution> {
	const found = await eventually(
		`an execution where "${nodeName}" handled ${documentId}`,
		async () => {
			const executions = await client.waitForExecutions(workflowId, 1);
			return executions.find((execution) =>
				nodeJson(execution, nodeName).some((item) => item.document_id === documentId),
			);
		},
		(execution) => execution !== undefined,
	);
	return found!;
}

/**
 * Approves the review of `pending` (an intake's answer sending a document to review) and waits for
 * the execution of `exampleId` in which the trigger's run put it out of `nodeName`; the document's
 * id and that execution.
 */
export async function afterApproval(
	fixture: N8nAndSandbox,
	exampleId: string,
	pending: Record<string, unknown>,
	nodeName: string,
): Promise<{ documentId: string; execution: DecodedExecution }> {
	expect(pending).toMatchObject({ route: 'review' });
	const documentId = String(pending.document_id);
	await approveReviewOf(fixture.sandbox.url, documentId);
	const execution = await executionWhere(fixture.stack.client, exampleId, nodeName, documentId);
	return { documentId, execution };
}

/**
 * Posts a copy of the invoice billed as `firstId`, in another file whose extraction goes to review,
 * to the example's intake, and approves the review: the trigger's run for it must run only Check
 * for duplicate and "Review: possible duplicate", which gives `reason` (the earlier document is not
 * named across executions: docs/memory.md). That run.
 */
export async function laterCopyIsPossibleDuplicate(
	fixture: N8nAndSandbox,
	example: { id: string; webhookPath: string },
	copy: { fileName: string; invoice: unknown },
	firstId: unknown,
	reason: string,
): Promise<DecodedExecution> {
	const [pending] = await postInvoiceFile(
		fixture.stack.client,
		example.webhookPath,
		copy.fileName,
		copy.invoice,
	);
	expect(pending).toMatchObject({ reason: expect.stringContaining('Review finished') });
	const { documentId, execution } = await afterApproval(
		fixture,
		example.id,
		pending,
		'Review: possible duplicate',
	);
	expect(documentId).not.toBe(firstId);
	expect(execution.status).toBe('success');
	expect(
		outputAfter(execution, [
			'Review finished',
			'Check for duplicate',
			'Review: possible duplicate',
		]),
	).toEqual([
		{
			route: 'review',
			document_id: documentId,
			// Seen by another execution: no earlier id is kept (docs/memory.md).
			possible_duplicate_of: null,
			reason: expect.stringContaining(reason),
		},
	]);
	return execution;
}

/**
 * The trigger's run took exactly `path`, and its last node put out one item matching `posted`, with
 * totals that match the invoice.
 */
export function expectRunPosted(
	execution: DecodedExecution,
	path: string[],
	posted: Record<string, unknown>,
): void {
	expect(outputAfter(execution, path)).toEqual([
		expect.objectContaining({ ...posted, totals_match: true }),
	]);
}

/**
 * POSTs `bytes` as multipart field `file` named `fileName` to a webhook; the HTTP status and the
 * workflow's answer (on an error, which node failed and why, read from the execution).
 */
export async function postFile(
	client: N8nClient,
	path: string,
	fileName: string,
	bytes: Buffer,
	mimeType: string,
) {
	const form = new FormData();
	form.append('file', new Blob([bytes], { type: mimeType }), fileName);
	const encoded = new Response(form);
	const body = Buffer.from(await encoded.arrayBuffer());
	const answer = await client.callWebhook(path, {
		body,
		headers: { 'content-type': encoded.headers.get('content-type') as string },
	});
	return {
		status: answer.status,
		text: answer.text,
		items: answer.status === 200 ? (answer.json as Array<Record<string, unknown>>) : [],
	};
}

/** Queues `data` as the sandbox's next extraction with `confidence`, whatever file comes next. */
export async function queueExtraction(
	sandboxUrl: string,
	data: unknown,
	confidence: number,
): Promise<void> {
	await sandboxControl(sandboxUrl, 'next-extraction', { data });
	await sandboxControl(sandboxUrl, 'next-confidence', { confidence });
}
