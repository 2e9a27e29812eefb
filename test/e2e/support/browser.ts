/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// Debian's Chromium for the browser test (installed by the setup step),
// launched headless with background networking off (this machine has no internet), with the fresh
// empty profile Playwright makes for every launch.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../../../local-n8n/systemPackages.ts';

/** Debian's Chromium, installed by the setup step (`npm run setup`). */
function chromiumPath(): string {
	if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`npm run setup\` (it installs Debian's chromium)`);
	return CHROMIUM;
}

export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({
		executablePath: chromiumPath(),
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
		],
	});
}
