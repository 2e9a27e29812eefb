import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** The input item with `json` in its place: its file kept and paired to it, so n8n links the two. */
export function itemWith(
	item: INodeExecutionData,
	itemIndex: number,
	json: IDataObject,
): INodeExecutionData {
	return { json, ...(item.binary ? { binary: item.binary } : {}), pairedItem: { item: itemIndex } };
}
