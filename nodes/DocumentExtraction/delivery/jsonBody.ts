import type { IDataObject } from 'n8n-workflow';

/** A delivery body as a JSON object, or undefined: parsed from the raw bytes that were signed. */
export function parseJsonObject(rawBody: Buffer): IDataObject | undefined {
	try {
		const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
			? (parsed as IDataObject)
			: undefined;
	} catch {
		return undefined;
	}
}
