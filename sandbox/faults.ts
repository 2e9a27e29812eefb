/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/** Injected faults (control API: POST /__sandbox/faults): errors, resets, malformed and slow answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { sendError } from './http.ts';
import type { FaultMode, SandboxState } from './state.ts';

export const FAULT_MODES: readonly FaultMode[] = ['500', '503', 'slow', 'reset', 'malformed'];

/**
 * Reads the request to its end before a fault answers, as the service reads an upload before it
 * fails: answering while the client still sends makes Node close the connection, and the client then
 * sees a reset instead of the status, a different fault from the one injected.
 */
async function bodyRead(request: IncomingMessage): Promise<void> {
	if (request.readableEnded) return;
	await new Promise<void>((resolve) => {
		request.once('end', resolve);
		request.once('error', () => resolve());
		request.once('close', resolve);
		request.resume();
	});
}

/**
 * Applies the first injected fault for `path` that has let through the requests it was asked to
 * (`after`); every fault for `path` still waiting counts this request as one let through. True when
 * the request was answered (or dropped) by a fault.
 */
export async function applyFault(
	state: SandboxState,
	request: IncomingMessage,
	response: ServerResponse,
	path: string,
): Promise<boolean> {
	const matching = state.control.faults.filter(
		(candidate) =>
			candidate.remaining > 0 &&
			(!candidate.paths || candidate.paths.some((prefix) => path.startsWith(prefix))),
	);
	const fault = matching.find((candidate) => candidate.after === 0);
	for (const waiting of matching) if (waiting.after > 0) waiting.after--;
	if (!fault) return false;
	fault.remaining--;
	state.control.faults = state.control.faults.filter((candidate) => candidate.remaining > 0);
	state.log({ kind: 'fault', mode: fault.mode, path });
	switch (fault.mode) {
		case 'reset':
			request.socket.destroy();
			return true;
		case '500':
			await bodyRead(request);
			sendError(response, 500, 'internal_error', 'Injected server error.');
			return true;
		case '503':
			await bodyRead(request);
			sendError(response, 503, 'unavailable', 'Injected unavailability.', { 'retry-after': 1 });
			return true;
		case 'malformed':
			await bodyRead(request);
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end('{"success": true, "status": "verif');
			return true;
		case 'slow':
			await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
			return false;
	}
}
