/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- test tooling: installs Debian's chromium; plain errors outside any node */
// Debian's Chromium for the browser test: installed with apt-get when missing (CI runs as root),
// launched headless with background networking off (this machine has no internet), with the fresh
// empty profile Playwright makes for every launch.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { log } from '../../../local-n8n/log.ts';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): string {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	log('browser', 'installing Debian chromium with apt-get (first run on this machine)');
	execFileSync('apt-get', ['update'], { stdio: 'pipe', timeout: 10 * 60_000 });
	execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'pipe', timeout: 15 * 60_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing`);
	return CHROMIUM;
}

export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({
		executablePath: ensureChromium(),
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
