// A delivery replayed later starts nothing, in queue mode (2 webhook processes behind HAProxy, 2
// workers, Postgres, Redis): a stale body is refused by either webhook process; deliveries accepted
// on one process, whose runs then finished on the workers, replayed on the other process run no
// second time: each event's claim is in n8n's database (N63); a copy's execution stops at the trigger.

import { beforeAll, expect, it } from 'vitest';
import {
	actionNode,
	codeNode,
	eventually,
	reviewTriggerNode,
	triggerWorkflow,
	type N8nClient,
} from '../../local-n8n/index.ts';
import {
	allExecutions,
	runsPerDocument,
	signedHeaders,
	sleep,
	verifiedPayload,
} from './support/queueDeliveries.ts';
import {
	activateTriggerWorkflow,
	useQueueFixture,
	type QueueFixture,
} from './support/queueFixture.ts';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';

const EVENTS = 20;
const HOUR = 3_600_000;

let fixture: QueueFixture;
let workflow: { id: string; path: string };

async function send(client: N8nClient, body: string) {
	const answer = await client.callWebhook(workflow.path, {
		body,
		headers: signedHeaders(body, fixture.account.signingSecret),
		timeoutMs: 60_000,
	});
	return { status: answer.status, json: answer.json as Record<string, unknown> };
}

const finishedRuns = async () =>
	(await allExecutions(fixture.stack.client, workflow.id)).filter(
		(execution) => execution.status !== 'running' && execution.status !== 'new',
	);

describeNeeding(QUEUE_MODE_REQUIREMENTS, 'replays in queue mode', () => {
	useQueueFixture({ sandbox: { reviewDelayMs: 600_000 } }, (started) => (fixture = started));

	beforeAll(async () => {
		const definition = triggerWorkflow({
			name: 'queue replays: trigger → Check Invoice Duplicate',
			trigger: reviewTriggerNode(fixture.account.credential, ['document.verified']),
			nodes: [
				{
					...actionNode('Check Invoice Duplicate', fixture.account.credential, {
						resource: 'document',
						operation: 'checkInvoiceDuplicate',
					}),
					credentials: undefined,
				},
				codeNode('Done', 'return $input.all();'),
			],
		});
		workflow = await activateTriggerWorkflow(fixture, definition);
	});

	it('a body signed three days ago is refused as stale by either webhook process', async () => {
		const old = verifiedPayload('doc_queue_replay_old').replace(
			/"timestamp":"[^"]+"/,
			`"timestamp":"${new Date(Date.now() - 72 * HOUR).toISOString()}"`,
		);
		for (const client of fixture.stack.webhookClients) {
			const answer = await send(client, old);
			expect(answer.status).toBe(400);
			expect(JSON.stringify(answer.json)).toContain('Stale delivery');
		}
		await sleep(3_000);
		expect(await allExecutions(fixture.stack.client, workflow.id)).toEqual([]);
	});

	it(`${EVENTS} deliveries accepted on one process, run on the workers, replayed on the other: none runs again`, async () => {
		const [first, second] = fixture.stack.webhookClients;
		const bodies = Array.from({ length: EVENTS }, (_, index) =>
			verifiedPayload(`doc_queue_replay_${String(index).padStart(3, '0')}`),
		);
		for (const body of bodies)
			expect((await send(first, body)).json).toMatchObject({ started: true });
		await eventually(
			`${EVENTS} finished runs`,
			finishedRuns,
			(runs) => runs.length >= EVENTS,
			240_000,
		);
		expect((await finishedRuns()).map((run) => run.status)).toEqual(Array(EVENTS).fill('success'));

		const replayed = [];
		for (const body of bodies) replayed.push(await send(second, body));
		expect(replayed.map((answer) => answer.status)).toEqual(Array(EVENTS).fill(200));
		await eventually(
			`${EVENTS * 2} finished executions`,
			finishedRuns,
			(runs) => runs.length >= EVENTS * 2,
			240_000,
		);
		await sleep(5_000);
		const { runs } = await runsPerDocument(fixture.stack.client, workflow.id);
		expect([...runs.values()]).toEqual(Array(EVENTS).fill(1));
	});
});
