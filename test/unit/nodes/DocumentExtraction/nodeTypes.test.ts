/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
// The node type names exist once (nodes/shared/nodeTypes.ts); the descriptions use them, and the
// codex files (JSON, which cannot import) and package.json's node paths must agree with them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionTrigger } from '../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import {
	NODE_NAMES,
	NODE_TYPES,
	PACKAGE_NAME,
} from '../../../../nodes/DocumentExtraction/nodeTypes.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const readJson = (path: string) =>
	JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;

describe('node type names', () => {
	it('the package name is the one package.json declares', () => {
		expect(readJson('package.json').name).toBe(PACKAGE_NAME);
	});

	it.each([
		['action', new DocumentExtraction(), 'nodes/DocumentExtraction/DocumentExtraction.node'],
		[
			'trigger',
			new DocumentExtractionTrigger(),
			'nodes/DocumentExtraction/DocumentExtractionTrigger.node',
		],
	] as const)('%s: description, codex and package.json agree', (which, node, path) => {
		expect(node.description.name).toBe(NODE_NAMES[which]);
		expect(readJson(`${path}.json`).node).toBe(NODE_TYPES[which]);
		expect(existsSync(join(ROOT, `${path}.ts`))).toBe(true);
		const nodes = (readJson('package.json').n8n as { nodes: string[] }).nodes;
		expect(nodes).toContain(`dist/${path}.js`);
	});
});
