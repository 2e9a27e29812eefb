/* eslint-disable @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * The document lifecycle: processing → verified or needs_review (docs/spec-decisions.md#d2, #d5, #d6), a review approved or
 * rejected (by the control API or, for approval, by itself after reviewDelayMs), and the webhook
 * deliveries each transition sends (docs/spec-decisions.md#d6, #d8, #d13).
 */
import { AUTO_VERIFY_THRESHOLD } from './config.ts';
import type { DeliveryTarget } from './deliveries.ts';
import { applyCorrections } from './extraction.ts';
import { newId } from './ids.ts';
import type { SandboxState } from './state.ts';
import type { DocumentRecord, DocumentState } from './store.ts';

/** Runs `step` after `delayMs`, replacing the document's pending step; dueAt tells clients when. */
function schedule(
	state: SandboxState,
	document: DocumentRecord,
	delayMs: number,
	step: () => void,
): void {
	clearTimeout(state.timers.get(document.id));
	document.dueAt = new Date(Date.now() + delayMs).toISOString();
	state.timers.set(
		document.id,
		setTimeout(() => {
			state.timers.delete(document.id);
			step();
		}, delayMs),
	);
}

function cancelPendingStep(state: SandboxState, document: DocumentRecord): void {
	clearTimeout(state.timers.get(document.id));
	state.timers.delete(document.id);
}

function targetsFor(
	state: SandboxState,
	document: DocumentRecord,
	event: string,
): DeliveryTarget[] {
	const targets: DeliveryTarget[] = [];
	for (const webhook of state.store.webhooks.values()) {
		if (webhook.accountId === document.accountId && webhook.events.includes(event))
			targets.push({ url: webhook.url, secret: webhook.secret, webhookId: webhook.id });
	}
	// docs/spec-decisions.md#d13: the document's own webhook_url, signed with the account secret, once per URL.
	if (document.webhookUrl && !targets.some((target) => target.url === document.webhookUrl)) {
		targets.push({
			url: document.webhookUrl,
			secret: state.accountsById.get(document.accountId)?.signingSecret ?? state.defaultSecret,
		});
	}
	return targets;
}

/** What every delivery's payload starts with: the event, when, and the document. */
function eventFields(event: string, document: DocumentRecord) {
	return { event, timestamp: new Date().toISOString(), document_id: document.id };
}

function verifiedPayload(document: DocumentRecord) {
	return {
		...eventFields('document.verified', document),
		...(document.reviewId ? { review_id: document.reviewId } : {}),
		verified_by: document.verifiedBy,
		corrections_made: document.correctionsMade ?? false,
		data: document.data,
		confidence: {
			original: document.confidence,
			final: document.finalConfidence ?? document.confidence,
		},
	};
}

function sendToReview(state: SandboxState, document: DocumentRecord): void {
	document.state = 'needs_review';
	document.reviewId ??= newId('rev');
	schedule(state, document, state.settings.reviewDelayMs, () =>
		approve(state, document, undefined),
	);
}

/** docs/spec-decisions.md#d2/D6: strictly above 0.95 is verified by the AI; otherwise a person reviews it. */
export function decide(state: SandboxState, document: DocumentRecord): void {
	if (document.confidence > AUTO_VERIFY_THRESHOLD) {
		document.state = 'verified';
		document.verifiedBy = 'ai_auto';
		document.finalConfidence = document.confidence;
		document.dueAt = undefined;
	} else {
		sendToReview(state, document);
	}
}

function finishProcessing(state: SandboxState, document: DocumentRecord): void {
	if (document.state !== 'processing') return;
	if (!document.data) {
		document.state = 'failed';
		document.failureReason = 'unreadable_file';
		document.dueAt = undefined;
	} else {
		decide(state, document);
		// decide() changed the state; the cast stops TypeScript narrowing it to 'processing' still.
		if ((document.state as DocumentState) === 'verified' && document.webhookUrl) {
			// docs/spec-decisions.md#d6: the verified result of a processed document goes to its own webhook_url only, signed
			// per docs/spec-decisions.md#d13 (with the registration's secret when that URL is registered for the event).
			const ownUrl = targetsFor(state, document, 'document.verified').filter(
				(target) => target.url === document.webhookUrl,
			);
			state.deliverer.deliver('document.verified', document.id, verifiedPayload(document), ownUrl);
		}
	}
	state.store.save();
	state.log({ kind: 'transition', document_id: document.id, to: document.state });
}

/** Keeps the document in `processing` for processingDelayMs, then decides. */
export function startProcessing(state: SandboxState, document: DocumentRecord): void {
	schedule(state, document, state.settings.processingDelayMs, () =>
		finishProcessing(state, document),
	);
}

/** A reviewer approves, with optional corrections; false when the document is not in review. */
export function approve(
	state: SandboxState,
	document: DocumentRecord,
	corrections: unknown,
): boolean {
	if (document.state !== 'needs_review' || !document.data) return false;
	cancelPendingStep(state, document);
	const corrected =
		typeof corrections === 'object' && corrections !== null && Object.keys(corrections).length > 0;
	document.data = corrected ? applyCorrections(document.data, corrections) : document.data;
	document.state = 'verified';
	document.verifiedBy = 'human_reviewer';
	document.correctionsMade = corrected;
	document.finalConfidence = corrected ? 1 : 0.99;
	document.dueAt = undefined;
	state.store.save();
	state.log({ kind: 'transition', document_id: document.id, to: 'verified', by: 'human_reviewer' });
	state.deliverer.deliver(
		'document.verified',
		document.id,
		verifiedPayload(document),
		targetsFor(state, document, 'document.verified'),
	);
	return true;
}

/** A reviewer rejects; false when the document is not in review. */
export function reject(state: SandboxState, document: DocumentRecord, reason: string): boolean {
	if (document.state !== 'needs_review') return false;
	cancelPendingStep(state, document);
	document.state = 'rejected';
	document.failureReason = 'rejected_by_reviewer';
	document.rejectionReason = reason;
	document.dueAt = undefined;
	state.store.save();
	state.log({ kind: 'transition', document_id: document.id, to: 'rejected' });
	// docs/spec-decisions.md#d8
	const payload = {
		...eventFields('document.rejected', document),
		review_id: document.reviewId,
		rejected_by: 'human_reviewer',
		reason,
		confidence: { original: document.confidence },
	};
	state.deliverer.deliver(
		'document.rejected',
		document.id,
		payload,
		targetsFor(state, document, 'document.rejected'),
	);
	return true;
}

/** Documents kept from an earlier run pick up their pending step. */
export function resumePendingSteps(state: SandboxState): void {
	for (const document of state.store.documents.values()) {
		if (!document.dueAt) continue;
		const left = Math.max(0, Date.parse(document.dueAt) - Date.now());
		if (document.state === 'processing')
			schedule(state, document, left, () => finishProcessing(state, document));
		if (document.state === 'needs_review')
			schedule(state, document, left, () => approve(state, document, undefined));
	}
}
