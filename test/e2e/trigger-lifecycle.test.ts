/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
 
// The Document Extraction Trigger in a real n8n (HTTPS, package installed from the local registry)
// against the sandbox, which delivers signed events over HTTPS: registration lifecycle, approved and
// rejected reviews, forged deliveries, duplicates, and no secret in n8n's data or log.

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	PACKAGE_NAME,
	REPO_ROOT,
	nodeJson,
	sandboxAvailable,
	sandboxControl,
	sandboxDemoAccount,
	startSandboxInProcess,
	startStack,
	stopAll,
	triggerWorkflow,
	type Credential,
	type SandboxHandle,
	type Stack,
} from './harness/index.ts';

let stack: Stack;
let sandbox: SandboxHandle;
let credential: Credential;
let apiKey: string;
let signingSecret: string;

interface SandboxState {
	webhooks: Array<{ id: string; url: string; events: string[] }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function registrationsFor(url: string) {
	const state = await sandboxControl<SandboxState>(sandbox.url, 'state');
	return state.webhooks.filter((webhook) => webhook.url === url);
}

/**
 * The registrations for `url` once there are `expected` of them (n8n serves a webhook path a moment
 * before the trigger's create() has finished registering it), or whatever there is after 15 s.
 */
async function registrationsReaching(url: string, expected: number) {
	const deadline = Date.now() + 15_000;
	for (;;) {
		const found = await registrationsFor(url);
		if (found.length >= expected || Date.now() > deadline) return found;
		await sleep(200);
	}
}

/** A document sent to human review (confidence 0.7), straight to the sandbox's service API. */
async function documentInReview(fileName = 'invoice-blurry.json'): Promise<{ document_id: string; review_id: string }> {
	await sandboxControl(sandbox.url, 'next-confidence', { confidence: 0.7 });
	const form = new FormData();
	form.append('file', new Blob([readFileSync(join(REPO_ROOT, 'examples', 'files', fileName))], { type: 'application/json' }), fileName);
	const res = await request(`${sandbox.url}/v1/extract`, { method: 'POST', body: form, headers: { 'x-api-key': apiKey } });
	const body = (await res.body.json()) as { status: string; document_id: string; review_id: string };
	expect(body.status).toBe('needs_review');
	return body;
}

/** Waits until the sandbox has delivered `event` for the document to every target at least once. */
async function deliveredOk(documentId: string, event: string, atLeast = 1): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const { deliveries } = await sandboxControl<{ deliveries: Array<{ documentId: string; event: string; ok: boolean }> }>(sandbox.url, 'deliveries');
		if (deliveries.filter((d) => d.documentId === documentId && d.event === event && d.ok).length >= atLeast) return;
		if (Date.now() > deadline) throw new Error(`no successful ${event} delivery for ${documentId}`);
		await sleep(250);
	}
}

async function executionsOf(workflowId: string) {
	return await stack.client.listExecutions(workflowId);
}

function triggerDefinition(name: string, events: string[]) {
	return triggerWorkflow({
		name,
		trigger: {
			name: 'Review finished',
			type: `${PACKAGE_NAME}.documentExtractionTrigger`,
			typeVersion: 1,
			parameters: { events, outputMode: 'simplified', options: {} },
			credentials: { documentExtractionApi: { id: credential.id, name: credential.name } },
		},
	});
}

