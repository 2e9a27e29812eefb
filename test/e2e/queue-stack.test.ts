/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// n8n in queue mode (Postgres, Redis, main + 2 workers + 2 webhook processes, HAProxy over HTTPS in
// front of the webhook processes), the package installed on main through the community-packages API:
// it reaches every worker and webhook process through n8n itself (each has its own user folder).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_NAME, startQueueStack, stopAll, type QueueStack } from '../../local-n8n/index.ts';

let stack: QueueStack;

describe('queue mode stack', () => {
	beforeAll(async () => {
		const t0 = Date.now();
		stack = await startQueueStack();
		console.log(`[queue] stack up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	});

	afterAll(async () => {
		await stack?.stop();
		await stopAll();
	});

	it('installs the package on main through the community-packages API', () => {
		expect(stack.installedNodeTypes.sort()).toEqual([`${PACKAGE_NAME}.documentExtraction`, `${PACKAGE_NAME}.documentExtractionTrigger`].sort());
	});

	it('the package folder exists in every process user folder', () => {
		for (const { name, instance } of stack.processes()) {
			const dir = join(instance.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
			expect(existsSync(dir), `${name}: ${dir}`).toBe(true);
		}
	});

	it('prints logs', () => {
		for (const { name, instance } of stack.processes()) {
			const text = readFileSync(instance.logFile, 'utf8');
			console.log(`--- ${name} ${instance.logFile}\n${text.split('\n').filter((l) => /package|communit|install/i.test(l)).slice(0, 20).join('\n')}`);
		}
	});
});
