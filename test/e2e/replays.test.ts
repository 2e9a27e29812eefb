// A delivery replayed later starts nothing (N41), in a real n8n: a body signed three days ago or two
// hours ahead is refused as stale; the newest accepted deliveries of a burst at 10 at a time,
// replayed after a restart of n8n, are duplicates; a copy of the first delivery, replayed after more
// than 1,000 newer deliveries and a restart, is a duplicate too (the memory covers the window by
// time, not only by count); a retry inside the window gets the usual duplicate answer.

import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../local-n8n/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox();
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

const executions = async () =>
	(await fixture.stack.client.listExecutions(workflowId, { limit: Number.POSITIVE_INFINITY }))
		.length;

/** Waits for `count` executions, lets a settle pass, and checks that no more came. */
async function exactly(count: number) {
	await eventually(`${count} executions`, executions, (n) => n >= count, 600_000);
	await fixture.settle();
	expect(await executions()).toBe(count);
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
		await fixture.exactlyExecutions(workflowId, 0);
	});

	it('a retry inside the window gets the duplicate answer; after a burst at 10 at a time and a restart, the copies start nothing', async () => {
		const first = delivery('doc_replay_retry');
		expect((await send(first)).json).toMatchObject({ started: true });
		expect(await send(first)).toEqual({
			status: 200,
			json: { received: true, started: false, reason: 'duplicate' },
		});

		const burst = Array.from({ length: 10 }, (_, index) => delivery(`doc_replay_burst_${index}`));
		expect(await inBatches(burst, 10)).toEqual(Array(10).fill(200));
		await fixture.exactlyExecutions(workflowId, 11);
		await fixture.stack.restartN8n();
		await fixture.stack.client.waitForWebhook(path);
		const replayed = await Promise.all(burst.map(async (body) => await send(body)));
		expect(replayed.map((answer) => answer.json.reason)).toEqual(Array(10).fill('duplicate'));
		await fixture.exactlyExecutions(workflowId, 11);
	});

	it('a copy of a delivery replayed after 1,050 newer ones and a restart starts nothing', async () => {
		const captured = delivery('doc_replay_captured');
		const earlier = await executions();
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
		expect((await send(captured)).json).toMatchObject({ started: false, reason: 'duplicate' });
		await exactly(before + 1_050);
	}, 900_000);
});
