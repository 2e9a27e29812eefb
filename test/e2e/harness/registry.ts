/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// A private npm registry (verdaccio, a devDependency) on loopback that stands in for the public
// npm registry: the package is built, packed with `npm pack` and published with `npm publish`
// exactly as a release would be, and n8n installs it from there. Storage is a fresh temporary
// folder; there are no uplinks, so nothing is ever fetched from or sent to the internet.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { log, step } from './log.ts';
import { cleanChildEnv } from './npmEnv.ts';
import { REPO_ROOT, artifactsDir, makeTmpDir, node24, timestampForFiles } from './paths.ts';
import { freePort, run, spawnTracked, stopProcess, tailFile, type Tracked } from './processes.ts';

export interface Registry {
	url: string;
	port: number;
	dir: string;
	logFile: string;
	/** An npm user config that points at this registry (with a placeholder token for publishing). */
	npmrc: string;
	stop(): Promise<void>;
}

export interface StartRegistryOptions {
	port?: number;
	dir?: string;
	timeoutMs?: number;
}

/** Starts verdaccio on 127.0.0.1 (own process group, tracked) and waits until it answers. */
export async function startRegistry(options: StartRegistryOptions = {}): Promise<Registry> {
	const dir = options.dir ?? makeTmpDir('verdaccio');
	const port = options.port ?? (await freePort());
	const url = `http://127.0.0.1:${port}`;
	const storage = join(dir, 'storage');
	mkdirSync(storage, { recursive: true });
	const config = join(dir, 'config.yaml');
	writeFileSync(
		config,
		[
			`storage: ${JSON.stringify(storage)}`,
			'auth:',
			'  htpasswd:',
			`    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
			'    max_users: -1',
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $anonymous',
			'    unpublish: $anonymous',
			'server:',
			'  keepAliveTimeout: 60',
			'web:',
			'  enable: false',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	// npm refuses to publish without some credential for the registry; verdaccio accepts any.
	const npmrc = join(dir, 'npmrc');
	writeFileSync(
		npmrc,
		[`registry=${url}/`, `//127.0.0.1:${port}/:_authToken=local-anonymous`, 'audit=false', 'fund=false', 'update-notifier=false', ''].join('\n'),
	);
	const verdaccioBin = join(REPO_ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	if (!existsSync(verdaccioBin)) throw new Error(`verdaccio not found at ${verdaccioBin}; run "npm ci"`);
	const logFile = join(artifactsDir(), `verdaccio-${timestampForFiles()}-${port}.log`);
	const proc: Tracked = spawnTracked({
		name: 'verdaccio',
		command: node24(),
		args: [verdaccioBin, '--config', config, '--listen', `127.0.0.1:${port}`],
		cwd: dir,
		env: cleanChildEnv(),
		logFile,
	});
	const deadline = Date.now() + (options.timeoutMs ?? 30_000);
	for (;;) {
		if (proc.hasExited()) throw new Error(`verdaccio exited before it was ready:\n${tailFile(logFile)}`);
		try {
			const res = await request(`${url}/-/ping`);
			await res.body.text();
			if (res.statusCode === 200) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			await stopProcess(proc, 2_000);
			throw new Error(`verdaccio did not answer on ${url} in time:\n${tailFile(logFile)}`);
		}
		await new Promise((r) => setTimeout(r, 300));
	}
	log('verdaccio', `ready on ${url} (storage ${storage})`);
	return { url, port, dir, logFile, npmrc, stop: () => stopProcess(proc, 5_000) };
}

export interface PackedPackage {
	name: string;
	version: string;
	tarball: string;
}

function readPackageJson(dir: string): { name: string; version: string } {
	return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
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
	const info = JSON.parse(stdout.slice(jsonStart)) as Array<{ filename: string; files: Array<{ path: string }> }>;
	const tarball = join(dest, info[0].filename.replace(/^@/, '').replace('/', '-'));
	if (!existsSync(tarball)) throw new Error(`npm pack did not produce ${tarball}`);
	log('package', `packed ${info[0].files.length} files into ${tarball}`);
	return { name, version, tarball };
}

/** `npm publish <tarball>` to the local registry. */
export async function publishPackage(registry: Registry, packed: PackedPackage): Promise<void> {
	await step('package', `npm publish ${packed.name}@${packed.version} to ${registry.url}`, async () => {
		await run('npm', ['publish', packed.tarball, '--registry', `${registry.url}/`, '--userconfig', registry.npmrc, '--tag', 'latest', '--access', 'public'], {
			name: 'npm-publish',
			cwd: registry.dir,
			env: cleanChildEnv(),
			logFile: join(artifactsDir(), `npm-publish-${timestampForFiles()}.log`),
			timeoutMs: 2 * 60_000,
		});
	});
	const res = await request(`${registry.url}/${encodeURIComponent(packed.name)}`);
	const body = (await res.body.json()) as { versions?: Record<string, unknown> };
	if (res.statusCode !== 200 || !body.versions?.[packed.version]) {
		throw new Error(`the registry does not list ${packed.name}@${packed.version} after publishing`);
	}
}

/**
 * Writes a minimal community-node package (one node, one credential, plain JavaScript) to a
 * temporary folder. Proves the build → pack → publish → install-through-n8n path without this
 * repository's own build.
 */
export function makeProbePackage(name = 'n8n-nodes-harness-probe', version = '0.0.1'): string {
	const dir = makeTmpDir('probe-package');
	mkdirSync(join(dir, 'dist', 'nodes', 'Probe'), { recursive: true });
	mkdirSync(join(dir, 'dist', 'credentials'), { recursive: true });
	writeFileSync(
		join(dir, 'package.json'),
		`${JSON.stringify(
			{
				name,
				version,
				description: 'Throwaway community package made by the e2e harness',
				license: 'MIT',
				keywords: ['n8n-community-node-package'],
				main: 'dist/index.js',
				files: ['dist'],
				n8n: {
					n8nNodesApiVersion: 1,
					credentials: ['dist/credentials/ProbeApi.credentials.js'],
					nodes: ['dist/nodes/Probe/Probe.node.js'],
				},
				peerDependencies: { 'n8n-workflow': '*' },
			},
			null,
			2,
		)}\n`,
	);
	writeFileSync(join(dir, 'dist', 'index.js'), 'module.exports = {};\n');
	writeFileSync(
		join(dir, 'dist', 'credentials', 'ProbeApi.credentials.js'),
		`class ProbeApi {
	constructor() {
		this.name = 'probeApi';
		this.displayName = 'Probe API';
		this.properties = [{ displayName: 'Token', name: 'token', type: 'string', typeOptions: { password: true }, default: '' }];
	}
}
module.exports = { ProbeApi };
`,
	);
	writeFileSync(
		join(dir, 'dist', 'nodes', 'Probe', 'Probe.node.js'),
		`class Probe {
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
	);
	return dir;
}
