import { describe, expect, it } from 'vitest';

import { deliveryKey, MAX_REMEMBERED_DELIVERIES, rememberDelivery } from '../../../nodes/shared/deliveryDedupe.ts';

describe('deliveryKey and rememberDelivery (spec: duplicates possible; N6)', () => {
	it('key = event:document_id; none without both', () => {
		expect(deliveryKey('document.verified', 'doc_1')).toBe('document.verified:doc_1');
		expect(deliveryKey('document.rejected', 'doc_1')).not.toBe(deliveryKey('document.verified', 'doc_1'));
		expect(deliveryKey('document.verified', '')).toBeUndefined();
		expect(deliveryKey(undefined, 'doc_1')).toBeUndefined();
		expect(deliveryKey('document.verified', 7)).toBeUndefined();
	});

	it('new once, then a duplicate; the list is changed in place', () => {
		const seen: string[] = [];
		expect(rememberDelivery(seen, 'a')).toBe(true);
		expect(rememberDelivery(seen, 'a')).toBe(false);
		expect(rememberDelivery(seen, 'b')).toBe(true);
		expect(seen).toEqual(['a', 'b']);
	});

	it('forgets the oldest beyond the limit', () => {
		const seen: string[] = [];
		for (const key of ['a', 'b', 'c', 'd']) rememberDelivery(seen, key, 3);
		expect(seen).toEqual(['b', 'c', 'd']);
		expect(rememberDelivery(seen, 'd', 3)).toBe(false);
		expect(rememberDelivery(seen, 'a', 3)).toBe(true);
		expect(seen).toEqual(['c', 'd', 'a']);
	});

	it('keeps 1000 keys by default', () => {
		const seen: string[] = [];
		for (let i = 0; i <= MAX_REMEMBERED_DELIVERIES; i++) rememberDelivery(seen, `k${i}`);
		expect(MAX_REMEMBERED_DELIVERIES).toBe(1000);
		expect(seen).toHaveLength(1000);
		expect(seen[0]).toBe('k1');
		expect(rememberDelivery(seen, 'k1000')).toBe(false);
		expect(rememberDelivery(seen, 'k0')).toBe(true);
	});

	it('a list that already holds more than the limit is trimmed at the next new key', () => {
		const seen = ['a', 'b', 'c', 'd', 'e'];
		expect(rememberDelivery(seen, 'f', 2)).toBe(true);
		expect(seen).toEqual(['e', 'f']);
	});
});
