/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling runs in plain Node (it runs npm pack), never inside n8n */
// Benchmark 4: footprint. The packed tarball (npm pack), runtime dependencies (package.json), and
// the time n8n takes to restart until ready with this package installed vs an n8n with no community
// package (same machine, same run).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startStack } from '../local-n8n/index.ts';
import type { Stack } from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import type { ResultRow } from './stats.ts';
import { median } from './stats.ts';

async function restartTimes(stack: Stack, times: number): Promise<number[]> {
	const durations: number[] = [];
	for (let index = 0; index < times; index++) {
		const started = Date.now();
		await stack.n8n.restart();
		durations.push(Date.now() - started);
	}
	await stack.restartN8n();
	return durations;
}

export async function footprint(context: BenchContext, restarts = 2): Promise<ResultRow[]> {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: REPO_ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
		dependencies?: Record<string, string>;
	};
	const runtimeDependencies = Object.keys(manifest.dependencies ?? {}).length;

	const withPackage = await restartTimes(context.stack, restarts);
	context.progress(
		`footprint: n8n restart with the package: ${withPackage.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`,
	);
	const plain = await startStack({ package: 'none' });
	let withoutPackage: number[] = [];
	try {
		withoutPackage = await restartTimes(plain, restarts);
	} finally {
		await plain.stop();
	}
	context.progress(
		`footprint: n8n restart without community packages: ${withoutPackage.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`,
	);
	const ours = median(withPackage);
	const baseline = median(withoutPackage);
	return [
		{
			benchmark: 'footprint',
			metric: 'packed tarball, KiB',
			ours: packed.size / 1024,
			baseline: '—',
			baselineName: 'n/a',
			ratio: null,
			target: 'small',
			pass: null,
			notes: `${packed.entryCount} files, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked`,
		},
		{
			benchmark: 'footprint',
			metric: 'runtime dependencies',
			ours: runtimeDependencies,
			baseline: '—',
			baselineName: 'n/a',
			ratio: null,
			target: '0',
			pass: runtimeDependencies === 0,
		},
		{
			benchmark: 'footprint',
			metric: 'n8n restart until ready, s (median)',
			ours: ours / 1000,
			baseline: baseline / 1000,
			baselineName: 'n8n without the package',
			ratio: ours / baseline,
			target: 'no noticeable cost',
			pass: null,
			notes: `load cost of the package ~ ${((ours - baseline) / 1000).toFixed(1)} s (noise included)`,
		},
	];
}
