/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test tooling: local demo/placeholder values, not secrets; runs in plain Node, never inside n8n */
// The package, built and packed as released and installed the way n8n documents manual
// installation (`npm install` of the tarball into <N8N_USER_FOLDER>/.n8n/nodes, then n8n started),
// is loaded by a real n8n (the newest supported): both node types and the credential type are known
// to n8n, and a restart loads it again. The n8n is the one the e2e files share, started that way.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	ACTION_NODE_TYPE as ACTION,
	PACKAGE_NAME,
	installedPackageVersion,
	loadedNodeTypes,
	TRIGGER_NODE_TYPE as TRIGGER,
	type Stack,
} from '../../local-n8n/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const CREDENTIAL = 'documentExtractionApi';

// The n8n the other files share is started this way; the file restarts it once.
const fixture = useN8nAndSandbox({ restartsN8n: true, tier: null });
let stack: Stack;

describe('n8n loads n8n-nodes-document-extraction', () => {
	beforeAll(() => {
		stack = fixture.stack;
	});

	it("is installed in the user folder's nodes directory and loaded with both nodes", async () => {
		expect(installedPackageVersion(stack.n8n.userFolder, PACKAGE_NAME)).toBe(stack.packed?.version);
		expect(stack.installedNodeTypes).toEqual([ACTION, TRIGGER].sort());
		expect(readFileSync(stack.n8n.logFile, 'utf8')).not.toMatch(
			/Failed to load package|Skipping package/,
		);
	});

	it('knows both node types in the editor', async () => {
		const names = (await stack.client.nodeTypes()).map((t) => t.name);
		expect(names).toContain(ACTION);
		expect(names).toContain(TRIGGER);
		const action = (await stack.client.nodeTypes()).find((t) => t.name === ACTION);
		expect(action?.displayName).toBe('Document Extraction');
	});

	it('offers the action node to the AI Agent as a tool (usableAsTool)', async () => {
		const tool = (await stack.client.nodeTypes()).find((t) => t.name === `${ACTION}Tool`);
		expect(tool, 'n8n generates a tool variant for usableAsTool nodes').toBeDefined();
		expect(JSON.stringify(tool?.outputs)).toContain('ai_tool');
		// The trigger is not a tool.
		expect((await stack.client.nodeTypes()).some((t) => t.name === `${TRIGGER}Tool`)).toBe(false);
	});

	it('resolves the node descriptions in the backend', async () => {
		const types = await stack.client.nodeTypes();
		const infos = [ACTION, TRIGGER].map((name) => {
			const t = types.find((x) => x.name === name);
			const version = Array.isArray(t?.version) ? Math.max(...t.version) : (t?.version ?? 1);
			return { name, version };
		});
		const descriptions = await stack.client.nodeDescriptions(infos);
		expect(descriptions).toHaveLength(2);
		for (const d of descriptions) expect(d.communityNodePackageVersion).toBe(stack.packed?.version);
	});

	it('knows the credential type with its fields', async () => {
		const credential = (await stack.client.credentialTypes()).find((t) => t.name === CREDENTIAL);
		expect(credential).toBeDefined();
		const fields = credential!.properties.map((p) => p.name);
		for (const field of ['baseUrl', 'apiKey', 'signingSecret', 'tier'])
			expect(fields).toContain(field);
	});

	it('accepts a credential of that type', async () => {
		const created = await stack.client.createDocumentExtractionCredential(
			'Document Extraction (e2e)',
			{
				baseUrl: 'http://127.0.0.1:9',
				apiKey: 'e2e-not-a-real-key',
				signingSecret: 'e2e-not-a-real-secret',
				tier: 'pilot',
			},
		);
		expect(created.type).toBe(CREDENTIAL);
	});

	it('loads it again after a restart (same user folder)', async () => {
		await stack.restartN8n();
		expect(await loadedNodeTypes(stack.client, PACKAGE_NAME)).toEqual([ACTION, TRIGGER].sort());
	});
});
