/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// Copies of one event across n8n's webhook processes (queue mode: 2 webhook processes behind HAProxy,
// 2 workers, Postgres, Redis). 50 signed events, each delivered 3 times:
//   (i)   one copy after the other, alternating between the two webhook processes, back to back and
//         spaced 5, 20, 50, 200 and 1000 ms apart (the five spacings sent side by side);
//   (ii)  the 3 copies at the same moment through the load balancer hashing X-Service-Signature
//         (same body, same signature, same process) → one run per event;
//   (iii) the 3 copies at the same moment straight to different webhook processes.
// Every copy makes an execution; the event's claim in the workflow's deduplication store, made in the
// trigger's execution step on whichever worker runs it (docs/memory.md), lets one of them run. Where
// two workers' claims contend through a database stall both run (a copy is the lesser harm), so (i)
// and (iii) measure duplicate runs rather than forbid them.
// Every mode: no event lost, every run a success. The figures go to the log (and docs/queue-mode.md).

import { afterAll, expect, it } from 'vitest';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';
import {
	eventually,
	log,
	type N8nClient,
	type QueueStack,
	type SandboxCredential,
} from '../../local-n8n/index.ts';
import {
	allExecutions,
	deliverCopy,
	duplicates,
	lost,
	runsPerDocument,
	sleep,
	verifiedPayload,
} from './support/queueDeliveries.ts';
import {
	activeTrigger as activateTrigger,
	useQueueFixture,
	type QueueFixture,
} from './support/queueFixture.ts';

const EVENTS = 50;
const COPIES = 3;
/** Events in flight at once (each with its copies sent together). */
const PARALLEL_EVENTS = 10;
const SETTLE_MS = 5_000;
/** Window (i): pauses between the copies of one event, and the events sent per pause. */
const SPACINGS_MS = [5, 20, 50, 200, 1000];
const SPACED_EVENTS = 10;

let fixture: QueueFixture;
let stack: QueueStack;
let account: SandboxCredential;
const figures: string[] = [];

const activeTrigger = async (name: string) => await activateTrigger(fixture, name);

const documentIds = (mode: string, events = EVENTS) =>
	Array.from({ length: events }, (_, i) => `doc_queue_${mode}_${String(i).padStart(6, '0')}`);

/** Waits for at least one run per event, lets late copies land, and returns the runs per document. */
async function settledRuns(workflowId: string, events = EVENTS) {
	await eventually(
		`${events} executions of ${workflowId}`,
		async () => (await allExecutions(stack.client, workflowId)).length,
		(n) => n >= events,
		240_000,
	);
	await eventually(
		'no execution still running',
		async () =>
			(await allExecutions(stack.client, workflowId)).filter(
				(e) => e.status === 'running' || e.status === 'new',
			).length,
		(n) => n === 0,
		120_000,
	);
	await sleep(SETTLE_MS);
	return await runsPerDocument(stack.client, workflowId);
}

async function inBatches<T>(
	items: T[],
	size: number,
	each: (item: T) => Promise<void>,
): Promise<void> {
	for (let i = 0; i < items.length; i += size)
		await Promise.all(items.slice(i, i + size).map(each));
}

function report(
	mode: string,
	result: { runs: Map<string, number>; total: number },
	ids: string[],
): void {
	const line = `${mode}: ${ids.length} events x ${COPIES} copies = ${ids.length * COPIES} deliveries → ${result.total} executions, ${duplicates(result.runs)} duplicate runs, ${lost(result.runs, ids).length} lost`;
	figures.push(line);
	log('queue-duplicates', line);
}

/** The runs of `ids` only. */
function runsOf(runs: Map<string, number>, ids: string[]): Map<string, number> {
	return new Map(ids.filter((id) => runs.has(id)).map((id) => [id, runs.get(id) ?? 0]));
}

function reportSpaced(gapMs: number, runs: Map<string, number>, ids: string[]): void {
	const executions = [...runs.values()].reduce((sum, count) => sum + count, 0);
	const line = `(i) copies ${gapMs} ms apart, alternating webhook processes: ${ids.length} events x ${COPIES} copies → ${executions} executions, ${duplicates(runs)} duplicate runs, ${lost(runs, ids).length} lost`;
	figures.push(line);
	log('queue-duplicates', line);
}

