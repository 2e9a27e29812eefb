/** GET /v1/status/{doc_id}: a document of the caller's account (docs/spec-decisions.md#d7, #d14). */
import { humanDuration } from '../http.ts';
import { answer, refuse, type AccountCall } from './call.ts';

export function handleStatus(call: AccountCall, documentId: string | undefined): void {
	const { state, account } = call;
	state.counts.statusRequests++;
	const document = documentId === undefined ? undefined : state.store.documents.get(documentId);
	if (!document || document.accountId !== account.id)
		return refuse(
			call,
			404,
			'not_found',
			`No document "${(documentId ?? '').slice(0, 80)}" for this API key.`,
		);
	const pending = document.state === 'processing' || document.state === 'needs_review';
	answer(call, {
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
	});
}
