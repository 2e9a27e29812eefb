// Ignore Duplicates: which deliveries were accepted (spec: duplicates possible; N6), over the whole
// replay window (N41), with what this process accepted merged into every save.
import { afterEach, describe, expect, it } from 'vitest';

import { forgetProcessMemories } from '../../../../../nodes/DocumentExtraction/memory/processMemory.ts';

import type { AcceptedDeliveries } from '../../../../../nodes/DocumentExtraction/delivery/ignoreDuplicates.ts';
import {
	acceptDelivery,
	deliveryKey,
	MAX_REMEMBERED_DELIVERIES,
} from '../../../../../nodes/DocumentExtraction/delivery/ignoreDuplicates.ts';

afterEach(() => forgetProcessMemories());

const HOUR = 3_600_000;
const WINDOW = 24 * HOUR;
const NOW = Date.parse('2026-11-26T12:00:00Z');
const S = 'production:wf:node';

describe('Ignore Duplicates', () => {
	it('key = event:document_id; none without both', () => {
		expect(deliveryKey('document.verified', 'doc_1')).toBe('document.verified:doc_1');
		expect(deliveryKey('document.rejected', 'doc_1')).not.toBe(
			deliveryKey('document.verified', 'doc_1'),
		);
		expect(deliveryKey('document.verified', '')).toBeUndefined();
		expect(deliveryKey(undefined, 'doc_1')).toBeUndefined();
		expect(deliveryKey('document.verified', 7)).toBeUndefined();
	});

	it('new once, with its signed time, then a duplicate', () => {
		const first = acceptDelivery(undefined, 'a', NOW - HOUR, S, WINDOW, NOW);
		expect(first).toEqual({ entries: { a: NOW - HOUR } });
		expect(acceptDelivery(first, 'a', NOW - HOUR, S, WINDOW, NOW)).toBeUndefined();
	});

	it('a key saved by another process (or before a restart) is a duplicate', () => {
		expect(acceptDelivery({ entries: { a: NOW } }, 'a', NOW, S, WINDOW, NOW)).toBeUndefined();
	});

	it('calls that read the same saved memory: the copy is a duplicate, and each save carries every key this process accepted', () => {
		const saved: AcceptedDeliveries = { entries: { old: NOW - HOUR } };
		const first = acceptDelivery(saved, 'a', NOW, S, WINDOW, NOW);
		expect(acceptDelivery(saved, 'a', NOW, S, WINDOW, NOW)).toBeUndefined();
		const second = acceptDelivery(saved, 'b', NOW, S, WINDOW, NOW);
		// Whichever of the two n8n saves last, neither key is lost.
		expect(Object.keys(first!.entries)).toEqual(['old', 'a']);
		expect(Object.keys(second!.entries)).toEqual(['old', 'a', 'b']);
	});

	it('test listening and production, workflows and nodes are apart', () => {
		for (const scope of ['test:wf:node', S, 'production:wf:other', 'production:other:node'])
			expect(acceptDelivery(undefined, 'a', NOW, scope, WINDOW, NOW), scope).toBeDefined();
		expect(
			Object.keys(acceptDelivery(undefined, 'b', NOW, 'test:wf:node', WINDOW, NOW)!.entries),
		).toEqual(['a', 'b']);
	});

	it('forgets entries signed before the window (their copies are stale); keeps those without a signed time', () => {
		const stored: AcceptedDeliveries = {
			entries: { expired: NOW - WINDOW - 1, inside: NOW - WINDOW + 1, untimed: null },
		};
		expect(acceptDelivery(stored, 'new', NOW, S, WINDOW, NOW)).toEqual({
			entries: { inside: NOW - WINDOW + 1, untimed: null, new: NOW },
		});
	});

	it(`at ${MAX_REMEMBERED_DELIVERIES} entries the oldest go, and their signed time becomes the line below which deliveries are stale`, () => {
		const entries: Record<string, number> = {};
		for (let i = 0; i < MAX_REMEMBERED_DELIVERIES; i++) entries[`k${i}`] = NOW - WINDOW / 2 + i;
		const next = acceptDelivery({ entries }, 'new', NOW, S, WINDOW, NOW)!;
		expect(Object.keys(next.entries)).toHaveLength(MAX_REMEMBERED_DELIVERIES);
		expect(next.entries.k0).toBeUndefined();
		expect(next.forgottenUpTo).toBe(NOW - WINDOW / 2);
	});
});
