/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/require-node-api-error -- test tooling: plain errors outside any node */
// The whole local runtime in one call, shared by the e2e tests and `npm start`:
// n8n installed in the cache → TLS material → the package built and packed (`npm pack`) → the
// tarball installed into n8n's user folder (`.n8n/nodes`, n8n's manual installation) → n8n started
// over HTTPS, loading it → owner set up and logged in → the package's node types read back from
// n8n. `stop()` ends every process it started.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureN8n, type N8nInstall } from './installN8n.ts';
import { log, step } from './log.ts';
import { DEFAULT_OWNER, N8nClient, type OwnerAccount } from './n8nApi.ts';
import { startN8n, type N8nInstance } from './n8nProcess.ts';
import { REPO_ROOT, removeTmpDirs, selectedN8nVersion } from './paths.ts';
import { reapStaleProcesses, stopAll } from './processes.ts';
import {
	buildPackage,
	makeProbePackage,
	packedOnce,
	packPackage,
	type PackedPackage,
} from './communityPackage.ts';
import { ensureCerts, type TlsMaterial } from './tls.ts';

export interface StackOptions {
	/**
	 * Which package to pack and install: 'repo' (this repository, built first, or the tarball the
	 * test run packed once: `packedOnce()`), 'probe' (a
	 * throwaway package made by the harness), { dir } (any package folder, already built), or
	 * 'none' (start n8n without installing a package).
	 */
	package?: 'repo' | 'probe' | 'none' | { dir: string };
	/** Further packed packages installed next to it (e.g. a benchmark's reference node). */
	extraPackages?: PackedPackage[];
	/** Run `npm run build` before packing the repository (default true). */
	build?: boolean;
	/** HTTPS port for n8n (default: a free port). */
	n8nPort?: number;
	/** n8n user folder to use (default: a new tmp dir). Reuse one to keep data across runs. */
	userFolder?: string;
	/** Folders the Read/Write Files from Disk node may use. */
	fileAccessDirs?: string[];
	owner?: OwnerAccount;
	/** Extra environment for n8n. */
	n8nEnv?: Record<string, string | undefined>;
	/** Name used for the n8n log file. */
	n8nName?: string;
	/** n8n version to install and run (default: selectedN8nVersion(), i.e. env N8N_VERSION or the newest tested). */
	n8nVersion?: string;
}

export interface Stack {
	install: N8nInstall;
	tls: TlsMaterial;
	/** The tarball installed into n8n's user folder (also what queue-mode processes install). */
	packed?: PackedPackage;
	/** Every tarball installed into n8n's user folder: `packed` and the extra packages. */
	packages: PackedPackage[];
	n8n: N8nInstance;
	/** Logged in as the owner. */
	client: N8nClient;
	owner: OwnerAccount;
	/** Node types of the installed package as the running n8n reports them (no generated tool variants), e.g. `n8n-nodes-document-extraction.documentExtraction`. */
	installedNodeTypes: string[];
	/** Restarts n8n with the same data, then logs in again. */
	restartN8n(): Promise<void>;
	/** Stops n8n (and anything else the harness started), and removes the tmp folders it made. */
	stop(): Promise<void>;
}

function packageDir(option: StackOptions['package']): string | undefined {
	if (option === 'none') return undefined;
	if (option === 'probe') return makeProbePackage();
	if (option && typeof option === 'object') return option.dir;
	return REPO_ROOT;
}

/**
 * The node types of `packageName` that n8n has loaded, without the `…Tool` variants n8n generates
 * for nodes usable as AI tools.
 */
export async function loadedNodeTypes(client: N8nClient, packageName: string): Promise<string[]> {
	const names = (await client.nodeTypes())
		.map((t) => t.name)
		.filter((name) => name.startsWith(`${packageName}.`));
	return [
		...new Set(
			names.filter(
				(name) => !(name.endsWith('Tool') && names.includes(name.slice(0, -'Tool'.length))),
			),
		),
	].sort();
}

/** What every n8n of a stack runs with: the n8n install, the TLS material and the packages to install. */
export interface PreparedStack {
	install: N8nInstall;
	tls: TlsMaterial;
	packed?: PackedPackage;
	packages: PackedPackage[];
}

/** Installs n8n if needed, makes the certificates and packs the package (built first unless told). */
export async function prepareStack(
	options: Pick<StackOptions, 'package' | 'extraPackages' | 'build' | 'n8nVersion'> = {},
): Promise<PreparedStack> {
	const version = options.n8nVersion ?? selectedN8nVersion();
	const install = await step('stack', `ensure n8n ${version}`, () => ensureN8n(version));
	const tls = ensureCerts();
	const dir = packageDir(options.package ?? 'repo');
	let packed: PackedPackage | undefined;
	if (dir === REPO_ROOT) packed = packedOnce();
	if (dir && !packed) {
		if (dir === REPO_ROOT && options.build !== false) await buildPackage(dir);
		if (!existsSync(join(dir, 'package.json'))) throw new Error(`no package.json in ${dir}`);
		packed = await packPackage(dir);
	}
	return {
		install,
		tls,
		packed,
		packages: [...(packed ? [packed] : []), ...(options.extraPackages ?? [])],
	};
}

/** Starts everything (see the file comment). On failure, stops what it started and rethrows. */
export async function startStack(
	options: StackOptions & { prepared?: PreparedStack } = {},
): Promise<Stack> {
	reapStaleProcesses();
	const owner = options.owner ?? DEFAULT_OWNER;
	let n8n: N8nInstance | undefined;
	try {
		const { install, tls, packed, packages } = options.prepared ?? (await prepareStack(options));
		n8n = await step('stack', 'start n8n over HTTPS', () =>
			startN8n({
				install,
				tls,
				packages,
				port: options.n8nPort,
				userFolder: options.userFolder,
				fileAccessDirs: options.fileAccessDirs,
				env: options.n8nEnv,
				name: options.n8nName,
			}),
		);
		const client = new N8nClient(n8n.baseUrl, tls.caPem);
		await client.setupOwnerAndLogin(owner);
		let installedNodeTypes: string[] = [];
		if (packed) {
			installedNodeTypes = await loadedNodeTypes(client, packed.name);
			if (installedNodeTypes.length === 0)
				throw new Error(
					`n8n started but did not load ${packed.name} from ${n8n.userFolder}/.n8n/nodes (see ${n8n.logFile})`,
				);
			log('stack', `n8n loaded ${packed.name}@${packed.version}: ${installedNodeTypes.join(', ')}`);
		}
		const started: Stack = {
			install,
			tls,
			packed,
			packages,
			n8n,
			client,
			owner,
			installedNodeTypes,
			restartN8n: async () => {
				await n8n!.restart();
				await client.login(owner.email, owner.password);
			},
			stop: async () => {
				await n8n?.stop();
				await stopAll();
				removeTmpDirs();
			},
		};
		return started;
	} catch (error) {
		await n8n?.stop().catch(() => undefined);
		await stopAll();
		removeTmpDirs();
		throw error;
	}
}
