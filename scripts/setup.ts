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

/**
 * With --tests, the system programs some suites use: apt-get installs the missing ones while n8n
 * installs (both mostly wait on downloads); elsewhere the suites that need them are named.
 */
function systemPrograms(): Promise<void> {
	const missing = missingRequirements(Object.keys(SYSTEM_REQUIREMENTS) as SystemRequirementName[]);
	if (missing.length === 0) return Promise.resolve();
	if (canInstallWithApt()) return installWithApt(missing);
	say(missingMessage(missing, 'some test suites'));
	if (process.env.CI === 'true') {
		process.stderr.write(
			'CI=true: every suite must run, so a missing system program fails the run.\n',
		);
		process.exit(1);
	}
	say('Those suites are not run; the summary at the end of `npm test` names them.');
	return Promise.resolve();
}

reapStaleProcesses();
const t0 = Date.now();
const installingSystemPrograms = args.tests ? systemPrograms() : Promise.resolve();
const install = await ensureN8n(selectedN8nVersion());
say(`n8n ${install.version}: ${install.dir} (Node: ${install.node})`);
if (args.tests) {
	// After the newest: the oldest reuses its compiled sqlite3 binding where the versions match.
	const oldest = await ensureN8n(N8N_OLDEST_VERSION);
	say(`n8n ${oldest.version} (oldest supported, for the compatibility test): ${oldest.dir}`);
}
await installingSystemPrograms;
const tls = ensureCerts();
say(`local CA: ${tls.caCertFile}`);
say(`setup ready in ${Math.round((Date.now() - t0) / 1000)} s`);
