/**
 * The trigger's option Ignore Duplicates (docs/spec-decisions.md#n63): an event already run for a
 * document runs no second time, whichever n8n process received the copy and however long ago
 * (docs/memory.md). Decided in the trigger's own execution step, not in the webhook: n8n gives an
 * execution its deduplication store (in its database, shared by every process) and no webhook, so
 * the run claims `event:production:<event>:<document_id>` there and keeps only the items it
 * claimed first. A copy still makes an execution, which stops at the trigger with no items.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { claimKeys } from '../memory/claims.ts';
import { isSample } from './eventMapping.ts';

/**
 * The claim key of an event item, undefined for an item that names no event or document, and for the
 * sample event (test listening only, a new document each time). Users' deduplication stores hold
 * these keys: a changed format would run every past event again. Test listening's are kept apart as
 * a manual run's (memory/claims.ts, docs/spec-decisions.md#n30).
 */
function eventKey(item: IDataObject): string | undefined {
	const { event, document_id: documentId } = item;
	if (typeof event !== 'string' || typeof documentId !== 'string' || documentId === '')
		return undefined;
	if (isSample(item)) return undefined;
	return `event:production:${event}:${documentId}`;
}

/**
 * The items of events seen for the first time, in order; with Ignore Duplicates off, every item. All
 * items of one event (Split Line Items) share its key and go or stay together.
 */
export async function firstTimeEvents(context: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = context.getInputData();
	const options = context.getNodeParameter('options', 0, {}) as { ignoreDuplicates?: boolean };
	if (options.ignoreDuplicates === false) return items;
	const keys = items.map((item) => eventKey(item.json));
	const { won } = await claimKeys(
		context,
		keys.filter((key): key is string => key !== undefined),
		{
			message: 'Could not tell whether this event already ran',
			description:
				'Retry this execution: the event runs unless another execution has run it meanwhile.',
			ifKept:
				'A retry may ignore this event as already run: turn Ignore Duplicates off for that retry to run it.',
		},
	);
	const ignored = new Set(keys.filter((key) => key !== undefined && !won.has(key)));
	for (const key of ignored)
		context.logger.info(`Document Extraction Trigger: ignored a duplicate ${key}`);
	return items.filter((_item, index) => {
		const key = keys[index];
		return key === undefined || won.has(key);
	});
}
