/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// The system programs that only some parts of the local runtime use: Postgres, Redis and HAProxy
// (queue mode: `npm start -- --queue`, the queue e2e tests, the queue benchmarks), Chromium (the
// editor test in a browser) and Dovecot (the IMAP server n8n's Email Trigger reads in the tests of
// the email templates; `npm start` uses it when installed, else the IMAP server in Node of
// local-n8n/mail/). `npm start` and everything else need none of them. Each is looked up
// where Debian/Ubuntu and Homebrew (Apple silicon and Intel) put it, and on PATH. When one is
// missing, one message names it with the command that installs it on Debian/Ubuntu and on macOS;
// where root and apt-get are available (CI, the project's build machines) it can be installed instead.

import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { log } from './log.ts';
import { artifactsDir } from './paths.ts';
import { run } from './processes.ts';

export type SystemRequirementName = 'postgres' | 'redis' | 'haproxy' | 'chromium' | 'dovecot';

export interface SystemRequirement {
	name: SystemRequirementName;
	/** What it is called for people. */
	title: string;
	/** What the project uses it for. */
	purpose: string;
	/** Debian/Ubuntu package. */
	apt: string;
	/** Homebrew formula (or `--cask <name>`). */
	brew: string;
	/** Where it is on this machine (a binary, or for Postgres its bin folder), or undefined. */
	locate: () => string | undefined;
}

/** The folders a Homebrew install puts programs in (Apple silicon, Intel), then `/usr/sbin`. */
const EXTRA_BIN_DIRS = [
	'/opt/homebrew/bin',
	'/opt/homebrew/sbin',
	'/usr/local/bin',
	'/usr/local/sbin',
	'/usr/sbin',
	'/usr/bin',
];

