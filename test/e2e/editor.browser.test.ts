/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/require-node-api-error -- test tooling: plain errors outside any node */
// The editor in a real browser (Debian's Chromium, installed by the harness when missing, driven by
// playwright-core): log in to the local n8n, open a new workflow, find "Document Extraction" in the
// node panel, add the action node, and check that its resources, operations and credential type
// render, that Check Invoice Duplicate asks for no credential, and that the canvas shows every
// output label of a version 1.3 node whole (N47). Screenshots go to test/artifacts/ (the last state is saved on failure too).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from './support/requirements.ts';
import { REPO_ROOT, sandboxAccount } from '../../local-n8n/index.ts';
import { launchChromium } from './support/browser.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

// A reachable service for the credential (its test runs when the credential dialog opens); the
// credential, without a signing secret, is made below.
const fixture = useN8nAndSandbox({ tier: null });
let browser: Browser;
let page: Page;
const artifacts = join(REPO_ROOT, 'test', 'artifacts');
const CREDENTIAL_NAME = 'Document Extraction (sandbox)';

/** Waits until `locator` has at least one match, failing with `what` (not a bare timeout) if it never does. */
async function visible(locator: Locator, what: string, timeout = 30_000): Promise<Locator> {
	try {
		await locator.first().waitFor({ state: 'visible', timeout });
	} catch {
		throw new Error(
			`${what} did not appear within ${timeout / 1000} s (see test/artifacts/editor-last-state.png)`,
		);
	}
	return locator.first();
}

/** Opens n8n's node panel (trying its canvas button, the side "+" and the Tab shortcut) and returns its search box. */
async function openNodePanel(target: Page): Promise<Locator> {
	const search = target
		.locator('[data-test-id="node-creator-search-bar"] input, input[placeholder*="Search" i]')
		.first();
	const openers: Array<() => Promise<unknown>> = [
		() => target.locator('[data-test-id="canvas-add-button"]').first().click({ timeout: 5_000 }),
		() =>
			target
				.getByText(/add first step/i)
				.first()
				.click({ timeout: 5_000 }),
		() =>
			target.locator('[data-test-id="node-creator-plus-button"]').first().click({ timeout: 5_000 }),
		() => target.keyboard.press('Tab'),
	];
	for (const open of openers) {
		await open().catch(() => undefined);
		if (await search.isVisible({ timeout: 3_000 }).catch(() => false)) return search;
	}
	throw new Error(
		'the node panel did not open (tried the canvas "+" button, "Add first step", the side "+" and Tab)',
	);
}

/** Opens a new workflow in `target`, finds "Document Extraction" in the node panel and opens it. */
async function openDocumentExtractionInNewWorkflow(target: Page): Promise<void> {
	await target.goto(`${fixture.stack.n8n.baseUrl}/workflow/new`);
	await visible(target.getByText(/add first step/i), 'the empty canvas ("Add first step")', 60_000);
	const search = await openNodePanel(target);
	await search.fill('Document Extraction');
	await (
		await visible(
			target.getByText('Document Extraction', { exact: true }),
			'the search result "Document Extraction"',
		)
	).click();
}

/** Expands the node's "Actions (n)" list unless `action` is listed already. */
async function showActions(target: Page, action: Locator): Promise<void> {
	if ((await action.count()) === 0)
		await target
			.getByText(/^Actions \(\d+\)$/)
			.first()
			.click();
}

/** Opens the dropdown of a parameter (`parameter-input-<name>`) and returns its option labels (first line of each). */
async function dropdownOptions(target: Page, parameter: string): Promise<string[]> {
	const input = await visible(
		target.locator(`[data-test-id="parameter-input-${parameter}"]`),
		`the "${parameter}" parameter`,
	);
	await input.click();
	await visible(target.getByRole('option'), `the options of "${parameter}"`);
	const labels = (await target.getByRole('option').allInnerTexts()).map((text) =>
		text.split('\n')[0].trim(),
	);
	await target.keyboard.press('Escape');
	await expect
		.poll(async () => await target.getByRole('option').count(), { timeout: 10_000 })
		.toBe(0);
	return labels;
}

