/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// What the accounting examples hand the package's Build Bill: their Settings node's values, and the
// items as n8n carries them (JSON and the original file's metadata).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BinaryFile {
	fileName: string;
	mimeType: string;
	data?: string;
}

export interface BuiltItem {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryFile>;
	pairedItem?: { item: number };
}

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

/** The setting values of examples/`file`'s "Settings" node. */
export function exampleSettings(file: string): Record<string, string> {
	const workflow = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as {
		nodes: Array<{
			name: string;
			parameters: { assignments?: { assignments: Array<{ name: string; value: string }> } };
		}>;
	};
	const settings = workflow.nodes.find((entry) => entry.name === 'Settings');
	return Object.fromEntries(
		(settings?.parameters.assignments?.assignments ?? []).map((entry) => [entry.name, entry.value]),
	);
}
