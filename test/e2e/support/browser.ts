// Chromium (or Chrome) for the browser test, found where Debian or Homebrew installs it,
// launched headless with background networking off (this machine has no internet), with the fresh
// empty profile Playwright makes for every launch.

import { chromium, type Browser } from 'playwright-core';
import { requirementPath } from '../../../local-n8n/systemPackages.ts';

export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({
		executablePath: requirementPath('chromium', 'the editor test'),
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
