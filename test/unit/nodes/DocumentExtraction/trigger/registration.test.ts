// The pure helpers of what the service holds for a trigger (docs/spec-decisions.md#n32, #n35).
import { describe, expect, it } from 'vitest';

import type { HeldRegistration } from '../../../../../nodes/DocumentExtraction/trigger/registration.ts';
import {
	deliveryOrigin,
	MAX_HELD_REGISTRATIONS,
	missingEvents,
	registeredFingerprints,
	withRegistration,
} from '../../../../../nodes/DocumentExtraction/trigger/registration.ts';

const URL = 'https://n8n.example/webhook/abc/webhook';
const held = (url: string, events: string[], secretFingerprint: string): HeldRegistration => ({
	webhookId: null,
	url,
	events,
	secretFingerprint,
	registeredAt: '',
});

describe('registration helpers', () => {
	it('missingEvents: only what no registration for this URL and secret delivers', () => {
		const list = [
			held(URL, ['document.verified'], 'aa'),
			held(URL, ['document.rejected'], 'bb'),
			held('https://other/webhook', ['document.rejected'], 'aa'),
		];
		expect(missingEvents(list, URL, 'aa', ['document.verified', 'document.rejected'])).toEqual([
			'document.rejected',
		]);
		expect(missingEvents(list, URL, 'bb', ['document.rejected'])).toEqual([]);
		expect(missingEvents([], URL, 'aa', ['document.verified', 'document.verified'])).toEqual([
			'document.verified',
		]);
	});

	it('deliveryOrigin: current secret, a replaced registration, or one not replaced yet', () => {
		const list = [
			held(URL, ['document.verified', 'document.rejected'], 'old'),
			held(URL, ['document.verified'], 'new'),
		];
		expect(deliveryOrigin(list, URL, 'new', 'new', 'document.verified')).toBe('current');
		expect(deliveryOrigin(list, URL, 'old', 'new', 'document.verified')).toBe('replaced');
		expect(deliveryOrigin(list, URL, 'old', 'new', 'document.rejected')).toBe('notYetReplaced');
	});

	it('registeredFingerprints: newest first, without repeats, for this URL only', () => {
		const list = [
			held(URL, [], 'a'),
			held(URL, [], 'b'),
			held(URL, [], 'a'),
			held('https://other', [], 'c'),
		];
		expect(registeredFingerprints(list, URL)).toEqual(['a', 'b']);
	});

	it(`withRegistration keeps the newest ${MAX_HELD_REGISTRATIONS} and returns a new list`, () => {
		let list: HeldRegistration[] = [];
		for (let index = 0; index < MAX_HELD_REGISTRATIONS + 5; index++)
			list = withRegistration(list, held(URL, [], `f${index}`));
		expect(list).toHaveLength(MAX_HELD_REGISTRATIONS);
		expect(list[0].secretFingerprint).toBe('f5');
	});
});
