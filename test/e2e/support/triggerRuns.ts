// Runs that reach a workflow started by the Document Extraction Trigger: executions in which the
// trigger output at least one item. A copy of an event that already ran (Ignore Duplicates) still
// makes an execution, which stops at the trigger with none (docs/spec-decisions.md#n63), so the trigger
// tests count runs, not executions.

import {
	nodeJson,
	TRIGGER_NODE_TYPE,
	type DecodedExecution,
	type N8nClient,
} from '../../../local-n8n/index.ts';

export interface TriggerRun {
	executionId: string;
	mode: string;
	documentId: string;
	event: string;
}

const FINISHED = new Set(['success', 'error', 'canceled', 'crashed']);

/** What the trigger output in `execution` (any name it had then), one entry per item. */
export function triggerItems(execution: DecodedExecution): Array<Record<string, unknown>> {
	const trigger = execution.workflowData?.nodes?.find((node) => node.type === TRIGGER_NODE_TYPE);
	return trigger ? nodeJson(execution, trigger.name) : [];
}

/** Finished executions' trigger items, by n8n (its client) and execution id: they no longer change. */
const finishedBy = new WeakMap<N8nClient, Map<string, Array<Record<string, unknown>>>>();

/** The executions of `workflowId` (of `mode` when given) that reached the workflow, oldest first. */
export async function triggerRuns(
	client: N8nClient,
	workflowId: string,
	mode?: string,
): Promise<TriggerRun[]> {
	const summaries = (await client.listExecutions(workflowId, { limit: Number.POSITIVE_INFINITY }))
		.filter((summary) => !mode || summary.mode === mode)
		.reverse();
	const runs: TriggerRun[] = [];
	const finished = finishedBy.get(client) ?? new Map<string, Array<Record<string, unknown>>>();
	finishedBy.set(client, finished);
	for (const summary of summaries) {
		let items = finished.get(summary.id);
		if (!items) {
			const execution = await client.getExecution(summary.id);
			items = triggerItems(execution);
			if (FINISHED.has(execution.status)) finished.set(summary.id, items);
		}
		const [first] = items;
		if (first)
			runs.push({
				executionId: summary.id,
				mode: summary.mode,
				documentId: String(first.document_id),
				event: String(first.event),
			});
	}
	return runs;
}

/** Document id → how many runs of the workflow ran it. */
export async function runsPerDocument(
	client: N8nClient,
	workflowId: string,
): Promise<Map<string, number>> {
	const counts = new Map<string, number>();
	for (const run of await triggerRuns(client, workflowId))
		counts.set(run.documentId, (counts.get(run.documentId) ?? 0) + 1);
	return counts;
}
