/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, never inside n8n */
import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
	test: {
		root,
		reporters: ['default', './test/summaryReporter.ts'],
		// The unit and sandbox files run before the e2e files, CPU-bound, while the main process waits:
		// one fork per core, not vitest's default of one fewer (a single fork on the 2-core machines).
		maxWorkers: availableParallelism(),
		projects: [
			{
				extends: true,
				test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
			},
			{
				extends: true,
				test: { name: 'sandbox', include: ['test/sandbox/**/*.test.ts'], testTimeout: 30_000 },
			},
			{
				extends: true,
				test: {
					name: 'e2e',
					include: ['test/e2e/**/*.test.ts'],
					// Builds and packs the package once for the run; every file's n8n installs that tarball.
					globalSetup: ['test/e2e/support/packOnce.ts'],
					testTimeout: 300_000,
					hookTimeout: 900_000,
					// One fork runs the e2e files one after another (a queue file starts five n8n, with
					// Postgres, Redis and HAProxy). On the 2-core machines CI and development use, a second
					// file beside it only slows both: an n8n start is CPU-bound, and files that time
					// deliveries fail when the machine is saturated. Not isolated, so that the files which
					// neither configure nor restart n8n share one (support/n8nAndSandbox.ts).
					poolOptions: { forks: { singleFork: true, isolate: false } },
				},
			},
		],
	},
});
