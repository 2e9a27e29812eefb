/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// Month-end as the email templates run it, in a real n8n: one execution per invoice file, all
// started at once, on Pilot against a service that counts its rate in a rolling window
// (docs/spec-decisions.md#n69). The sandbox's "minute" is 6 s and Pilot takes 3 requests in it, so
// the burst of 20 needs at least six more windows after the first: every execution meets 429s,
// and under a rolling window the waiting ones are refused again and again. A 429 creates nothing,
// so none may fail: every execution succeeds and every file is extracted exactly once.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	actionNode,
	extractParameters,
	readFileNode,
	sandboxState,
	webhookWorkflow,
} from '../../local-n8n/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const FILES = 20;
const MINUTE_MS = 6_000;
const PILOT_PER_MINUTE = 3;

const fixture = useN8nAndSandbox({
	tier: 'pilot',
	sandbox: {
		minuteMs: MINUTE_MS,
		rateLimitWindow: 'rolling',
		requestsPerMinute: { pilot: PILOT_PER_MINUTE },
	},
});

const fileName = (index: number) => `burst-${String(index).padStart(2, '0')}.json`;

let workflow: { id: string; path: string };
let folder: string;

describe('A burst of executions on Pilot under a rolling window, in a real n8n', () => {
	beforeAll(async () => {
		folder = fixture.stack.n8n.fileAccessDirs[0];
		for (let index = 0; index < FILES; index++) {
			writeFileSync(
				join(folder, fileName(index)),
				JSON.stringify({
					header: { vendor: 'Initech GmbH', date: '2026-10-31', invoice_no: `BURST-${index}` },
					amounts: { subtotal: 100 + index, tax: 0, total: 100 + index },
					line_items: [
						{ description: 'Services', quantity: 1, unit_price: 100 + index, amount: 100 + index },
					],
					confidence: 0.98,
				}),
			);
		}
		const definition = webhookWorkflow({
			name: 'e2e: one execution per invoice file',
			responseMode: 'onReceived',
			nodes: [
				readFileNode('Read invoice', '={{ $json.body.file }}'),
				actionNode('Extract', fixture.credential, extractParameters(), { typeVersion: 1.3 }),
			],
		});
		const created = await fixture.stack.client.createWorkflow(definition);
		await fixture.stack.client.activateWorkflow(created.id);
		await fixture.stack.client.waitForWebhook(definition.webhookPath);
		workflow = { id: created.id, path: definition.webhookPath };
	});

	it('every execution succeeds and every file is extracted exactly once', async () => {
		const client = fixture.stack.client;
		const answers = await Promise.all(
			Array.from(
				{ length: FILES },
				async (_, index) =>
					await client.callWebhook(workflow.path, {
						json: { file: join(folder, fileName(index)) },
					}),
			),
		);
		expect(answers.map((answer) => answer.status)).toEqual(Array(FILES).fill(200));

		const executions = await client.waitForExecutions(workflow.id, FILES, { timeoutMs: 240_000 });
		await fixture.settle();
		expect(await client.listExecutions(workflow.id)).toHaveLength(FILES);
		const failed = executions
			.filter((execution) => execution.status !== 'success')
			.map((execution) => JSON.stringify(execution.data.resultData?.error ?? execution.status));
		expect(failed).toEqual([]);
		for (const execution of executions) fixture.expectNoSecretIn(execution);

		const state = await sandboxState(fixture.sandbox.url);
		expect(state.documents.map((document) => document.fileName).sort()).toEqual(
			Array.from({ length: FILES }, (_, index) => fileName(index)),
		);
		// The burst did meet the limit: without 429s this test would prove nothing.
		expect(state.counts.rateLimited).toBeGreaterThanOrEqual(FILES - PILOT_PER_MINUTE);
	});
});
