// The approval decision as one line for the books: the note when given, else who and when.
import { describe, expect, it } from 'vitest';

import { approvalNote } from '../../../../../nodes/DocumentExtraction/bill/approval.ts';

describe('approvalNote', () => {
	it('the note when there is one, on one line', () => {
		expect(
			approvalNote({
				note: '  Under the approval threshold\n(238 at or under 1000) ',
				decidedBy: 'manager@example.test',
			}),
		).toBe('Under the approval threshold (238 at or under 1000)');
	});

	it('else who approved and when, or only one of them', () => {
		expect(
			approvalNote({ decidedBy: 'manager@example.test', decidedAt: '2026-11-02T09:30:00Z' }),
		).toBe('Approved by manager@example.test on 2026-11-02T09:30:00Z');
		expect(approvalNote({ decidedBy: 'manager@example.test' })).toBe(
			'Approved by manager@example.test',
		);
		expect(approvalNote({ decidedAt: '2026-11-02T09:30:00Z' })).toBe(
			'Approved on 2026-11-02T09:30:00Z',
		);
	});

	it('no decision: nothing to record', () => {
		expect(approvalNote(undefined)).toBeNull();
		expect(approvalNote({ note: ' ', decidedBy: '', decidedAt: '' })).toBeNull();
	});
});
