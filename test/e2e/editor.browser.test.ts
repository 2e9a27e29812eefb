/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
 
// The editor in a real browser: log in to the local n8n, open a new workflow, find "Document
// Extraction" in the node panel, add the action node, and check that its operations and the
// credential type render. A screenshot is saved under test/artifacts/.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, launchChromium, startStack, stopAll, type Stack } from './harness/index.ts';

let stack: Stack;
let browser: Browser;
let page: Page;
const artifacts = join(REPO_ROOT, 'test', 'artifacts');

/** Opens n8n's node panel (trying its canvas button, the side "+" and the Tab shortcut) and returns its search box. */
async function openNodePanel(target: Page) {
	const search = target.locator('[data-test-id="node-creator-search-bar"] input, input[placeholder*="Search" i]').first();
	const openers: Array<() => Promise<unknown>> = [
		() => target.locator('[data-test-id="canvas-add-button"]').first().click({ timeout: 5_000 }),
		() => target.locator('[data-test-id="node-creator-plus-button"]').first().click({ timeout: 5_000 }),
		() => target.keyboard.press('Tab'),
	];
	for (const open of openers) {
		await open().catch(() => undefined);
		if (await search.isVisible({ timeout: 3_000 }).catch(() => false)) return search;
	}
	throw new Error('the node panel did not open');
}

describe('The editor in a real browser', () => {
	beforeAll(async () => {
		stack = await startStack({ package: 'repo' });
		await stack.client.createDocumentExtractionCredential('Document Extraction (sandbox)', { baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_sandbox_pilot', tier: 'pilot' });
		browser = await launchChromium();
		const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });
		page = await context.newPage();
		page.setDefaultTimeout(30_000);
	});

	afterAll(async () => {
		if (page) {
			mkdirSync(artifacts, { recursive: true });
			await page.screenshot({ path: join(artifacts, 'editor-last-state.png') }).catch(() => undefined);
		}
		await browser?.close();
		await stack?.stop();
		await stopAll();
	});

	it('logs in, adds the Document Extraction node and shows its operations and credential', async () => {
		await page.goto(`${stack.n8n.baseUrl}/signin`);
		await page.getByLabel(/email/i).first().fill(stack.owner.email);
		await page.getByLabel(/password/i).first().fill(stack.owner.password);
		await page.getByRole('button', { name: /sign in/i }).click();
		await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });

		await page.goto(`${stack.n8n.baseUrl}/workflow/new`);
		await page.getByText(/add first step/i).first().waitFor();
		const search = await openNodePanel(page);
		await search.fill('Document Extraction');
		await expect.poll(async () => await page.getByText('Document Extraction', { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
		await page.getByText('Document Extraction', { exact: true }).first().click();

		// n8n lists the package's triggers and the node's actions (each operation's `action` text).
		expect(await page.getByText('On document verified').count()).toBeGreaterThan(0);
		if ((await page.getByText('Extract an invoice').count()) === 0) await page.getByText(/^Actions \(3\)$/).first().click();
		await expect.poll(async () => await page.getByText('Extract an invoice').count(), { timeout: 30_000 }).toBeGreaterThan(0);
		expect(await page.getByText('Get the status of a document').count()).toBeGreaterThan(0);
		expect(await page.getByText('Register a webhook').count()).toBeGreaterThan(0);
		await page.getByText('Extract an invoice').first().click();

		// The node's parameter panel: credential type, resource and operation.
		await expect.poll(async () => await page.getByText('Input Binary Field').count(), { timeout: 30_000 }).toBeGreaterThan(0);
		const labels = await page.locator('body').innerText();
		for (const label of ['Credential', 'Resource', 'Operation', 'Input Binary Field', 'Output']) expect(labels).toContain(label);
		// Select values live in inputs: the credential of type Document Extraction API, Document, Extract, Simplified.
		const values = await page.locator('input').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
		for (const value of ['Document Extraction (sandbox)', 'Document', 'Extract', 'Simplified', 'data']) expect(values).toContain(value);
		mkdirSync(artifacts, { recursive: true });
		await page.screenshot({ path: join(artifacts, 'editor-document-extraction.png') });
	});
});
