/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// Benchmark 3: signed deliveries per second through our trigger (signature check, duplicate memory,
// mapping) vs the minimal community trigger (minimalTrigger.ts) and n8n's plain Webhook node
// answering at once, same payload, same concurrency, in alternating rounds; every run of a target
// has finished before the next target is measured. Every delivery has its own document_id, so none
// is a duplicate.

import { randomUUID } from 'node:crypto';
import type { N8nClient } from '../local-n8n/index.ts';
import { reviewTriggerNode, signBody } from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { activeTriggerNodeWorkflow, activeWebhookWorkflow, webhookClient } from './context.ts';
import { activeMinimalTriggerWorkflow } from './minimalTrigger.ts';
import type { ResultRow } from './stats.ts';
import { median } from './stats.ts';

function payload(documentId: string): string {
	return JSON.stringify({
		event: 'document.verified',
		timestamp: new Date().toISOString(),
		document_id: documentId,
		review_id: 'rev_bench',
		verified_by: 'human_reviewer',
		corrections_made: false,
		data: {
			header: { vendor: 'Acme Supplies GmbH', date: '2026-10-02', invoice_no: 'INV-2026-0042' },
			amounts: { subtotal: 1250, tax: 237.5, total: 1487.5 },
			line_items: [
				{ description: 'Paper A4, 500 sheets', quantity: 40, unit_price: 25, amount: 1000 },
				{ description: 'Toner cartridge', quantity: 2, unit_price: 125, amount: 250 },
			],
		},
		confidence: { original: 0.71, final: 0.99 },
	});
}

/** Sends `deliveries` signed deliveries to `path`, `concurrency` at a time; rate of 200 answers. */
export async function fireDeliveries(
	client: N8nClient,
	path: string,
	signingSecret: string,
	options: { deliveries: number; concurrency: number; tag: string },
): Promise<{ perSecond: number; ok: number; retried: number }> {
	let next = 0;
	let ok = 0;
	let retried = 0;
	const started = Date.now();
	await Promise.all(
		Array.from({ length: options.concurrency }, async () => {
			while (next < options.deliveries) {
				const index = next++;
				const body = payload(`doc_bench_${options.tag}_${index}_${randomUUID().slice(0, 8)}`);
				const headers = {
					'content-type': 'application/json',
					'x-service-signature': signBody(body, signingSecret),
				};
				const send = () => client.callWebhook(path, { body, headers });
				// A kept-alive connection the load balancer closed while idle between rounds fails the next
				// request on it before anything is sent; the service delivers again, and so does this.
				const answer = await send().catch((error: unknown) => {
					if (!closedByServer(error)) throw error;
					retried++;
					return send();
				});
				if (answer.status === 200) ok++;
			}
		}),
	);
	return { perSecond: (ok * 1000) / (Date.now() - started), ok, retried };
}

