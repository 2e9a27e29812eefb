/**
 * Turns a failed answer of the service into a message that says what to do. The service's error
 * body (shape not shown in the spec, docs/spec-decisions.md#d3) is shown whatever its shape.
 */
import type { IDataObject } from 'n8n-workflow';

import { TIER_LIMITS } from '../../shared/tierLimits.ts';

/** The service's own words from an error body of any shape, trimmed to a readable length. */
export function serviceErrorText(body: unknown): string | undefined {
	let text: string | undefined;
	if (typeof body === 'string') text = body.trim();
	else if (typeof body === 'object' && body !== null) {
		const object = body as IDataObject;
		const nested = typeof object.error === 'object' && object.error !== null ? (object.error as IDataObject) : {};
		const candidate = nested.message ?? object.message ?? object.error ?? object.detail;
		text = typeof candidate === 'string' ? candidate : JSON.stringify(body);
	}
	if (!text) return undefined;
	return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

const tierSummary = Object.values(TIER_LIMITS)
	.map((limits) => `${limits.label} ${limits.requestsPerMinute ?? 'unlimited'}/min`)
	.join(', ');

/** What the status means and what the user can do about it. */
export function adviceForStatus(statusCode: number, operation: string): string {
	switch (statusCode) {
		case 400:
			return `The service refused the request as invalid (400) while trying to ${operation}. Check the input named in the service's message below.`;
		case 401:
			return 'The service refused the API key (401). Open the Document Extraction API credential and paste a valid key (keys are shown once, in the dashboard, when generated).';
		case 403:
			return 'The API key is not allowed to do this (403). It may have been revoked; generate a new key in the dashboard.';
		case 404:
			return `Not found (404) while trying to ${operation}. Check the document ID, and that it belongs to the account of this API key.`;
		case 413:
			return 'The file is too large for your tier (413). Use a smaller file, split the document, or upgrade the tier (and set it in the credential).';
		case 429:
			return `The tier's rate limit was reached (429) and retries ran out. Process fewer items per minute (${tierSummary}), raise "Rate Limit Retries", or upgrade the tier.`;
		default:
			if (statusCode >= 500)
				return `The service had an error (${statusCode}) while trying to ${operation}. This is on the service's side: retry later (enable "Retry On Fail" in the node's settings).`;
			return `The service answered with HTTP ${statusCode} while trying to ${operation}.`;
	}
}
