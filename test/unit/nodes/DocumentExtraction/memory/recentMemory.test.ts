import { describe, expect, it } from 'vitest';

import { RecentMemory } from '../../../../../nodes/DocumentExtraction/memory/recentMemory.ts';

describe('RecentMemory: bounded, this process only, with expiry', () => {
	it('gives back what was set, and forgets the oldest beyond the bound', () => {
		const memory = new RecentMemory<number>({ maxEntries: 2 });
		memory.set('a', 1);
		memory.set('b', 2);
		memory.set('c', 3);
		expect(memory.get('a')).toBeUndefined();
		expect(memory.get('b')).toBe(2);
		expect(memory.get('c')).toBe(3);
		expect(memory.size).toBe(2);
	});

	it('setting an entry again makes it the newest', () => {
		const memory = new RecentMemory<number>({ maxEntries: 2 });
		memory.set('a', 1);
		memory.set('b', 2);
		memory.set('a', 10);
		memory.set('c', 3);
		expect(memory.get('a')).toBe(10);
		expect(memory.get('b')).toBeUndefined();
	});

	it('an entry counts until its expiry, not after; a clock that went back counts as expired', () => {
		const memory = new RecentMemory<string>({ maxEntries: 10, ttlMs: 1000 });
		memory.set('a', 'x', 5000);
		expect(memory.get('a', 5999)).toBe('x');
		expect(memory.get('a', 6000)).toBeUndefined();
		memory.set('b', 'y', 5000);
		expect(memory.get('b', 4999)).toBeUndefined();
	});

	it('without an expiry, entries stay until pushed out', () => {
		const memory = new RecentMemory<string>({ maxEntries: 10 });
		memory.set('a', 'x', 0);
		expect(memory.get('a', Number.MAX_SAFE_INTEGER)).toBe('x');
	});

	it('expired entries are dropped when a newer one is stored, so the map does not grow with them', () => {
		const memory = new RecentMemory<true>({ maxEntries: 100, ttlMs: 10 });
		for (let i = 0; i < 50; i++) memory.set(`old${i}`, true, 0);
		memory.set('new', true, 20);
		expect(memory.size).toBe(1);
	});
});