describeNeeding(QUEUE_MODE_REQUIREMENTS, 'duplicates across webhook processes (queue mode)', () => {
	useQueueFixture(
		{ balance: 'signature', sandbox: { retryBaseMs: 300, reviewDelayMs: 600_000 } },
		(started) => {
			fixture = started;
			({ stack, account } = started);
		},
	);

	afterAll(async () => {
		if (figures.length)
			process.stdout.write(`queue duplicates measured:\n  ${figures.join('\n  ')}\n`);
	});

	it('(i) copies one after the other on different webhook processes: none lost, duplicate runs measured', async () => {
		const { id, path } = await activeTrigger('queue duplicates (i) sequential');
		const ids = documentIds('seq');
		const order: N8nClient[] = [
			stack.webhookClients[0],
			stack.webhookClients[1],
			stack.webhookClients[0],
		];
		for (const documentId of ids) {
			const body = verifiedPayload(documentId);
			for (const client of order)
				expect(await deliverCopy(client, path, body, account.signingSecret)).toBe(200);
		}
		const result = await settledRuns(id);
		report('(i) copies back to back (0 ms), alternating webhook processes', result, ids);
		expect(result.failed).toBe(0);
		expect(lost(result.runs, ids)).toEqual([]);
		for (const count of result.runs.values()) expect(count).toBeLessThanOrEqual(COPIES);
	});

	it('(i) the window: copies spaced 5 to 1000 ms apart on different webhook processes: none lost, duplicate runs measured per spacing', async () => {
		const { id, path } = await activeTrigger('queue duplicates (i) spaced');
		const order: N8nClient[] = [
			stack.webhookClients[0],
			stack.webhookClients[1],
			stack.webhookClients[0],
		];
		const idsBySpacing = new Map(
			SPACINGS_MS.map((gapMs) => [gapMs, documentIds(`gap${gapMs}`, SPACED_EVENTS)]),
		);
		// The spacings side by side: each one's events one after the other, each copy its pause after the last.
		await Promise.all(
			[...idsBySpacing].map(async ([gapMs, ids]) => {
				for (const documentId of ids) {
					const body = verifiedPayload(documentId);
					for (const [copy, client] of order.entries()) {
						if (copy > 0) await sleep(gapMs);
						expect(await deliverCopy(client, path, body, account.signingSecret)).toBe(200);
					}
				}
			}),
		);
		const result = await settledRuns(id, SPACINGS_MS.length * SPACED_EVENTS);
		expect(result.failed).toBe(0);
		for (const [gapMs, ids] of idsBySpacing) {
			const runs = runsOf(result.runs, ids);
			reportSpaced(gapMs, runs, ids);
			expect(lost(runs, ids)).toEqual([]);
			for (const count of runs.values()) expect(count).toBeLessThanOrEqual(COPIES);
		}
	});

	it('(ii) copies at the same moment through the load balancer hashing the signature: one run per event, none lost', async () => {
		expect(stack.lb.balance()).toBe('signature');
		const { id, path } = await activeTrigger('queue duplicates (ii) concurrent via LB');
		const ids = documentIds('lbhash');
		await inBatches(ids, PARALLEL_EVENTS, async (documentId) => {
			const body = verifiedPayload(documentId);
			const statuses = await Promise.all(
				Array.from({ length: COPIES }, () =>
					deliverCopy(stack.lbClient, path, body, account.signingSecret),
				),
			);
			expect(statuses).toEqual(Array(COPIES).fill(200));
		});
		const result = await settledRuns(id);
		report('(ii) concurrent, LB balance hdr(X-Service-Signature)', result, ids);
		expect(result.failed).toBe(0);
		expect(lost(result.runs, ids)).toEqual([]);
		expect(duplicates(result.runs)).toBe(0);
		expect(result.total).toBe(EVENTS);
	});

	it('(iii) copies at the same moment on different webhook processes: none lost, duplicate runs measured', async () => {
		const { id, path } = await activeTrigger('queue duplicates (iii) concurrent, split');
		const ids = documentIds('split');
		const targets: N8nClient[] = [
			stack.webhookClients[0],
			stack.webhookClients[1],
			stack.webhookClients[0],
		];
		await inBatches(ids, PARALLEL_EVENTS, async (documentId) => {
			const body = verifiedPayload(documentId);
			const statuses = await Promise.all(
				targets.map((client) => deliverCopy(client, path, body, account.signingSecret)),
			);
			expect(statuses).toEqual(Array(COPIES).fill(200));
		});
		const result = await settledRuns(id);
		report('(iii) concurrent, copies split across webhook processes', result, ids);
		expect(result.failed).toBe(0);
		expect(lost(result.runs, ids)).toEqual([]);
		for (const count of result.runs.values()) expect(count).toBeLessThanOrEqual(COPIES);
		expect(result.total).toBeLessThanOrEqual(EVENTS * COPIES);
	});
});
