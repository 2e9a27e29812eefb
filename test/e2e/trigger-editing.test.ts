/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The trigger as a person builds with it, in a real n8n driven through its REST API the way the
// editor does it (publish, deactivate, rename + save + publish, "Listen for test event" and its stop,
// a credential's secret changed), against the sandbox, which keeps every registration it is given and
// delivers each event once per registration. Each row of the table in docs/trigger.md → its outcome,
// with the counts (registrations held, runs per event) printed at the end.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMEMBER_SECRET_MS } from '../../nodes/shared/recentSigningSecrets.ts';
import {
	documentInReview as submitForReview,
	eventually,
	nodeJson,
	reviewTriggerNode,
	sandboxControl,
	sandboxDeliveries,
	sandboxState,
	sandboxCredential,
	signBody,
	startSandboxInProcess,
	startStack,
	stopAll,
	triggerWorkflow,
	type Credential,
	type SandboxHandle,
	type Stack,
} from '../../local-n8n/index.ts';

let stack: Stack;
let sandbox: SandboxHandle;
let credential: Credential;
let apiKey: string;
let signingSecret: string;
const rows: string[] = [];

const SETTLE_MS = 2_500;
const TRIGGER = 'Review finished';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Target {
	id: string;
	path: string;
	url: string;
	testUrl: string;
}

async function registrationsFor(url: string) {
	return (await sandboxState(sandbox.url)).webhooks.filter((webhook) => webhook.url === url);
}

/** The registrations for `url` after a settle (so a late extra one is seen too). */
async function settledRegistrations(url: string, atLeast = 1) {
	await eventually(`${atLeast} registration(s) for ${url}`, () => registrationsFor(url), (found) => found.length >= atLeast, 30_000);
	await sleep(SETTLE_MS);
	return await registrationsFor(url);
}

async function executions(workflowId: string, mode?: string) {
	const list = await stack.client.listExecutions(workflowId);
	return mode ? list.filter((execution) => execution.mode === mode) : list;
}

/** Waits for `count` executions (of `mode`) and checks that no more come after a settle. */
async function exactly(workflowId: string, count: number, mode?: string): Promise<number> {
	if (count > 0) await eventually(`${count} execution(s) of ${workflowId}`, () => executions(workflowId, mode), (list) => list.length >= count, 60_000);
	await sleep(SETTLE_MS);
	const found = (await executions(workflowId, mode)).length;
	expect(found, `executions (${mode ?? 'any'}) of workflow ${workflowId}`).toBe(count);
	return found;
}

async function create(name: string, options: Record<string, unknown> = {}): Promise<Target> {
	const trigger = reviewTriggerNode(credential, ['document.verified', 'document.rejected']);
	trigger.parameters = { ...(trigger.parameters as Record<string, unknown>), options };
	const definition = triggerWorkflow({ name, trigger });
	const workflow = await stack.client.createWorkflow(definition);
	const path = `${definition.webhookId}/webhook`;
	return { id: workflow.id, path, url: `${stack.n8n.baseUrl}/webhook/${path}`, testUrl: `${stack.n8n.baseUrl}/webhook-test/${path}` };
}

async function publish(target: Target): Promise<void> {
	await stack.client.activateWorkflow(target.id);
	await stack.client.waitForWebhook(target.path);
}

async function deactivate(target: Target): Promise<void> {
	await stack.client.deactivateWorkflow(target.id);
	await stack.client.waitForWebhook(target.path, 'POST', { gone: true });
}

/** The editor's rename: the node and its connections under the new name, saved. */
async function renameTrigger(target: Target, to: string): Promise<void> {
	const workflow = (await stack.client.getWorkflow(target.id)) as unknown as { nodes: Array<{ name: string }>; connections: Record<string, unknown> };
	const from = workflow.nodes[0].name;
	const nodes = workflow.nodes.map((node) => (node.name === from ? { ...node, name: to } : node));
	const connections = Object.fromEntries(Object.entries(workflow.connections).map(([name, value]) => [name === from ? to : name, value]));
	await stack.client.updateWorkflow(target.id, { nodes, connections } as never);
}

