/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, never inside n8n */
import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The e2e files that spend most of their time waiting for n8n's once-a-minute look at ended waits
 * (an approval nobody answers, its reminders): about 7 minutes idle. They run in a thread of their
 * own beside the other e2e files, each with its own n8n, so that wait overlaps work.
 */
const WAITING_E2E_FILES = [
	'test/e2e/approval-flow.test.ts',
	'test/e2e/approval-policy.test.ts',
	'test/e2e/inbox-to-books.test.ts',
];

const E2E = {
	// After the unit and sandbox files, both e2e projects at once.
	sequence: { groupOrder: 1 },
	// Builds and packs the package once for the run; every file's n8n installs that tarball.
	globalSetup: ['test/e2e/support/packOnce.ts'],
	testTimeout: 300_000,
	hookTimeout: 900_000,
};

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
					exclude: WAITING_E2E_FILES,
					...E2E,
					// One fork runs the e2e files one after another (a queue file starts five n8n, with
					// Postgres, Redis and HAProxy). On the 2-core machines CI and development use, a second
					// file beside it only slows both: an n8n start is CPU-bound, and files that time
					// deliveries fail when the machine is saturated. Not isolated, so that the files which
					// neither configure nor restart n8n share one (support/n8nAndSandbox.ts).
					poolOptions: { forks: { singleFork: true, isolate: false } },
				},
			},
			{
				extends: true,
				test: {
					name: 'e2e-waiting',
					include: WAITING_E2E_FILES,
					...E2E,
					// Another pool than the fork's, so vitest runs the two side by side (projects of one
					// pool run one after another); one thread, not isolated, as the fork.
					pool: 'threads',
					poolOptions: { threads: { singleThread: true, isolate: false } },
				},
			},
		],
	},
});
