import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Node errors that say what to do (`description`), about one item when `itemIndex` is given. */
export function refusals(context: { getNode(): INode }, itemIndex?: number) {
	return (message: string, description: string) =>
		new NodeOperationError(context.getNode(), message, { itemIndex, description });
}
