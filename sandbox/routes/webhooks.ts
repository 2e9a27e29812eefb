/** POST /webhooks/register: an HTTPS endpoint, its events and its signing secret (docs/spec-decisions.md#d16). */
import { BodyTooLargeError, isHttpsUrl, readSmallBody } from '../http.ts';
import { newId } from '../ids.ts';
import { answer, refuse, type AccountCall } from './call.ts';

export const EVENTS = ['document.verified', 'document.rejected'] as const;

export async function handleRegister(call: AccountCall): Promise<void> {
	const { state, request, account } = call;
	state.counts.registerRequests++;
	if (!/^application\/json\b/i.test(request.headers['content-type'] ?? ''))
		return refuse(
			call,
			400,
			'invalid_body',
			'Send a JSON body with Content-Type: application/json.',
		);
	let body: unknown;
	try {
		body = JSON.parse((await readSmallBody(request)).toString('utf8'));
	} catch (error) {
		if (error instanceof BodyTooLargeError)
			return refuse(call, 400, 'invalid_body', 'The body is too large.');
		return refuse(call, 400, 'invalid_json', 'The body is not valid JSON.');
	}
	const { url, events, secret } = (typeof body === 'object' && body !== null ? body : {}) as Record<
		string,
		unknown
	>;
	if (!isHttpsUrl(url))
		return refuse(
			call,
			400,
			'invalid_url',
			'url must be an absolute https:// URL (deliveries go to HTTPS only).',
		);
	if (
		!Array.isArray(events) ||
		events.length === 0 ||
		!events.every((event) => (EVENTS as readonly unknown[]).includes(event))
	) {
		return refuse(
			call,
			400,
			'invalid_events',
			`events must be a non-empty list of: ${EVENTS.join(', ')}.`,
		);
	}
	if (typeof secret !== 'string' || secret === '' || secret.length > 1024)
		return refuse(call, 400, 'invalid_secret', 'secret must be a non-empty string.');
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
	answer(call, { webhook_id: webhook.id, url: webhook.url, status: webhook.status });
}
