/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// A private npm registry on loopback that stands in for the public npm registry: the package is
// built, packed with `npm pack` and published with `npm publish` exactly as a release would be, and
// n8n installs it from there. It is a small in-process server (publish, packument, tarball) rather
// than verdaccio, whose dependency tree names a node-fetch dist-tag the registry here does not serve
// (so `npm ci` could not install it). Nothing is ever fetched from or sent to the internet.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { log, step } from './log.ts';
import { cleanChildEnv } from './npmEnv.ts';
import { REPO_ROOT, artifactsDir, makeTmpDir, timestampForFiles } from './paths.ts';
import { run } from './processes.ts';

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

interface Packument {
	_id: string;
	name: string;
	'dist-tags': Record<string, string>;
	versions: Record<string, Record<string, unknown> & { dist?: { tarball?: string } }>;
	time: Record<string, string>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

/** Starts the registry on 127.0.0.1 (in this process). */
export async function startRegistry(options: StartRegistryOptions = {}): Promise<Registry> {
	const dir = options.dir ?? makeTmpDir('registry');
	const storage = join(dir, 'storage');
	mkdirSync(storage, { recursive: true });
	const logFile = join(artifactsDir(), `registry-${timestampForFiles()}.log`);
	const packuments = new Map<string, Packument>();
	const note = (line: string) => writeFileSync(logFile, `${new Date().toISOString()} ${line}\n`, { flag: 'a' });
	let url = '';

	const server = createServer((req, res) => {
		void (async () => {
			const path = decodeURIComponent(new URL(req.url ?? '/', 'http://registry').pathname).replace(/^\/+/, '');
			note(`${req.method} /${path}`);
			if (path === '-/ping') return sendJson(res, 200, {});
			const tarball = /^(.+)\/-\/([^/]+\.tgz)$/.exec(path);
			if (req.method === 'GET' && tarball) {
				const file = join(storage, tarball[2]);
				if (!existsSync(file)) return sendJson(res, 404, { error: 'not found' });
				const data = readFileSync(file);
				res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length });
				return res.end(data);
			}
			if (req.method === 'GET') {
				const packument = packuments.get(path);
				return packument ? sendJson(res, 200, packument) : sendJson(res, 404, { error: 'not found' });
			}
			if (req.method === 'PUT' && !path.startsWith('-/')) {
				// npm publish: the manifest of the new version plus the tarball, base64, in _attachments.
				const body = JSON.parse((await readBody(req)).toString('utf8')) as {
					name: string;
					versions: Packument['versions'];
					'dist-tags'?: Record<string, string>;
					_attachments: Record<string, { data: string }>;
				};
				const packument = packuments.get(body.name) ?? { _id: body.name, name: body.name, 'dist-tags': {}, versions: {}, time: {} };
				for (const [fileName, attachment] of Object.entries(body._attachments ?? {})) {
					const baseName = fileName.split('/').pop() as string;
					writeFileSync(join(storage, baseName), Buffer.from(attachment.data, 'base64'));
				}
				for (const [version, manifest] of Object.entries(body.versions ?? {})) {
					const baseName = (manifest.dist?.tarball ?? '').split('/').pop() as string;
					manifest.dist = { ...(manifest.dist ?? {}), tarball: `${url}/${body.name}/-/${baseName}` };
					packument.versions[version] = manifest;
					packument.time[version] = new Date().toISOString();
				}
				Object.assign(packument['dist-tags'], body['dist-tags'] ?? {});
				packuments.set(body.name, packument);
				return sendJson(res, 201, { ok: true });
			}
			return sendJson(res, 404, { error: 'not supported by the local registry' });
		})().catch((error: Error) => {
			note(`error ${error.message}`);
			if (!res.headersSent) sendJson(res, 500, { error: error.message });
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	url = `http://127.0.0.1:${port}`;
	// npm refuses to publish without some credential for the registry; this one accepts any.
	const npmrc = join(dir, 'npmrc');
	writeFileSync(
		npmrc,
		[`registry=${url}/`, `//127.0.0.1:${port}/:_authToken=local-anonymous`, 'audit=false', 'fund=false', 'update-notifier=false', ''].join('\n'),
	);
	log('registry', `ready on ${url} (storage ${storage})`);
	return {
		url,
		port,
		dir,
		logFile,
		npmrc,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
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
