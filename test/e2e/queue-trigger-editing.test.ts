/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The trigger while a person edits it, in queue mode (main runs the activation hooks, the webhook
// processes behind HAProxy run the deliveries, workers the runs): toggles, a rename and publishing
// register nothing again; a changed signing secret in the credential changes nothing the service holds
// (the registrations carry the trigger's own secret, N61), each event still runs once — with Ignore
// Duplicates on and off; "Listen for test event" on main (the load balancer sends /webhook-test/ there,
// as n8n serves test webhooks on main only) beside production on the webhook processes, each running
// its own copy of a real review. Counts printed at the end.

import { afterAll, describe, expect, it } from 'vitest';
import { REMEMBER_SECRET_MS } from '../../nodes/DocumentExtraction/delivery/signingSecret.ts';
import {
	documentInReview,
	eventually,
	nodeJson,
	sandboxControl,
	sandboxDeliveries,
	sandboxState,
} from '../../local-n8n/index.ts';
import { allExecutions, runsPerDocument, sleep, TRIGGER_NODE } from './support/queueDeliveries.ts';
import {
	activeTrigger,
	republish,
	useQueueFixture,
	type QueueFixture,
} from './support/queueFixture.ts';

let fixture: QueueFixture;
const rows: string[] = [];
const SETTLE_MS = 3_000;

type Target = { id: string; path: string; url: string };

async function registrationsFor(url: string) {
	return (await sandboxState(fixture.sandbox.url)).webhooks.filter(
		(webhook) => webhook.url === url,
	);
}

async function toggle(target: Target): Promise<void> {
	await fixture.stack.client.deactivateWorkflow(target.id);
	await sleep(1_000);
	await republish(fixture, target);
}

async function rename(target: Target, to: string): Promise<void> {
	const workflow = (await fixture.stack.client.getWorkflow(target.id)) as unknown as {
		nodes: Array<{ name: string }>;
		connections: Record<string, unknown>;
	};
	const nodes = workflow.nodes.map((node, index) => (index === 0 ? { ...node, name: to } : node));
	await fixture.stack.client.updateWorkflow(target.id, { nodes, connections: {} } as never);
}

async function approve(): Promise<string> {
	const document = await documentInReview(
		fixture.sandbox.url,
		fixture.account.apiKey,
		'invoice-blurry.json',
	);
	await sandboxControl(fixture.sandbox.url, `reviews/${document.review_id}/approve`, {});
	return document.document_id;
}

/** Runs of `documentId` in each workflow once `deliveries` successful deliveries reached each URL and a settle passed. */
async function runsOf(
	documentId: string,
	targets: Target[],
	deliveries: number,
): Promise<number[]> {
	for (const target of targets) {
		await eventually(
			`${deliveries} delivery(ies) of ${documentId} to ${target.url}`,
			async () =>
				(await sandboxDeliveries(fixture.sandbox.url)).filter(
					(d) => d.documentId === documentId && d.url === target.url && d.ok,
				),
			(list) => list.length >= deliveries,
			90_000,
		);
		await eventually(
			`a run of ${documentId} in ${target.id}`,
			async () =>
				(await runsPerDocument(fixture.stack.client, target.id)).runs.get(documentId) ?? 0,
			(runs) => runs >= 1,
			60_000,
		);
	}
	await sleep(SETTLE_MS);
	return await Promise.all(
		targets.map(
			async (target) =>
				(await runsPerDocument(fixture.stack.client, target.id)).runs.get(documentId) ?? 0,
		),
	);
}

/** Runs of `documentId` in the workflow by execution mode (`webhook`: production, `manual`: test listening). */
async function runsByMode(workflowId: string, documentId: string): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const summary of await allExecutions(fixture.stack.client, workflowId)) {
		const execution = await fixture.stack.client.getExecution(summary.id);
		if (nodeJson(execution, TRIGGER_NODE).some((item) => item.document_id === documentId))
			counts[summary.mode] = (counts[summary.mode] ?? 0) + 1;
	}
	return counts;
}

/** "Listen for test event" as the editor starts it (on main); resolves once n8n listens. */
async function listen(target: Target): Promise<void> {
	const started = await fixture.stack.client.call<{ waitingForWebhook?: boolean }>(
		'POST',
		`/rest/workflows/${target.id}/run`,
		{ triggerToStartFrom: { name: TRIGGER_NODE } },
	);
	expect(started.waitingForWebhook).toBe(true);
}

