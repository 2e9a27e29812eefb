// Installs (once) the n8n that the e2e tests and `npm start` run, and the local TLS material, with
// progress; prints where they are. Safe to run any time: a complete install is reused at once.
// `node scripts/ensure-n8n.ts` (npm scripts put the project's Node 24 first on PATH).

import { ensureCerts, ensureN8n, reapStaleProcesses, say } from '../local-n8n/index.ts';

reapStaleProcesses();
const t0 = Date.now();
const install = await ensureN8n();
const tls = ensureCerts();
say(`n8n ${install.version}: ${install.dir} (Node: ${install.node})`);
say(`local CA: ${tls.caCertFile}`);
say(`ready in ${Math.round((Date.now() - t0) / 1000)} s`);
