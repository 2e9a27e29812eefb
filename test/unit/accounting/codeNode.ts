/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs the examples' own Code node JavaScript, as n8n does */
// Runs the JavaScript of an example's Code node outside n8n, as n8n's Code node ("Run Once for All
// Items") runs it: the code is the body of a function given `$input` and `$`. Only what the
// examples' Code nodes use is provided: `$input.all()`, `$('Settings').first()`, and for the
// webhook node `isExecuted` and `itemMatching(index)` (the uploaded file of that item).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BinaryFile {
	fileName: string;
	mimeType: string;
	data?: string;
}

export interface CodeItem {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryFile>;
	pairedItem?: { item: number };
}

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

/** The `jsCode` of node `nodeName` in examples/`file`. */
export function exampleCode(file: string, nodeName: string): string {
	const workflow = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as {
		nodes: Array<{ name: string; parameters: { jsCode?: string } }>;
	};
	const node = workflow.nodes.find((entry) => entry.name === nodeName);
	if (!node?.parameters.jsCode) throw new Error(`examples/${file} has no Code node "${nodeName}"`);
	return node.parameters.jsCode;
}

/** The first setting values of examples/`file`'s "Settings" node. */
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

/**
 * Runs `code` on `items` with `settings` as the Settings node's output; `files[index]` is the file the
 * webhook received for item `index` (undefined: the webhook did not run, as on the trigger path).
 */
export function runCodeNode(
	code: string,
	items: Array<Record<string, unknown>>,
	settings: Record<string, unknown>,
	files?: Array<BinaryFile | undefined>,
): CodeItem[] {
	const $ = (name: string) => {
		if (name === 'Settings') return { first: () => ({ json: settings }) };
		if (name === 'Receive invoice') {
			return {
				isExecuted: files !== undefined,
				itemMatching: (index: number) => ({
					json: {},
					binary: files?.[index] ? { file: files[index] } : undefined,
				}),
			};
		}
		throw new Error(`the Code node refers to "${name}", which this test does not provide`);
	};
	const $input = { all: () => items.map((json) => ({ json })) };
	const run = new Function('$input', '$', code) as (
		input: typeof $input,
		node: typeof $,
	) => CodeItem[];
	return run($input, $);
}
