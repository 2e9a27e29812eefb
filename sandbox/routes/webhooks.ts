/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/** POST /webhooks/register: an HTTPS endpoint, its events and its signing secret (docs/spec-decisions.md#d16). */
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
	BodyTooLargeError,
	isHttpsUrl,
	readSmallBody,
	sendError,
	sendJson,
	type ResponseHeaders,
} from '../http.ts';
import { newId } from '../ids.ts';
import type { Account, SandboxState } from '../state.ts';

export const EVENTS = ['document.verified', 'document.rejected'] as const;

export async function handleRegister(
	state: SandboxState,
	request: IncomingMessage,
	response: ServerResponse,
	account: Account,
	headers: ResponseHeaders,
): Promise<void> {
	state.counts.registerRequests++;
	if (!/^application\/json\b/i.test(request.headers['content-type'] ?? ''))
		return sendError(
			response,
			400,
			'invalid_body',
			'Send a JSON body with Content-Type: application/json.',
			headers,
		);
	let body: unknown;
	try {
		body = JSON.parse((await readSmallBody(request)).toString('utf8'));
	} catch (error) {
		if (error instanceof BodyTooLargeError)
			return sendError(response, 400, 'invalid_body', 'The body is too large.', headers);
		return sendError(response, 400, 'invalid_json', 'The body is not valid JSON.', headers);
	}
	const { url, events, secret } = (typeof body === 'object' && body !== null ? body : {}) as Record<
		string,
		unknown
	>;
	if (!isHttpsUrl(url))
		return sendError(
			response,
			400,
			'invalid_url',
			'url must be an absolute https:// URL (deliveries go to HTTPS only).',
			headers,
		);
	if (
		!Array.isArray(events) ||
		events.length === 0 ||
		!events.every((event) => (EVENTS as readonly unknown[]).includes(event))
	) {
		return sendError(
			response,
			400,
			'invalid_events',
			`events must be a non-empty list of: ${EVENTS.join(', ')}.`,
			headers,
		);
	}
	if (typeof secret !== 'string' || secret === '' || secret.length > 1024)
		return sendError(
			response,
			400,
			'invalid_secret',
			'secret must be a non-empty string.',
			headers,
		);
	const webhook = {
		id: newId('wh'),
		accountId: account.id,
		url,
		events: [...new Set(events as string[])],
		secret,
		status: 'active' as const,
		createdAt: new Date().toISOString(),
	};
	state.store.webhooks.set(webhook.id, webhook);
	state.store.save();
	state.log({
		kind: 'webhook',
		webhook_id: webhook.id,
		account: account.id,
		url,
		events: webhook.events,
	});
	sendJson(
		response,
		200,
		{ webhook_id: webhook.id, url: webhook.url, status: webhook.status },
		headers,
	);
}
