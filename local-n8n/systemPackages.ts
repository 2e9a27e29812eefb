/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- tooling: runs apt-get; plain errors outside any node */
// The Debian packages the local runtime uses, installed by the setup step (`npm run setup`, also run
// before `npm test` and `npm start`), never from inside a test. Each is found by a file it installs;
// missing ones are installed with one `apt-get install`, with a message saying what and why.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { log } from './log.ts';

export interface SystemPackage {
	/** Debian package name. */
	name: string;
	/** What the project uses it for (printed when it is installed). */
	purpose: string;
	/** Whether the package is already installed (a file it ships). */
	present: () => boolean;
}

/** Postgres's versioned binary folder (`/usr/lib/postgresql/<major>/bin`), or undefined. */
export function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const majors = readdirSync(root)
		.filter((entry) => /^\d+$/.test(entry) && existsSync(`${root}/${entry}/bin/postgres`))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? `${root}/${majors[0]}/bin` : undefined;
}

export const CHROMIUM = '/usr/bin/chromium';

export const SYSTEM_PACKAGES: SystemPackage[] = [
	{ name: 'chromium', purpose: 'the editor test in a real browser', present: () => existsSync(CHROMIUM) },
	{ name: 'postgresql', purpose: "n8n's database in queue mode", present: () => postgresBinDir() !== undefined },
	{ name: 'redis-server', purpose: "n8n's job queue in queue mode", present: () => existsSync('/usr/bin/redis-server') },
	{ name: 'haproxy', purpose: 'the HTTPS load balancer in front of the webhook processes', present: () => existsSync('/usr/sbin/haproxy') },
];

/** Installs the missing system packages with apt-get (as root, which CI and these machines are). */
export function ensureSystemPackages(packages: SystemPackage[] = SYSTEM_PACKAGES): void {
	const missing = packages.filter((pkg) => !pkg.present());
	if (missing.length === 0) return;
	for (const pkg of missing) log('setup', `installing Debian package ${pkg.name} (${pkg.purpose}) with apt-get`);
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		throw new Error(`Missing Debian packages: ${missing.map((p) => p.name).join(', ')}. Install them as root: apt-get install ${missing.map((p) => p.name).join(' ')}`);
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	execFileSync('apt-get', ['update'], { stdio: 'pipe', timeout: 10 * 60_000, env });
	execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing.map((p) => p.name)], { stdio: 'pipe', timeout: 20 * 60_000, env });
	const stillMissing = missing.filter((pkg) => !pkg.present());
	if (stillMissing.length) throw new Error(`apt-get ran, but these are still missing: ${stillMissing.map((p) => p.name).join(', ')}`);
	log('setup', `installed ${missing.map((p) => p.name).join(', ')}`);
}
