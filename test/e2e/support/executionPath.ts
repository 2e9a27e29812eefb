// What an execution did: the path it took (the nodes it ran, in order, and what the last of them
// put out), and which of a workflow's output nodes ran.

import { expect } from 'vitest';
import { executedNodes, nodeJson, type DecodedExecution } from '../../../local-n8n/index.ts';

/** Checks that `execution` ran exactly the nodes of `path`, in order; the items the last one put out. */
export function outputAfter(
	execution: DecodedExecution,
	path: string[],
): Array<Record<string, unknown>> {
	expect(executedNodes(execution)).toEqual(path);
	return nodeJson(execution, path.at(-1)!);
}

/** Which of the output nodes `names` ran, with their items (the ones that put out none are left out). */
export function outputsOf(
	execution: DecodedExecution,
	names: string[],
): Record<string, Array<Record<string, unknown>>> {
	return Object.fromEntries(
		names
			.map((name) => [name, nodeJson(execution, name)])
			.filter(([, items]) => (items as unknown[]).length > 0),
	);
}
