// The process's memories and the one hook that forgets them all, as a restart does.
import { afterEach, describe, expect, it } from 'vitest';

import {
	forgetProcessMemories,
	processMemory,
} from '../../../../../nodes/DocumentExtraction/memory/processMemory.ts';

afterEach(() => forgetProcessMemories());

describe('processMemory', () => {
	it('is a bounded memory of its own', () => {
		const first = processMemory<number>({ maxEntries: 2 });
		const second = processMemory<number>({ maxEntries: 2 });
		first.set('a', 1);
		first.set('b', 2);
		first.set('c', 3);
		expect(first.get('a')).toBeUndefined();
		expect(first.get('c')).toBe(3);
		expect(second.get('c')).toBeUndefined();
	});

	it('forgetProcessMemories empties every one of them', () => {
		const memories = [
			processMemory<string>({ maxEntries: 5 }),
			processMemory<string>({ maxEntries: 5, ttlMs: 60_000 }),
		];
		for (const memory of memories) memory.set('key', 'value');
		forgetProcessMemories();
		for (const memory of memories) expect(memory.get('key')).toBeUndefined();
		memories[0].set('key', 'again');
		expect(memories[0].get('key')).toBe('again');
	});
});
