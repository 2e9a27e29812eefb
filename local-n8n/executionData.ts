// n8n stores and returns execution data "flatted" (the `flatted` library's format: a JSON array
// whose first entry is the root; inside objects and arrays every string is the index, written as
// a string, of another entry; top-level string entries are the literal strings). This decodes it
// and gives the per-node output items of a run.

/** Decodes flatted text (as in `GET /rest/executions/:id` → `data.data`). */
export function parseFlatted(text: string): unknown {
	const input = JSON.parse(text) as unknown[];
	if (!Array.isArray(input)) throw new Error('not flatted data: expected a JSON array');
	const revived = new Map<number, unknown>();
	const resolveIndex = (index: number): unknown => {
		const value = input[index];
		if (typeof value !== 'object' || value === null) return value;
		const known = revived.get(index);
		if (known !== undefined) return known;
		const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
		revived.set(index, out);
		// Iterative over keys, recursive over depth (execution data is shallow enough).
		for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
			(out as Record<string, unknown>)[key] =
				typeof inner === 'string' ? resolveIndex(Number(inner)) : inner;
		}
		return out;
	};
	return resolveIndex(0);
}

export interface NodeExecutionItem {
	json: Record<string, unknown>;
	binary?: Record<
		string,
		{
			mimeType?: string;
			fileName?: string;
			fileSize?: string;
			id?: string;
			data?: string;
			[key: string]: unknown;
		}
	>;
	pairedItem?: unknown;
	error?: unknown;
	[key: string]: unknown;
}

export interface TaskRun {
	startTime?: number;
	executionTime?: number;
	executionStatus?: string;
	data?: { main?: Array<NodeExecutionItem[] | null> };
	error?: { message?: string; description?: string; name?: string; [key: string]: unknown };
	source?: unknown;
	[key: string]: unknown;
}

export interface RunExecutionData {
	resultData: {
		runData: Record<string, TaskRun[]>;
		lastNodeExecuted?: string;
		error?: {
			message?: string;
			description?: string;
			node?: { name?: string };
			[key: string]: unknown;
		};
		[key: string]: unknown;
	};
	executionData?: unknown;
	waitTill?: string | null;
	[key: string]: unknown;
}

/** An execution as returned by n8n's REST API, with its data decoded. */
export interface DecodedExecution {
	id: string;
	workflowId: string;
	/** 'new' | 'running' | 'waiting' | 'success' | 'error' | 'canceled' | 'crashed' | 'unknown' */
	status: string;
	mode: string;
	finished: boolean;
	startedAt: string | null;
	stoppedAt: string | null;
	waitTill: string | null;
	data: RunExecutionData;
	workflowData?: { nodes?: Array<{ name: string; type: string }>; [key: string]: unknown };
	raw: Record<string, unknown>;
}

export function decodeExecution(raw: Record<string, unknown>): DecodedExecution {
	const dataField = raw.data;
	const data = (
		typeof dataField === 'string'
			? parseFlatted(dataField)
			: (dataField ?? { resultData: { runData: {} } })
	) as RunExecutionData;
	return {
		id: String(raw.id),
		workflowId: String(raw.workflowId),
		status: String(raw.status ?? 'unknown'),
		mode: String(raw.mode ?? ''),
		finished: Boolean(raw.finished),
		startedAt: (raw.startedAt as string | null) ?? null,
		stoppedAt: (raw.stoppedAt as string | null) ?? null,
		waitTill: (raw.waitTill as string | null) ?? null,
		data,
		workflowData: raw.workflowData as DecodedExecution['workflowData'],
		raw,
	};
}

/** Names of the nodes that ran, in the order they started. */
export function executedNodes(execution: DecodedExecution): string[] {
	const runData = execution.data.resultData?.runData ?? {};
	return Object.entries(runData)
		.map(([name, runs]) => ({ name, start: runs[0]?.startTime ?? 0 }))
		.sort((a, b) => a.start - b.start)
		.map((e) => e.name);
}

/**
 * The items a node produced on one output (default: its last run, output 0). Empty when the node
 * did not run or produced nothing on that output.
 */
export function nodeItems(
	execution: DecodedExecution,
	nodeName: string,
	options: { run?: number; output?: number } = {},
): NodeExecutionItem[] {
	const runs = execution.data.resultData?.runData?.[nodeName];
	if (!runs || runs.length === 0) return [];
	const run = runs[options.run ?? runs.length - 1];
	return run?.data?.main?.[options.output ?? 0] ?? [];
}

/** Just the `json` of `nodeItems`. */
export function nodeJson(
	execution: DecodedExecution,
	nodeName: string,
	options: { run?: number; output?: number } = {},
): Array<Record<string, unknown>> {
	return nodeItems(execution, nodeName, options).map((item) => item.json);
}

/** The error of a node's last run, or of the execution as a whole. */
export function executionError(
	execution: DecodedExecution,
	nodeName?: string,
): { message?: string; description?: string; [key: string]: unknown } | undefined {
	if (nodeName) {
		const runs = execution.data.resultData?.runData?.[nodeName];
		return runs?.[runs.length - 1]?.error;
	}
	return execution.data.resultData?.error;
}
