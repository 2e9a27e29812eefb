import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	addKey,
	readEntry,
	writeEntry,
} from '../../../../../nodes/DocumentExtraction/memory/workflowMemory.ts';

describe('workflowMemory: bounded, in the workflow static data', () => {
	it('addKey: new once, oldest forgotten beyond the limit, in place', () => {
		const keys: string[] = [];
		for (const key of ['a', 'b', 'c', 'd']) addKey(keys, key, 3);
		expect(keys).toEqual(['b', 'c', 'd']);
		expect(addKey(keys, 'd', 3)).toBe(false);
		expect(addKey(keys, 'a', 3)).toBe(true);
		expect(keys).toEqual(['c', 'd', 'a']);
	});

	it('addKey trims a list that already holds more than the limit at the next new key', () => {
		const keys = ['a', 'b', 'c', 'd', 'e'];
		expect(addKey(keys, 'f', 2)).toBe(true);
		expect(keys).toEqual(['e', 'f']);
	});

	it('writeEntry keeps the newest entries of a record; readEntry reads them', () => {
		const staticData: IDataObject = {};
		for (const key of ['a', 'b', 'c']) writeEntry(staticData, 'record', key, { at: key }, 2);
		expect(readEntry(staticData, 'record', 'a')).toBeUndefined();
		expect(readEntry(staticData, 'record', 'c')).toEqual({ at: 'c' });
		expect(Object.keys(staticData.record as IDataObject)).toEqual(['b', 'c']);
	});

	it('writing an entry again makes it the newest', () => {
		const staticData: IDataObject = {};
		writeEntry(staticData, 'record', 'a', { v: 1 }, 2);
		writeEntry(staticData, 'record', 'b', { v: 2 }, 2);
		writeEntry(staticData, 'record', 'a', { v: 3 }, 2);
		writeEntry(staticData, 'record', 'c', { v: 4 }, 2);
		expect(Object.keys(staticData.record as IDataObject)).toEqual(['a', 'c']);
	});

	it("readEntry never writes (n8n would save this execution's older copy) and tolerates garbage", () => {
		const staticData: IDataObject = {};
		expect(readEntry(staticData, 'record', 'a')).toBeUndefined();
		expect(staticData).toEqual({});
		expect(readEntry({ record: 'not an object' }, 'record', 'a')).toBeUndefined();
		expect(readEntry({ record: null }, 'record', 'a')).toBeUndefined();
	});

	it('writeEntry replaces a record that is not an object', () => {
		const staticData: IDataObject = { record: 'garbage' };
		writeEntry(staticData, 'record', 'a', { v: 1 }, 5);
		expect(staticData.record).toEqual({ a: { v: 1 } });
	});
});
