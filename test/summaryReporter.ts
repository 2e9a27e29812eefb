/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * Prints one plain closing line, "N passed, N failed, N skipped", after vitest's own report, so that
 * CI can read the result without knowing vitest's format. A test file that fails to load counts as failed.
 */
import type { Reporter, TestModule } from 'vitest/node';

type Counts = { passed: number; failed: number; skipped: number };

export default class SummaryLineReporter implements Reporter {
	private counts: Counts | undefined;

	onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
		let passed = 0;
		let failed = unhandledErrors.length;
		let skipped = 0;
		for (const testModule of testModules) {
			let testsInModule = 0;
			for (const test of testModule.children.allTests()) {
				testsInModule++;
				const state = test.result().state;
				if (state === 'passed') passed++;
				else if (state === 'failed') failed++;
				else skipped++;
			}
			if (testsInModule === 0 && testModule.state() === 'failed') failed++;
		}
		this.counts = { passed, failed, skipped };
	}

	// Printed last, after the default reporter's summary.
	onFinished(): void {
		if (!this.counts) return;
		const { passed, failed, skipped } = this.counts;
		process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
	}
}
