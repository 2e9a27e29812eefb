/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/** GET /v1/status/{doc_id}: a document of the caller's account (docs/spec-decisions.md#d7, #d14). */
import type { ServerResponse } from 'node:http';

import { humanDuration, sendError, sendJson, type ResponseHeaders } from '../http.ts';
import type { Account, SandboxState } from '../state.ts';

export function handleStatus(
	state: SandboxState,
	response: ServerResponse,
	account: Account,
	documentId: string | undefined,
	headers: ResponseHeaders,
): void {
	state.counts.statusRequests++;
	const document = documentId === undefined ? undefined : state.store.documents.get(documentId);
	if (!document || document.accountId !== account.id)
		return sendError(
			response,
			404,
			'not_found',
			`No document "${(documentId ?? '').slice(0, 80)}" for this API key.`,
			headers,
		);
	const pending = document.state === 'processing' || document.state === 'needs_review';
	sendJson(
		response,
		200,
		{
			document_id: document.id,
			status: document.state === 'rejected' ? 'failed' : document.state,
			confidence: document.finalConfidence ?? document.confidence,
			...(document.reviewId ? { review_id: document.reviewId } : {}),
			estimated_time:
				pending && document.dueAt
					? humanDuration(Date.parse(document.dueAt) - Date.now())
					: '0 seconds',
			created_at: document.createdAt,
			...(document.failureReason ? { failure_reason: document.failureReason } : {}),
			...(document.rejectionReason ? { rejection_reason: document.rejectionReason } : {}),
		},
		headers,
	);
}
