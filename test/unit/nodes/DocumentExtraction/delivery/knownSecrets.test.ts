// The process memory of secrets the trigger has read (docs/spec-decisions.md#n34).
import { afterEach, describe, expect, it } from 'vitest';

import { forgetProcessMemories } from '../../../../../nodes/DocumentExtraction/memory/processMemory.ts';

import {
	knownSecret,
	rememberKnownSecret,
} from '../../../../../nodes/DocumentExtraction/delivery/knownSecrets.ts';
import { secretFingerprint } from '../../../../../nodes/DocumentExtraction/delivery/signature.ts';

afterEach(() => forgetProcessMemories());

describe('knownSecrets', () => {
	it('finds a secret by its fingerprint, ignores the empty secret', () => {
		rememberKnownSecret('whsec_UNITTEST_known_1');
		rememberKnownSecret('');
		expect(knownSecret(secretFingerprint('whsec_UNITTEST_known_1'))).toBe('whsec_UNITTEST_known_1');
		expect(knownSecret(secretFingerprint(''))).toBeUndefined();
	});

	it('keeps at most 200, forgetting the oldest first', () => {
		for (let index = 0; index < 205; index++) rememberKnownSecret(`whsec_UNITTEST_many_${index}`);
		expect(knownSecret(secretFingerprint('whsec_UNITTEST_many_0'))).toBeUndefined();
		expect(knownSecret(secretFingerprint('whsec_UNITTEST_many_204'))).toBe(
			'whsec_UNITTEST_many_204',
		);
	});
});
