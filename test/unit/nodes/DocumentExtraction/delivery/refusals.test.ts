// The refusal counter (docs/spec-decisions.md#n36).
import { describe, expect, it } from 'vitest';

import { withRefusal } from '../../../../../nodes/DocumentExtraction/delivery/refusals.ts';

describe('withRefusal', () => {
	it('counts and keeps the last time and reason', () => {
		const first = withRefusal(
			undefined,
			'signature missing (answered 401)',
			new Date('2026-11-23T10:00:00Z'),
		);
		const second = withRefusal(
			first,
			'signature mismatch (answered 401)',
			new Date('2026-11-23T11:00:00Z'),
		);
		expect(second).toEqual({
			count: 2,
			lastAt: '2026-11-23T11:00:00.000Z',
			lastReason: 'signature mismatch (answered 401)',
		});
	});
});
