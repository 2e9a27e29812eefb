// The setup step: everything the local runtime needs outside node_modules, installed once and
// reused: Debian packages (Chromium, Postgres, Redis, HAProxy) and n8n with its native modules in
// ~/.cache, plus the local TLS material. Run by `npm test` and `npm start` first; safe to run any time.
// `npm run setup` (npm scripts put the project's Node 24 first on PATH).

import { ensureCerts, ensureN8n, ensureSystemPackages, reapStaleProcesses, say } from '../local-n8n/index.ts';

reapStaleProcesses();
const t0 = Date.now();
ensureSystemPackages();
const install = await ensureN8n();
const tls = ensureCerts();
say(`n8n ${install.version}: ${install.dir} (Node: ${install.node})`);
say(`local CA: ${tls.caCertFile}`);
say(`setup ready in ${Math.round((Date.now() - t0) / 1000)} s`);
