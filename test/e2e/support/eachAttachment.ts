// One file's execution of an email-to-books template, started the way its email path starts it: a
// webhook workflow holding a copy of the template's own "Start its own execution" node, pointed at
// the published template. n8n's Email Trigger picks a message up only once its IMAP client idles,
// 15 s after its last command (imapflow's auto-IDLE), so the files about what follows "Each
// attachment" start it here; inbox-to-books, email-intake, queue-register and start-main-job send
// real emails.

import {
	webhookWorkflow,
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
