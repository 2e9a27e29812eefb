/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/** Small response and body helpers. Error bodies follow docs/spec-decisions.md#d3. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Extra response headers (rate-limit headers, Retry-After). */
export type ResponseHeaders = Record<string, string | number>;

export function sendJson(
	response: ServerResponse,
	status: number,
	body: unknown,
	headers: ResponseHeaders = {},
): void {
	const text = JSON.stringify(body);
	response.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(text),
		...headers,
	});
	response.end(text);
}

/** docs/spec-decisions.md#d3: `{"success": false, "error": {"code", "message"}}`. */
export function sendError(
	response: ServerResponse,
	status: number,
	code: string,
	message: string,
	headers: ResponseHeaders = {},
): void {
	sendJson(response, status, { success: false, error: { code, message } }, headers);
}

export class BodyTooLargeError extends Error {}

/** Reads a small body whole (JSON requests); refuses more than `limit` bytes. */
export function readSmallBody(request: IncomingMessage, limit = 64 * 1024): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				request.removeAllListeners('data');
				request.pause();
				reject(new BodyTooLargeError());
				return;
			}
			chunks.push(chunk);
		});
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

export function isHttpsUrl(value: unknown): value is string {
	if (typeof value !== 'string' || value.length > 2048) return false;
	try {
		const url = new URL(value);
		return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
	} catch {
		return false;
	}
}

/** Human-readable time left (spec: estimated_time). */
export function humanDuration(ms: number): string {
	if (ms <= 0) return '0 seconds';
	const seconds = Math.ceil(ms / 1000);
	if (seconds < 90) return `about ${seconds} second${seconds === 1 ? '' : 's'}`;
	return `about ${Math.ceil(seconds / 60)} minutes`;
}

/** decodeURIComponent, or undefined for a malformed escape (then nothing matches: 404, not 500). */
export function decodePathSegment(segment: string): string | undefined {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}
