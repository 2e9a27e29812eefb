/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The trigger as a person builds with it, in a real n8n driven through its REST API the way the
// editor does it (publish, deactivate, rename + save + publish, "Listen for test event" and its stop,
// a credential's secret changed), against the sandbox, which keeps every registration it is given and
// delivers each event once per registration. Each row of the table in docs/trigger.md → its outcome,
// with the counts (registrations held, runs per event) printed at the end.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { REMEMBER_SECRET_MS } from '../../nodes/DocumentExtraction/delivery/signingSecret.ts';
import { eventually, nodeJson, reviewTriggerNode, sandboxControl } from '../../local-n8n/index.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { verifiedEventBody } from './support/verifiedEvent.ts';

const fixture = useN8nAndSandbox({
	restartsN8n: true,
	sandbox: REVIEWS_DECIDED_BY_THE_TEST,
	settleMs: 2_500,
});
const rows: string[] = [];

const TRIGGER = 'Review finished';

interface Target {
	id: string;
	path: string;
	url: string;
	testUrl: string;
}

async function create(name: string, options: Record<string, unknown> = {}): Promise<Target> {
	const trigger = reviewTriggerNode(fixture.credential, ['document.verified', 'document.rejected']);
	trigger.parameters = { ...(trigger.parameters as Record<string, unknown>), options };
	return await fixture.createTriggerWorkflow(name, trigger);
}

async function publish(target: Target): Promise<void> {
	await fixture.stack.client.activateWorkflow(target.id);
	await fixture.stack.client.waitForWebhook(target.path);
}

async function deactivate(target: Target): Promise<void> {
	await fixture.stack.client.deactivateWorkflow(target.id);
	await fixture.stack.client.waitForWebhook(target.path, 'POST', { gone: true });
}

/** The editor's rename: the node and its connections under the new name, saved. */
async function renameTrigger(target: Target, to: string): Promise<void> {
	const workflow = (await fixture.stack.client.getWorkflow(target.id)) as unknown as {
		nodes: Array<{ name: string }>;
		connections: Record<string, unknown>;
	};
	const from = workflow.nodes[0].name;
	const nodes = workflow.nodes.map((node) => (node.name === from ? { ...node, name: to } : node));
	const connections = Object.fromEntries(
		Object.entries(workflow.connections).map(([name, value]) => [name === from ? to : name, value]),
	);
	await fixture.stack.client.updateWorkflow(target.id, { nodes, connections } as never);
}

async function editOptions(target: Target, options: Record<string, unknown>): Promise<void> {
	const workflow = (await fixture.stack.client.getWorkflow(target.id)) as unknown as {
		nodes: Array<{ parameters: Record<string, unknown> }>;
	};
	const nodes = workflow.nodes.map((node, index) =>
		index === 0 ? { ...node, parameters: { ...node.parameters, options } } : node,
	);
	await fixture.stack.client.updateWorkflow(target.id, { nodes } as never);
}

/** "Listen for test event" as the editor starts it; resolves once n8n listens. */
async function listen(target: Target, triggerName = TRIGGER): Promise<void> {
	const started = await fixture.stack.client.call<{ waitingForWebhook?: boolean }>(
		'POST',
		`/rest/workflows/${target.id}/run`,
		{ triggerToStartFrom: { name: triggerName } },
	);
	expect(started.waitingForWebhook).toBe(true);
}

/** The editor's "Stop listening". */
async function stopListening(target: Target): Promise<void> {
	await fixture.stack.client.call('DELETE', `/rest/test-webhook/${target.id}`);
}

async function approve(): Promise<string> {
	const document = await fixture.documentInReview();
	await sandboxControl(fixture.sandbox.url, `reviews/${document.review_id}/approve`, {});
	return document.document_id;
}

/** Waits until the sandbox has delivered to `url` `count` times successfully for the document; every attempt, failed ones too. */
async function delivered(documentId: string, url: string, count: number) {
	return await fixture.deliveriesOnceOk(
		`${count} successful deliveries of ${documentId} to ${url}`,
		(delivery) => delivery.documentId === documentId && delivery.url === url,
		count,
	);
}

const verifiedPayload = (documentId: string): string =>
	verifiedEventBody(documentId, {
		reviewId: 'rev_editing',
		header: { vendor: 'Editing Ltd' },
		originalConfidence: 0.7,
	});

async function signedDelivery(
	target: Target,
	payload: string,
	options: { test?: boolean; secret?: string } = {},
) {
	return await fixture.stack.client.callWebhook(target.path, {
		test: options.test,
		body: payload,
		headers: {
			'content-type': 'application/json',
			'x-service-signature': fixture.sign(payload, options.secret),
		},
	});
}

