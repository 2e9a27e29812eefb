/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// Environment for child processes that run npm (or n8n, which runs npm itself): Node 24 first on
// PATH, and none of the npm_* variables that an outer `npm run`/`npm start` leaves behind (they
// would silently override the registry, user config or cache that the child is given).

import { pathWithNode24 } from './paths.ts';

const DROPPED_PREFIXES = ['npm_config_', 'npm_package_', 'npm_lifecycle_', 'NPM_CONFIG_'];
// NODE_ENV: vitest sets it to "test", which switches n8n into its unit-test mode; children get their own.
const DROPPED_NAMES = new Set([
	'npm_execpath',
	'npm_node_execpath',
	'npm_command',
	'INIT_CWD',
	'NODE_OPTIONS',
	'NODE_ENV',
]);

/** `process.env` without npm's run-script variables and without N8N_* settings, plus Node 24 on PATH. */
export function cleanChildEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value === undefined) continue;
		if (DROPPED_NAMES.has(key)) continue;
		if (DROPPED_PREFIXES.some((p) => key.startsWith(p))) continue;
		// Settings meant for the harness itself or a developer's own n8n must not leak into ours.
		if (key.startsWith('N8N_') || key.startsWith('DB_') || key.startsWith('EXECUTIONS_')) continue;
		if (
			key === 'WEBHOOK_URL' ||
			key === 'E2E_TESTS' ||
			key === 'VITEST' ||
			key.startsWith('VITEST_')
		)
			continue;
		env[key] = value;
	}
	env.PATH = pathWithNode24();
	for (const [key, value] of Object.entries(extra)) {
		if (value === undefined) delete env[key];
		else env[key] = value;
	}
	return env;
}
