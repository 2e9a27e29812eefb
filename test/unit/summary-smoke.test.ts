/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n */
import { describe, expect, it } from 'vitest';

import { fileSizeProblem, TIER_LIMITS } from '../../nodes/shared/tierLimits';

describe('tier limits', () => {
	it('accepts exactly the limit and refuses one byte more', () => {
		expect(fileSizeProblem('pilot', TIER_LIMITS.pilot.maxFileBytes)).toBeUndefined();
		expect(fileSizeProblem('pilot', TIER_LIMITS.pilot.maxFileBytes + 1)).toMatch(/Pilot/);
	});
});
