/**
 * Webhook payloads (spec Events; docs/spec-decisions.md#d8 for document.rejected) as output items, through the same invoice
 * mapping as the action node. Every field may be missing: the nodes read what is there.
 */
import type { IDataObject } from 'n8n-workflow';

import type { OutputMode } from '../invoice/invoiceMapping.ts';
import { asNumber, invoiceOutput } from '../invoice/invoiceMapping.ts';
import { fieldsOf } from '../jsonObject.ts';

function text(value: unknown): string | null {
	return typeof value === 'string' ? value : null;
}

/** The event's own fields, flat. */
function eventFields(payload: IDataObject): IDataObject {
	const confidence = fieldsOf(payload.confidence);
	const event = text(payload.event);
	const rejected = event === 'document.rejected';
	return {
		event,
		timestamp: text(payload.timestamp),
		document_id: text(payload.document_id),
		review_id: text(payload.review_id),
		status: rejected ? 'rejected' : event === 'document.verified' ? 'verified' : null,
		confidence:
			asNumber(confidence.final) ?? asNumber(confidence.original) ?? asNumber(payload.confidence),
		verified_by: rejected ? null : text(payload.verified_by),
		rejected_by: rejected ? text(payload.rejected_by) : null,
		corrections_made:
			typeof payload.corrections_made === 'boolean' ? payload.corrections_made : null,
		confidence_original: asNumber(confidence.original),
		confidence_final: asNumber(confidence.final),
		rejection_reason: rejected
			? (text(payload.reason) ?? text(payload.rejection_reason) ?? text(payload.message))
			: null,
	};
}

export function eventOutput(mode: OutputMode, payload: IDataObject): IDataObject[] {
	return invoiceOutput(mode, payload, eventFields(payload), payload.data ?? null);
}

/**
 * A sample event (the trigger's own, sent while listening for a test event). Only the mark counts: the
 * service never sends `sample`, and a real document whose id happens to start with the sample prefix
 * must still run in production.
 */
export function isSample(payload: IDataObject): boolean {
	return payload.sample === true;
}
