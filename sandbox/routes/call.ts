/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/** What an endpoint gets for an authenticated request, and how it answers with the call's headers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { sendError, sendJson, type ResponseHeaders } from '../http.ts';
import type { Account, SandboxState } from '../state.ts';

export interface AccountCall {
	state: SandboxState;
	request: IncomingMessage;
	response: ServerResponse;
	/** The account of the request's API key. */
	account: Account;
	/** The rate-limit headers every answer carries. */
	headers: ResponseHeaders;
}

/** 200 with `body`. */
export function answer(call: AccountCall, body: unknown): void {
	sendJson(call.response, 200, body, call.headers);
}

/** An error answer (docs/spec-decisions.md#d3). */
export function refuse(call: AccountCall, status: number, code: string, message: string): void {
	sendError(call.response, status, code, message, call.headers);
}
