/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// n8n in queue mode (Postgres, Redis, main + 2 workers + 2 webhook processes, HAProxy over HTTPS in
// front of the webhook processes), the package installed into every process's own user folder the way
// n8n documents manual installation (`.n8n/nodes`) and loaded by each; the trigger's webhook
// answers on both webhook processes and through the load balancer; activation registers once at
// the service, and restarting main, a worker and a webhook process registers nothing again; a real
// delivery from the service after those restarts runs once; forged deliveries are refused
// everywhere; copies of one event sent one after the other to different webhook processes all run
// without error (how many run twice: queue-duplicates); a full Extract runs on a worker; and no
// secret (API key, signing secret, encryption key) is in the output of any process or in any
// execution's data.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';
import { verifiedEventBody } from './support/verifiedEvent.ts';
import {
	PACKAGE_NAME,
	actionNode,
	documentInReview,
	eventually,
	extractParameters,
	installedPackageVersion,
	log,
	nodeJson,
	sandboxControl,
	sandboxDeliveries,
	sandboxState,
	secretsIn,
	signBody,
	type N8nInstance,
	type QueueStack,
	type SandboxCredential,
	type SandboxHandle,
} from '../../local-n8n/index.ts';
import { allExecutions, runsPerDocument, sleep } from './support/queueDeliveries.ts';
import {
	activeExtractRoute,
	activeTrigger,
	useQueueFixture,
	waitForPublicWebhook,
	type QueueFixture,
} from './support/queueFixture.ts';

let fixture: QueueFixture;
let stack: QueueStack;
let sandbox: SandboxHandle;
let account: SandboxCredential;
let workflowId: string;
let path: string;
let publicWebhookUrl: string;
const SETTLE_MS = 3_000;

const verifiedPayload = (documentId: string): string =>
	verifiedEventBody(documentId, {
		reviewId: 'rev_queue',
		header: { vendor: 'Queue Mode Ltd' },
		originalConfidence: 0.6,
	});

const headersFor = (body: string, signature = signBody(body, account.signingSecret)) => ({
	'content-type': 'application/json',
	'x-service-signature': signature,
});

async function executionCount(): Promise<number> {
	return (await stack.client.listExecutions(workflowId, { limit: 500 })).length;
}

