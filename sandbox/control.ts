/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/** The control API under /__sandbox/ (not part of the service): state, reviews, queued values, settings, faults, reset. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { approve, reject } from './documents.ts';
import type { ExtractedData } from './extraction.ts';
import { FAULT_MODES } from './faults.ts';
import { decodePathSegment, readSmallBody, sendError, sendJson } from './http.ts';
import { resetState, snapshot, type FaultMode, type SandboxState } from './state.ts';

/** Settings that POST /__sandbox/config may change (numbers of ms or bytes, 0 or more). */
const NUMERIC_SETTINGS = [
	'minuteMs',
	'extractLatencyMinMs',
	'extractLatencyMaxMs',
	'reviewDelayMs',
	'processingDelayMs',
	'processingThresholdBytes',
	'retryBaseMs',
	'deliveryTimeoutMs',
] as const;

async function readJsonObject(
	request: IncomingMessage,
): Promise<Record<string, unknown> | undefined> {
	const raw = (await readSmallBody(request)).toString('utf8');
	try {
		return raw.trim() === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
	} catch {
		return undefined;
	}
}

function review(
	state: SandboxState,
	response: ServerResponse,
	reviewSegment: string,
	action: string,
	body: Record<string, unknown>,
): void {
	const reviewId = decodePathSegment(reviewSegment);
	const document = reviewId === undefined ? undefined : state.store.documentByReview(reviewId);
	if (!document) return sendError(response, 404, 'not_found', 'No such review.');
	const done =
		action === 'approve'
			? approve(state, document, body.corrections)
			: reject(
					state,
					document,
					typeof body.reason === 'string' ? body.reason : 'Data quality issue',
				);
	if (!done)
		return sendError(
			response,
			409,
			'not_in_review',
			`The document is ${document.state}, not in review.`,
		);
	sendJson(response, 200, { document_id: document.id, state: document.state });
}

export async function handleControl(
	state: SandboxState,
	request: IncomingMessage,
	response: ServerResponse,
	path: string,
): Promise<void> {
	const method = request.method ?? 'GET';
	let body: Record<string, unknown> = {};
	if (method === 'POST') {
		const parsed = await readJsonObject(request);
		if (!parsed) return sendError(response, 400, 'invalid_json', 'The body is not valid JSON.');
		body = parsed;
	}
	if (method === 'GET' && path === '/__sandbox/state')
		return sendJson(response, 200, snapshot(state));
	if (method === 'GET' && path === '/__sandbox/deliveries')
		return sendJson(response, 200, { deliveries: state.deliverer.attempts });
	if (method === 'GET' && path === '/__sandbox/health')
		return sendJson(response, 200, { ok: true });
	if (method === 'POST' && path === '/__sandbox/next-confidence') {
		const values = Array.isArray(body.confidence) ? body.confidence : [body.confidence];
		if (!values.every((value) => typeof value === 'number' && value >= 0 && value <= 1))
			return sendError(
				response,
				400,
				'invalid_confidence',
				'confidence: a number (or list) from 0 to 1.',
			);
		state.control.nextConfidence.push(...(values as number[]));
		return sendJson(response, 200, { queued: state.control.nextConfidence });
	}
	if (method === 'POST' && path === '/__sandbox/next-extraction') {
		const data = body.data as ExtractedData | undefined;
		if (
			typeof data !== 'object' ||
			data === null ||
			typeof data.header !== 'object' ||
			typeof data.amounts !== 'object' ||
			!Array.isArray(data.line_items)
		) {
			return sendError(
				response,
				400,
				'invalid_extraction',
				'data: an extracted-data object with header, amounts and line_items.',
			);
		}
		state.control.nextExtraction.push(data);
		return sendJson(response, 200, { queued: state.control.nextExtraction.length });
	}
	if (method === 'POST' && path === '/__sandbox/next-status') {
		if (body.status !== 'processing')
			return sendError(response, 400, 'invalid_status', 'status: "processing".');
		state.control.nextStatus.push('processing');
		return sendJson(response, 200, { queued: state.control.nextStatus.length });
	}
	const reviewPath = /^\/__sandbox\/reviews\/([^/]+)\/(approve|reject)$/.exec(path);
	if (method === 'POST' && reviewPath)
		return review(state, response, reviewPath[1], reviewPath[2], body);
	if (method === 'POST' && path === '/__sandbox/config') {
		for (const key of NUMERIC_SETTINGS) {
			const value = body[key];
			if (typeof value === 'number' && value >= 0) state.settings[key] = value;
		}
		if (typeof body.duplicateDeliveries === 'boolean')
			state.settings.duplicateDeliveries = body.duplicateDeliveries;
		return sendJson(response, 200, { settings: state.settings });
	}
	if (method === 'POST' && path === '/__sandbox/faults') {
		const mode = String(body.mode) as FaultMode;
		if (!FAULT_MODES.includes(mode))
			return sendError(response, 400, 'invalid_fault', `mode: one of ${FAULT_MODES.join(', ')}.`);
		const paths = Array.isArray(body.paths) ? body.paths.map(String) : undefined;
		if (
			body.after !== undefined &&
			!(typeof body.after === 'number' && Number.isInteger(body.after) && body.after >= 0)
		)
			return sendError(
				response,
				400,
				'invalid_fault',
				'after: how many matching requests to let through first, a whole number from 0.',
			);
		state.control.faults.push({
			mode,
			remaining: typeof body.count === 'number' ? body.count : 1,
			after: typeof body.after === 'number' ? body.after : 0,
			delayMs: typeof body.delayMs === 'number' ? body.delayMs : 6000,
			paths,
		});
		return sendJson(response, 200, { faults: state.control.faults });
	}
	if (method === 'POST' && path === '/__sandbox/reset') {
		resetState(state);
		return sendJson(response, 200, { reset: true });
	}
	return sendError(response, 404, 'not_found', 'Unknown control endpoint.');
}
