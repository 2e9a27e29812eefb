/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * The Docs links the editor shows land where they say: every URL of this repository in the nodes'
 * codex files, the credential's documentationUrl and the links of hints and notices in the node
 * descriptions names a file that exists and, with an anchor, a
 * heading or `<a id>` of that file (GitHub's anchors: the heading lower-cased, spaces as hyphens,
 * punctuation dropped).
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');
const REPOSITORY = 'https://github.com/document-extraction/n8n-nodes-document-extraction';

function githubAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	for (const line of markdown.split('\n')) {
		const heading = /^#{1,6}\s+(.*)$/.exec(line);
		if (heading)
			anchors.add(
				heading[1]
					.trim()
					.toLowerCase()
					.replace(/[^\p{L}\p{N}\s-]/gu, '')
					.replace(/\s/g, '-'),
			);
		for (const id of line.matchAll(/<a id="([^"]+)">/g)) anchors.add(id[1]);
	}
	return anchors;
}

/** What a URL of this repository points at: the file (README.md for the repository page) and the anchor. */
function target(url: string): { file: string; anchor?: string } {
	const [path, anchor] = url.slice(REPOSITORY.length).split('#');
	const file = path.replace(/^\/blob\/main\//, '') || 'README.md';
	return { file, anchor };
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? sourceFiles(join(folder, entry.name))
			: entry.name.endsWith('.ts')
				? [join(folder, entry.name)]
				: [],
	);
}

const codexFiles = readdirSync(join(ROOT, 'nodes', 'DocumentExtraction')).filter((file) =>
	file.endsWith('.node.json'),
);
const urls = [
	...codexFiles.flatMap((file) =>
		[
			...readFileSync(join(ROOT, 'nodes', 'DocumentExtraction', file), 'utf8').matchAll(
				/"url": "([^"]+)"/g,
			),
		].map((match) => match[1]),
	),
	...[
		...readFileSync(
			join(ROOT, 'credentials', 'DocumentExtractionApi.credentials.ts'),
			'utf8',
		).matchAll(/documentationUrl\s*=\s*'([^']+)'/g),
	].map((match) => match[1]),
	...sourceFiles(join(ROOT, 'nodes')).flatMap((file) =>
		[
			...readFileSync(file, 'utf8').matchAll(
				/https:\/\/github\.com\/document-extraction\/n8n-nodes-document-extraction[^"'\s)<>]*/g,
			),
		].map((match) => match[0]),
	),
].filter((url, index, all) => url.startsWith(REPOSITORY) && all.indexOf(url) === index);

describe('Docs links in the editor', () => {
	it('the check knows a missing anchor', () => {
		expect(githubAnchors('## Credentials\n<a id="n40"></a>').has('document-extraction-node')).toBe(
			false,
		);
		expect([...githubAnchors('## What "ready to post" means\n')]).toEqual([
			'what-ready-to-post-means',
		]);
	});

	it.each(urls)('%s lands on its file and section', (url) => {
		const { file, anchor } = target(url);
		expect(existsSync(join(ROOT, file)), file).toBe(true);
		if (anchor)
			expect([...githubAnchors(readFileSync(join(ROOT, file), 'utf8'))]).toContain(anchor);
	});

	it('every node and the credential has one', () => {
		expect(urls.length).toBeGreaterThanOrEqual(4);
	});
});
