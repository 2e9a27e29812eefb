/**
 * Turns a failed answer of the service into a message that says what to do. The service's error
 * body (shape not shown in the spec, docs/spec-decisions.md#d3) is shown whatever its shape.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldsOf } from '../jsonObject.ts';
import { TIER_LIMITS } from '../tierLimits.ts';

/** The service's own words from an error body of any shape, trimmed to a readable length. */
export function serviceErrorText(body: unknown): string | undefined {
	let text: string | undefined;
	if (typeof body === 'string') text = body.trim();
	else if (typeof body === 'object' && body !== null) {
		const object = body as IDataObject;
		const candidate =
			fieldsOf(object.error).message ?? object.message ?? object.error ?? object.detail;
		text = typeof candidate === 'string' ? candidate : JSON.stringify(body);
	}
	if (!text) return undefined;
	return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

const tierSummary = Object.values(TIER_LIMITS)
	.map((limits) => `${limits.label} ${limits.requestsPerMinute ?? 'unlimited'}/min`)
	.join(', ');

/**
 * Why a request that may have created something is not repeated, and what to do instead
 * (docs/spec-decisions.md#n19): never Retry On Fail, which would upload the file again.
 */
const NOT_REPEATED =
	'The service may already have received the request and acted on it, so the node did not send it again. Do not turn on "Retry On Fail" for this node: a repeated upload makes a second document (and, downstream, a second bill). Retrying this execution in n8n uploads every file of this node\'s run again, those already sent too: the flow then gets each invoice once, and the service may hold a second document for a file it had already received.';

/** What the status means and what the user can do about it. `idempotent`: repeating the request cannot create anything twice. */
export function adviceForStatus(statusCode: number, operation: string, idempotent = true): string {
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
			return `The tier's rate limit was reached (429) and retries ran out. Process fewer items per minute (${tierSummary}) or upgrade the tier (and set it in the credential).`;
		default:
			if (statusCode >= 500) {
				const what = `The service had an error (${statusCode}) while trying to ${operation}. This is on the service's side`;
				return idempotent
					? `${what}: retry later (enable "Retry On Fail" in the node's settings).`
					: `${what}. ${NOT_REPEATED}`;
			}
			return `The service answered with HTTP ${statusCode} while trying to ${operation}.`;
	}
}

/**
 * Error codes of a connection that was never made (refused, no such host, unreachable): the request
 * did not leave this machine, so sending it again cannot make anything twice. A reset or a timeout
 * may come after the request was sent, and is not among them.
 */
const NEVER_CONNECTED = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** The message and description of a request that got no HTTP answer, by what it means for a repeat. */
export function connectionFailure(
	code: string,
	operation: string,
	baseUrl: string,
	idempotent: boolean,
): { message: string; description: string } {
	if (NEVER_CONNECTED.has(code)) {
		// The code goes into the description only: n8n replaces a message that names a common error code
		// with its own generic text.
		return {
			message: `Could not connect to the service at ${baseUrl} while trying to ${operation}: nothing was sent`,
			description: `Network error: ${code}. The connection was never made, so running the node again is safe${idempotent ? '' : ' and cannot make a second document'}. Check the Base URL in the credential and that the service is up.`,
		};
	}
	if (idempotent) {
		return {
			message: `Could not reach the service at ${baseUrl}`,
			description: `Network error: ${code}. Check the Base URL in the credential and that the service is up, then run the node again.`,
		};
	}
	return {
		message: `The connection broke while trying to ${operation}; it was not retried`,
		description: `Network error: ${code}, after the request was sent. ${NOT_REPEATED}`,
	};
}

/**
 * A 429 the service still answered when Extract's Rate Limit Wait ran out
 * (docs/spec-decisions.md#n69): how many requests of the run were waiting, and what to change.
 */
export function rateLimitWaitOver(
	operation: string,
	rateLimitWaitMs: number,
	waiting: number,
): { message: string; description: string } {
	const minutes = Number((rateLimitWaitMs / 60_000).toFixed(1));
	const requests =
		waiting === 1 ? '1 request of this run was' : `${waiting} requests of this run were`;
	return {
		message: `The tier's rate limit (429) still refused the request when the Rate Limit Wait of ${minutes} minute${minutes === 1 ? '' : 's'} ran out, while trying to ${operation}`,
		description: `${requests} waiting for the rate limit. The service refuses a 429 before doing anything, so nothing was created for this file. Send fewer files at once (the rate is per API key, for all executions together: ${tierSummary}), set a longer "Rate Limit Wait (Minutes)", or upgrade the tier (and set it in the credential).`,
	};
}

/**
 * A wait the service asks for that is longer than the node waits within a run
 * (docs/spec-decisions.md#n2): when to run again. Only 429s and a lookup's 5xx are retried, and
 * neither created anything.
 */
export function waitTooLong(
	statusCode: number,
	operation: string,
	waitMs: number,
	maxWaitMs: number,
	now = Date.now(),
): { message: string; description: string } {
	const until = new Date(now + waitMs).toISOString();
	const minutes = Math.ceil(waitMs / 60_000);
	return {
		message: `The service asks to wait ${minutes} minutes before the next request (${statusCode}) while trying to ${operation}`,
		description: `Run it again after ${until.slice(11, 16)} UTC on ${until.slice(0, 10)}. The node waits at most ${maxWaitMs / 60_000} minutes within a run, so it did not send the request again; nothing was created.`,
	};
}
