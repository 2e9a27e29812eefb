// The pure helpers of what the service holds for a trigger (docs/spec-decisions.md#n32, #n61).
import { describe, expect, it } from 'vitest';

import type { HeldRegistration } from '../../../../../nodes/DocumentExtraction/trigger/registration.ts';
import {
	missingEvents,
	registeredUrl,
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
		expect(missingEvents(list, URL, ['aa'], ['document.verified', 'document.rejected'])).toEqual([
			'document.rejected',
		]);
		expect(missingEvents(list, URL, ['bb'], ['document.rejected'])).toEqual([]);
		expect(missingEvents([], URL, ['aa'], ['document.verified', 'document.verified'])).toEqual([
			'document.verified',
		]);
	});

	it('missingEvents: registrations with any of the secrets the webhook accepts count', () => {
		const list = [held(URL, ['document.verified'], 'aa'), held(URL, ['document.rejected'], 'bb')];
		expect(
			missingEvents(list, URL, ['aa', 'bb'], ['document.verified', 'document.rejected']),
		).toEqual([]);
		expect(missingEvents(list, URL, ['cc'], ['document.verified'])).toEqual(['document.verified']);
	});

	it('registeredUrl: the newest registration’s URL, none without one', () => {
		expect(registeredUrl([held(URL, [], 'a'), held('https://other', [], 'a')])).toBe(
			'https://other',
		);
		expect(registeredUrl([])).toBeUndefined();
	});

	it('withRegistration keeps the newest 50 and returns a new list', () => {
		let list: HeldRegistration[] = [];
		for (let index = 0; index < 55; index++)
			list = withRegistration(list, held(URL, [], `f${index}`));
		expect(list).toHaveLength(50);
		expect(list[0].secretFingerprint).toBe('f5');
	});
});
