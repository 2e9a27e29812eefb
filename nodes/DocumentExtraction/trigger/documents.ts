/**
 * Which documents start the trigger (docs/spec-decisions.md#n40). The service delivers every review
 * result to every registration of the account, so "sent by this workflow" is told by the address a
 * delivery arrives at: Extract gives the service the trigger's address with a marker as the
 * document's own webhook_url, and the service delivers that document's result there as well
 * (docs/spec-decisions.md#d13, #d21). Deliveries through the account's registration are then answered
 * without a run. Nothing is remembered per document, so every webhook process knows at once, across
 * restarts and queue-mode workers.
 */
import type { IDataObject } from 'n8n-workflow';

export type DocumentsThatStart = 'thisWorkflow' | 'account';

export const DOCUMENTS_PARAMETER = 'documents';

/** The marker on a trigger's address that Extract sends as a document's webhook_url. */
const ROUTED_QUERY_NAME = 'documents';
const ROUTED_QUERY_VALUE = 'this-workflow';

/** The address Extract sends as the document's webhook_url: the trigger's own, marked. */
export function routedUrl(triggerUrl: string): string {
	const url = new URL(triggerUrl);
	url.searchParams.set(ROUTED_QUERY_NAME, ROUTED_QUERY_VALUE);
	return url.toString();
}

/** Whether a delivery came to the marked address (a document sent by this workflow). */
export function isRoutedDelivery(query: IDataObject): boolean {
	return query[ROUTED_QUERY_NAME] === ROUTED_QUERY_VALUE;
}

/** The parameter's value, with the node version's default for triggers saved before it existed. */
export function documentsThatStart(value: unknown, typeVersion: number): DocumentsThatStart {
	if (value === 'thisWorkflow' || value === 'account') return value;
	return typeVersion >= 1.2 ? 'thisWorkflow' : 'account';
}
