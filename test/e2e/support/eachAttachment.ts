// One file's execution of an email-to-books template, started the way its email path starts it: a
// webhook workflow holding a copy of the template's own "Start its own execution" node, pointed at
// the published template. n8n's Email Trigger picks a message up only once its IMAP client idles,
// 15 s after its last command (imapflow's auto-IDLE), so the files about what follows "Each
// attachment" start it here; inbox-to-books, email-intake, queue-register and start-main-job send
// real emails.

import {
	eventually,
	executedNodes,
	webhookWorkflow,
	type DecodedExecution,
	type N8nClient,
	type NodeSpec,
	type WorkflowDefinition,
} from '../../../local-n8n/index.ts';

/** Publishes the starter of `workflowId` (imported from `template`); its id and webhook path. */
export async function publishEachAttachmentStarter(
	client: N8nClient,
	template: WorkflowDefinition,
	workflowId: string,
): Promise<{ id: string; path: string }> {
	const startNode = template.nodes.find((node) => node.name === 'Start its own execution');
	if (!startNode) throw new Error(`"${template.name}" has no "Start its own execution" node`);
	const starter = webhookWorkflow({
		name: `e2e: each attachment of ${workflowId}`,
		responseMode: 'onReceived',
		nodes: [
			{
				name: startNode.name,
				type: startNode.type,
				typeVersion: startNode.typeVersion,
				parameters: {
					...startNode.parameters,
					workflowId: { __rl: true, value: workflowId, mode: 'id' },
				},
			} satisfies NodeSpec,
		],
	});
	const { id } = await client.createWorkflow(starter);
	await client.activateWorkflow(id);
	return { id, path: starter.webhookPath };
}

/** How the file's execution ended, as *Outcome* (Register Entry) saved it on the execution. */
export function outcomeOf(execution: DecodedExecution): string | undefined {
	return (execution.raw.customData as Record<string, string> | undefined)?.outcome;
}

/** The ids of the workflow's executions so far: what `attachmentExecutionEnded` does not wait for. */
export async function executionIds(client: N8nClient, workflowId: string): Promise<Set<string>> {
	return new Set((await client.listExecutions(workflowId)).map((summary) => summary.id));
}

/**
 * The file's execution (the one through *Each attachment* that `before` did not hold), once it
 * ended: failed, or succeeded with its outcome recorded (n8n saves the status before the custom data).
 */
export async function attachmentExecutionEnded(
	client: N8nClient,
	workflowId: string,
	before: Set<string>,
	what: string,
	timeoutMs: number,
): Promise<DecodedExecution> {
	return (await eventually(
		`the execution of ${what} to end`,
		async () => {
			const summaries = await client.listExecutions(workflowId);
			const fresh = summaries.filter((summary) => !before.has(summary.id));
			const decoded = await Promise.all(fresh.map((summary) => client.getExecution(summary.id)));
			return decoded.find((execution) => executedNodes(execution).includes('Each attachment'));
		},
		(execution) =>
			execution !== undefined &&
			(execution.status === 'error' ||
				(execution.status === 'success' && outcomeOf(execution) !== undefined)),
		timeoutMs,
	)) as DecodedExecution;
}