/** Whether `path` is a regular file this user may execute. */
function isExecutableFile(path: string): boolean {
	try {
		if (!statSync(path).isFile()) return false;
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/** The first of `names` found as an executable file on PATH or in `dirs` (then EXTRA_BIN_DIRS). */
export function findExecutable(names: string[], dirs: string[] = []): string | undefined {
	const searched = [
		...dirs,
		...(process.env.PATH ?? '').split(delimiter).filter(Boolean),
		...EXTRA_BIN_DIRS,
	];
	for (const name of names) {
		if (name.startsWith('/')) {
			if (isExecutableFile(name)) return name;
			continue;
		}
		for (const dir of searched) {
			const candidate = join(dir, name);
			if (isExecutableFile(candidate)) return candidate;
		}
	}
	return undefined;
}

/** Folders matching `<root>/<prefix><version><suffix>`, newest version first. */
function versionedDirs(root: string, pattern: RegExp, suffix: string): string[] {
	if (!existsSync(root)) return [];
	return readdirSync(root)
		.map((entry) => ({ entry, version: Number(pattern.exec(entry)?.[1] ?? Number.NaN) }))
		.filter((e) => !Number.isNaN(e.version))
		.sort((a, b) => b.version - a.version)
		.map((e) => join(root, e.entry, suffix));
}

/**
 * The folder holding Postgres's server programs (initdb, postgres, pg_isready, createdb, psql), or
 * undefined: Debian's `/usr/lib/postgresql/<major>/bin`, Homebrew's keg-only
 * `<prefix>/opt/postgresql@<major>/bin`, or the folder of an `initdb` on PATH.
 */
export function postgresBinDir(): string | undefined {
	const candidates = [
		...versionedDirs('/usr/lib/postgresql', /^(\d+)$/, 'bin'),
		...versionedDirs('/opt/homebrew/opt', /^postgresql@(\d+)$/, 'bin'),
		...versionedDirs('/usr/local/opt', /^postgresql@(\d+)$/, 'bin'),
	];
	for (const dir of candidates)
		if (isExecutableFile(join(dir, 'initdb')) && isExecutableFile(join(dir, 'postgres')))
			return dir;
	const initdb = findExecutable(['initdb']);
	if (initdb) {
		const dir = initdb.slice(0, initdb.lastIndexOf('/'));
		if (isExecutableFile(join(dir, 'postgres'))) return dir;
	}
	return undefined;
}

/** Chromium or Chrome for the editor test (Playwright drives either). */
export function chromiumPath(): string | undefined {
	return findExecutable([
		'chromium',
		'chromium-browser',
		'/Applications/Chromium.app/Contents/MacOS/Chromium',
		'/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
		'google-chrome',
	]);
}

/**
 * Dovecot's master program when its IMAP service is there too (Debian installs the two as
 * dovecot-core and dovecot-imapd; Homebrew's formula has both): without `imap` the server starts
 * but refuses every IMAP login.
 */
export function dovecotPath(): string | undefined {
	const dovecot = findExecutable(['dovecot']);
	if (!dovecot) return undefined;
	const imapService = [
		'/usr/lib/dovecot/imap',
		'/opt/homebrew/opt/dovecot/libexec/dovecot/imap',
		'/usr/local/opt/dovecot/libexec/dovecot/imap',
	];
	return imapService.some(isExecutableFile) ? dovecot : undefined;
}

export const SYSTEM_REQUIREMENTS: Record<SystemRequirementName, SystemRequirement> = {
	postgres: {
		name: 'postgres',
		title: 'PostgreSQL',
		purpose: "n8n's database in queue mode",
		apt: 'postgresql',
		brew: 'postgresql@17',
		locate: postgresBinDir,
	},
	redis: {
		name: 'redis',
		title: 'Redis',
		purpose: "n8n's job queue in queue mode",
		apt: 'redis-server',
		brew: 'redis',
		locate: () => findExecutable(['redis-server']),
	},
	haproxy: {
		name: 'haproxy',
		title: 'HAProxy',
		purpose: 'the HTTPS load balancer in front of the webhook processes in queue mode',
		apt: 'haproxy',
		brew: 'haproxy',
		locate: () => findExecutable(['haproxy']),
	},
	chromium: {
		name: 'chromium',
		title: 'Chromium',
		purpose: 'the editor test in a real browser',
		apt: 'chromium',
		brew: '--cask chromium',
		locate: chromiumPath,
	},
	dovecot: {
		name: 'dovecot',
		title: 'Dovecot',
		purpose: "the IMAP server n8n's Email Trigger reads in the email templates' tests",
		// Debian splits Dovecot: dovecot-core has the server, dovecot-imapd its IMAP service.
		apt: 'dovecot-imapd',
		brew: 'dovecot',
		locate: dovecotPath,
	},
};

/** What queue mode needs. */
export const QUEUE_MODE_REQUIREMENTS: SystemRequirementName[] = ['postgres', 'redis', 'haproxy'];

/** The requirements among `names` that this machine lacks. */
export function missingRequirements(names: SystemRequirementName[]): SystemRequirement[] {
	return names.map((name) => SYSTEM_REQUIREMENTS[name]).filter((req) => req.locate() === undefined);
}

/** The commands that install `requirements` on Debian/Ubuntu and on macOS. */
export function installCommands(requirements: SystemRequirement[]): { apt: string; brew: string } {
	const brewFormulas = requirements.filter((r) => !r.brew.startsWith('--cask')).map((r) => r.brew);
	const brewCasks = requirements
		.filter((r) => r.brew.startsWith('--cask'))
		.map((r) => r.brew.replace('--cask ', ''));
	const brew = [
		brewFormulas.length ? `brew install ${brewFormulas.join(' ')}` : '',
		brewCasks.length ? `brew install --cask ${brewCasks.join(' ')}` : '',
	]
		.filter(Boolean)
		.join(' && ');
	return { apt: `sudo apt-get install ${requirements.map((r) => r.apt).join(' ')}`, brew };
}

/** One message: what is missing, what for, and how to install it on Debian/Ubuntu and macOS. */
export function missingMessage(requirements: SystemRequirement[], neededBy: string): string {
	const { apt, brew } = installCommands(requirements);
	return [
		`Not found on this machine: ${requirements.map((r) => `${r.title} (${r.purpose})`).join(', ')}; needed by ${neededBy}.`,
		`  Debian/Ubuntu:     ${apt}`,
		`  macOS (Homebrew):  ${brew}`,
	].join('\n');
}

/** Whether missing packages can be installed here: running as root with apt-get (CI, Debian machines). */
export function canInstallWithApt(): boolean {
	return (
		typeof process.getuid === 'function' &&
		process.getuid() === 0 &&
		findExecutable(['apt-get']) !== undefined
	);
}

/** Installs `requirements` with apt-get (as root). */
export async function installWithApt(requirements: SystemRequirement[]): Promise<void> {
	if (requirements.length === 0) return;
	for (const req of requirements)
		log('setup', `installing Debian package ${req.apt} (${req.purpose}) with apt-get`);
	// apt-get runs as a child process, so the caller can install other things meanwhile.
	const options = {
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		logFile: join(artifactsDir(), 'apt-get.log'),
	};
	await run('apt-get', ['update'], { ...options, name: 'apt-get-update', timeoutMs: 10 * 60_000 });
	await run(
		'apt-get',
		['install', '-y', '--no-install-recommends', ...requirements.map((r) => r.apt)],
		{ ...options, name: 'apt-get-install', timeoutMs: 20 * 60_000 },
	);
	const stillMissing = requirements.filter((req) => req.locate() === undefined);
	if (stillMissing.length)
		throw new Error(
			`apt-get ran, but these are still missing: ${stillMissing.map((r) => r.apt).join(', ')}`,
		);
	log('setup', `installed ${requirements.map((r) => r.apt).join(', ')}`);
}

/**
 * Makes sure `names` are available for `neededBy`: present, or installed with apt-get where that
 * is possible (root + apt-get); otherwise throws the one message that says how to install them.
 */
export async function ensureRequirements(
	names: SystemRequirementName[],
	neededBy: string,
): Promise<void> {
	const missing = missingRequirements(names);
	if (missing.length === 0) return;
	if (canInstallWithApt()) {
		await installWithApt(missing);
		return;
	}
	throw new Error(missingMessage(missing, neededBy));
}

/**
 * Where requirement `name` is (a binary, or Postgres's bin folder); throws the one install message
 * when it is missing.
 */
export function requirementPath(name: SystemRequirementName, neededBy = 'queue mode'): string {
	const found = SYSTEM_REQUIREMENTS[name].locate();
	if (!found) throw new Error(missingMessage([SYSTEM_REQUIREMENTS[name]], neededBy));
	return found;
}
