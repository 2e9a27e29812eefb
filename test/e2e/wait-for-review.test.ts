// Extract with Wait for Review and with Skip Files Already Submitted, in a real n8n (HTTPS, the
// package installed as n8n documents manual installation) against the sandbox, which delivers the
// signed review result to the waiting execution's resume URL. Every workflow: Webhook (answers at
// once) → Read/Write Files from Disk → Extract → one Code node per output, each echoing its items
// and the caller from the Webhook item they descend from (so pairedItem lineage is checked too).

import { beforeAll, describe, expect, it } from 'vitest';
import {
	createExtractRouteWorkflow,
	actionNode,
	extractParameters,
	log,
	sandboxControl,
	type DecodedExecution,
	type NodeSpec,
} from '../../local-n8n/index.ts';
import { outputsOf } from './support/executionPath.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { postToResumeUrl } from './support/resumeUrl.ts';

const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST });

const OUTPUT_NODES = ['On Verified', 'On Rejected', 'On Timed Out', 'On Already Submitted'];
/** Every output node of this file's workflows. */
const OUTPUTS = OUTPUT_NODES.concat('On Needs Review');

/** Webhook → Read → Extract → Code per output (Verified, Rejected | Needs Review, Timed Out, Already Submitted). */
async function createWorkflow(name: string, fileName: string, parameters: Record<string, unknown>) {
	const outputs =
		parameters.waitForReview === true
			? ['On Verified', 'On Rejected', 'On Timed Out']
			: ['On Verified', 'On Needs Review'];
	if ((parameters.options as { skipDuplicates?: boolean } | undefined)?.skipDuplicates)
		outputs.push('On Already Submitted');
	return await createExtractRouteWorkflow(fixture.stack.client, {
		name,
		fileDir: fixture.stack.n8n.fileAccessDirs[0],
		fileName,
		extract: actionNode('Extract', fixture.credential, extractParameters(parameters)),
		outputs,
	});
}

/** Starts the workflow and waits until its newest execution is waiting; returns it and its document. */
async function startAndWait(workflow: { id: string; path: string }, caller: string) {
	const known = new Set(
		(await fixture.stack.client.listExecutions(workflow.id)).map((execution) => execution.id),
	);
	const response = await fixture.stack.client.callWebhook(workflow.path, { json: { caller } });
	expect(response.status, response.text).toBe(200);
	const deadline = Date.now() + 60_000;
	for (;;) {
		const fresh = (await fixture.stack.client.listExecutions(workflow.id)).find(
			(execution) => !known.has(execution.id),
		);
		if (fresh?.status === 'waiting') {
			const document = (await fixture.sandboxState()).documents.find((entry) =>
				entry.webhookUrl?.includes(`/webhook-waiting/${fresh.id}`),
			);
			expect(document, "the document was uploaded with this execution's resume URL").toBeDefined();
			return { executionId: fresh.id, document: document! };
		}
		if (fresh && fresh.status !== 'running' && fresh.status !== 'new') {
			throw new Error(
				`execution ${fresh.id} is ${fresh.status}, not waiting: ${JSON.stringify((await fixture.stack.client.getExecution(fresh.id)).data.resultData?.error ?? {})}`,
			);
		}
		if (Date.now() > deadline) throw new Error('no waiting execution after 60 s');
		await sleep(300);
	}
}

async function finished(executionId: string, timeoutMs = 60_000): Promise<DecodedExecution> {
	const execution = await fixture.stack.client.waitForExecution(executionId, { timeoutMs });
	fixture.expectNoSecretIn(execution);
	return execution;
}

