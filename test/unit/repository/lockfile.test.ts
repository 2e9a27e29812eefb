/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * package-lock.json matches package.json the way `npm ci` demands, and the check finds the two ways
 * it drifts: a range changed in package.json, and a platform's optional package missing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
	lockfileDrift,
	lockfileDriftIn,
	type Lockfile,
	type PackageJson,
} from '../../../scripts/lockfileDrift.ts';

const ROOT = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
const lock = JSON.parse(
	readFileSync(join(ROOT, 'package-lock.json'), 'utf8'),
) as Required<Lockfile>;

describe('package-lock.json', () => {
	it('is in sync with package.json', () => {
		expect(lockfileDriftIn(ROOT)).toEqual([]);
	});

	it('holds every platform package of rollup (npm ci on macOS and Windows needs them)', () => {
		const rollup = lock.packages['node_modules/rollup'];
		const platforms = Object.keys(rollup.optionalDependencies ?? {}).filter((n) =>
			n.startsWith('@rollup/'),
		);
		expect(platforms).toContain('@rollup/rollup-darwin-arm64');
		expect(platforms.filter((n) => !lock.packages[`node_modules/${n}`])).toEqual([]);
	});

	it('drift is found: a changed range', () => {
		const changed = { ...pkg, devDependencies: { ...pkg.devDependencies, vitest: '^99.0.0' } };
		expect(lockfileDrift(changed, lock)).toEqual([
			expect.stringContaining('devDependencies.vitest: package.json says ^99.0.0'),
		]);
	});

	it('drift is found: a new dependency, and a removed one', () => {
		const devDependencies: Record<string, string> = {
			...pkg.devDependencies,
			'left-pad': '^1.3.0',
		};
		delete devDependencies.typescript;
		const changed = { ...pkg, devDependencies };
		const problems = lockfileDrift(changed, lock);
		expect(problems).toContain(
			'devDependencies.left-pad@^1.3.0 is in package.json but not in the lockfile',
		);
		expect(problems).toContain(
			'devDependencies.typescript is in the lockfile but no longer in package.json',
		);
	});

	it("drift is found: another platform's optional package missing", () => {
		const packages = { ...lock.packages };
		delete packages['node_modules/@rollup/rollup-darwin-arm64'];
		expect(lockfileDrift(pkg, { ...lock, packages })).toEqual([
			'node_modules/rollup has the optional dependency @rollup/rollup-darwin-arm64, which the lockfile lacks',
		]);
	});
});
