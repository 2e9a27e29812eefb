/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// Hold Invoices Not Ready to Post (docs/spec-decisions.md#n18) in a real n8n (HTTPS, the package
// installed through n8n's community-packages API) against the sandbox, which parses JSON invoices as
// documents (D19): partial invoices land on the not-ready route with their reasons, a complete one on
// Verified / New Invoice, with the currency the invoice names. The nodes are created the way the
// editor creates new ones (version 1.1, no hold parameter given: n8n fills in the version's default).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	actionNode,
	extractParameters,
	nodeItems,
	nodeJson,
	readFileNode,
	sandboxControl,
	webhookWorkflow,
	type DecodedExecution,
	type NodeSpec,
} from '../../local-n8n/index.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST });

const LINES = [
	{ description: 'Consulting hours', quantity: 10, unit_price: 125, amount: 1250 },
	{ description: 'Widgets', quantity: 1250, unit_price: 0.2, amount: 250 },
];
const HEADER = { vendor: 'Acme Supplies GmbH', date: '2026-03-15', invoice_no: 'INV-100' };
const AMOUNTS = { subtotal: 1500, tax: 285, total: 1785 };

/** JSON invoices the sandbox verifies at once (confidence 0.99), by file name, and the reason each is held (null: ready). */
const INVOICES: Record<string, { content: Record<string, unknown>; held: RegExp | null }> = {
	'complete.json': {
		content: { header: HEADER, amounts: AMOUNTS, line_items: LINES, currency: 'EUR' },
		held: null,
	},
	'no-lines.json': {
		content: { header: { ...HEADER, invoice_no: 'INV-101' }, amounts: AMOUNTS, line_items: [] },
		held: /^The invoice has no line items/,
	},
	'no-date.json': {
		content: {
			header: { vendor: HEADER.vendor, invoice_no: 'INV-102' },
			amounts: AMOUNTS,
			line_items: LINES,
		},
		held: /^The invoice date is missing/,
	},
	// The sandbox cannot read "1,500.00" either and counts it as 0: the lines no longer add up.
	'unreadable-amount.json': {
		content: {
			header: { ...HEADER, invoice_no: 'INV-103' },
			amounts: AMOUNTS,
			line_items: [{ description: 'Consulting', quantity: 1, unit_price: '1,500.00' }],
		},
		held: /^The line amounts add up to 0, not to the subtotal 1500/,
	},
	'wrong-total.json': {
		content: {
			header: { ...HEADER, invoice_no: 'INV-104' },
			amounts: { ...AMOUNTS, total: 1800 },
			line_items: LINES,
		},
		held: /^Subtotal 1500 \+ tax 285 does not equal the total 1800/,
	},
	'currency-symbol.json': {
		content: {
			header: { ...HEADER, invoice_no: 'INV-105' },
			amounts: AMOUNTS,
			line_items: LINES,
			currency: '€',
		},
		held: /^The currency "€" is not a three-letter code/,
	},
};

/** Writes the invoices into a folder n8n may read, and returns a glob over them. */
function writeInvoices(folder: string, invoices: Record<string, Record<string, unknown>>): string {
	const dir = join(fixture.stack.n8n.fileAccessDirs[0], folder);
	mkdirSync(dir, { recursive: true });
	for (const [name, content] of Object.entries(invoices))
		writeFileSync(join(dir, name), JSON.stringify({ confidence: 0.99, ...content }));
	return join(dir, '*.json');
}

const noOp = (name: string): NodeSpec => ({
	name,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	parameters: {},
});
const link = (node: string) => [{ node, type: 'main', index: 0 }];

/** Webhook (answers at once) → Read → nodes in `chain` → each output of the last to the named No Op node. */
async function createRoutedWorkflow(
	name: string,
	glob: string,
	chain: NodeSpec[],
	outputs: string[],
) {
	const names = ['Read invoices', ...chain.map((node) => String(node.name))];
	const connections: Record<string, unknown> = { Webhook: { main: [link('Read invoices')] } };
	names
		.slice(0, -1)
		.forEach((from, index) => (connections[from] = { main: [link(names[index + 1])] }));
	connections[names[names.length - 1]] = { main: outputs.map(link) };
	const definition = webhookWorkflow({
		name,
		responseMode: 'onReceived',
		nodes: [readFileNode('Read invoices', glob), ...chain, ...outputs.map(noOp)],
		connections,
	});
	const workflow = await fixture.stack.client.createWorkflow(definition);
	await fixture.stack.client.activateWorkflow(workflow.id);
	await fixture.stack.client.waitForWebhook(definition.webhookPath);
	return { id: workflow.id, path: definition.webhookPath };
}

