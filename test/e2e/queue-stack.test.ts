/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// n8n in queue mode (Postgres, Redis, main + 2 workers + 2 webhook processes, HAProxy over HTTPS in
// front of the webhook processes), the package installed on main through the community-packages API.
// It reaches every worker and webhook process through n8n itself (each has its own user folder:
// n8n's reinstall of missing packages at start, from the same registry); the trigger's webhook
// answers on both webhook processes and through the load balancer; activation registers once at
// the service; forged deliveries are refused everywhere; copies of one event sent one after the
// other to different webhook processes all run without error (how many run twice: queue-duplicates).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	PACKAGE_NAME,
	eventually,
	log,
	reviewTriggerNode,
	sandboxCredential,
	sandboxState,
	signBody,
	startQueueStack,
	startSandboxInProcess,
	stopAll,
	triggerWorkflow,
	type QueueStack,
	type SandboxCredential,
	type SandboxHandle,
} from '../../local-n8n/index.ts';

let stack: QueueStack;
let sandbox: SandboxHandle;
let account: SandboxCredential;
let workflowId: string;
let path: string;
const SETTLE_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function verifiedPayload(documentId: string): string {
	return JSON.stringify({
		event: 'document.verified',
		timestamp: new Date().toISOString(),
		document_id: documentId,
		review_id: 'rev_queue',
		verified_by: 'human_reviewer',
		corrections_made: false,
		data: { header: { vendor: 'Queue Mode Ltd' } },
		confidence: { original: 0.6, final: 1 },
	});
}

const headersFor = (body: string, signature = signBody(body, account.signingSecret)) => ({ 'content-type': 'application/json', 'x-service-signature': signature });

async function executionCount(): Promise<number> {
	return (await stack.client.listExecutions(workflowId, { limit: 500 })).length;
}

describe('n8n in queue mode', () => {
	beforeAll(async () => {
		const t0 = Date.now();
		stack = await startQueueStack();
		log('queue-test', `stack up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		sandbox = await startSandboxInProcess(stack.tls, { retryBaseMs: 300, reviewDelayMs: 600_000 });
		account = await sandboxCredential(stack.client, sandbox, 'enterprise');
	});

	afterAll(async () => {
		await sandbox?.close();
		await stack?.stop();
		await stopAll();
	});

	it('the package installed on main is installed and loaded by every worker and webhook process', () => {
		expect(stack.installedNodeTypes.sort()).toEqual([`${PACKAGE_NAME}.documentExtraction`, `${PACKAGE_NAME}.documentExtractionTrigger`].sort());
		for (const { name, role, instance } of stack.processes()) {
			const manifest = join(instance.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
			expect(existsSync(manifest), `${name}: ${manifest}`).toBe(true);
			const output = readFileSync(instance.logFile, 'utf8');
			expect(output, name).toContain(`Community package installed: ${PACKAGE_NAME}`);
			if (role !== 'main') expect(output, name).toContain('Packages reinstalled successfully');
		}
	});

	it('activation on main registers the webhook once, with the public (load balancer) URL; both webhook processes and the load balancer serve it', async () => {
		const definition = triggerWorkflow({ name: 'queue: review results', trigger: reviewTriggerNode(account.credential) });
		workflowId = (await stack.client.createWorkflow(definition)).id;
		path = `${definition.webhookId}/webhook`;
		await stack.client.activateWorkflow(workflowId);
		for (const client of [...stack.webhookClients, stack.lbClient]) await client.waitForWebhook(path);
		const url = `${stack.publicUrl}/webhook/${path}`;
		await eventually('one registration', async () => (await sandboxState(sandbox.url)).webhooks.filter((w) => w.url === url), (list) => list.length >= 1, 30_000);
		await sleep(SETTLE_MS);
		expect((await sandboxState(sandbox.url)).webhooks.filter((w) => w.url === url)).toHaveLength(1);
	});

	it('every webhook process and the load balancer refuse a forged delivery (401, no execution)', async () => {
		const body = verifiedPayload('doc_queue_forged_0000000001');
		for (const client of [...stack.webhookClients, stack.lbClient]) {
			const res = await client.callWebhook(path, { body, headers: headersFor(body, signBody(body, 'not-the-secret')) });
			expect(res.status).toBe(401);
			const unsigned = await client.callWebhook(path, { body, headers: { 'content-type': 'application/json' } });
			expect(unsigned.status).toBe(401);
		}
		await sleep(SETTLE_MS);
		expect(await executionCount()).toBe(0);
	});

	it('copies of one event sent one after the other to different webhook processes: every event runs, all succeed (duplicates measured in queue-duplicates)', async () => {
		const events = 5;
		for (let i = 0; i < events; i++) {
			const body = verifiedPayload(`doc_queue_seq_${String(i).padStart(12, '0')}`);
			for (const client of [stack.webhookClients[0], stack.webhookClients[1], stack.webhookClients[0]]) {
				const res = await client.callWebhook(path, { body, headers: headersFor(body) });
				expect(res.status).toBe(200);
			}
		}
		await stack.client.waitForExecutions(workflowId, events);
		await sleep(SETTLE_MS);
		const executions = await stack.client.listExecutions(workflowId, { limit: 500 });
		expect(executions.length).toBeGreaterThanOrEqual(events);
		expect(executions.length).toBeLessThanOrEqual(events * 3);
		log('queue-test', `${events} events x 3 sequential copies over 2 webhook processes → ${executions.length} executions`);
		expect(executions.every((e) => e.status === 'success')).toBe(true);
	});

	it('no process logged the API key, the signing secret or the encryption key', () => {
		for (const { name, instance } of stack.processes()) expect(instance.secretsSeenInOutput(), name).toEqual([]);
	});
});
