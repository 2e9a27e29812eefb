/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// The setup step: what the local runtime needs outside node_modules, installed once into
// ~/.cache/n8n-nodes-document-extraction and reused. Safe to run any time.
//
//   `npm run setup` (run first by `npm start`): the n8n version that runs (N8N_VERSION, or the
//   environment's N8N_VERSION) and the local TLS material. Nothing else: no root, no system packages.
//   `npm run setup -- --tests` (run first by `npm test`): also the oldest supported n8n (the
//   compatibility test runs on it) and the system programs some suites use (Postgres, Redis,
//   HAProxy, Chromium, Dovecot): installed with apt-get where that works (root + apt-get: CI, Debian
//   machines); elsewhere the suites that need a missing one are not run, and `npm test` says so at
//   the end, with the command that installs it. With CI=true a missing one fails the run.
// npm scripts put the project's Node 24 first on PATH.

import { parseArgs } from 'node:util';
import {
	N8N_OLDEST_VERSION,
	SYSTEM_REQUIREMENTS,
	canInstallWithApt,
	ensureCerts,
	ensureN8n,
	installWithApt,
	missingMessage,
	missingRequirements,
	reapStaleProcesses,
	say,
	selectedN8nVersion,
	type SystemRequirementName,
} from '../local-n8n/index.ts';

const { values: args } = parseArgs({ options: { tests: { type: 'boolean', default: false } } });

reapStaleProcesses();
const t0 = Date.now();
const install = await ensureN8n(selectedN8nVersion());
say(`n8n ${install.version}: ${install.dir} (Node: ${install.node})`);
if (args.tests) {
	const oldest = await ensureN8n(N8N_OLDEST_VERSION);
	say(`n8n ${oldest.version} (oldest supported, for the compatibility test): ${oldest.dir}`);
	const missing = missingRequirements(Object.keys(SYSTEM_REQUIREMENTS) as SystemRequirementName[]);
	if (missing.length > 0 && canInstallWithApt()) {
		installWithApt(missing);
	} else if (missing.length > 0) {
		say(missingMessage(missing, 'some test suites'));
		if (process.env.CI === 'true') {
			process.stderr.write(
				'CI=true: every suite must run, so a missing system program fails the run.\n',
			);
			process.exit(1);
		}
		say('Those suites are not run; the summary at the end of `npm test` names them.');
	}
}
const tls = ensureCerts();
say(`local CA: ${tls.caCertFile}`);
say(`setup ready in ${Math.round((Date.now() - t0) / 1000)} s`);