/** A Document Extraction node of `typeVersion` for the output-label check, in row `row` of the canvas. */
function outputsNode(
	name: string,
	typeVersion: number,
	row: number,
	parameters: Record<string, unknown>,
) {
	return {
		id: `node-${row}`,
		name,
		type: 'n8n-nodes-document-extraction.documentExtraction',
		typeVersion,
		position: [0, row * 800] as [number, number],
		parameters: { resource: 'document', ...parameters },
	};
}

/**
 * The output labels n8n's canvas shows for each node, in output order, and whether each is cut (its
 * text wider than the box n8n gives it, which n8n ends with "…").
 */
async function outputLabels(
	target: Page,
	nodeNames: string[],
): Promise<Record<string, Array<{ text: string; cut: boolean }>>> {
	const shown: Record<string, Array<{ text: string; cut: boolean }>> = {};
	for (const name of nodeNames) {
		const handles = target.locator(
			`[data-test-id="canvas-node-output-handle"][data-node-name="${name}"]`,
		);
		shown[name] = await handles.evaluateAll((elements) =>
			elements
				.map((element) => {
					const label = element.querySelector('[class*="outputLabel"]') as unknown as {
						textContent: string | null;
						scrollWidth: number;
						clientWidth: number;
					} | null;
					return {
						index: Number(element.getAttribute('data-index')),
						text: label?.textContent?.trim() ?? '',
						cut: label ? label.scrollWidth > label.clientWidth : false,
					};
				})
				.sort((a, b) => a.index - b.index)
				.map(({ text, cut }) => ({ text, cut })),
		);
	}
	return shown;
}

