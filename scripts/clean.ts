/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling runs in plain Node, never inside n8n */
// First step of `npm run build`: removes dist/, so a file deleted or moved in the sources never
// lingers in the built (and packed) package.

import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