describe('queue mode: the trigger while a person edits it and changes the secret', () => {
	let withMemory: Target;
	let withoutMemory: Target;

	useQueueFixture(
		{ sandbox: { retryBaseMs: 300, reviewDelayMs: 600_000 } },
		(started) => (fixture = started),
	);

	afterAll(async () => {
		if (rows.length > 0)
			process.stdout.write(
				`queue trigger editing e2e (registrations held, runs per event):\n  ${rows.join('\n  ')}\n`,
			);
	});

	it('3 toggles and 2 renames, each published, register nothing again; one run per event (Ignore Duplicates on and off)', async () => {
		withMemory = await activeTrigger(fixture, 'queue editing: ignore duplicates on');
		withoutMemory = await activeTrigger(fixture, 'queue editing: ignore duplicates off', {
			ignoreDuplicates: false,
		});
		for (const target of [withMemory, withoutMemory]) {
			for (let count = 0; count < 3; count++) await toggle(target);
			// Renamed and published, then renamed back (the run counter reads the node by its first name).
			for (const name of ['Review done', 'Review finished']) {
				await rename(target, name);
				await republish(fixture, target);
			}
		}
		await sleep(SETTLE_MS);
		const held = [
			(await registrationsFor(withMemory.url)).length,
			(await registrationsFor(withoutMemory.url)).length,
		];
		expect(held).toEqual([1, 1]);
		const documentId = await approve();
		expect(await runsOf(documentId, [withMemory, withoutMemory], 1)).toEqual([1, 1]);
		rows.push(
			`3 toggles + 2 renames, each published → registrations ${held.join(' / ')} (on / off), runs for the event 1 / 1`,
		);
	});

	it('"Listen for test event" while active: a real review runs once in production and once in the listener; 2 listens register the test URL once', async () => {
		const testUrl = withMemory.url.replace('/webhook/', '/webhook-test/');
		await listen(withMemory);
		await eventually(
			'the test URL registration',
			() => registrationsFor(testUrl),
			(found) => found.length >= 1,
			20_000,
		);
		const documentId = await approve();
		await eventually(
			'a delivery to the test URL',
			async () =>
				(await sandboxDeliveries(fixture.sandbox.url)).filter(
					(d) => d.documentId === documentId && d.url === testUrl && d.ok,
				),
			(list) => list.length >= 1,
			60_000,
		);
		await eventually(
			`a delivery to ${withMemory.url}`,
			async () =>
				(await sandboxDeliveries(fixture.sandbox.url)).filter(
					(d) => d.documentId === documentId && d.url === withMemory.url && d.ok,
				),
			(list) => list.length >= 1,
			60_000,
		);
		await eventually(
			`a production and a test run of ${documentId}`,
			() => runsByMode(withMemory.id, documentId),
			(counts) => (counts.webhook ?? 0) >= 1 && (counts.manual ?? 0) >= 1,
			60_000,
		);
		await sleep(SETTLE_MS);
		const runs = await runsByMode(withMemory.id, documentId);
		expect(runs).toEqual({ webhook: 1, manual: 1 });
		await listen(withMemory);
		await sleep(2_000);
		await fixture.stack.client.call('DELETE', `/rest/test-webhook/${withMemory.id}`);
		await sleep(SETTLE_MS);
		const held = [
			(await registrationsFor(testUrl)).length,
			(await registrationsFor(withMemory.url)).length,
		];
		expect(held).toEqual([1, 1]);
		rows.push(
			`listen while active (main, through the load balancer) + a real review → production ${runs.webhook}, test ${runs.manual}; 2 listens → test-URL registrations ${held[0]}, production ${held[1]}`,
		);
	});

	it("the signing secret changed while active: nothing to follow (the registrations hold the trigger's own secret); 1 run per event, none refused (Ignore Duplicates on and off)", async () => {
		const newSecret = `whsec_queue_rotated_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
		await fixture.stack.client.updateCredential(fixture.account.credential.id, {
			name: fixture.account.credential.name,
			type: fixture.account.credential.type,
			data: {
				baseUrl: fixture.sandbox.url,
				apiKey: fixture.account.apiKey,
				signingSecret: newSecret,
				tier: 'enterprise',
			},
		});
		await sleep(REMEMBER_SECRET_MS + 1_000);

		const first = await approve();
		expect(await runsOf(first, [withMemory, withoutMemory], 1)).toEqual([1, 1]);
		const second = await approve();
		expect(await runsOf(second, [withMemory, withoutMemory], 1)).toEqual([1, 1]);
		await toggle(withMemory);
		await sleep(SETTLE_MS);
		const held = [
			(await registrationsFor(withMemory.url)).length,
			(await registrationsFor(withoutMemory.url)).length,
		];
		expect(held).toEqual([1, 1]);
		const attempts = (await sandboxDeliveries(fixture.sandbox.url)).filter(
			(d) => d.documentId === first || d.documentId === second,
		);
		const refused = attempts.filter((d) => d.status === 401).length;
		expect(refused).toBe(0);
		rows.push(
			`secret changed → registrations ${held.join(' / ')} (on / off), also after publishing; 2 events → runs 1 / 1 each; 401 answers ${refused}`,
		);
	});
});
