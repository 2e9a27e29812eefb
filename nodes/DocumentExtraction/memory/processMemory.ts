/**
 * The memories this n8n process keeps between executions (module level): what may be lost on a
 * restart but must be answered fast. Each is a RecentMemory made here, so that one hook,
 * forgetProcessMemories, does what a restart does: tests call it to start as a fresh process.
 */
import type { RecentMemoryLimits } from './recentMemory.ts';
import { RecentMemory } from './recentMemory.ts';

const memories: Array<RecentMemory<unknown>> = [];

export function processMemory<V>(limits: RecentMemoryLimits): RecentMemory<V> {
	const memory = new RecentMemory<V>(limits);
	memories.push(memory as RecentMemory<unknown>);
	return memory;
}

/** Forgets everything every process memory holds, as a restart does. */
export function forgetProcessMemories(): void {
	for (const memory of memories) memory.clear();
}
