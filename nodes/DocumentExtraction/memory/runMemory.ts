/**
 * A memory that lives as long as one run of a node (n8n gives each run its own execute context): for
 * what the items of one run must agree on, such as every line item of one invoice taking one route.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

export function runMemory<V>(): (context: IExecuteFunctions) => Map<string, V> {
	const byRun = new WeakMap<IExecuteFunctions, Map<string, V>>();
	return (context) => {
		let memory = byRun.get(context);
		if (!memory) {
			memory = new Map();
			byRun.set(context, memory);
		}
		return memory;
	};
}
