import type { IDataObject } from 'n8n-workflow';

import { jsonObject } from '../jsonObject.ts';

/** A delivery body as a JSON object, or undefined: parsed from the raw bytes that were signed. */
export function parseJsonObject(rawBody: Buffer): IDataObject | undefined {
	try {
		return jsonObject(JSON.parse(rawBody.toString('utf8')));
	} catch {
		return undefined;
	}
}