async function runOnce(workflow: { id: string; path: string }): Promise<DecodedExecution> {
	const response = await fixture.stack.client.callWebhook(workflow.path, { json: {} });
	expect(response.status, response.text).toBe(200);
	const [listed] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
	const execution = await fixture.stack.client.waitForExecution(listed.id);
	fixture.expectNoSecretIn(execution);
	expect(execution.status).toBe('success');
	return execution;
}

const invoiceNumbers = (items: Array<Record<string, unknown>>) =>
	items.map((item) => item.invoice_no).sort();

/** Every held item says why, and its one reason is the expected one. */
function expectHeldWithReasons(
	items: Array<Record<string, unknown>>,
	byNumber: Record<string, RegExp>,
) {
	for (const item of items) {
		expect(item.ready_to_post, String(item.invoice_no)).toBe(false);
		expect(item.not_ready_because, String(item.invoice_no)).toEqual([
			expect.stringMatching(byNumber[String(item.invoice_no)]),
		]);
	}
}

describe('Hold Invoices Not Ready to Post in a real n8n', () => {
	const heldReasons = Object.fromEntries(
		Object.values(INVOICES)
			.filter((invoice) => invoice.held)
			.map((invoice) => [
				(invoice.content.header as { invoice_no: string }).invoice_no,
				invoice.held as RegExp,
			]),
	);

	it('Extract (new node, 1.1): the complete invoice on Verified with its currency; every partial one on Needs Review with its reason', async () => {
		const glob = writeInvoices(
			'extract',
			Object.fromEntries(
				Object.entries(INVOICES).map(([name, invoice]) => [name, invoice.content]),
			),
		);
		const workflow = await createRoutedWorkflow(
			'e2e ready to post: extract',
			glob,
			[{ ...actionNode('Extract', fixture.credential, extractParameters()), typeVersion: 1.1 }],
			['Post', 'Held'],
		);
		const execution = await runOnce(workflow);

		const posted = nodeJson(execution, 'Post');
		expect(posted).toEqual([
			expect.objectContaining({
				invoice_no: 'INV-100',
				status: 'verified',
				currency: 'EUR',
				total: 1785,
				ready_to_post: true,
				not_ready_because: [],
			}),
		]);
		const held = nodeJson(execution, 'Held');
		expect(invoiceNumbers(held)).toEqual(['INV-101', 'INV-102', 'INV-103', 'INV-104', 'INV-105']);
		expect(held.every((item) => item.status === 'verified')).toBe(true);
		expectHeldWithReasons(held, heldReasons);
		expect(held.find((item) => item.invoice_no === 'INV-105')?.currency).toBeNull();
		// Every input item accounted for once, each paired with its own file.
		const pairs = [
			...nodeItems(execution, 'Extract', { output: 0 }),
			...nodeItems(execution, 'Extract', { output: 1 }),
		].map((item) => (item.pairedItem as { item: number }).item);
		expect(pairs.sort()).toEqual([0, 1, 2, 3, 4, 5]);
	});

	it('Extract version 1 as saved before: unchanged, every verified invoice on Verified, each saying whether it is ready', async () => {
		const glob = writeInvoices('extract-v1', {
			'complete.json': INVOICES['complete.json'].content,
			'no-lines.json': INVOICES['no-lines.json'].content,
		});
		const workflow = await createRoutedWorkflow(
			'e2e ready to post: extract v1',
			glob,
			[actionNode('Extract', fixture.credential, extractParameters())],
			['Post', 'Held'],
		);
		const execution = await runOnce(workflow);
		expect(nodeJson(execution, 'Held')).toEqual([]);
		expect(
			nodeJson(execution, 'Post')
				.map((item) => [item.invoice_no, item.ready_to_post])
				.sort(),
		).toEqual([
			['INV-100', true],
			['INV-101', false],
		]);
	});

	it('Check Invoice Duplicate (1.1) after an Extract that holds nothing: New Invoice | Possible Duplicate | Not Ready to Post', async () => {
		const copy = {
			...(INVOICES['complete.json'].content as { line_items: unknown[] }),
			line_items: [{ ...LINES[0], description: 'Consulting hours (copy)' }, LINES[1]],
		};
		const glob = writeInvoices('check', {
			...Object.fromEntries(
				Object.entries(INVOICES).map(([name, invoice]) => [name, invoice.content]),
			),
			'complete-again.json': copy,
		});
		const check = {
			name: 'Check',
			type: actionNode('x', fixture.credential, {}).type,
			typeVersion: 1.1,
			parameters: { resource: 'document', operation: 'checkInvoiceDuplicate' },
		};
		const workflow = await createRoutedWorkflow(
			'e2e ready to post: check',
			glob,
			[actionNode('Extract', fixture.credential, extractParameters()), check],
			['Post', 'Duplicate', 'Held'],
		);
		const execution = await runOnce(workflow);

		// The same invoice in two files: one is new, the other a possible duplicate, both ready.
		const posted = nodeJson(execution, 'Post');
		const duplicates = nodeJson(execution, 'Duplicate');
		expect(posted).toEqual([
			expect.objectContaining({
				invoice_no: 'INV-100',
				currency: 'EUR',
				ready_to_post: true,
				not_ready_because: [],
			}),
		]);
		expect(duplicates).toEqual([
			expect.objectContaining({ invoice_no: 'INV-100', duplicate: true, ready_to_post: true }),
		]);
		const held = nodeJson(execution, 'Held');
		expect(invoiceNumbers(held)).toEqual(['INV-101', 'INV-102', 'INV-103', 'INV-104', 'INV-105']);
		expectHeldWithReasons(held, heldReasons);
	});

	it('Wait for Review (1.1): an approval whose corrected total is text ("1.785,00") resumes on Not Ready to Post, never on Verified', async () => {
		const glob = writeInvoices('wait', {
			'to-review.json': { ...INVOICES['complete.json'].content, confidence: 0.5 },
		});
		const extract = {
			...actionNode(
				'Extract',
				fixture.credential,
				extractParameters({ waitForReview: true, reviewTimeout: 10 }),
			),
			typeVersion: 1.1,
		};
		const workflow = await createRoutedWorkflow(
			'e2e ready to post: wait',
			glob,
			[extract],
			['Post', 'Rejected', 'Timed Out', 'Held'],
		);
		const response = await fixture.stack.client.callWebhook(workflow.path, { json: {} });
		expect(response.status, response.text).toBe(200);

		let document: { id: string; reviewId?: string | null; state: string } | undefined;
		for (let attempt = 0; attempt < 200 && !document; attempt++) {
			document = (await fixture.sandboxState()).documents.find((entry: { webhookUrl?: string }) =>
				entry.webhookUrl?.includes('/webhook-waiting/'),
			);
			if (!document) await sleep(300);
		}
		expect(document?.state).toBe('needs_review');
		let waiting: { id: string; status?: string } | undefined;
		for (let attempt = 0; attempt < 200 && !waiting; attempt++) {
			waiting = (await fixture.stack.client.listExecutions(workflow.id)).find(
				(execution) => execution.status === 'waiting',
			);
			if (!waiting) await sleep(300);
		}
		expect(waiting, 'the execution waits for the review').toBeDefined();
		await sandboxControl(fixture.sandbox.url, `reviews/${document!.reviewId}/approve`, {
			corrections: { amounts: { total: '1.785,00' } },
		});
		const execution = await fixture.stack.client.waitForExecution(waiting!.id, {
			timeoutMs: 60_000,
		});
		expect(execution.status).toBe('success');
		// On failure: what each output of Extract held in its last run.
		const extractRuns = execution.data.resultData?.runData?.Extract ?? [];
		const whereItWent = JSON.stringify(
			extractRuns.map((run) => run.data?.main?.map((items) => items?.length ?? 0)),
		);
		expect(nodeJson(execution, 'Post'), whereItWent).toEqual([]);
		expect(nodeJson(execution, 'Held'), whereItWent).toEqual([
			expect.objectContaining({
				document_id: document!.id,
				status: 'verified',
				verified_by: 'human_reviewer',
				currency: 'EUR',
				total: null,
				ready_to_post: false,
				not_ready_because: [
					'The total "1.785,00" could not be read as an exact number: enter it from the original invoice.',
				],
			}),
		]);
	});
});