describe.skipIf(!sandboxAvailable())('Document Extraction Trigger in a real n8n', () => {
	let all: { id: string; url: string; path: string };
	let verifiedOnly: { id: string; url: string; path: string };

	beforeAll(async () => {
		stack = await startStack({ package: 'repo' });
		sandbox = await startSandboxInProcess(stack.tls, { retryBaseMs: 300, reviewDelayMs: 600_000 });
		const account = await sandboxDemoAccount('enterprise', sandbox);
		if (!account) throw new Error('the sandbox has no enterprise account');
		apiKey = account.apiKey;
		signingSecret = account.signingSecret;
		credential = await stack.client.createDocumentExtractionCredential('Document Extraction (sandbox)', {
			baseUrl: sandbox.url,
			apiKey,
			signingSecret,
			tier: 'enterprise',
		});
	});

	afterAll(async () => {
		await sandbox?.close();
		await stack?.stop();
		await stopAll();
	});

	it('registers once on activation, not again after a restart, and anew after deactivate/activate', async () => {
		const definition = triggerDefinition('review results (both events)', ['document.verified', 'document.rejected']);
		const workflow = await stack.client.createWorkflow(definition);
		const path = `${definition.webhookId}/webhook`;
		all = { id: workflow.id, url: `${stack.n8n.baseUrl}/webhook/${path}`, path };
		await stack.client.activateWorkflow(workflow.id);
		await stack.client.waitForWebhook(path);
		const first = await registrationsReaching(all.url, 1);
		expect(first).toHaveLength(1);
		expect(first[0].events.sort()).toEqual(['document.rejected', 'document.verified']);

		await stack.restartN8n();
		await stack.client.waitForWebhook(path);
		await sleep(3000); // room for a (wrong) second registration to show
		expect(await registrationsFor(all.url)).toHaveLength(1);

		// The spec has no unregister (D18/N8): deactivation keeps the remote registration, activation adds one.
		await stack.client.deactivateWorkflow(workflow.id);
		await stack.client.waitForWebhook(path, 'POST', { gone: true });
		expect(await registrationsFor(all.url)).toHaveLength(1);
		await stack.client.activateWorkflow(workflow.id);
		await stack.client.waitForWebhook(path);
		expect(await registrationsReaching(all.url, 2)).toHaveLength(2);

		const verifiedDefinition = triggerDefinition('review results (verified only)', ['document.verified']);
		const verifiedWorkflow = await stack.client.createWorkflow(verifiedDefinition);
		const verifiedPath = `${verifiedDefinition.webhookId}/webhook`;
		verifiedOnly = { id: verifiedWorkflow.id, url: `${stack.n8n.baseUrl}/webhook/${verifiedPath}`, path: verifiedPath };
		await stack.client.activateWorkflow(verifiedWorkflow.id);
		await stack.client.waitForWebhook(verifiedPath);
		const registrations = await registrationsReaching(verifiedOnly.url, 1);
		expect(registrations).toHaveLength(1);
		expect(registrations[0].events).toEqual(['document.verified']);
	});

	it('starts exactly one execution with the mapped invoice when a review is approved (two registrations deliver it)', async () => {
		const document = await documentInReview();
		await sandboxControl(sandbox.url, `reviews/${document.review_id}/approve`, { corrections: { amounts: { tax: 80 } } });
		await deliveredOk(document.document_id, 'document.verified', 3); // 2 registrations of `all` + 1 of `verifiedOnly`
		await sleep(1500);

		const executions = await stack.client.waitForExecutions(all.id, 1);
		expect(executions).toHaveLength(1);
		const [item] = nodeJson(executions[0], 'Review finished');
		expect(item).toMatchObject({
			event: 'document.verified',
			document_id: document.document_id,
			review_id: document.review_id,
			status: 'verified',
			verified_by: 'human_reviewer',
			corrections_made: true,
			confidence_original: 0.7,
			confidence_final: 1,
			vendor: 'Northwind Traders',
			tax: 80,
			total: 499.8,
		});
		expect(item.line_items).toEqual([{ description: 'Coffee beans 1 kg', quantity: 12, unit_price: 35, amount: 420 }]);
		expect(await executionsOf(verifiedOnly.id)).toHaveLength(1);
	});

	it('starts one execution on a rejection when subscribed, none when only verified is subscribed', async () => {
		const document = await documentInReview();
		await sandboxControl(sandbox.url, `reviews/${document.review_id}/reject`, { reason: 'Total is unreadable' });
		await deliveredOk(document.document_id, 'document.rejected', 2);
		await sleep(1500);

		const executions = await stack.client.waitForExecutions(all.id, 2);
		expect(executions).toHaveLength(2);
		const rejected = executions.map((execution) => nodeJson(execution, 'Review finished')[0]).find((item) => item.event === 'document.rejected');
		expect(rejected).toMatchObject({ document_id: document.document_id, status: 'rejected', rejection_reason: 'Total is unreadable', vendor: null });
		// The verified-only workflow is not registered for rejections: still just the one from the approval.
		expect(await executionsOf(verifiedOnly.id)).toHaveLength(1);
	});

	it('answers forged deliveries with 401 and starts nothing', async () => {
		const before = (await executionsOf(all.id)).length;
		const payload = JSON.stringify({ event: 'document.verified', timestamp: new Date().toISOString(), document_id: 'doc_forged000000000001', review_id: 'rev_x', verified_by: 'human_reviewer', data: {} });
		const signed = (body: string, secret = signingSecret) => createHmac('sha256', secret).update(body).digest('hex');
		const attempts: Array<{ name: string; body: string; headers: Record<string, string> }> = [
			{ name: 'forged body', body: payload.replace('doc_forged', 'doc_FORGED'), headers: { 'x-service-signature': signed(payload) } },
			{ name: 'wrong secret', body: payload, headers: { 'x-service-signature': signed(payload, 'not-the-secret') } },
			{ name: 'missing header', body: payload, headers: {} },
			{ name: 'empty body', body: '', headers: { 'x-service-signature': signed(payload) } },
			{ name: 'uppercase hex', body: payload, headers: { 'x-service-signature': signed(payload).toUpperCase() } },
			{ name: 'prefixed', body: payload, headers: { 'x-service-signature': `sha256=${signed(payload)}` } },
		];
		for (const attempt of attempts) {
			const res = await stack.client.callWebhook(all.path, { body: attempt.body, headers: { 'content-type': 'application/json', ...attempt.headers } });
			expect(res.status, attempt.name).toBe(401);
			expect(res.text, attempt.name).not.toContain(signingSecret);
			expect(res.text, attempt.name).not.toContain(signed(payload));
		}
		// Control: the same payload, correctly signed, is accepted (header name in any case).
		const valid = await stack.client.callWebhook(all.path, { body: payload, headers: { 'content-type': 'application/json', 'X-SERVICE-SIGNATURE': signed(payload) } });
		expect(valid.status).toBe(200);
		await sleep(1500);
		expect((await executionsOf(all.id)).length).toBe(before + 1);
	});

	it('answers a signed but unsubscribed event with 200 and starts nothing', async () => {
		const before = (await executionsOf(verifiedOnly.id)).length;
		const payload = JSON.stringify({ event: 'document.rejected', timestamp: new Date().toISOString(), document_id: 'doc_unsubscribed0000000001', review_id: 'rev_z', rejected_by: 'human_reviewer', reason: 'x' });
		const signature = createHmac('sha256', signingSecret).update(payload).digest('hex');
		const answer = await stack.client.callWebhook(verifiedOnly.path, { body: payload, headers: { 'content-type': 'application/json', 'x-service-signature': signature } });
		expect(answer.status).toBe(200);
		await sleep(1500);
		expect((await executionsOf(verifiedOnly.id)).length).toBe(before);
	});

	it('keeps to one execution per event with the duplicate switch on and with concurrent copies', async () => {
		await sandboxControl(sandbox.url, 'config', { duplicateDeliveries: true });
		const before = (await executionsOf(all.id)).length;
		const document = await documentInReview();
		await sandboxControl(sandbox.url, `reviews/${document.review_id}/approve`, {});
		await deliveredOk(document.document_id, 'document.verified', 6); // 3 targets, each twice
		await sleep(1500);
		expect((await executionsOf(all.id)).length).toBe(before + 1);
		await sandboxControl(sandbox.url, 'config', { duplicateDeliveries: false });

		const payload = JSON.stringify({ event: 'document.verified', timestamp: new Date().toISOString(), document_id: 'doc_concurrent00000000001', review_id: 'rev_y', verified_by: 'human_reviewer', data: {} });
		const signature = createHmac('sha256', signingSecret).update(payload).digest('hex');
		const answers = await Promise.all(
			Array.from({ length: 5 }, () => stack.client.callWebhook(all.path, { body: payload, headers: { 'content-type': 'application/json', 'x-service-signature': signature } })),
		);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
		await sleep(1500);
		expect((await executionsOf(all.id)).length).toBe(before + 2);
	});

	it('works with "Listen for test event": registers the test URL and runs once when a review finishes', async () => {
		const definition = triggerDefinition('review results (test event)', ['document.verified']);
		const workflow = await stack.client.createWorkflow(definition);
		const testUrl = `${stack.n8n.baseUrl}/webhook-test/${definition.webhookId}/webhook`;
		const started = await stack.client.call<{ waitingForWebhook?: boolean }>('POST', `/rest/workflows/${workflow.id}/run`, { triggerToStartFrom: { name: 'Review finished' } });
		expect(started.waitingForWebhook).toBe(true);
		const [registration] = await (async () => {
			const deadline = Date.now() + 20_000;
			for (;;) {
				const found = await registrationsFor(testUrl);
				if (found.length > 0 || Date.now() > deadline) return found;
				await sleep(250);
			}
		})();
		expect(registration?.events).toEqual(['document.verified']);

		const document = await documentInReview();
		await sandboxControl(sandbox.url, `reviews/${document.review_id}/approve`, {});
		const [execution] = await stack.client.waitForExecutions(workflow.id, 1);
		expect(execution.status).toBe('success');
		expect(nodeJson(execution, 'Review finished')[0]).toMatchObject({ event: 'document.verified', document_id: document.document_id });
	});

	it('keeps the API key and the signing secret out of execution data and the n8n log', async () => {
		const ids = (await executionsOf(all.id)).map((execution) => execution.id);
		expect(ids.length).toBeGreaterThan(0);
		for (const id of ids) {
			const execution = await stack.client.getExecution(id);
			const text = JSON.stringify(execution.raw);
			expect(text).not.toContain(apiKey);
			expect(text).not.toContain(signingSecret);
		}
		const log = readFileSync(stack.n8n.logFile, 'utf8');
		expect(log).not.toContain(apiKey);
		expect(log).not.toContain(signingSecret);
	});
});