describe('the trigger while a person edits, tests, toggles and changes the secret (real n8n, sandbox keeps every registration)', () => {
	let main: Target;
	let noDuplicates: Target;
	let mainRuns = 0;

	afterAll(async () => {
		if (rows.length > 0)
			process.stdout.write(
				`trigger editing e2e (registrations held, runs per event):\n  ${rows.join('\n  ')}\n`,
			);
	});

	it('activated: 1 registration, 1 run per event', async () => {
		main = await create('editing: main');
		await publish(main);
		expect(await fixture.settledRegistrations(main.url)).toHaveLength(1);
		const documentId = await approve();
		await delivered(documentId, main.url, 1);
		mainRuns = await fixture.exactlyRuns(main.id, 1);
		rows.push(`activated → registrations 1, runs for the event 1`);
	});

	it('switched off and on 3 times: still 1 registration, 1 run per event', async () => {
		for (let toggle = 0; toggle < 3; toggle++) {
			await deactivate(main);
			await publish(main);
		}
		const held = await fixture.settledRegistrations(main.url);
		expect(held).toHaveLength(1);
		const documentId = await approve();
		await delivered(documentId, main.url, 1);
		mainRuns = await fixture.exactlyRuns(main.id, mainRuns + 1);
		rows.push(`off/on ×3 → registrations ${held.length}, runs for the event 1`);
	});

	it('renamed, saved and published 3 times, then restarted: still 1 registration; an event received before is still known', async () => {
		const before = verifiedPayload('doc_editing_before_rename_01');
		expect((await signedDelivery(main, before)).status).toBe(200);
		mainRuns = await fixture.exactlyRuns(main.id, mainRuns + 1);
		let name = TRIGGER;
		for (const next of ['Review done', 'Review outcome', 'Invoice reviewed']) {
			await renameTrigger(main, next);
			await publish(main);
			name = next;
		}
		await fixture.stack.restartN8n();
		await fixture.stack.client.waitForWebhook(main.path);
		const held = await fixture.settledRegistrations(main.url);
		expect(held).toHaveLength(1);
		const replay = await signedDelivery(main, before);
		expect(replay.status).toBe(200);
		await fixture.exactlyRuns(main.id, mainRuns);
		const documentId = await approve();
		await delivered(documentId, main.url, 1);
		mainRuns = await fixture.exactlyRuns(main.id, mainRuns + 1);
		const latest = await fixture.lastRun(main.id);
		expect(nodeJson(latest, name)[0]).toMatchObject({ document_id: documentId });
		rows.push(
			`renamed + published ×3, restart → registrations ${held.length}; the event received before the renames, replayed → 0 runs; a new event → 1 run`,
		);
	});

	it('"Listen for test event" while active: the test copy first or the production copy first, each side runs its own; 4 listens register the test URL once', async () => {
		const { nodes } = (await fixture.stack.client.getWorkflow(main.id)) as unknown as {
			nodes: Array<{ name: string }>;
		};
		const triggerName = nodes[0].name;
		const results: string[] = [];
		for (const order of ['test first', 'production first'] as const) {
			await listen(main, triggerName);
			await eventually(
				'the test URL registration',
				() => fixture.registrationsFor(main.testUrl),
				(found) => found.length >= 1,
				20_000,
			);
			const manualBefore = (await fixture.runs(main.id, 'manual')).length;
			const payload = verifiedPayload(
				`doc_editing_${order === 'test first' ? 'testfirst' : 'prodfirst'}_01`,
			);
			const answers =
				order === 'test first'
					? [
							await signedDelivery(main, payload, { test: true }),
							await signedDelivery(main, payload),
						]
					: [
							await signedDelivery(main, payload),
							await signedDelivery(main, payload, { test: true }),
						];
			expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
			mainRuns = await fixture.exactlyRuns(main.id, mainRuns + 1, 'webhook');
			await fixture.exactlyRuns(main.id, manualBefore + 1, 'manual');
			results.push(`${order}: production run 1, test run 1`);
		}
		// The real thing: a review finishes while listening; the sandbox delivers to both registrations.
		await listen(main, triggerName);
		await sleep(1_000);
		const manualBefore = (await fixture.runs(main.id, 'manual')).length;
		const documentId = await approve();
		await delivered(documentId, main.url, 1);
		await delivered(documentId, main.testUrl, 1);
		mainRuns = await fixture.exactlyRuns(main.id, mainRuns + 1, 'webhook');
		await fixture.exactlyRuns(main.id, manualBefore + 1, 'manual');
		// A fourth listen, stopped by the person: nothing more is registered.
		await listen(main, triggerName);
		await sleep(1_000);
		await stopListening(main);
		const testHeld = await fixture.settledRegistrations(main.testUrl);
		expect(testHeld).toHaveLength(1);
		expect(await fixture.registrationsFor(main.url)).toHaveLength(1);
		rows.push(
			`listen while active: ${results.join('; ')}; a real review while listening → production 1, test 1; 4 listens → test-URL registrations ${testHeld.length}`,
		);
	});

	it('Ignore Duplicates off, after 1 edit and 3 toggles: 1 registration, 1 run per event', async () => {
		noDuplicates = await create('editing: ignore duplicates off', { ignoreDuplicates: false });
		await publish(noDuplicates);
		await editOptions(noDuplicates, { ignoreDuplicates: false, sendSampleEvent: false });
		await publish(noDuplicates);
		for (let toggle = 0; toggle < 3; toggle++) {
			await deactivate(noDuplicates);
			await publish(noDuplicates);
		}
		const held = await fixture.settledRegistrations(noDuplicates.url);
		expect(held).toHaveLength(1);
		const documentId = await approve();
		await delivered(documentId, noDuplicates.url, 1);
		await delivered(documentId, main.url, 1);
		await fixture.exactlyRuns(noDuplicates.id, 1);
		mainRuns = await fixture.exactlyRuns(main.id, mainRuns + 1, 'webhook');
		rows.push(
			`Ignore Duplicates off, 1 edit + 3 toggles → registrations ${held.length}, runs for the event 1`,
		);
	});

	it("the credential's signing secret changed while active: nothing to follow (the registration holds the trigger's own secret), no delivery refused, 1 run per event", async () => {
		const newSecret = `whsec_rotated_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
		const { credential } = fixture;
		await fixture.stack.client.updateCredential(credential.id, {
			name: credential.name,
			type: credential.type,
			data: {
				baseUrl: fixture.sandbox.url,
				apiKey: fixture.apiKey,
				signingSecret: newSecret,
				tier: 'enterprise',
			},
		});
		fixture.signingSecret = newSecret;
		// Past the few seconds the process trusts the secret it last read (delivery/signingSecret.ts).
		await sleep(REMEMBER_SECRET_MS + 1_000);
		const noDuplicatesRuns = (await fixture.runs(noDuplicates.id)).length;

		const events: string[] = [];
		for (let index = 0; index < 2; index++) events.push(await approve());
		const deliveries = [];
		for (const documentId of events) {
			deliveries.push(...(await delivered(documentId, main.url, 1)));
			deliveries.push(...(await delivered(documentId, noDuplicates.url, 1)));
		}
		mainRuns = await fixture.exactlyRuns(main.id, mainRuns + 2, 'webhook');
		await fixture.exactlyRuns(noDuplicates.id, noDuplicatesRuns + 2);
		expect(deliveries.filter((delivery) => delivery.status === 401)).toEqual([]);
		// Publishing after the change registers nothing either.
		await deactivate(main);
		await publish(main);
		const mainHeld = await fixture.settledRegistrations(main.url);
		const noDuplicatesHeld = await fixture.settledRegistrations(noDuplicates.url);
		expect(mainHeld).toHaveLength(1);
		expect(noDuplicatesHeld).toHaveLength(1);
		rows.push(
			`secret changed while active → registrations ${mainHeld.length} (main), ${noDuplicatesHeld.length} (Ignore Duplicates off); 2 events → runs 1 each; 401s 0`,
		);
	});

	it("a refused delivery writes nothing: the workflow's static data and its updatedAt stay as they were; n8n's log has it", async () => {
		const before = await fixture.stack.client.getWorkflow(main.id);
		// n8n's log from here on: the shared n8n's log holds the other files' refusals too.
		const logBefore = readFileSync(fixture.stack.n8n.logFile, 'utf8').length;
		const forged = verifiedPayload('doc_FORGEDCONTENT_editing01');
		const answer = await signedDelivery(main, forged, { secret: 'not-the-secret' });
		expect(answer.status).toBe(401);
		const after = await fixture.stack.client.getWorkflow(main.id);
		expect(after.staticData).toEqual(before.staticData);
		expect(after.updatedAt).toBe(before.updatedAt);
		const text = JSON.stringify(after.staticData);
		for (const secret of [fixture.signingSecret, 'not-the-secret', fixture.apiKey, 'FORGEDCONTENT'])
			expect(text.includes(secret)).toBe(false);
		await eventually(
			"the refusal in n8n's log",
			async () => readFileSync(fixture.stack.n8n.logFile, 'utf8').slice(logBefore),
			(log) =>
				/refused a delivery without a run \(signature mismatch; \d+ since n8n started\)/.test(log),
			10_000,
		);
		rows.push('a forged delivery → 401, logged and counted in the process; the workflow unchanged');
	});

	it('Send Sample Event When Listening: the test listener gets a marked sample at once; production never runs one', async () => {
		const sampler = await create('editing: sample event', { sendSampleEvent: true });
		await listen(sampler);
		const [execution] = await fixture.stack.client.waitForExecutions(sampler.id, 1, {
			timeoutMs: 30_000,
		});
		expect(execution.mode).toBe('manual');
		const [item] = nodeJson(execution, TRIGGER);
		expect(item).toMatchObject({
			sample: true,
			event: 'document.verified',
			vendor: 'Sample Supplies Ltd',
		});
		expect(String(item.document_id)).toMatch(/^doc_sample_/);
		await publish(sampler);
		const sample = JSON.stringify({
			...JSON.parse(verifiedPayload('doc_sample_0000000000000001')),
			sample: true,
		});
		const answer = await signedDelivery(sampler, sample);
		expect(answer.json).toMatchObject({
			started: false,
			reason: 'sample event (test listening only)',
		});
		await fixture.exactlyRuns(sampler.id, 1);
		rows.push(
			'sample event: listening → 1 test run marked sample: true; the same sample to production → 0 runs',
		);
	});
});
