import { afterEach, describe, expect, it } from 'vitest';

import {
	deliveryKey,
	forgetAcceptedDeliveries,
	isNewDelivery,
	MAX_REMEMBERED_DELIVERIES,
} from '../../../../../nodes/DocumentExtraction/delivery/ignoreDuplicates.ts';

afterEach(() => forgetAcceptedDeliveries());

describe('Ignore Duplicates: which deliveries were seen (spec: duplicates possible; N6)', () => {
	it('key = event:document_id; none without both', () => {
		expect(deliveryKey('document.verified', 'doc_1')).toBe('document.verified:doc_1');
		expect(deliveryKey('document.rejected', 'doc_1')).not.toBe(
			deliveryKey('document.verified', 'doc_1'),
		);
		expect(deliveryKey('document.verified', '')).toBeUndefined();
		expect(deliveryKey(undefined, 'doc_1')).toBeUndefined();
		expect(deliveryKey('document.verified', 7)).toBeUndefined();
	});

	it('new once, then a duplicate; the workflow memory is changed in place', () => {
		const seen: string[] = [];
		expect(isNewDelivery(seen, 'a', 'production:wf:node')).toBe(true);
		expect(isNewDelivery(seen, 'a', 'production:wf:node')).toBe(false);
		expect(isNewDelivery(seen, 'b', 'production:wf:node')).toBe(true);
		expect(seen).toEqual(['a', 'b']);
	});

	it('a copy arriving before the workflow memory was saved is a duplicate (this process saw it)', () => {
		// Two requests read the same saved memory: neither sees the other's key there.
		expect(isNewDelivery([], 'a', 'production:wf:node')).toBe(true);
		expect(isNewDelivery([], 'a', 'production:wf:node')).toBe(false);
	});

	it('a key saved by another process is a duplicate here too', () => {
		expect(isNewDelivery(['a'], 'a', 'production:wf:node')).toBe(false);
	});

	it('test listening and production, workflows and nodes are apart in this process', () => {
		expect(isNewDelivery([], 'a', 'test:wf:node')).toBe(true);
		expect(isNewDelivery([], 'a', 'production:wf:node')).toBe(true);
		expect(isNewDelivery([], 'a', 'production:wf:other-node')).toBe(true);
		expect(isNewDelivery([], 'a', 'production:other-wf:node')).toBe(true);
	});

	it('this process forgets an accepted delivery after 10 minutes; the workflow memory still knows it', () => {
		const start = 1_000_000;
		expect(isNewDelivery([], 'a', 's', start)).toBe(true);
		expect(isNewDelivery([], 'a', 's', start + 10 * 60_000 - 1)).toBe(false);
		expect(isNewDelivery([], 'a', 's', start + 10 * 60_000)).toBe(true);
		expect(isNewDelivery(['a'], 'a', 's', start + 30 * 60_000)).toBe(false);
	});

	it('the workflow memory keeps the last 1000 keys', () => {
		const seen: string[] = [];
		for (let i = 0; i <= MAX_REMEMBERED_DELIVERIES; i++) isNewDelivery(seen, `k${i}`, 's');
		expect(MAX_REMEMBERED_DELIVERIES).toBe(1000);
		expect(seen).toHaveLength(1000);
		expect(seen[0]).toBe('k1');
	});
});
