/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// Part of `npm test`: fails when package-lock.json no longer matches package.json (so `npm ci`, which
// CI and the publish workflow use, would refuse it). Offline and instant. Fix with the command below.

import { fileURLToPath } from 'node:url';
import { lockfileDriftIn } from './lockfileDrift.ts';

const REGENERATE =
	'rm -rf node_modules package-lock.json && npm install --package-lock-only --ignore-scripts && npm ci';

const problems = lockfileDriftIn(fileURLToPath(new URL('..', import.meta.url)));
if (problems.length > 0) {
	process.stderr.write(
		`package-lock.json is out of sync with package.json (npm ci would refuse it):\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
			`Regenerate it with: ${REGENERATE}\n` +
			'(a package whose platform packages the registry lacks for its newest version: pin a complete version as an exact devDependency; see docs/development.md)\n',
	);
	process.exit(1);
}
process.stdout.write('package-lock.json is in sync with package.json\n');