function closedByServer(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

/** The trigger's version for new nodes (1 = workflows made before 1.1). */
export const TRIGGER_VERSION = 1.1;

/** Creates and activates a workflow started by our trigger; returns its id and webhook path. */
export async function activeTriggerWorkflow(
	context: BenchContext,
	name: string,
	options: Record<string, unknown> = {},
	typeVersion = TRIGGER_VERSION,
) {
	const trigger = reviewTriggerNode(context.enterprise.credential, undefined, typeVersion);
	trigger.parameters = { ...(trigger.parameters as Record<string, unknown>), options };
	return await activeTriggerNodeWorkflow(context, name, trigger);
}

/** Waits until the workflow has at least `accepted` executions (none lost), then counts them. */
export async function executionsAfterSettling(
	context: BenchContext,
	workflowId: string,
	accepted: number,
): Promise<number> {
	const count = async () =>
		(
			await context.stack.client.call<{ count: number }>('GET', '/rest/executions', undefined, {
				query: { filter: JSON.stringify({ workflowId }), limit: '1' },
			})
		).count;
	const deadline = Date.now() + 120_000;
	let executions = 0;
	while (Date.now() < deadline) {
		executions = await count();
		if (executions >= accepted) break;
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	}
	await new Promise((resolve) => setTimeout(resolve, 2_000));
	return await count();
}

/**
 * Waits until the workflow has `expected` executions and none is still new or running. Our trigger
 * answers before its run starts, so without this its runs would still be going on while the next
 * target is measured.
 */
async function waitForRunsFinished(
	context: BenchContext,
	workflowId: string,
	expected: number,
): Promise<void> {
	const client = context.stack.client;
	const deadline = Date.now() + 300_000;
	while (Date.now() < deadline) {
		const { count } = await client.call<{ count: number }>('GET', '/rest/executions', undefined, {
			query: { filter: JSON.stringify({ workflowId }), limit: '1' },
		});
		if (
			count >= expected &&
			(await client.listExecutions(workflowId, { status: ['new', 'running'], limit: 1 })).length ===
				0
		)
			return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`workflow ${workflowId}: its runs did not finish within 300 s`);
}

/** The run: 200 deliveries per round and target, 10 at a time, 3 rounds. */
const RUN = { deliveries: 200, concurrency: 10, rounds: 3 };

export async function triggerThroughput(context: BenchContext): Promise<ResultRow[]> {
	const { deliveries, concurrency, rounds } = RUN;
	const { enterprise } = context;
	const client = webhookClient(context);
	const workflows = {
		ours: await activeTriggerWorkflow(context, 'bench: trigger (ours)'),
		minimal: await activeMinimalTriggerWorkflow(context, 'bench: trigger (minimal trigger)'),
		webhook: await activeWebhookWorkflow(
			context,
			'bench: trigger (Webhook node)',
			[],
			'onReceived',
		),
	};
	const rates: Record<keyof typeof workflows, number[]> = { ours: [], minimal: [], webhook: [] };
	const accepted: Record<keyof typeof workflows, number> = { ours: 0, minimal: 0, webhook: 0 };
	let oursOk = 0;
	for (let round = 1; round <= rounds; round++) {
		const line: string[] = [];
		// Each round starts with another target, so that none always follows the same one.
		const targets = ['ours', 'minimal', 'webhook'] as const;
		for (const target of targets.map((_, i) => targets[(i + round - 1) % targets.length])) {
			const result = await fireDeliveries(
				client,
				workflows[target].path,
				enterprise.signingSecret,
				{ deliveries, concurrency, tag: `r${round}` },
			);
			if (target === 'ours') oursOk += result.ok;
			accepted[target] += result.ok;
			await waitForRunsFinished(context, workflows[target].id, accepted[target]);
			rates[target].push(result.perSecond);
			line.push(`${target} ${result.perSecond.toFixed(1)}/s (${result.ok} × 200)`);
		}
		context.progress(`trigger throughput, round ${round}/${rounds}: ${line.join(', ')}`);
	}
	// Every accepted delivery started one execution (none lost, none doubled).
	const executions = await executionsAfterSettling(context, workflows.ours.id, oursOk);
	const ours = median(rates.ours);
	const minimal = median(rates.minimal);
	const webhook = median(rates.webhook);
	const benchmark = `trigger throughput (${deliveries} signed deliveries x ${rounds}, concurrency ${concurrency})`;
	const notes = `executions of our trigger: ${executions} for ${oursOk} accepted deliveries`;
	return [
		{
			benchmark,
			metric: 'deliveries per second (median), our trigger vs the minimal trigger',
			ours,
			baseline: minimal,
			baselineName: 'minimal trigger',
			ratio: ours / minimal,
			target: '>= 0.95 x minimal trigger',
			pass: ours / minimal >= 0.95,
			notes,
		},
		{
			benchmark,
			metric: 'deliveries per second (median), our trigger vs the Webhook node',
			ours,
			baseline: webhook,
			baselineName: 'Webhook node',
			ratio: ours / webhook,
			target: '>= 0.9 x Webhook node',
			pass: ours / webhook >= 0.9,
		},
		{
			benchmark,
			metric: "deliveries per second (median), minimal trigger vs n8n's Webhook node",
			ours: minimal,
			baseline: webhook,
			baselineName: 'Webhook node',
			ratio: minimal / webhook,
			target: 'info',
			pass: null,
		},
	];
}
