import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { eventOutput } from '../../../../../nodes/DocumentExtraction/delivery/eventMapping.ts';

const DATA = {
	header: { vendor: 'Acme', date: '2024-03-15', invoice_no: 'INV-1' },
	amounts: { subtotal: 100, tax: 19, total: 119 },
	line_items: [{ description: 'Service', quantity: 1, unit_price: 100, amount: 100 }],
};

const VERIFIED_EVENT = {
	event: 'document.verified',
	timestamp: '2024-03-15T10:05:00Z',
	document_id: 'doc_1',
	review_id: 'rev_1',
	verified_by: 'human_reviewer',
	corrections_made: false,
	data: DATA,
	confidence: { original: 0.72, final: 0.99 },
};

const REJECTED_EVENT = {
	event: 'document.rejected',
	timestamp: '2024-03-15T10:06:00Z',
	document_id: 'doc_2',
	review_id: 'rev_2',
	rejected_by: 'human_reviewer',
	reason: 'Illegible total',
	confidence: { original: 0.4 },
};

/** The Simplified item of `payload`, which carries the event's own fields beside the invoice. */
const eventFields = (payload: IDataObject): IDataObject => eventOutput('simplified', payload)[0];

describe("the event's own fields", () => {
	it('document.verified (spec payload)', () => {
		expect(eventFields(VERIFIED_EVENT)).toMatchObject({
			event: 'document.verified',
			timestamp: '2024-03-15T10:05:00Z',
			document_id: 'doc_1',
			review_id: 'rev_1',
			status: 'verified',
			confidence: 0.99,
			verified_by: 'human_reviewer',
			rejected_by: null,
			corrections_made: false,
			confidence_original: 0.72,
			confidence_final: 0.99,
			rejection_reason: null,
		});
	});

	it('document.rejected (D8): reason, falling back to rejection_reason, then message', () => {
		expect(eventFields(REJECTED_EVENT)).toMatchObject({
			status: 'rejected',
			confidence: 0.4,
			rejected_by: 'human_reviewer',
			verified_by: null,
			rejection_reason: 'Illegible total',
			confidence_final: null,
		});
		const withoutReason = { ...REJECTED_EVENT, reason: undefined };
		expect(
			eventFields({ ...withoutReason, rejection_reason: 'From status' }).rejection_reason,
		).toBe('From status');
		expect(eventFields({ ...withoutReason, message: 'From message' }).rejection_reason).toBe(
			'From message',
		);
	});

	it('tolerates every field missing', () => {
		expect(eventFields({})).toMatchObject({
			event: null,
			timestamp: null,
			document_id: null,
			review_id: null,
			status: null,
			confidence: null,
			verified_by: null,
			rejected_by: null,
			corrections_made: null,
			confidence_original: null,
			confidence_final: null,
			rejection_reason: null,
		});
		expect(eventFields({ confidence: 0.5 }).confidence).toBe(0.5);
	});
});

describe('eventOutput', () => {
	it('simplified: event fields plus the invoice from data', () => {
		const [item] = eventOutput('simplified', VERIFIED_EVENT);
		expect(item).toMatchObject({
			document_id: 'doc_1',
			vendor: 'Acme',
			total: 119,
			checks: { all_passed: true },
		});
	});

	it('split: one item per line; a rejection without data still gives one item', () => {
		expect(eventOutput('splitLineItems', VERIFIED_EVENT)).toHaveLength(1);
		const rejected = eventOutput('splitLineItems', REJECTED_EVENT);
		expect(rejected).toHaveLength(1);
		expect(rejected[0]).toMatchObject({
			status: 'rejected',
			vendor: null,
			line_count: 0,
			line_number: null,
		});
	});

	it('raw: the payload untouched, with currency and readiness beside it (a rejection is never ready)', () => {
		expect(eventOutput('raw', REJECTED_EVENT)).toEqual([
			{
				...REJECTED_EVENT,
				currency: null,
				ready_to_post: false,
				not_ready_because: [expect.stringContaining('rejected in review')],
			},
		]);
	});
});
