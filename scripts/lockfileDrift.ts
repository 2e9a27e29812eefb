/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling runs in plain Node, never inside n8n */
// Finds why `npm ci` would refuse package-lock.json, without the network: the lockfile's root entry
// must name exactly package.json's dependency ranges, and every optional dependency a locked package
// declares must be locked too (npm ci on another platform needs that platform's optional package;
// a lockfile made where the registry lacked them is "not in sync" there).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Ranges = Record<string, string>;

export interface PackageJson {
	dependencies?: Ranges;
	devDependencies?: Ranges;
	peerDependencies?: Ranges;
	optionalDependencies?: Ranges;
}

interface LockedPackage extends PackageJson {
	version?: string;
}

export interface Lockfile {
	lockfileVersion?: number;
	packages?: Record<string, LockedPackage>;
}

const SECTIONS = [
	'dependencies',
	'devDependencies',
	'peerDependencies',
	'optionalDependencies',
] as const;

/** Where `name` resolves from the locked package at `path` (node_modules lookup, innermost first). */
function resolves(packages: Record<string, LockedPackage>, path: string, name: string): boolean {
	let dir = path;
	for (;;) {
		if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
		if (!dir) return false;
		const at = dir.lastIndexOf('node_modules/');
		dir = at <= 0 ? '' : dir.slice(0, at - 1);
	}
}

/** Every difference that would make `npm ci` refuse the lockfile; empty when it is in sync. */
export function lockfileDrift(pkg: PackageJson, lock: Lockfile): string[] {
	const problems: string[] = [];
	if ((lock.lockfileVersion ?? 0) < 2 || !lock.packages)
		return ['package-lock.json has no "packages" map (lockfileVersion 2 or 3 expected)'];
	const packages = lock.packages;
	const root = packages[''] ?? {};
	for (const section of SECTIONS) {
		const wanted = pkg[section] ?? {};
		const locked = root[section] ?? {};
		for (const [name, range] of Object.entries(wanted)) {
			if (locked[name] === undefined)
				problems.push(`${section}.${name}@${range} is in package.json but not in the lockfile`);
			else if (locked[name] !== range)
				problems.push(
					`${section}.${name}: package.json says ${range}, the lockfile ${locked[name]}`,
				);
		}
		for (const name of Object.keys(locked)) {
			if (wanted[name] === undefined)
				problems.push(`${section}.${name} is in the lockfile but no longer in package.json`);
		}
	}
	for (const section of ['dependencies', 'devDependencies', 'optionalDependencies'] as const) {
		for (const name of Object.keys(pkg[section] ?? {})) {
			if (!packages[`node_modules/${name}`])
				problems.push(`${name} (${section}) has no locked version`);
		}
	}
	for (const [path, entry] of Object.entries(packages)) {
		if (!path) continue;
		for (const name of Object.keys(entry.optionalDependencies ?? {})) {
			if (!resolves(packages, path, name))
				problems.push(`${path} has the optional dependency ${name}, which the lockfile lacks`);
		}
	}
	return problems;
}

/** Reads package.json and package-lock.json of `dir` and returns lockfileDrift() of them. */
export function lockfileDriftIn(dir: string): string[] {
	const read = <T>(file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
	return lockfileDrift(read<PackageJson>('package.json'), read<Lockfile>('package-lock.json'));
}
