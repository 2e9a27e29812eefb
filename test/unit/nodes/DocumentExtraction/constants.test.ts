/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
// n8n names a node type after the package and the node's description; the codex files (JSON, which
// cannot import), package.json's node paths and the type the tests put in workflows must agree with it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionTrigger } from '../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import { NODE_NAMES } from '../../../../nodes/DocumentExtraction/constants.ts';
import { NODE_TYPES } from '../../harness/nodeTypes.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const readJson = (path: string) =>
	JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;

describe('node type names', () => {
	it.each([
		['action', new DocumentExtraction(), 'nodes/DocumentExtraction/DocumentExtraction.node'],
		[
			'trigger',
			new DocumentExtractionTrigger(),
			'nodes/DocumentExtraction/DocumentExtractionTrigger.node',
		],
	] as const)('%s: description, codex, package.json and the tests agree', (which, node, path) => {
		const packageJson = readJson('package.json');
		const type = `${String(packageJson.name)}.${node.description.name}`;
		expect(node.description.name).toBe(NODE_NAMES[which]);
		expect(readJson(`${path}.json`).node).toBe(type);
		expect(NODE_TYPES[which]).toBe(type);
		expect(existsSync(join(ROOT, `${path}.ts`))).toBe(true);
		expect((packageJson.n8n as { nodes: string[] }).nodes).toContain(`dist/${path}.js`);
	});
});
