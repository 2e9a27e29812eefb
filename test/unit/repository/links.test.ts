/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs `npm pack` to see what would be published */
/**
 * The repository's documents stand on their own: every relative markdown link resolves to a file in the
 * repository, links to this repository on GitHub name files that exist, and README.md (also shown on
 * npmjs.com, where only the packed files exist) links relatively only to files the tarball holds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

import { DOCUMENTS, ROOT } from './documents.ts';

/** https://github.com/<owner>/<repo>/blob/main/, from package.json's repository. */
const GITHUB_BLOB = (() => {
	const { repository } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		repository: { url: string };
	};
	const slug = repository.url.match(/github\.com\/([^/]+\/[^/.]+)/)?.[1];
	return `https://github.com/${slug}/blob/main/`;
})();

/** Link targets of a markdown text: `[text](target)`, `[label]: target` and `<a href="target">`, outside code. */
function linkTargets(markdown: string): string[] {
	const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
	const targets = [
		...[...prose.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)].map(
			(m) => m[1] ?? m[2],
		),
		...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]),
		...[...prose.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((m) => m[1]),
	];
	return targets;
}

const isExternal = (target: string) =>
	/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

function relativeLinks(file: string): string[] {
	return linkTargets(readFileSync(join(ROOT, file), 'utf8'))
		.filter((t) => !isExternal(t) && !t.startsWith('#'))
		.map((t) => decodeURI(t.split('#')[0]));
}

describe('markdown links', () => {
	it('the link reader finds inline, reference and HTML links, but not code', () => {
		const md =
			'See [a](docs/a.md#x), [b](<b c.md>) and <a href="d.md">d</a>.\n[e]: e.md\n`[f](f.md)`\n```\n[g](g.md)\n```\n';
		expect(linkTargets(md)).toEqual(['docs/a.md#x', 'b c.md', 'e.md', 'd.md']);
	});

	it.each(DOCUMENTS)('every relative link in %s resolves to a file in the repository', (file) => {
		const broken = relativeLinks(file).filter((target) => {
			const path = normalize(join(dirname(join(ROOT, file)), target));
			return relative(ROOT, path).startsWith('..') || !existsSync(path);
		});
		expect(broken).toEqual([]);
	});

	it.each(DOCUMENTS)(
		"every link in %s to this repository's files on GitHub names a file that exists",
		(file) => {
			const missing = linkTargets(readFileSync(join(ROOT, file), 'utf8'))
				.filter((t) => t.startsWith(GITHUB_BLOB))
				.map((t) => decodeURI(t.slice(GITHUB_BLOB.length).split('#')[0]))
				.filter((path) => !existsSync(join(ROOT, path)));
			expect(missing).toEqual([]);
		},
	);

	it('README.md links relatively only to files the published package holds (npmjs.com shows it without the repository)', () => {
		const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		const packed = new Set(
			(JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path),
		);
		expect(relativeLinks('README.md').filter((t) => !packed.has(normalize(t)))).toEqual([]);
		// npm pack takes seconds alone and more beside the e2e suite's n8n.
	}, 60_000);
});
