/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/** The repository's Markdown documents the repository tests read, relative to its root. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

export const DOCUMENTS = [
	'README.md',
	'CHANGELOG.md',
	...readdirSync(join(ROOT, 'docs'))
		.filter((f) => f.endsWith('.md'))
		.map((f) => `docs/${f}`),
	'examples/README.md',
	'sandbox/README.md',
	'local-n8n/README.md',
	'bench/README.md',
].filter((f) => existsSync(join(ROOT, f)));