describeNeeding(['chromium'], 'The editor in a real browser', () => {
	beforeAll(async () => {
		const account = sandboxAccount(fixture.sandbox, 'pilot');
		if (!account) throw new Error('the sandbox serves no pilot account');
		await fixture.stack.client.createDocumentExtractionCredential(CREDENTIAL_NAME, {
			baseUrl: fixture.sandbox.url,
			apiKey: account.apiKey,
			tier: 'pilot',
		});
		browser = await launchChromium();
		const context = await browser.newContext({
			ignoreHTTPSErrors: true,
			viewport: { width: 1440, height: 900 },
		});
		page = await context.newPage();
		page.setDefaultTimeout(30_000);
	});

	afterAll(async () => {
		if (page) {
			mkdirSync(artifacts, { recursive: true });
			await page
				.screenshot({ path: join(artifacts, 'editor-last-state.png') })
				.catch(() => undefined);
		}
		await browser?.close();
	});

	it('logs in, adds the Document Extraction node and shows its resources, operations and credential type', async () => {
		await page.goto(`${fixture.stack.n8n.baseUrl}/signin`);
		await (
			await visible(page.getByLabel(/email/i), 'the sign-in form')
		).fill(fixture.stack.owner.email);
		await page
			.getByLabel(/password/i)
			.first()
			.fill(fixture.stack.owner.password);
		await page.getByRole('button', { name: /sign in/i }).click();
		await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });

		await openDocumentExtractionInNewWorkflow(page);

		// n8n lists the package's triggers (from the trigger's events) and the node's actions.
		await visible(
			page.getByText('On document verified'),
			'the trigger action "On document verified"',
		);
		await showActions(page, page.getByText('Extract an invoice'));
		await visible(page.getByText('Extract an invoice'), 'the action "Extract an invoice"');
		for (const action of [
			'Get the status of a document',
			'Check whether an invoice is a duplicate',
			'Register a webhook',
		])
			expect(await page.getByText(action).count(), action).toBeGreaterThan(0);
		await page.getByText('Extract an invoice').first().click();

		// The node's parameter panel.
		await visible(
			page.getByText('Input Binary Field'),
			'the Extract parameters ("Input Binary Field")',
		);
		// A new node is version 1.1: the hold option and what ready_to_post means are on the panel.
		await visible(
			page.getByText('Hold Invoices Not Ready to Post'),
			'the option "Hold Invoices Not Ready to Post"',
		);
		await visible(
			page.getByText(/Every invoice comes out with/),
			'the notice explaining ready_to_post',
		);
		const resources = await dropdownOptions(page, 'resource');
		expect(resources).toEqual(expect.arrayContaining(['Document', 'Webhook']));
		const operations = await dropdownOptions(page, 'operation');
		expect(operations).toEqual(expect.arrayContaining(['Extract', 'Get Status']));
		const values = await page
			.locator('input')
			.evaluateAll((inputs) =>
				inputs.map((input) => (input as unknown as { value: string }).value),
			);
		for (const value of [CREDENTIAL_NAME, 'Document', 'Extract', 'Simplified', 'data'])
			expect(values, `an input showing "${value}"`).toContain(value);

		mkdirSync(artifacts, { recursive: true });
		await page.screenshot({ path: join(artifacts, 'editor-document-extraction.png') });

		// The credential select offers the credential under its type's display name.
		const credentialSelect = await visible(
			page.locator('[data-test-id="node-credentials-select"]'),
			'the credential select',
		);
		await credentialSelect.click();
		await visible(
			page.getByRole('option').filter({ hasText: CREDENTIAL_NAME }),
			`the credential option "${CREDENTIAL_NAME}"`,
		);
		expect(
			await page.getByRole('option').filter({ hasText: CREDENTIAL_NAME }).first().innerText(),
		).toContain('Document Extraction API');
		await page.keyboard.press('Escape');
		await expect
			.poll(async () => await page.getByRole('option').count(), { timeout: 10_000 })
			.toBe(0);

		// The credential dialog: the type's name and its fields.
		await (
			await visible(
				page.locator('[data-test-id="credential-edit-button"]'),
				'the credential edit button',
			)
		).click();
		const dialog = await visible(
			page
				.locator('[data-test-id="editCredential-modal"]')
				.filter({ hasText: 'Document Extraction API' }),
			'the credential dialog of type "Document Extraction API"',
		);
		for (const field of ['Base URL', 'API Key', 'Webhook Signing Secret', 'Tier']) {
			await visible(
				dialog.getByText(new RegExp(`^${field}\\b`)),
				`the credential field "${field}"`,
			);
		}
		// n8n tests the credential when the dialog opens: the sandbox accepted the key (D15).
		await visible(
			dialog.locator('[data-test-id="credentials-config-container-test-success"]'),
			'the "Connection tested successfully" banner',
			60_000,
		);
		await page.screenshot({ path: join(artifacts, 'editor-credential.png') });
	});

	it('asks for no credential for Check Invoice Duplicate, which calls no API, and asks again for Extract', async () => {
		// A new tab of the signed-in session, with a new workflow.
		page = await page.context().newPage();
		await openDocumentExtractionInNewWorkflow(page);
		const check = page.getByText('Check whether an invoice is a duplicate');
		await showActions(page, check);
		await (await visible(check, 'the action "Check whether an invoice is a duplicate"')).click();

		await visible(
			page.getByText(/in the workflow whose Extract uses Detect Same Invoice/),
			'the Check Invoice Duplicate notice',
		);
		await visible(
			page.getByText('Hold Invoices Not Ready to Post'),
			'the option "Hold Invoices Not Ready to Post" of Check Invoice Duplicate',
		);
		const credentialSelects = page.locator('[data-test-id="node-credentials-select"]');
		expect(await credentialSelects.count()).toBe(0);
		await page.screenshot({ path: join(artifacts, 'editor-check-invoice-duplicate.png') });

		await (
			await visible(
				page.locator('[data-test-id="parameter-input-operation"]'),
				'the "operation" parameter',
			)
		).click();
		await (
			await visible(
				page.getByRole('option').filter({ hasText: 'Extract' }),
				'the operation "Extract"',
			)
		).click();
		await visible(credentialSelects, 'the credential select of Extract');
	});
	it('shows every output label of a new node (1.3) whole on the canvas; a node saved at 1.2 keeps its outputs', async () => {
		const credential = (await fixture.stack.client.listCredentials()).find(
			(candidate) => candidate.name === CREDENTIAL_NAME,
		);
		const nodes = [
			outputsNode('Extract 1.3', 1.3, 0, {
				operation: 'extract',
				binaryPropertyName: 'attachment_*',
				options: { skipDuplicates: true, detectSameInvoice: true },
			}),
			outputsNode('Extract and wait 1.3', 1.3, 1, {
				operation: 'extract',
				binaryPropertyName: 'attachment_*',
				waitForReview: true,
				options: { skipDuplicates: true },
			}),
			outputsNode('Check 1.3', 1.3, 2, { operation: 'checkInvoiceDuplicate' }),
			outputsNode('Build Bill 1.3', 1.3, 3, { operation: 'buildBill' }),
			outputsNode('Extract 1.2', 1.2, 4, {
				operation: 'extract',
				binaryPropertyName: 'attachment_*',
				options: { skipDuplicates: true, detectSameInvoice: true },
			}),
		];
		const expected: Record<string, string[]> = {
			'Extract 1.3': ['Verified', 'Needs Review', 'Same File', 'Same Invoice', 'Skipped Files'],
			'Extract and wait 1.3': [
				'Verified',
				'Rejected',
				'Timed Out',
				'Not Ready',
				'Same File',
				'Skipped Files',
			],
			'Check 1.3': ['New Invoice', 'Same Invoice', 'Not Ready'],
			'Build Bill 1.3': ['Bill', 'Cannot Book'],
			'Extract 1.2': [
				'Verified',
				'Needs Review',
				'Already Submitted',
				'Possible Duplicate',
				'Skipped Files',
			],
		};
		// Every output connected: n8n gives a connected output's label its narrowest width.
		const targets = nodes.flatMap((node) =>
			expected[node.name].map((label, index) => ({
				id: `${node.id}-${index}`,
				name: `${node.name}: ${label}`,
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [node.position[0] + 420, node.position[1] + index * 120] as [number, number],
				parameters: {},
			})),
		);
		const connections = Object.fromEntries(
			nodes.map((node) => [
				node.name,
				{
					main: expected[node.name].map((label) => [
						{ node: `${node.name}: ${label}`, type: 'main', index: 0 },
					]),
				},
			]),
		);
		const workflow = await fixture.stack.client.createWorkflow({
			name: 'Output labels',
			nodes: [...nodes, ...targets].map((node) =>
				node.type === 'n8n-nodes-base.noOp' || !credential
					? node
					: {
							...node,
							credentials: { documentExtractionApi: { id: credential.id, name: credential.name } },
						},
			),
			connections,
		});

		page = await page.context().newPage();
		await page.setViewportSize({ width: 1800, height: 1400 });
		await page.goto(`${fixture.stack.n8n.baseUrl}/workflow/${workflow.id}`);
		await visible(
			page.locator('[data-test-id="canvas-node-output-handle"][data-node-name="Extract 1.3"]'),
			'the outputs of "Extract 1.3" on the canvas',
			60_000,
		);
		await page.waitForTimeout(1000);
		mkdirSync(artifacts, { recursive: true });
		await page.screenshot({ path: join(artifacts, 'editor-output-labels.png') });

		const shown = await outputLabels(page, Object.keys(expected));
		writeFileSync(join(artifacts, 'editor-output-labels.json'), JSON.stringify(shown, null, 1));
		for (const [node, labels] of Object.entries(expected)) {
			expect(
				shown[node].map((label) => label.text),
				`the outputs of ${node}`,
			).toEqual(labels);
			if (node.endsWith('1.3'))
				expect(
					shown[node].filter((label) => label.cut).map((label) => label.text),
					`labels of ${node} cut on the canvas`,
				).toEqual([]);
		}
		// The check can fail: the longer labels a 1.2 node keeps are cut.
		expect(shown['Extract 1.2'].filter((label) => label.cut).map((label) => label.text)).toEqual([
			'Already Submitted',
			'Possible Duplicate',
		]);
	});
});