async function editOptions(target: Target, options: Record<string, unknown>): Promise<void> {
	const workflow = (await stack.client.getWorkflow(target.id)) as unknown as { nodes: Array<{ parameters: Record<string, unknown> }> };
	const nodes = workflow.nodes.map((node, index) => (index === 0 ? { ...node, parameters: { ...node.parameters, options } } : node));
	await stack.client.updateWorkflow(target.id, { nodes } as never);
}

/** "Listen for test event" as the editor starts it; resolves once n8n listens. */
async function listen(target: Target, triggerName = TRIGGER): Promise<void> {
	const started = await stack.client.call<{ waitingForWebhook?: boolean }>('POST', `/rest/workflows/${target.id}/run`, { triggerToStartFrom: { name: triggerName } });
	expect(started.waitingForWebhook).toBe(true);
}

/** The editor's "Stop listening". */
async function stopListening(target: Target): Promise<void> {
	await stack.client.call('DELETE', `/rest/test-webhook/${target.id}`);
}

async function approve(): Promise<string> {
	const document = await submitForReview(sandbox.url, apiKey, 'invoice-blurry.json');
	expect(document.status).toBe('needs_review');
	await sandboxControl(sandbox.url, `reviews/${document.review_id}/approve`, {});
	return document.document_id;
}

async function deliveriesOf(documentId: string, url: string) {
	return (await sandboxDeliveries(sandbox.url)).filter((delivery) => delivery.documentId === documentId && delivery.url === url);
}

/** Waits until the sandbox has delivered to `url` `count` times successfully for the document. */
async function delivered(documentId: string, url: string, count: number) {
	return await eventually(`${count} successful deliveries of ${documentId} to ${url}`, () => deliveriesOf(documentId, url), (list) => list.filter((delivery) => delivery.ok).length >= count, 60_000);
}

function verifiedPayload(documentId: string): string {
	return JSON.stringify({
		event: 'document.verified',
		timestamp: new Date().toISOString(),
		document_id: documentId,
		review_id: 'rev_editing',
		verified_by: 'human_reviewer',
		corrections_made: false,
		data: { header: { vendor: 'Editing Ltd' } },
		confidence: { original: 0.7, final: 1 },
	});
}

async function signedDelivery(target: Target, payload: string, options: { test?: boolean; secret?: string } = {}) {
	return await stack.client.callWebhook(target.path, {
		test: options.test,
		body: payload,
		headers: { 'content-type': 'application/json', 'x-service-signature': signBody(payload, options.secret ?? signingSecret) },
	});
}

