/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The package as a user gets it: built, packed with `npm pack` exactly as a release is, and
// installed into an n8n user folder the way n8n documents manual installation
// (https://docs.n8n.io/integrations/community-nodes/installation/manual-install/): `npm install`
// of the package into `<N8N_USER_FOLDER>/.n8n/nodes`, then n8n started. At start, n8n's
// community-packages module loads every `n8n-nodes-*` package in `.n8n/nodes/node_modules`
// (CommunityPackagesModule.nodeLoaders → scanDirectoryForPackages); no licence is involved and
// n8n runs unchanged. Nothing is fetched from a registry.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { log, step } from './log.ts';
import { cleanChildEnv } from './npmEnv.ts';
import { REPO_ROOT, artifactsDir, makeTmpDir, timestampForFiles } from './paths.ts';
import { run } from './processes.ts';

export interface PackedPackage {
	name: string;
	version: string;
	tarball: string;
}

function readPackageJson(dir: string): { name: string; version: string } {
	return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
		name: string;
		version: string;
	};
}

/** `npm run build` in `dir` (default: this repository), with Node 24 on PATH. */
export async function buildPackage(dir = REPO_ROOT): Promise<void> {
	await step('package', `npm run build (${dir})`, async () => {
		await run('npm', ['run', 'build'], {
			name: 'npm-build',
			cwd: dir,
			env: cleanChildEnv(),
			logFile: join(artifactsDir(), `npm-build-${timestampForFiles()}.log`),
			timeoutMs: 10 * 60_000,
		});
	});
}