describe('Extract with Wait for Review and the duplicate guard in a real n8n', () => {
	// The timeout's execution starts before the other cases and is checked in its turn: its end waits
	// for n8n's wait tracker, which looks for due executions once a minute.
	let timingOut: Promise<Awaited<ReturnType<typeof startAndWait>>>;
	beforeAll(() => {
		timingOut = (async () => {
			const workflow = await createWorkflow('e2e wait: timeout', 'invoice-blurry.json', {
				waitForReview: true,
				reviewTimeout: 0.1,
			});
			return await startAndWait(workflow, 'timeout-test');
		})();
		// Its failure is reported by its own case.
		timingOut.catch(() => undefined);
	});

	it('approve: the waiting execution resumes on Verified with the reviewed data (and its Webhook lineage)', async () => {
		const workflow = await createWorkflow('e2e wait: approve', 'invoice-blurry.json', {
			waitForReview: true,
		});
		const { executionId, document } = await startAndWait(workflow, 'approve-test');
		expect(document.state).toBe('needs_review');

		await sandboxControl(fixture.sandbox.url, `reviews/${document.reviewId}/approve`, {});
		const execution = await finished(executionId);
		expect(execution.status).toBe('success');
		const outputs = outputsOf(execution, OUTPUTS);
		expect(Object.keys(outputs)).toEqual(['On Verified']);
		expect(outputs['On Verified']).toEqual([
			expect.objectContaining({
				document_id: document.id,
				status: 'verified',
				verified_by: 'human_reviewer',
				review_id: document.reviewId,
				vendor: expect.any(String),
				total: expect.any(Number),
				caller: 'approve-test',
			}),
		]);
		log(
			'wait-for-review',
			`wait for review: approve → execution ${executionId} resumed on Verified`,
		);
	});

	it('reject: the waiting execution resumes on Rejected with the reason', async () => {
		const workflow = await createWorkflow('e2e wait: reject', 'invoice-blurry.json', {
			waitForReview: true,
		});
		const { executionId, document } = await startAndWait(workflow, 'reject-test');

		await sandboxControl(fixture.sandbox.url, `reviews/${document.reviewId}/reject`, {
			reason: 'Total is illegible',
		});
		const execution = await finished(executionId);
		const outputs = outputsOf(execution, OUTPUTS);
		expect(Object.keys(outputs)).toEqual(['On Rejected']);
		expect(outputs['On Rejected']).toEqual([
			expect.objectContaining({
				document_id: document.id,
				status: 'rejected',
				rejection_reason: 'Total is illegible',
				caller: 'reject-test',
			}),
		]);
	});

	it('forged callbacks get 401 and the execution keeps waiting; a signed result for another document is ignored; then the real one resumes it', async () => {
		const workflow = await createWorkflow('e2e wait: forged', 'invoice-blurry.json', {
			waitForReview: true,
		});
		const { executionId, document } = await startAndWait(workflow, 'forged-test');
		const resumeUrl = document.webhookUrl!;
		const payload = {
			event: 'document.verified',
			timestamp: new Date().toISOString(),
			document_id: document.id,
			review_id: document.reviewId,
			verified_by: 'human_reviewer',
			corrections_made: true,
			data: {
				header: { vendor: 'Forged Ltd', date: '2026-01-01', invoice_no: 'X' },
				amounts: { subtotal: 1, tax: 0, total: 1 },
				line_items: [],
			},
			confidence: { original: 0.7, final: 1 },
		};
		const body = JSON.stringify(payload);
		const forgeries: Array<[string, string, Record<string, string>]> = [
			['no signature', body, {}],
			['wrong secret', body, { 'x-service-signature': fixture.sign(body, 'whsec_not_the_secret') }],
			[
				'changed body',
				body.replace('Forged Ltd', 'Forged Ltd.'),
				{ 'x-service-signature': fixture.sign(body) },
			],
			['uppercase hex', body, { 'x-service-signature': fixture.sign(body).toUpperCase() }],
			['sha256= prefix', body, { 'x-service-signature': `sha256=${fixture.sign(body)}` }],
		];
		for (const [name, forgedBody, headers] of forgeries) {
			const answer = await postToResumeUrl(fixture.stack.client, resumeUrl, forgedBody, headers);
			expect(answer.status, `${name}: ${answer.text}`).toBe(401);
		}
		// Without n8n's resume token the call does not even reach the node.
		const withoutToken = new URL(resumeUrl);
		withoutToken.search = '';
		expect(
			(
				await postToResumeUrl(fixture.stack.client, withoutToken.toString(), body, {
					'x-service-signature': fixture.sign(body),
				})
			).status,
		).toBe(401);
		// Correctly signed, but for another document: acknowledged and not taken.
		const otherBody = JSON.stringify({ ...payload, document_id: 'doc_someotherdocument' });
		expect(
			(
				await postToResumeUrl(fixture.stack.client, resumeUrl, otherBody, {
					'x-service-signature': fixture.sign(otherBody),
				})
			).status,
		).toBe(200);

		const stillWaiting = await fixture.stack.client.getExecution(executionId);
		expect(stillWaiting.status).toBe('waiting');
		log(
			'wait-for-review',
			`wait for review: ${forgeries.length + 1} forged callbacks → 401, 1 signed result for another document → ignored; execution still waiting`,
		);

		await sandboxControl(fixture.sandbox.url, `reviews/${document.reviewId}/approve`, {});
		const execution = await finished(executionId);
		const outputs = outputsOf(execution, OUTPUTS);
		expect(Object.keys(outputs)).toEqual(['On Verified']);
		expect(outputs['On Verified'][0]).toMatchObject({
			document_id: document.id,
			caller: 'forged-test',
		});
		expect(outputs['On Verified'][0].vendor).not.toBe('Forged Ltd');
	});

	it('an auto-verified document passes straight through on Verified without waiting', async () => {
		const workflow = await createWorkflow('e2e wait: auto-verified', 'invoice-acme.json', {
			waitForReview: true,
		});
		await fixture.stack.client.callWebhook(workflow.path, { json: { caller: 'auto-test' } });
		const [execution] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
		expect(execution.status).toBe('success');
		expect(execution.waitTill ?? null).toBeNull();
		const outputs = outputsOf(execution, OUTPUTS);
		expect(Object.keys(outputs)).toEqual(['On Verified']);
		expect(outputs['On Verified'][0]).toMatchObject({
			status: 'verified',
			verified_by: 'ai_auto',
			caller: 'auto-test',
		});
	});

	it('no callback: the execution continues on Timed Out when the limit is reached', async () => {
		const { executionId, document } = await timingOut;
		const execution = await finished(executionId, 150_000);
		expect(execution.status).toBe('success');
		const outputs = outputsOf(execution, OUTPUTS);
		expect(Object.keys(outputs)).toEqual(['On Timed Out']);
		expect(outputs['On Timed Out']).toEqual([
			expect.objectContaining({
				document_id: document.id,
				status: 'needs_review',
				timed_out: true,
				waited_minutes: 0.1,
				vendor: null,
				caller: 'timeout-test',
			}),
		]);
		// The review is still open at the service: nothing was decided for it.
		expect(
			(await fixture.sandboxState()).documents.find((entry) => entry.id === document.id)?.state,
		).toBe('needs_review');
	});

	it('Skip Files Already Submitted: the same file again is not extracted a second time until the store is reset', async () => {
		const { id, path } = await createWorkflow('e2e duplicate guard', 'invoice-acme.json', {
			options: { skipDuplicates: true },
		});
		// The documented reset: a Remove Duplicates node in the same workflow clears the workflow-scoped store.
		const workflow = await fixture.stack.client.getWorkflow(id);
		const resetPath = `${path}-reset`;
		const nodes = [
			...(workflow.nodes as NodeSpec[]),
			{
				name: 'Reset webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: `${id}-reset`,
				position: [0, 400],
				parameters: { httpMethod: 'POST', path: resetPath, responseMode: 'lastNode', options: {} },
			},
			{
				name: 'Forget submitted files',
				type: 'n8n-nodes-base.removeDuplicates',
				typeVersion: 2,
				position: [250, 400],
				parameters: {
					operation: 'clearDeduplicationHistory',
					mode: 'cleanDatabase',
					options: { scope: 'workflow' },
				},
			},
		];
		const connections = {
			...(workflow.connections as Record<string, unknown>),
			'Reset webhook': { main: [[{ node: 'Forget submitted files', type: 'main', index: 0 }]] },
		};
		await fixture.stack.client.deactivateWorkflow(id);
		await fixture.stack.client.updateWorkflow(id, { nodes, connections } as never);
		await fixture.stack.client.activateWorkflow(id);
		await fixture.stack.client.waitForWebhook(path);
		await fixture.stack.client.waitForWebhook(resetPath);
		const extracts = async () => (await fixture.sandboxState()).counts.extractRequests;
		const before = await extracts();

		await fixture.stack.client.callWebhook(path, { json: { caller: 'first' } });
		const [first] = await fixture.stack.client.waitForExecutions(id, 1);
		const firstItem = outputsOf(first, OUTPUTS)['On Verified']?.[0];
		expect(firstItem).toMatchObject({ status: 'verified', caller: 'first' });

		await fixture.stack.client.callWebhook(path, { json: { caller: 'second' } });
		const second = (await fixture.stack.client.waitForExecutions(id, 2))[1];
		expect(Object.keys(outputsOf(second, OUTPUTS))).toEqual(['On Already Submitted']);
		expect(outputsOf(second, OUTPUTS)['On Already Submitted']).toEqual([
			// The earlier document is not kept (docs/memory.md): the item says where its result is.
			expect.objectContaining({
				document_id: null,
				duplicate: true,
				status: 'already_submitted',
				submitted_concurrently: false,
				caller: 'second',
			}),
		]);
		expect((await extracts()) - before).toBe(1);

		const reset = await fixture.stack.client.callWebhook(resetPath, { json: {} });
		expect(reset.status, reset.text).toBe(200);
		await fixture.stack.client.waitForExecutions(id, 3);
		await fixture.stack.client.callWebhook(path, { json: { caller: 'after reset' } });
		const afterReset = (await fixture.stack.client.waitForExecutions(id, 4))[3];
		expect(Object.keys(outputsOf(afterReset, OUTPUTS))).toEqual(['On Verified']);
		expect((await extracts()) - before).toBe(2);
		log(
			'wait-for-review',
			`duplicate guard: 2 submissions of one file → 1 extraction; after the documented reset → extracted again (${(await extracts()) - before} in all)`,
		);
	});
});
