/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * The sandbox: the Document Extraction service of `docs/document-extraction-api.md` on
 * loopback, with every "not shown" point decided as in docs/spec-decisions.md, plus a control API
 * under /__sandbox/ (not part of the service) for tests and demos. This file routes requests to the
 * modules that handle them and starts and stops the HTTP server around the one state object.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ResolvedAccount, SandboxOptions } from './config.ts';
import { handleControl } from './control.ts';
import type { DeliveryAttempt } from './deliveries.ts';
import { resumePendingSteps } from './documents.ts';
import { applyFault } from './faults.ts';
import { decodePathSegment, sendError } from './http.ts';
import { countRequest, refuseOverLimit } from './rateLimit.ts';
import { handleExtract } from './routes/extract.ts';
import { handleStatus } from './routes/status.ts';
import { handleRegister } from './routes/webhooks.ts';
import {
	clearTimers,
	createState,
	snapshot,
	type SandboxState,
	type SandboxStateSnapshot,
} from './state.ts';

export type { SandboxOptions } from './config.ts';
export type { SandboxStateSnapshot } from './state.ts';
export { EVENTS } from './routes/webhooks.ts';

export interface RunningSandbox {
	/** e.g. http://127.0.0.1:4010 (no trailing slash). */
	url: string;
	port: number;
	accounts: ResolvedAccount[];
	state(): SandboxStateSnapshot;
	deliveries(): DeliveryAttempt[];
	close(): Promise<void>;
}

async function route(
	state: SandboxState,
	request: IncomingMessage,
	response: ServerResponse,
): Promise<void> {
	const started = Date.now();
	const path = new URL(request.url ?? '/', 'http://sandbox').pathname;
	let accountId: string | null = null;
	response.on('finish', () => {
		state.log({
			kind: 'request',
			method: request.method,
			path: path.slice(0, 200),
			status: response.statusCode,
			account: accountId,
			ms: Date.now() - started,
		});
	});
	if (path.startsWith('/__sandbox/')) return handleControl(state, request, response, path);

	const isExtract = path === '/v1/extract';
	const statusMatch = /^\/v1\/status\/([^/]+)$/.exec(path);
	const isRegister = path === '/webhooks/register';
	if (!isExtract && !statusMatch && !isRegister) {
		request.resume();
		return sendError(response, 404, 'not_found', 'No such endpoint.');
	}
	if (await applyFault(state, request, response, path)) return;

	const key = request.headers['x-api-key'];
	const account = typeof key === 'string' ? state.accountsByKey.get(key) : undefined;
	if (!account) {
		request.resume();
		return sendError(
			response,
			401,
			'unauthorized',
			'Missing or invalid API key. Send it in the X-API-Key header.',
		);
	}
	accountId = account.id;
	const verdict = countRequest(state, account);
	const { headers } = verdict;
	if (verdict.limited) {
		state.counts.rateLimited++;
		return await refuseOverLimit(request, response, account, verdict);
	}

	const method = request.method ?? 'GET';
	const call = { state, request, response, account, headers };
	if (isExtract && method === 'POST') return handleExtract(call);
	if (statusMatch && method === 'GET') return handleStatus(call, decodePathSegment(statusMatch[1]));
	if (isRegister && method === 'POST') return handleRegister(call);
	request.resume();
	return sendError(response, 405, 'method_not_allowed', `${method} is not allowed here.`, headers);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const state = createState(options);
	resumePendingSteps(state);

	const server: Server = createServer((request, response) => {
		route(state, request, response).catch((error: Error) => {
			state.log({ kind: 'error', message: error.message });
			if (!response.headersSent) sendError(response, 500, 'internal_error', 'Sandbox error.');
			else response.destroy();
		});
	});
	server.keepAliveTimeout = 5_000;

	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	const port = (server.address() as AddressInfo).port;

	return {
		url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
		port,
		accounts: [...state.accountsByKey.entries()].map(([apiKey, account]) => ({
			apiKey,
			tier: account.tier,
			signingSecret: account.signingSecret,
		})),
		state: () => snapshot(state),
		deliveries: () => [...state.deliverer.attempts],
		close: async () => {
			clearTimers(state);
			await state.deliverer.close();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