/** `npm pack` of `dir` into a temporary folder; returns the tarball. */
export async function packPackage(dir = REPO_ROOT): Promise<PackedPackage> {
	const { name, version } = readPackageJson(dir);
	const dest = makeTmpDir('pack');
	const { stdout } = await step('package', `npm pack ${name}@${version}`, async () =>
		run('npm', ['pack', '--json', '--pack-destination', dest], {
			name: 'npm-pack',
			cwd: dir,
			env: cleanChildEnv(),
			logFile: join(artifactsDir(), `npm-pack-${timestampForFiles()}.log`),
			timeoutMs: 5 * 60_000,
		}),
	);
	const jsonStart = stdout.search(/^\[/m);
	if (jsonStart < 0) throw new Error(`npm pack printed no JSON:\n${stdout.slice(-2000)}`);
	const info = JSON.parse(stdout.slice(jsonStart)) as Array<{
		filename: string;
		files: Array<{ path: string }>;
	}>;
	const tarball = join(dest, info[0].filename.replace(/^@/, '').replace('/', '-'));
	if (!existsSync(tarball)) throw new Error(`npm pack did not produce ${tarball}`);
	log('package', `packed ${info[0].files.length} files into ${tarball}`);
	return { name, version, tarball };
}

/**
 * Where a whole test run keeps the package it built and packed once (test/e2e/support/packOnce.ts,
 * vitest's global setup of the e2e project): the tarball's path. Unset, every stack packs its own.
 */
export const PACKED_ONCE_VARIABLE = 'E2E_PACKED_TARBALL';

/** This repository's package as packed once for the run, if the run did (PACKED_ONCE_VARIABLE). */
export function packedOnce(): PackedPackage | undefined {
	const tarball = process.env[PACKED_ONCE_VARIABLE];
	if (!tarball || !existsSync(tarball)) return undefined;
	const { name, version } = readPackageJson(REPO_ROOT);
	return { name, version, tarball };
}

/** n8n's folder for community packages in a user folder: `<N8N_USER_FOLDER>/.n8n/nodes`. */
export function n8nNodesDir(userFolder: string): string {
	return join(userFolder, '.n8n', 'nodes');
}

/** The version of `name` installed in the user folder's nodes directory, if any. */
export function installedPackageVersion(userFolder: string, name: string): string | undefined {
	try {
		return (
			JSON.parse(
				readFileSync(join(n8nNodesDir(userFolder), 'node_modules', name, 'package.json'), 'utf8'),
			) as { version: string }
		).version;
	} catch {
		return undefined;
	}
}

/**
 * n8n's manual installation: `npm install <tarball>` in `<userFolder>/.n8n/nodes` (a newer tarball
 * replaces an installed version). Peer dependencies are left out (`--legacy-peer-deps`), as n8n's
 * own installer drops them: `n8n-workflow` must be the running n8n's own copy, which n8n puts on
 * the module path of the packages it loads. Install scripts are not run. n8n loads the package
 * when it starts next.
 */
export async function installIntoUserFolder(
	userFolder: string,
	packed: PackedPackage,
): Promise<void> {
	const nodesDir = n8nNodesDir(userFolder);
	mkdirSync(nodesDir, { recursive: true });
	if (!existsSync(join(nodesDir, 'package.json')))
		writeFileSync(
			join(nodesDir, 'package.json'),
			'{\n  "name": "installed-nodes",\n  "private": true\n}\n',
		);
	await step(
		'package',
		`npm install ${packed.name}@${packed.version} into ${nodesDir}`,
		async () => {
			await run(
				'npm',
				[
					'install',
					packed.tarball,
					'--legacy-peer-deps',
					'--ignore-scripts',
					'--no-audit',
					'--no-fund',
					'--no-update-notifier',
				],
				{
					name: 'npm-install-package',
					cwd: nodesDir,
					env: cleanChildEnv({ npm_config_cache: join(userFolder, 'npm-cache') }),
					logFile: join(artifactsDir(), `npm-install-package-${timestampForFiles()}.log`),
					timeoutMs: 5 * 60_000,
				},
			);
		},
	);
	const installed = installedPackageVersion(userFolder, packed.name);
	if (installed !== packed.version)
		throw new Error(
			`npm install left ${packed.name}@${installed ?? 'nothing'} in ${nodesDir}, not ${packed.version}`,
		);
}

/**
 * Writes a community-node package in plain JavaScript to a new temporary folder named after
 * `folder`: its package.json (n8n's manifest lists each `.node.js` file as a node and each
 * `.credentials.js` file as a credential), an empty dist/index.js and `files`, paths below dist/ →
 * source. Returns the folder.
 */
export function writePlainPackage(
	folder: string,
	manifest: { name: string; version: string; description: string },
	files: Record<string, string>,
): string {
	const dir = makeTmpDir(folder);
	const paths = Object.keys(files).map((path) => `dist/${path}`);
	const packageJson = {
		...manifest,
		license: 'MIT',
		keywords: ['n8n-community-node-package'],
		main: 'dist/index.js',
		files: ['dist'],
		n8n: {
			n8nNodesApiVersion: 1,
			credentials: paths.filter((path) => path.endsWith('.credentials.js')),
			nodes: paths.filter((path) => path.endsWith('.node.js')),
		},
		peerDependencies: { 'n8n-workflow': '*' },
	};
	writeFileSync(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
	mkdirSync(join(dir, 'dist'));
	writeFileSync(join(dir, 'dist', 'index.js'), 'module.exports = {};\n');
	for (const [path, source] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, 'dist', path)), { recursive: true });
		writeFileSync(join(dir, 'dist', path), source);
	}
	return dir;
}

/**
 * Writes a minimal community-node package (one node, one credential, plain JavaScript) to a
 * temporary folder. Proves the pack → install → load-in-n8n path without this repository's own build.
 */
export function makeProbePackage(name = 'n8n-nodes-harness-probe', version = '0.0.1'): string {
	return writePlainPackage(
		'probe-package',
		{ name, version, description: 'Throwaway community package made by the e2e harness' },
		{
			'credentials/ProbeApi.credentials.js': `class ProbeApi {
	constructor() {
		this.name = 'probeApi';
		this.displayName = 'Probe API';
		this.properties = [{ displayName: 'Token', name: 'token', type: 'string', typeOptions: { password: true }, default: '' }];
	}
}
module.exports = { ProbeApi };
`,
			'nodes/Probe/Probe.node.js': `class Probe {
	constructor() {
		this.description = {
			displayName: 'Probe',
			name: 'probe',
			group: ['transform'],
			version: 1,
			description: 'Adds a greeting to every item',
			defaults: { name: 'Probe' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'probeApi', required: false }],
			properties: [{ displayName: 'Greeting', name: 'greeting', type: 'string', default: 'hello' }],
		};
	}
	async execute() {
		const items = this.getInputData();
		return [items.map((item, i) => ({ json: { ...item.json, greeting: this.getNodeParameter('greeting', i) } }))];
	}
}
module.exports = { Probe };
`,
		},
	);
}