describeNeeding(QUEUE_MODE_REQUIREMENTS, 'n8n in queue mode', () => {
	useQueueFixture({ sandbox: { retryBaseMs: 300, reviewDelayMs: 600_000 } }, (started) => {
		fixture = started;
		({ stack, sandbox, account } = started);
	});

	it("the package is installed in every main, worker and webhook process's own user folder, and no process fails to load it", () => {
		expect(stack.installedNodeTypes.sort()).toEqual(
			[`${PACKAGE_NAME}.documentExtraction`, `${PACKAGE_NAME}.documentExtractionTrigger`].sort(),
		);
		const folders = new Set<string>();
		for (const { name, instance } of stack.processes()) {
			expect(
				installedPackageVersion(instance.userFolder, PACKAGE_NAME),
				`${name}: ${instance.userFolder}`,
			).toBe(stack.packed?.version);
			folders.add(instance.userFolder);
			expect(readFileSync(instance.logFile, 'utf8'), name).not.toMatch(
				/Failed to load package|Skipping package/,
			);
		}
		expect(folders.size, 'one user folder per process').toBe(stack.processes().length);
	});

	it('activation on main registers the webhook once, with the public (load balancer) URL; both webhook processes and the load balancer serve it', async () => {
		const registrationsBefore = (await sandboxState(sandbox.url)).counts.registerRequests;
		({
			id: workflowId,
			path,
			url: publicWebhookUrl,
		} = await activeTrigger(fixture, 'queue: review results'));
		await eventually(
			'one registration',
			async () =>
				(await sandboxState(sandbox.url)).webhooks.filter((w) => w.url === publicWebhookUrl),
			(list) => list.length >= 1,
			30_000,
		);
		await sleep(SETTLE_MS);
		const state = await sandboxState(sandbox.url);
		expect(state.webhooks.filter((w) => w.url === publicWebhookUrl)).toHaveLength(1);
		expect(state.counts.registerRequests - registrationsBefore).toBe(1);
	});

	it('every webhook process and the load balancer refuse a forged delivery (401, no execution)', async () => {
		const body = verifiedPayload('doc_queue_forged_0000000001');
		for (const client of [...stack.webhookClients, stack.lbClient]) {
			const res = await client.callWebhook(path, {
				body,
				headers: headersFor(body, signBody(body, 'not-the-secret')),
			});
			expect(res.status).toBe(401);
			const unsigned = await client.callWebhook(path, {
				body,
				headers: { 'content-type': 'application/json' },
			});
			expect(unsigned.status).toBe(401);
		}
		await sleep(SETTLE_MS);
		expect(await executionCount()).toBe(0);
	});

	it('copies of one event sent one after the other to different webhook processes: every event runs, all succeed (duplicates measured in queue-duplicates)', async () => {
		const events = 5;
		for (let i = 0; i < events; i++) {
			const body = verifiedPayload(`doc_queue_seq_${String(i).padStart(12, '0')}`);
			for (const client of [
				stack.webhookClients[0],
				stack.webhookClients[1],
				stack.webhookClients[0],
			]) {
				const res = await client.callWebhook(path, { body, headers: headersFor(body) });
				expect(res.status).toBe(200);
			}
		}
		await stack.client.waitForExecutions(workflowId, events);
		await sleep(SETTLE_MS);
		const executions = await stack.client.listExecutions(workflowId, { limit: 500 });
		expect(executions.length).toBeGreaterThanOrEqual(events);
		expect(executions.length).toBeLessThanOrEqual(events * 3);
		log(
			'queue-test',
			`${events} events x 3 sequential copies over 2 webhook processes → ${executions.length} executions`,
		);
		expect(executions.every((e) => e.status === 'success')).toBe(true);
	});

	it('restarting main, then a worker, then a webhook process registers nothing again; a real signed delivery afterwards runs exactly once', async () => {
		const registrationsBefore = (await sandboxState(sandbox.url)).counts.registerRequests;
		const restarts: Array<[string, N8nInstance]> = [
			['main', stack.main],
			['worker1', stack.workers[0]],
			['webhook1', stack.webhooks[0]],
		];
		for (const [name, instance] of restarts) {
			await instance.restart();
			log('queue-test', `${name} restarted`);
		}
		await waitForPublicWebhook(stack, path);
		await sleep(SETTLE_MS);
		const state = await sandboxState(sandbox.url);
		expect(
			state.counts.registerRequests - registrationsBefore,
			'registration requests during the restarts',
		).toBe(0);
		expect(state.webhooks.filter((w) => w.url === publicWebhookUrl)).toHaveLength(1);

		// A review finished in the sandbox: it signs the result and delivers it to the public URL.
		const document = await documentInReview(sandbox.url, account.apiKey);
		expect(document.status).toBe('needs_review');
		await sandboxControl(sandbox.url, `reviews/${document.review_id}/approve`, {});
		await eventually(
			'the delivery ran',
			async () =>
				(await runsPerDocument(stack.client, workflowId)).runs.get(document.document_id) ?? 0,
			(n) => n >= 1,
			60_000,
		);
		await sleep(SETTLE_MS);
		const { runs } = await runsPerDocument(stack.client, workflowId);
		expect(runs.get(document.document_id)).toBe(1);
		const attempts = (await sandboxDeliveries(sandbox.url)).filter(
			(attempt) => attempt.documentId === document.document_id,
		);
		expect(attempts.every((attempt) => attempt.url === publicWebhookUrl)).toBe(true);
		expect(attempts.filter((attempt) => attempt.ok)).toHaveLength(1);
		log(
			'queue-test',
			`restarts of main, worker1, webhook1: ${state.counts.registerRequests - registrationsBefore} new registrations; real delivery ${document.document_id}: ${attempts.length} attempt(s), 1 execution`,
		);
	});

	it('a full Extract through the public URL runs on a worker and ends on Verified', async () => {
		const workflow = await activeExtractRoute(fixture, {
			name: 'queue: extract',
			fileName: 'invoice-acme.json',
			extract: actionNode('Extract', account.credential, extractParameters()),
			outputs: ['On Verified', 'On Needs Review'],
		});
		expect(
			(await stack.lbClient.callWebhook(workflow.path, { json: { caller: 'secret-scan' } })).status,
		).toBe(200);
		const [execution] = await stack.client.waitForExecutions(workflow.id, 1, {
			timeoutMs: 120_000,
		});
		expect(execution.status).toBe('success');
		expect(nodeJson(execution, 'On Verified')).toEqual([
			expect.objectContaining({
				status: 'verified',
				document_id: expect.any(String),
				caller: 'secret-scan',
			}),
		]);
		expect(
			stack.workers.filter((worker) =>
				readFileSync(worker.logFile, 'utf8').includes(`Worker finished execution ${execution.id} `),
			),
		).toHaveLength(1);
	});

	it("no secret (API key, signing secret, encryption key) in the output of any n8n process or HAProxy, nor in any execution's data", async () => {
		for (const { name, instance } of stack.processes())
			expect(instance.secretsSeenInOutput(), name).toEqual([]);
		expect(stack.lb.secretsSeenInOutput(), 'haproxy').toEqual([]);

		// Every execution of every workflow, with its data, as the REST API gives it and as the database holds it.
		const workflows = await stack.client.listWorkflows();
		const executions = (
			await Promise.all(
				workflows.map(async (workflow) => await allExecutions(stack.client, workflow.id)),
			)
		).flat();
		expect(executions.length).toBeGreaterThan(5);
		const secrets = [account.apiKey, account.signingSecret, stack.sharedEnv.N8N_ENCRYPTION_KEY];
		let scannedChars = 0;
		// A redelivered copy makes an execution that stops at the trigger with no item: no document.
		let withDocuments = 0;
		for (const { id } of executions) {
			const text = JSON.stringify(await stack.client.call('GET', `/rest/executions/${id}`));
			scannedChars += text.length;
			if (text.includes('document_id')) withDocuments++;
			expect(
				secrets.filter((secret) => text.includes(secret)),
				`execution ${id}`,
			).toEqual([]);
			expect(secretsIn(text), `execution ${id}`).toEqual([]);
		}
		expect(withDocuments).toBeGreaterThan(5);
		expect(Number(stack.sql('select count(*) from execution_data'))).toBe(executions.length);
		const rows = stack.sql('select "executionId", "workflowData", data from execution_data');
		expect(secrets.filter((secret) => rows.includes(secret))).toEqual([]);
		expect(secretsIn(rows)).toEqual([]);
		log(
			'queue-test',
			`secret scan: ${stack.processes().length} n8n processes + HAProxy output clean; ${executions.length} executions (${scannedChars} chars via REST, ${rows.length} chars in execution_data) hold no secret`,
		);
	});
});
