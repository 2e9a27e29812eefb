// The setup step: everything the local runtime needs outside node_modules, installed once and
// reused: Debian packages (Chromium, Postgres, Redis, HAProxy), n8n (the newest and the oldest
// supported version) with its native modules in ~/.cache, and the local TLS material. Run by
// `npm test` and `npm start` first; safe to run any time.
// `npm run setup` (npm scripts put the project's Node 24 first on PATH).

import { N8N_OLDEST_VERSION, ensureCerts, ensureN8n, ensureSystemPackages, reapStaleProcesses, say, selectedN8nVersion } from '../local-n8n/index.ts';

reapStaleProcesses();
const t0 = Date.now();
ensureSystemPackages();
const install = await ensureN8n(selectedN8nVersion());
// The oldest supported n8n too: the compatibility test runs the core checks on it.
const oldest = await ensureN8n(N8N_OLDEST_VERSION);
const tls = ensureCerts();
say(`n8n ${install.version}: ${install.dir} (Node: ${install.node})`);
say(`n8n ${oldest.version} (oldest supported): ${oldest.dir}`);
say(`local CA: ${tls.caCertFile}`);
say(`setup ready in ${Math.round((Date.now() - t0) / 1000)} s`);