describe('the trigger while a person edits, tests, toggles and changes the secret (real n8n, sandbox keeps every registration)', () => {
	let main: Target;
	let noDuplicates: Target;
	let mainRuns = 0;

	beforeAll(async () => {
		stack = await startStack({ package: 'repo' });
		sandbox = await startSandboxInProcess(stack.tls, { retryBaseMs: 300, reviewDelayMs: 600_000 });
		({ credential, apiKey, signingSecret } = await sandboxCredential(stack.client, sandbox, 'enterprise'));
	});

	afterAll(async () => {
		if (rows.length > 0) process.stdout.write(`trigger editing e2e (registrations held, runs per event):\n  ${rows.join('\n  ')}\n`);
		await sandbox?.close();
		await stack?.stop();
		await stopAll();
	});

	it('activated: 1 registration, 1 run per event', async () => {
		main = await create('editing: main');
		await publish(main);
		expect(await settledRegistrations(main.url)).toHaveLength(1);
		const documentId = await approve();
		await delivered(documentId, main.url, 1);
		mainRuns = await exactly(main.id, 1);
		rows.push(`activated → registrations 1, runs for the event 1`);
	});

	it('switched off and on 3 times: still 1 registration, 1 run per event', async () => {
		for (let toggle = 0; toggle < 3; toggle++) {
			await deactivate(main);
			await publish(main);
		}
		const held = await settledRegistrations(main.url);
		expect(held).toHaveLength(1);
		const documentId = await approve();
		await delivered(documentId, main.url, 1);
		mainRuns = await exactly(main.id, mainRuns + 1);
		rows.push(`off/on ×3 → registrations ${held.length}, runs for the event 1`);
	});

	it('renamed, saved and published 3 times, then restarted: still 1 registration; an event received before is still known', async () => {
		const before = verifiedPayload('doc_editing_before_rename_01');
		expect((await signedDelivery(main, before)).status).toBe(200);
		mainRuns = await exactly(main.id, mainRuns + 1);
		let name = TRIGGER;
		for (const next of ['Review done', 'Review outcome', 'Invoice reviewed']) {
			await renameTrigger(main, next);
			await publish(main);
			name = next;
		}
		await stack.restartN8n();
		await stack.client.waitForWebhook(main.path);
		const held = await settledRegistrations(main.url);
		expect(held).toHaveLength(1);
		const replay = await signedDelivery(main, before);
		expect(replay.status).toBe(200);
		expect(replay.json).toMatchObject({ started: false, reason: 'duplicate' });
		await exactly(main.id, mainRuns);
		const documentId = await approve();
		await delivered(documentId, main.url, 1);
		mainRuns = await exactly(main.id, mainRuns + 1);
		const [latest] = (await stack.client.waitForExecutions(main.id, mainRuns)).slice(-1);
		expect(nodeJson(latest, name)[0]).toMatchObject({ document_id: documentId });
		rows.push(`renamed + published ×3, restart → registrations ${held.length}; the event received before the renames, replayed → 0 runs; a new event → 1 run`);
	});

	it('"Listen for test event" while active: the test copy first or the production copy first, each side runs its own; 4 listens register the test URL once', async () => {
		const { nodes } = (await stack.client.getWorkflow(main.id)) as unknown as { nodes: Array<{ name: string }> };
		const triggerName = nodes[0].name;
		const results: string[] = [];
		for (const order of ['test first', 'production first'] as const) {
			await listen(main, triggerName);
			await eventually('the test URL registration', () => registrationsFor(main.testUrl), (found) => found.length >= 1, 20_000);
			const manualBefore = (await executions(main.id, 'manual')).length;
			const payload = verifiedPayload(`doc_editing_${order === 'test first' ? 'testfirst' : 'prodfirst'}_01`);
			const answers = order === 'test first'
				? [await signedDelivery(main, payload, { test: true }), await signedDelivery(main, payload)]
				: [await signedDelivery(main, payload), await signedDelivery(main, payload, { test: true })];
			expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
			mainRuns = await exactly(main.id, mainRuns + 1, 'webhook');
			await exactly(main.id, manualBefore + 1, 'manual');
			results.push(`${order}: production run 1, test run 1`);
		}
		// The real thing: a review finishes while listening; the sandbox delivers to both registrations.
		await listen(main, triggerName);
		await sleep(1_000);
		const manualBefore = (await executions(main.id, 'manual')).length;
		const documentId = await approve();
		await delivered(documentId, main.url, 1);
		await delivered(documentId, main.testUrl, 1);
		mainRuns = await exactly(main.id, mainRuns + 1, 'webhook');
		await exactly(main.id, manualBefore + 1, 'manual');
		// A fourth listen, stopped by the person: nothing more is registered.
		await listen(main, triggerName);
		await sleep(1_000);
		await stopListening(main);
		const testHeld = await settledRegistrations(main.testUrl);
		expect(testHeld).toHaveLength(1);
		expect(await registrationsFor(main.url)).toHaveLength(1);
		rows.push(`listen while active: ${results.join('; ')}; a real review while listening → production 1, test 1; 4 listens → test-URL registrations ${testHeld.length}`);
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
		const held = await settledRegistrations(noDuplicates.url);
		expect(held).toHaveLength(1);
		const documentId = await approve();
		await delivered(documentId, noDuplicates.url, 1);
		await delivered(documentId, main.url, 1);
		await exactly(noDuplicates.id, 1);
		mainRuns = await exactly(main.id, mainRuns + 1, 'webhook');
		rows.push(`Ignore Duplicates off, 1 edit + 3 toggles → registrations ${held.length}, runs for the event 1`);
	});

	it('the credential\'s signing secret changed while active: no delivery refused, the new secret registered by the first delivery, then both secrets in flight → 1 run per event', async () => {
		const newSecret = `whsec_rotated_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
		await stack.client.updateCredential(credential.id, { name: credential.name, type: credential.type, data: { baseUrl: sandbox.url, apiKey, signingSecret: newSecret, tier: 'enterprise' } });
		// Past the few seconds the process trusts the secret it last read (recentSigningSecrets).
		await sleep(REMEMBER_SECRET_MS + 1_000);
		const noDuplicatesRuns = (await executions(noDuplicates.id)).length;

		const first = await approve();
		const firstMain = await delivered(first, main.url, 1);
		await delivered(first, noDuplicates.url, 1);
		expect(firstMain.every((delivery) => delivery.status === 200)).toBe(true);
		mainRuns = await exactly(main.id, mainRuns + 1, 'webhook');
		await exactly(noDuplicates.id, noDuplicatesRuns + 1);
		const mainHeld = await settledRegistrations(main.url, 2);
		const noDuplicatesHeld = await settledRegistrations(noDuplicates.url, 2);
		expect(mainHeld).toHaveLength(2);
		expect(noDuplicatesHeld).toHaveLength(2);
		expect(mainHeld.map((registration) => registration.secret)).toEqual([signingSecret, newSecret]);

		// Both registrations deliver the next event: one signed with the old secret, one with the new.
		const second = await approve();
		const secondMain = await delivered(second, main.url, 2);
		const secondNoDuplicates = await delivered(second, noDuplicates.url, 2);
		expect(new Set(secondMain.map((delivery) => delivery.webhookId)).size).toBe(2);
		mainRuns = await exactly(main.id, mainRuns + 1, 'webhook');
		await exactly(noDuplicates.id, noDuplicatesRuns + 2);
		const refused = [...secondMain, ...secondNoDuplicates, ...firstMain].filter((delivery) => delivery.status === 401).length;
		expect(refused).toBe(0);
		// Toggling now registers nothing more.
		await deactivate(main);
		await publish(main);
		expect(await settledRegistrations(main.url, 2)).toHaveLength(2);
		signingSecret = newSecret;
		rows.push(
			`secret changed while active → the first event (old secret) runs 1 and registers the new secret: registrations ${mainHeld.length} (main), ${noDuplicatesHeld.length} (Ignore Duplicates off); the next event, ${secondMain.length} + ${secondNoDuplicates.length} deliveries with both secrets → runs 1 and 1; 401s 0`,
		);
	});

	it('a refused delivery is counted in the workflow, with no secret and no forged content', async () => {
		const forged = verifiedPayload('doc_FORGEDCONTENT_editing01');
		const answer = await signedDelivery(main, forged, { secret: 'not-the-secret' });
		expect(answer.status).toBe(401);
		const workflow = (await stack.client.getWorkflow(main.id)) as unknown as { staticData?: Record<string, Record<string, Record<string, { refused?: { count: number; lastReason: string } }>>> };
		const memory = Object.values(workflow.staticData?.global?.documentExtractionTrigger ?? {})[0];
		expect(memory?.refused).toMatchObject({ count: 1, lastReason: 'signature mismatch (answered 401)' });
		const text = JSON.stringify(workflow.staticData);
		for (const secret of [signingSecret, 'not-the-secret', apiKey, 'FORGEDCONTENT']) expect(text.includes(secret)).toBe(false);
		rows.push(`a forged delivery → 401, counted in the workflow's static data (count ${memory?.refused?.count}, "${memory?.refused?.lastReason}")`);
	});

	it('Send Sample Event When Listening: the test listener gets a marked sample at once; production never runs one', async () => {
		const sampler = await create('editing: sample event', { sendSampleEvent: true });
		await listen(sampler);
		const [execution] = await stack.client.waitForExecutions(sampler.id, 1, { timeoutMs: 30_000 });
		expect(execution.mode).toBe('manual');
		const [item] = nodeJson(execution, TRIGGER);
		expect(item).toMatchObject({ sample: true, event: 'document.verified', vendor: 'Sample Supplies Ltd' });
		expect(String(item.document_id)).toMatch(/^doc_sample_/);
		await publish(sampler);
		const sample = JSON.stringify({ ...JSON.parse(verifiedPayload('doc_sample_0000000000000001')), sample: true });
		const answer = await signedDelivery(sampler, sample);
		expect(answer.json).toMatchObject({ started: false, reason: 'sample event (test listening only)' });
		await exactly(sampler.id, 1);
		rows.push('sample event: listening → 1 test run marked sample: true; the same sample to production → 0 runs');
	});
});
