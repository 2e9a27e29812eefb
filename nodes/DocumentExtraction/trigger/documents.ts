/**
 * Which documents start the trigger (docs/spec-decisions.md#n40). The service delivers every review
 * result to every registration of the account, so "sent by this workflow" is told by the address a
 * delivery arrives at: the trigger also listens at an address made of its workflow's id, Extract in
 * the same workflow sends that address as the document's own webhook_url, and the service delivers
 * that document's result there as well (docs/spec-decisions.md#d13, #d21). Both sides derive the
 * address from what every n8n process knows (the workflow's id, n8n's webhook base), so nothing is
 * stored: a webhook process, a queue-mode worker and a restarted n8n agree at once.
 */
export type DocumentsThatStart = 'thisWorkflow' | 'account';

export const DOCUMENTS_PARAMETER = 'documents';

/**
 * The name of the trigger's webhook that receives this workflow's documents. n8n names a node's second
 * webhook 'setup' (its type allows 'default' and 'setup'; n8n's own triggers use it the same way).
 */
export const WORKFLOW_DOCUMENTS_WEBHOOK = 'setup';

/** Its path below n8n's webhook base: one per workflow (isFullPath). */
export const WORKFLOW_DOCUMENTS_PATH = '={{ "document-extraction/" + $workflow.id }}';

const WAITING_ENDPOINT = '/webhook-waiting/';

/**
 * The address the trigger of this workflow receives its documents at, derived from this execution's
 * resume URL (`<base>/webhook-waiting/<execution id>`), the one webhook address n8n gives a node: the
 * production one, or in a manual execution the test listener's. Undefined when n8n's webhook
 * endpoints are renamed (N8N_ENDPOINT_WEBHOOK_WAIT), so the base cannot be told.
 */
export function workflowDocumentsUrl(
	resumeUrl: string,
	workflowId: string,
	manual: boolean,
): string | undefined {
	const at = resumeUrl.lastIndexOf(WAITING_ENDPOINT);
	if (at < 0 || !workflowId) return undefined;
	const endpoint = manual ? 'webhook-test' : 'webhook';
	return `${resumeUrl.slice(0, at)}/${endpoint}/document-extraction/${encodeURIComponent(workflowId)}`;
}

/** The parameter's value, with the node version's default for triggers saved before it existed. */
export function documentsThatStart(value: unknown, typeVersion: number): DocumentsThatStart {
	if (value === 'thisWorkflow' || value === 'account') return value;
	return typeVersion >= 1.2 ? 'thisWorkflow' : 'account';
}

/**
 * Why a delivery to the trigger's webhook `webhookName` starts no run under this Documents setting,
 * if it does not (docs/spec-decisions.md#n40): decided by the address alone, before the signature is
 * checked or the credential read. A document's own delivery to a trigger that hears the whole account
 * is a copy of what the account's registration brings it, so only one of the two runs.
 */
export function notAddressedReason(
	documents: DocumentsThatStart,
	webhookName: string,
): string | undefined {
	const toThisWorkflow = webhookName === WORKFLOW_DOCUMENTS_WEBHOOK;
	if (documents === 'thisWorkflow')
		return toThisWorkflow ? undefined : 'not addressed to this workflow';
	return toThisWorkflow ? "a copy of the account's delivery" : undefined;
}
