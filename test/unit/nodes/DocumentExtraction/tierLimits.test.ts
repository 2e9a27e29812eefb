import { describe, expect, it } from 'vitest';

import {
	fileSizeProblem,
	formatBytes,
	limitsForTier,
	TIER_LIMITS,
} from '../../../../nodes/DocumentExtraction/tierLimits.ts';

const MIB = 1024 * 1024;

describe('tier limits (spec Limits; D20: 1 MB = 1,048,576 bytes; N3)', () => {
	it.each([
		['pilot', 10 * MIB, 10],
		['growth', 25 * MIB, 100],
		['enterprise', 100 * MIB, null],
	] as const)('%s: %i bytes, %s requests/min', (tier, bytes, perMinute) => {
		expect(TIER_LIMITS[tier].maxFileBytes).toBe(bytes);
		expect(TIER_LIMITS[tier].requestsPerMinute).toBe(perMinute);
		expect(fileSizeProblem(tier, bytes)).toBeUndefined();
		expect(fileSizeProblem(tier, bytes + 1)).toContain(TIER_LIMITS[tier].label);
	});

	it('the message names the size, the limit and what to do', () => {
		expect(fileSizeProblem('growth', 30 * MIB)).toBe(
			'The file is 30.0 MB, above the 25.0 MB limit of the Growth tier. Use a smaller file (split a multi-page PDF or lower the image resolution), or set the credential to the tier your account actually has if it is larger.',
		);
	});

	it.each([undefined, '', 'Pilot', 'platinum', 42, null, 'constructor', 'toString'])(
		'unknown tier %j -> Pilot limits',
		(tier) => {
			expect(limitsForTier(tier)).toBe(TIER_LIMITS.pilot);
			expect(fileSizeProblem(tier, 10 * MIB + 1)).toMatch(/Pilot/);
		},
	);

	it('formatBytes', () => {
		expect([
			formatBytes(0),
			formatBytes(1023),
			formatBytes(1024),
			formatBytes(1536),
			formatBytes(MIB),
			formatBytes(10 * MIB + 1),
		]).toEqual(['0 bytes', '1023 bytes', '1.0 KB', '1.5 KB', '1.0 MB', '10.0 MB']);
	});
});
