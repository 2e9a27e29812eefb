// Shared by the queue-mode tests: signed deliveries of the trigger's events sent by the test itself,
// and which events a workflow's executions ran (to count duplicates and losses per event).

import {
	nodeJson,
	signBody,
	type ExecutionSummary,
	type N8nClient,
} from '../../../local-n8n/index.ts';
import { verifiedEventBody } from './verifiedEvent.ts';

export const TRIGGER_NODE = 'Review finished';

export { sleep } from './n8nAndSandbox.ts';

/** A `document.verified` delivery body as the service sends it. */
export const verifiedPayload = (documentId: string): string =>
	verifiedEventBody(documentId, {
		reviewId: `rev_${documentId}`,
		header: { vendor: 'Queue Mode Ltd' },
		originalConfidence: 0.6,
	});

export function signedHeaders(body: string, secret: string): Record<string, string> {
	return { 'content-type': 'application/json', 'x-service-signature': signBody(body, secret) };
}

/** Sends one copy of a signed delivery to `client` (a webhook process or the load balancer). */
export async function deliverCopy(
	client: N8nClient,
	path: string,
	body: string,
	secret: string,
): Promise<number> {
	const res = await client.callWebhook(path, {
		body,
		headers: signedHeaders(body, secret),
		timeoutMs: 60_000,
	});
	return res.status;
}

/** Every execution of a workflow. */
export async function allExecutions(
	client: N8nClient,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	return await client.listExecutions(workflowId, { limit: Number.POSITIVE_INFINITY });
}

/**
 * Document id → how many executions of the workflow ran it, and `total` such runs (every execution
 * must be a success). A copy the trigger recognises still makes an execution, which stops at the
 * trigger with no item (N63): it is no run.
 */
export async function runsPerDocument(
	client: N8nClient,
	workflowId: string,
): Promise<{ runs: Map<string, number>; total: number; failed: number }> {
	const list = await allExecutions(client, workflowId);
	const runs = new Map<string, number>();
	let failed = 0;
	let total = 0;
	for (const summary of list) {
		if (summary.status !== 'success') failed++;
		const execution = await client.getExecution(summary.id);
		const items = nodeJson(execution, TRIGGER_NODE);
		if (items.length > 0) total++;
		for (const item of items) {
			const id = String(item.document_id ?? item.documentId ?? '');
			runs.set(id, (runs.get(id) ?? 0) + 1);
		}
	}
	return { runs, total, failed };
}

/** `documentIds` without any execution. */
export function lost(runs: Map<string, number>, documentIds: string[]): string[] {
	return documentIds.filter((id) => !runs.has(id));
}

/** Executions beyond the first per document. */
export function duplicates(runs: Map<string, number>): number {
	let extra = 0;
	for (const count of runs.values()) extra += Math.max(0, count - 1);
	return extra;
}
