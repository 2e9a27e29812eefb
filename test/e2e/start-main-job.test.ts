/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs `npm start` and `npm run send-invoice` as a user does */
// The main job on a fresh machine, as a newcomer does it: `npm start --fresh` (scripts/start.ts)
// publishes both email-to-books templates against local mailboxes, `npm run send-invoice`
// (scripts/sendInvoice.ts) mails three invoices to the Xero one, the approval emails npm start
// prints are answered through their form links, and the Xero stand-in holds one bill per invoice.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, expect, it } from 'vitest';
import {
	DEFAULT_OWNER,
	N8nClient,
	REPO_ROOT,
	ensureCerts,
	eventually,
	freePort,
	log,
	node24,
	stopAll,
} from '../../local-n8n/index.ts';
import type { StandInRequest } from '../../local-n8n/accounting/standInHttp.ts';
import { cleanChildEnv } from '../../local-n8n/npmEnv.ts';
import { answerForm } from './support/approvalForms.ts';
import { describeNeeding } from './support/requirements.ts';

const dataHome = mkdtempSync(join(tmpdir(), 'start-main-job-'));
let child: ChildProcess | undefined;

afterAll(async () => {
	child?.kill('SIGKILL');
	await stopAll();
	rmSync(dataHome, { recursive: true, force: true });
});

/** The approval form links npm start printed (`[mail]   https://…/webhook-waiting/…`), in order. */
function formLinks(output: string): string[] {
	return [...output.matchAll(/^\[mail\]\s+(https:\/\/\S+\/webhook-waiting\/\S+)$/gm)].map(
		(match) => match[1],
	);
}

describeNeeding(['dovecot'], 'The main job on a fresh machine', () => {
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
				env: cleanChildEnv({ N8N_LOCAL_DATA_DIR: dataHome }),
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
		expect(output).toContain('npm run send-invoice');
		const dataDir = output.match(/^Data folder: (\S+)/m)![1];
		const xeroUrl = output.match(/Xero\s+local stand-in (http:\/\/\S+)/)![1];

		const sent = execFileSync(node24(), ['scripts/sendInvoice.ts', '--data', dataDir], {
			cwd: REPO_ROOT,
			env: cleanChildEnv(),
			encoding: 'utf8',
		});
		expect(sent).toMatch(
			/Delivered "Invoices .*" with invoice-1\.pdf, invoice-2\.pdf, invoice-3\.pdf, logo\.png/,
		);

		const client = new N8nClient(`https://localhost:${port}`, ensureCerts().caPem);
		await client.login(DEFAULT_OWNER.email, DEFAULT_OWNER.password);
		const answered = new Set<string>();
		const bills = await eventually(
			'a bill in the Xero stand-in for each of the three invoices (approving each printed form)',
			async () => {
				for (const link of formLinks(output).filter((candidate) => !answered.has(candidate))) {
					answered.add(link);
					expect(
						(await answerForm(client, link, 'Approve', 'Checked against the order')).status,
					).toBe(200);
				}
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
			(created) => created.length >= 3,
			240_000,
		);
		expect(bills).toHaveLength(3);
		// What the start output links: the emails as the approver got them, the bills as a page.
		const mailUrl = output.match(/Mail\s+(http:\/\/\S+)/)![1];
		const mailPage = await (await request(`${mailUrl}/`)).body.text();
		// Each approval is two emails: the invoice with its original, and the form.
		expect((mailPage.match(/<a href="\/message\/\d+">/g) ?? []).length).toBe(2 * answered.size);
		const billsPage = await (await request(`${xeroUrl}/__standin/bills`)).body.text();
		expect(billsPage.match(/<h2>Bill /g) ?? []).toHaveLength(3);
		const firstBillSeconds = Math.round((Date.now() - ready) / 1000);
		log(
			'main-job',
			`npm start ready in ${Math.round((ready - t0) / 1000)} s; send-invoice → 3 bills in ${firstBillSeconds} s (${answered.size} approval form(s) answered)`,
		);
	});
});
