// `npm start`'s morning digest on demand (the mail page's button): the template
// (examples/invoice-register-morning-digest.workflow.json) run from its Schedule Trigger, as the
// editor's "Execute workflow" does, against the Invoice register the email-to-books templates write
// in the same n8n and the local SMTP server.
import { executedNodes, nodeJson, type N8nClient } from '../local-n8n/index.ts';

export const MORNING_DIGEST = {
	template: 'invoice-register-morning-digest.workflow.json',
	trigger: 'Every weekday at 08:00',
	digest: 'What needs a person',
	send: 'Send the digest',
} as const;

/** Runs the digest now and says in a sentence what it did. */
export async function sendMorningDigest(client: N8nClient, workflowId: string): Promise<string> {
	const id = await client.runWorkflowManually(workflowId, MORNING_DIGEST.trigger);
	const execution = await client.waitForExecution(id, { timeoutMs: 120_000 });
	if (execution.status !== 'success')
		return `not sent: execution ${id} ended ${execution.status} (open it in the editor)`;
	const ran = executedNodes(execution);
	if (!ran.includes(MORNING_DIGEST.digest))
		return 'not sent: the Invoice register is empty (send an invoice first: npm run send-invoice)';
	if (!ran.includes(MORNING_DIGEST.send))
		return 'not sent: nothing waits for a person and nothing was booked since the last digest';
	const [digest] = nodeJson(execution, MORNING_DIGEST.digest) as Array<{ subject?: string }>;
	return `sent: ${digest?.subject ?? 'the digest'} (reload the mail page)`;
}
