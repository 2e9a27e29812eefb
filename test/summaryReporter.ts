/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
/**
 * Closes the run after vitest's own report. First, the suites that were not run on this machine
 * because a system program is missing (test/e2e/support/requirements.ts), each with why and the
 * command that makes it run. Then one plain line, "N passed, N failed, N skipped", so that CI can
 * read the result without knowing vitest's format. A test file that fails to load counts as failed.
 * With CI=true nothing may be skipped: skipped tests count as failed and the run fails.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import {
	SYSTEM_REQUIREMENTS,
	installCommands,
	type SystemRequirementName,
} from '../local-n8n/systemPackages.ts';
import { parseNotRunTitle } from './e2e/support/notRun.ts';

type Counts = { passed: number; failed: number; skipped: number };
type FileTime = { file: string; seconds: number };

/** How many of the slowest files the closing lines name: where CI's time budget goes. */
const SLOWEST_FILES = 12;

function slowestReport(times: FileTime[]): string {
	const total = times.reduce((sum, time) => sum + time.seconds, 0);
	const slowest = times.toSorted((a, b) => b.seconds - a.seconds).slice(0, SLOWEST_FILES);
	const lines = [`\nSlowest test files (${Math.round(total)} s in all ${times.length} files):`];
	for (const { file, seconds } of slowest)
		lines.push(`  ${String(Math.round(seconds)).padStart(5)} s  ${file}`);
	return `${lines.join('\n')}\n`;
}
type NotRun = { file: string; suite: string; missing: SystemRequirementName[] };

/** The suites of a module that describeNeeding() did not run, with what they lack. */
function suitesNotRun(testModule: TestModule): NotRun[] {
	const found: NotRun[] = [];
	for (const suite of testModule.children.allSuites()) {
		const parsed = parseNotRunTitle(suite.name);
		if (parsed)
			found.push({
				file: relative(process.cwd(), testModule.moduleId),
				suite: parsed.name,
				missing: parsed.missing,
			});
	}
	return found;
}

function notRunReport(notRun: NotRun[]): string {
	const lines = [
		`\nNot run on this machine (${notRun.length} suite${notRun.length === 1 ? '' : 's'}; CI runs them all):`,
	];
	for (const entry of notRun) {
		const requirements = entry.missing.map((name) => SYSTEM_REQUIREMENTS[name]);
		const { apt, brew } = installCommands(requirements);
		lines.push(`  - ${entry.file} ("${entry.suite}")`);
		lines.push(
			`      why: ${requirements.map((r) => `${r.title} not found (${r.purpose})`).join('; ')}`,
		);
		lines.push(`      to run it: ${apt}   |   macOS: ${brew}`);
	}
	return `${lines.join('\n')}\n`;
}

export default class SummaryLineReporter implements Reporter {
	private counts: Counts | undefined;
	private notRun: NotRun[] = [];
	private times: FileTime[] = [];

	onTestRunEnd(
		testModules: ReadonlyArray<TestModule>,
		unhandledErrors: ReadonlyArray<unknown>,
	): void {
		let passed = 0;
		let failed = unhandledErrors.length;
		let skipped = 0;
		this.notRun = [];
		this.times = testModules.map((testModule) => ({
			file: relative(process.cwd(), testModule.moduleId),
			seconds: testModule.diagnostic().duration / 1000,
		}));
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
			this.notRun.push(...suitesNotRun(testModule));
		}
		this.counts = { passed, failed, skipped };
	}

	// Printed last, after the default reporter's summary.
	onFinished(): void {
		if (!this.counts) return;
		const { passed } = this.counts;
		let { failed, skipped } = this.counts;
		if (this.times.length > 1) process.stdout.write(slowestReport(this.times));
		if (this.notRun.length > 0) process.stdout.write(notRunReport(this.notRun));
		if (process.env.CI === 'true' && skipped > 0) {
			process.stdout.write(
				`\nCI=true: every test must run; ${skipped === 1 ? 'the 1 skipped test counts' : `the ${skipped} skipped tests count`} as failed.\n`,
			);
			failed += skipped;
			skipped = 0;
		}
		if (failed > 0) process.exitCode = 1;
		process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
	}
}
