/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs `npm start` and `npm run send-invoice` as a user does */
// The main job on a fresh machine, as a newcomer does it: `npm start --fresh` (scripts/start.ts)
// publishes both email-to-books templates against local mailboxes, served as on a laptop with no
// IMAP server installed: by the IMAP server in Node (forced where Dovecot is installed; Dovecot's
// templates are proven by the email-* and inbox-to-books tests), `npm run send-invoice`
// (scripts/sendInvoice.ts) mails four invoices to the Xero one, each approval email is opened on
// npm start's mail page and its form answered in Chromium (the 12,480.00 one twice: npm start's
// policy asks the budget holder, then the finance director), and the Xero stand-in's page shows one
// bill per invoice. The time from "ready" to the bills is logged (the README quotes it).

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT, eventually, freePort, log, node24, stopAll } from '../../local-n8n/index.ts';
import type { StandInRequest } from '../../local-n8n/accounting/standInHttp.ts';
import { cleanChildEnv } from '../../local-n8n/npmEnv.ts';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/browser.ts';
import { describeNeeding } from './support/requirements.ts';

const dataHome = mkdtempSync(join(tmpdir(), 'start-main-job-'));
let child: ChildProcess | undefined;
let browser: Browser | undefined;

afterAll(async () => {
	await browser?.close();
	child?.kill('SIGKILL');
	await stopAll();
	rmSync(dataHome, { recursive: true, force: true });
});

describeNeeding(['chromium'], 'The main job on a fresh machine', () => {
	it('npm start publishes both email-to-books templates; send-invoice, the printed approvals answered, and every invoice is one bill in the Xero stand-in', async () => {
		const t0 = Date.now();
		const port = await freePort(5900);
		child = spawn(
			node24(),
			[
				'scripts/start.ts',
				'--no-build',
				'--fresh',
				'--port',
				String(port),
				'--sandbox-port',
				String(await freePort(4200)),
			],
			{
				cwd: REPO_ROOT,
				env: cleanChildEnv({ N8N_LOCAL_DATA_DIR: dataHome, LOCAL_IMAP_SERVER: 'node' }),
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let output = '';
		child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
		await eventually(
			'npm start to be running',
			async () => output,
			(text) => / is running \(ready in/.test(text),
			180_000,
		);
		const ready = Date.now();

		for (const name of [
			'Invoices from email to Xero, with approval',
			'Invoices from email to QuickBooks, with approval',
		])
			expect(output).toMatch(new RegExp(`- ${name}\\s+\\[published\\]`));
		expect(output).toMatch(/^\s*Mailboxes\s.*\(the IMAP server in Node;/m);
		expect(output).toContain('npm run send-invoice');
		const dataDir = output.match(/^Data folder: (\S+)/m)![1];
		const xeroUrl = output.match(/Xero\s+local stand-in (http:\/\/\S+)/)![1];

		const sent = execFileSync(node24(), ['scripts/sendInvoice.ts', '--data', dataDir], {
			cwd: REPO_ROOT,
			env: cleanChildEnv(),
			encoding: 'utf8',
		});
		expect(sent).toMatch(
			/Delivered "Invoices .*" with invoice-1\.pdf, invoice-2\.pdf, invoice-3\.pdf, invoice-4\.json, logo\.png/,
		);

		const mailUrl = output.match(/Mail\s+(http:\/\/\S+)/)![1];
		browser = await launchChromium();
		const context = await browser.newContext({ ignoreHTTPSErrors: true });
		const page = await context.newPage();
		const answered = new Set<number>();
		/** Each approval email on the mail page, opened and its form answered in the browser, as a person does. */
		const approveInTheBrowser = async () => {
			await page.goto(`${mailUrl}/`);
			const count = await page.locator('a[href^="/message/"]').count();
			for (let index = 0; index < count; index++) {
				if (answered.has(index)) continue;
				await page.goto(`${mailUrl}/message/${index}`);
				const button = page.frameLocator('iframe').locator('a[href*="/webhook-waiting/"]');
				if ((await button.count()) === 0) {
					answered.add(index);
					continue;
				}
				const [form] = await Promise.all([context.waitForEvent('page'), button.click()]);
				// The approval (Decision, and the Account for a supplier without a rule) or the short
				// form of an invoice under the threshold (the Account only): the first account offered.
				const selects = form.locator('select');
				for (let field = 0; field < (await selects.count()); field++) {
					const options = (await selects.nth(field).locator('option').allTextContents())
						.map((option) => option.trim())
						.filter((option) => option !== '' && !/^select/i.test(option));
					await selects
						.nth(field)
						.selectOption(options.includes('Approve') ? 'Approve' : options[0]);
					if (!options.includes('Approve')) chosenAccounts++;
				}
				const note = form.locator('textarea');
				if ((await note.count()) > 0) await note.first().fill('Checked against the order');
				await form
					.getByPlaceholder(/^Who (decides|chooses) \(for the books\)$/)
					.fill('Maria Manager');
				await form.locator('button[type="submit"], #submit-btn').first().click();
				await form
					.getByText(/submitted|thank|received/i)
					.first()
					.waitFor({ timeout: 30_000 });
				await form.close();
				answered.add(index);
				approvals++;
			}
		};
		let approvals = 0;
		let chosenAccounts = 0;
		const bills = await eventually(
			'a bill in the Xero stand-in for each of the four invoices (approving each email on the mail page in Chromium)',
			async () => {
				await approveInTheBrowser();
				const response = await request(`${xeroUrl}/__standin/requests`);
				const requests = (await response.body.json()) as StandInRequest[];
				return requests.filter(
					(entry) =>
						entry.method === 'POST' &&
						/^\/api\.xro\/2\.0\/Invoices(\?|$)/.test(entry.path) &&
						entry.accepted &&
						!entry.replayed,
				);
			},
			(created) => created.length >= 4,
			300_000,
		);
		expect(bills).toHaveLength(4);
		// The 12,480.00 invoice under npm start's policy: the budget holder, then the finance director.
		await page.goto(`${mailUrl}/`);
		const rows = await page.locator('tr').allTextContents();
		const asked = (who: string) =>
			rows.filter((row) => row.includes(who) && /Northwind Machinery Ltd/.test(row)).length;
		expect(asked('manager@example.com')).toBeGreaterThan(0);
		expect(asked('finance-director@example.com')).toBeGreaterThan(0);
		// Suppliers without a rule: the account chosen in a form (it became their rule).
		expect(chosenAccounts).toBeGreaterThan(0);
		// The bills as a person sees them on the stand-in's page.
		await page.goto(`${xeroUrl}/__standin/bills`);
		expect(await page.locator('h2', { hasText: /^Bill / }).count()).toBe(4);
		const firstBillSeconds = Math.round((Date.now() - ready) / 1000);
		log(
			'main-job',
			`npm start ready in ${Math.round((ready - t0) / 1000)} s; send-invoice → 4 bills in ${firstBillSeconds} s (${approvals} form(s) answered in Chromium, ${chosenAccounts} account(s) chosen)`,
		);
	});
});
