/**
 * A bounded memory in the workflow's static data, which n8n saves with the workflow and keeps across
 * restarts and workers: for what a later execution must still know (the document an earlier file or
 * invoice became, the deliveries already accepted). n8n saves static data only when a production
 * execution or webhook call changed it; the oldest entries are forgotten first so it stays small.
 */
import type { IDataObject } from 'n8n-workflow';

/** Static data as n8n hands it to a node (global or per node). */
type StaticData = IDataObject;

/** Adds `key` to `keys` (oldest first) and says whether it was new. In place: n8n saves by reference. */
export function addKey(keys: string[], key: string, limit: number): boolean {
	if (keys.includes(key)) return false;
	keys.push(key);
	if (keys.length > limit) keys.splice(0, keys.length - limit);
	return true;
}

/**
 * The entry under `key` in the record `recordName`, read without writing: touching the static data
 * would make n8n save this execution's (older) copy of it when the execution ends, over what a
 * concurrent execution saved.
 */
export function readEntry<V>(
	staticData: StaticData,
	recordName: string,
	key: string,
): V | undefined {
	const record = staticData[recordName];
	return typeof record === 'object' && record !== null
		? (record as Record<string, V>)[key]
		: undefined;
}

/** Stores `value` under `key` as the newest entry of the record `recordName`, keeping at most `limit`. */
export function writeEntry(
	staticData: StaticData,
	recordName: string,
	key: string,
	value: IDataObject,
	limit: number,
): void {
	if (typeof staticData[recordName] !== 'object' || staticData[recordName] === null)
		staticData[recordName] = {};
	const record = staticData[recordName] as IDataObject;
	delete record[key];
	record[key] = value;
	const keys = Object.keys(record);
	for (const oldest of keys.slice(0, Math.max(0, keys.length - limit))) delete record[oldest];
}
