// A delivery replayed later starts nothing (N41, N63), in a real n8n: a body signed three days ago or
// two hours ahead is refused as stale; a retry inside the window does not run again; after more than
// 1,000 newer deliveries and a restart of n8n, neither the deliveries of a burst at 10 at a time nor a
// copy of a delivery made before them runs again (each event's claim is in n8n's database). A copy
// still makes an execution, which stops at the trigger: the test counts runs that reach the workflow.
// The file shares n8n with the other files and restarts it once.

import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../local-n8n/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox({ restartsN8n: true });
const HOUR = 3_600_000;

let workflowId: string;
let path: string;

function delivery(documentId: string, signedAt = new Date()): string {
	return JSON.stringify({
		event: 'document.verified',
		timestamp: signedAt.toISOString(),
		document_id: documentId,
		review_id: `rev_${documentId}`,
		verified_by: 'human_reviewer',
		corrections_made: false,
		data: { header: { vendor: 'Replay Ltd' } },
		confidence: { original: 0.6, final: 1 },
	});
}

async function send(body: string) {
	const answer = await fixture.stack.client.callWebhook(path, {
		body,
		headers: { 'content-type': 'application/json', 'x-service-signature': fixture.sign(body) },
		timeoutMs: 60_000,
	});
	return { status: answer.status, json: answer.json as Record<string, unknown> };
}

async function inBatches(bodies: string[], size: number) {
	const statuses: number[] = [];
	for (let start = 0; start < bodies.length; start += size)
		statuses.push(
			...(await Promise.all(
				bodies.slice(start, start + size).map(async (body) => (await send(body)).status),
			)),
		);
	return statuses;
}

const runs = async () => (await fixture.runs(workflowId)).length;

/** Waits for `count` runs, lets a settle pass, and checks that no more came. */
async function exactly(count: number) {
	await eventually(`${count} runs`, runs, (n) => n >= count, 600_000);
	await fixture.exactlyRuns(workflowId, count);
}

describe('Replays of signed deliveries, in a real n8n', () => {
	beforeAll(async () => {
		({ id: workflowId, path } = await fixture.activeTriggerWorkflow('replays'));
	});

	it('a body signed three days ago, or two hours ahead, is refused as stale and starts nothing', async () => {
		const old = await send(delivery('doc_replay_old', new Date(Date.now() - 72 * HOUR)));
		const ahead = await send(delivery('doc_replay_ahead', new Date(Date.now() + 2 * HOUR)));
		for (const answer of [old, ahead]) {
			expect(answer.status).toBe(400);
			expect(String(answer.json.error ?? JSON.stringify(answer.json))).toContain('Stale delivery');
		}
		await fixture.exactlyRuns(workflowId, 0);
	});

	const burst = Array.from({ length: 10 }, (_, index) => delivery(`doc_replay_burst_${index}`));

	it('a retry inside the window does not run again; a burst at 10 at a time runs each delivery once', async () => {
		const first = delivery('doc_replay_retry');
		expect((await send(first)).json).toMatchObject({ started: true });
		expect((await send(first)).status).toBe(200);

		expect(await inBatches(burst, 10)).toEqual(Array(10).fill(200));
		await fixture.exactlyRuns(workflowId, 11);
	});

	it('after 1,050 newer deliveries and a restart, neither the burst nor a copy of a delivery before them runs again', async () => {
		const captured = delivery('doc_replay_captured');
		const earlier = await runs();
		expect((await send(captured)).json).toMatchObject({ started: true });
		const before = earlier + 1;
		await exactly(before);
		const newer = Array.from({ length: 1_050 }, (_, index) =>
			delivery(`doc_replay_newer_${String(index).padStart(4, '0')}`),
		);
		expect(new Set(await inBatches(newer, 10))).toEqual(new Set([200]));
		await exactly(before + 1_050);
		await fixture.stack.restartN8n();
		await fixture.stack.client.waitForWebhook(path);
		const replayed = await Promise.all(burst.map(async (body) => await send(body)));
		expect(replayed.map((answer) => answer.status)).toEqual(Array(10).fill(200));
		expect((await send(captured)).status).toBe(200);
		await exactly(before + 1_050);
	}, 900_000);
});
