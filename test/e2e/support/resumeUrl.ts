// Callbacks a test sends to a waiting execution's resume URL itself (forged, replayed, without its
// token), trusting n8n's TLS certificate as the client of the n8n API does.

import { request } from 'undici';
import type { N8nClient } from '../../../local-n8n/index.ts';

/** POSTs `body` as JSON to `url` with `headers`; the answer's status and text. */
export async function postToResumeUrl(
	client: N8nClient,
	url: string,
	body: string,
	headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
	const response = await request(url, {
		method: 'POST',
		body,
		headers: { 'content-type': 'application/json', ...headers },
		dispatcher: client.dispatcher,
	});
	return { status: response.statusCode, text: await response.body.text() };
}
