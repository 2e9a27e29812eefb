/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs `npm pack` to see what would be published */
/**
 * What `npm pack` (and so `npm publish`) puts in the tarball, once `npm run build` has run: exactly the
 * compiled nodes and credentials n8n loads (every .ts under the folders package.json's `n8n` section
 * points at, as .js), their codex files and icons, the package's entry point, and package.json, README,
 * LICENSE and CHANGELOG. No source maps, declarations, build info or leftovers of an earlier build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');

interface Manifest {
	main: string;
	n8n: { nodes: string[]; credentials: string[] };
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

function filesUnder(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile())
		.map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'));
}

/** `dist/nodes/X/X.node.js` → `nodes`: the source folders n8n's entries are compiled from. */
const sourceRoots = [
	...new Set([...manifest.n8n.nodes, ...manifest.n8n.credentials].map((p) => p.split('/')[1])),
];

function expectedFiles(): string[] {
	const compiled = sourceRoots.flatMap((root) =>
		filesUnder(root).flatMap((file) => {
			if (file.endsWith('.d.ts')) return [];
			if (file.endsWith('.ts')) return [`dist/${file.replace(/\.ts$/, '.js')}`];
			if (/\.(svg|png)$/.test(file) || file.endsWith('.node.json')) return [`dist/${file}`];
			return [];
		}),
	);
	return [
		...compiled,
		manifest.main,
		'package.json',
		'README.md',
		'LICENSE',
		'CHANGELOG.md',
	].sort();
}

function packedFiles(): string[] {
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
	return pack.files.map((f) => f.path).sort();
}

describe('the packed package', () => {
	it('is built (npm run build ran first)', () => {
		expect(existsSync(join(ROOT, manifest.main)), 'run `npm run build` before this test').toBe(
			true,
		);
	});

	const packed = packedFiles();

	it('holds exactly the compiled nodes and credentials, their codex files and icons, and the package documents', () => {
		expect(packed).toEqual(expectedFiles());
	});

	it("holds every node and credential package.json's n8n section names", () => {
		for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
			expect(packed).toContain(entry);
	});

	it('holds no source maps, declarations, TypeScript sources or build info', () => {
		expect(packed.filter((f) => /\.(map|d\.ts|ts|tsbuildinfo)$/.test(f))).toEqual([]);
	});

	it('every node has its codex file and an icon next to it', () => {
		for (const node of manifest.n8n.nodes) {
			const dir = node.slice(0, node.lastIndexOf('/'));
			expect(packed).toContain(node.replace(/\.js$/, '.json'));
			expect(packed.some((f) => f.startsWith(`${dir}/`) && /\.(svg|png)$/.test(f))).toBe(true);
		}
	});
});
