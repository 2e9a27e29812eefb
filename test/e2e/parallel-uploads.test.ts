/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// Month-end at the tier's speed, in a real n8n against the sandbox on Growth with 1–3 s extraction
// latency: a batch of 30 invoices read from disk goes through one Extract node several at a time;
// every document is extracted once, the outputs keep the input order with their pairedItem, and a
// document the service fails on comes out alone on Needs Review (Continue On Fail).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	actionNode,
	extractParameters,
	nodeItems,
	readFileNode,
	sandboxControl,
	sandboxState,
	webhookWorkflow,
} from '../../local-n8n/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox({ tier: 'growth' });
const BATCH = 30;

let workflow: { id: string; path: string };

describe('A batch of 30 on Growth, in a real n8n', () => {
	beforeAll(async () => {
		const folder = fixture.stack.n8n.fileAccessDirs[0];
		for (let index = 0; index < BATCH; index++) {
			const invoiceNo = `MONTH-END-${String(index).padStart(3, '0')}`;
			writeFileSync(
				join(folder, `month-end-${String(index).padStart(3, '0')}.json`),
				JSON.stringify({
					header: { vendor: 'Initech GmbH', date: '2026-10-31', invoice_no: invoiceNo },
					amounts: { subtotal: 100 + index, tax: 0, total: 100 + index },
					line_items: [
						{ description: 'Services', quantity: 1, unit_price: 100 + index, amount: 100 + index },
					],
					confidence: 0.98,
				}),
			);
		}
		await sandboxControl(fixture.sandbox.url, 'config', {
			extractLatencyMinMs: 1_000,
			extractLatencyMaxMs: 3_000,
		});
		const definition = webhookWorkflow({
			name: 'e2e: month-end batch',
			responseMode: 'onReceived',
			nodes: [
				readFileNode('Read invoices', join(folder, 'month-end-*.json')),
				actionNode('Extract', fixture.credential, extractParameters(), {
					typeVersion: 1.2,
					onError: 'continueRegularOutput',
				}),
			],
		});
		const created = await fixture.stack.client.createWorkflow(definition);
		await fixture.stack.client.activateWorkflow(created.id);
		await fixture.stack.client.waitForWebhook(definition.webhookPath);
		workflow = { id: created.id, path: definition.webhookPath };
	});

	afterAll(async () => {
		await sandboxControl(fixture.sandbox.url, 'config', {
			extractLatencyMinMs: 0,
			extractLatencyMaxMs: 0,
		});
	});

	it('every document once, outputs in input order with their pairedItem, a failing one alone on Needs Review', async () => {
		// The service fails on one upload (whichever arrives first).
		await sandboxControl(fixture.sandbox.url, 'faults', {
			mode: '500',
			count: 1,
			paths: ['/v1/extract'],
		});
		const before = (await sandboxState(fixture.sandbox.url)).documents.length;
		const response = await fixture.stack.client.callWebhook(workflow.path, { json: {} });
		expect(response.status, response.text).toBe(200);
		const [started] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
		const execution = await fixture.stack.client.waitForExecution(started.id, {
			timeoutMs: 300_000,
		});
		expect(execution.status).toBe('success');
		fixture.expectNoSecretIn(execution);

		const read = nodeItems(execution, 'Read invoices');
		expect(read).toHaveLength(BATCH);
		const fileOf = (index: number) =>
			String((read[index].binary as { data: { fileName: string } }).data.fileName);
		const verified = nodeItems(execution, 'Extract', { output: 0 });
		const needsReview = nodeItems(execution, 'Extract', { output: 1 });

		expect(needsReview).toHaveLength(1);
		const failed = (needsReview[0].pairedItem as { item: number }).item;
		expect(String(needsReview[0].json.error)).toContain(`extract "${fileOf(failed)}"`);

		expect(verified).toHaveLength(BATCH - 1);
		const paired = verified.map((item) => (item.pairedItem as { item: number }).item);
		expect(paired).toEqual(
			Array.from({ length: BATCH }, (_, index) => index).filter((index) => index !== failed),
		);
		for (const item of verified) {
			const index = (item.pairedItem as { item: number }).item;
			expect(item.json.invoice_no).toBe(
				fileOf(index).replace('month-end', 'MONTH-END').replace('.json', ''),
			);
		}

		const state = await sandboxState(fixture.sandbox.url);
		// Several at once, never more than Growth's default of 8.
		expect(state.counts.extractInFlightMost).toBeGreaterThan(1);
		expect(state.counts.extractInFlightMost).toBeLessThanOrEqual(8);
		const documents = state.documents.slice(before);
		expect(documents).toHaveLength(BATCH - 1);
		expect(new Set(documents.map((document) => document.fileName)).size).toBe(BATCH - 1);
	});
});
