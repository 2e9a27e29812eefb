import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { runMemory } from '../../../../../nodes/DocumentExtraction/memory/runMemory.ts';

describe('runMemory: one memory per node run', () => {
	it('the same run gets the same memory; another run starts empty', () => {
		const memoryOf = runMemory<number>();
		const run1 = {} as IExecuteFunctions;
		const run2 = {} as IExecuteFunctions;
		memoryOf(run1).set('doc', 1);
		expect(memoryOf(run1).get('doc')).toBe(1);
		expect(memoryOf(run2).get('doc')).toBeUndefined();
	});

	it('two memories do not share entries', () => {
		const a = runMemory<number>();
		const b = runMemory<number>();
		const run = {} as IExecuteFunctions;
		a(run).set('doc', 1);
		expect(b(run).has('doc')).toBe(false);
	});
});
