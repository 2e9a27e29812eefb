import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

/**
 * The input item with `json` in its place: its files kept and paired to it, so n8n links the two;
 * `original`, when given, goes on as `data` (the invoice's file, for an item that lost it).
 */
export function itemWith(
	item: INodeExecutionData,
	itemIndex: number,
	json: IDataObject,
	original: IBinaryData | null = null,
): INodeExecutionData {
	const binary = original ? { ...item.binary, data: original } : item.binary;
	return { json, ...(binary ? { binary } : {}), pairedItem: { item: itemIndex } };
}
