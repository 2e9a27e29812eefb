/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// Hardening in a real n8n against the sandbox: events are not lost across an n8n restart
// and never run twice; service faults give clear errors, one output item per input item and never a
// second document; bad input is refused before any request; no secret reaches n8n's log or any
// execution. Each test prints one line of counts (tried / refused / executions / lost).

import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	REPO_ROOT,
	actionNode,
	codeNode,
	eventually,
	extractParameters,
	log,
	reviewTriggerNode,
	nodeItems,
	readFileNode,
	sandboxControl,
	triggerWorkflow,
	webhookWorkflow,
	type DecodedExecution,
	type NodeSpec,
} from '../../local-n8n/index.ts';
import { sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

// Reviews finish only when a test says so; a failed delivery is retried after 4, 8 and 16 s, long
// enough to span an n8n restart.
const fixture = useN8nAndSandbox({
	ownN8n: true,
	sandbox: { reviewDelayMs: 600_000, retryBaseMs: 4_000 },
});
const seenExecutions: DecodedExecution[] = [];

async function executionsOf(workflowId: string): Promise<DecodedExecution[]> {
	const list = await fixture.stack.client.listExecutions(workflowId);
	const decoded: DecodedExecution[] = [];
	for (const entry of list.slice().reverse())
		decoded.push(await fixture.stack.client.getExecution(entry.id));
	seenExecutions.push(...decoded);
	return decoded;
}

/** The action node with "On Error: Continue": a failed item goes on with its error. */
function extractNode(name: string, parameters: Record<string, unknown>): NodeSpec {
	return actionNode(name, fixture.credential, parameters, { onError: 'continueRegularOutput' });
}

/** Creates and activates Webhook → nodes, calls it once, returns the execution. */
async function runOnce(name: string, nodes: NodeSpec[]): Promise<DecodedExecution> {
	const definition = webhookWorkflow({ name, nodes, responseMode: 'onReceived' });
	const workflow = await fixture.stack.client.createWorkflow(definition);
	await fixture.stack.client.activateWorkflow(workflow.id);
	await fixture.stack.client.waitForWebhook(definition.webhookPath);
	const answer = await fixture.stack.client.callWebhook(definition.webhookPath, { json: {} });
	expect(answer.status, answer.text).toBe(200);
	const [execution] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
	seenExecutions.push(execution);
	return execution;
}

/** Every item a node output, on all its outputs, in output order. */
function allOutputItems(execution: DecodedExecution, nodeName: string) {
	const runs = execution.data.resultData?.runData?.[nodeName] ?? [];
	const main = runs.at(-1)?.data?.main ?? [];
	return main.flatMap((items) => items ?? []);
}

describe('Hardening in a real n8n', () => {
	it('an approval delivered while n8n is down is not lost (the sandbox retries), and copies after the restart start nothing', async () => {
		const definition = triggerWorkflow({
			name: 'hardening: review results across a restart',
			trigger: reviewTriggerNode(fixture.credential),
		});
		const workflow = await fixture.stack.client.createWorkflow(definition);
		const path = `${definition.webhookId}/webhook`;
		const url = `${fixture.stack.n8n.baseUrl}/webhook/${path}`;
		await fixture.stack.client.activateWorkflow(workflow.id);
		await fixture.stack.client.waitForWebhook(path);
		await fixture.waitForRegistrations(url);

		// 1. An event delivered while n8n runs, to have one already processed before the restart.
		const before = await fixture.documentInReview();
		await sandboxControl(fixture.sandbox.url, `reviews/${before.review_id}/approve`, {});
		await fixture.stack.client.waitForExecutions(workflow.id, 1);

		// 2. n8n goes down; a reviewer approves meanwhile; the first delivery attempt fails.
		await fixture.stack.n8n.stop();
		const during = await fixture.documentInReview();
		await sandboxControl(fixture.sandbox.url, `reviews/${during.review_id}/approve`, {});
		const failed = await eventually(
			'a failed delivery while n8n is down',
			() =>
				fixture.deliveries(
					(delivery) => delivery.documentId === during.document_id && delivery.url === url,
				),
			(list) => list.length >= 1,
			20_000,
		);
		expect(failed[0].ok).toBe(false);

		// 3. n8n comes back with the same data; the sandbox's next attempt reaches the trigger.
		await fixture.stack.restartN8n();
		await fixture.stack.client.waitForWebhook(path);
		const delivered = await eventually(
			'a successful retry after the restart',
			() =>
				fixture.deliveries(
					(delivery) => delivery.documentId === during.document_id && delivery.url === url,
				),
			(list) => list.some((delivery) => delivery.ok),
			60_000,
		);
		await fixture.stack.client.waitForExecutions(workflow.id, 2);

		// 4. Copies of both events after the restart (the service may duplicate): nothing runs again,
		//    because each event's claim is in n8n's database (N63); a copy's execution stops at the
		//    trigger.
		let copiesAnswered = 0;
		for (const documentId of [before.document_id, during.document_id]) {
			for (let copy = 0; copy < 5; copy++) {
				const body = JSON.stringify({
					event: 'document.verified',
					timestamp: new Date().toISOString(),
					document_id: documentId,
					review_id: 'rev_copy',
					verified_by: 'human_reviewer',
					corrections_made: false,
					data: {},
					confidence: { original: 0.7, final: 0.99 },
				});
				const answer = await fixture.stack.client.callWebhook(path, {
					body,
					headers: {
						'content-type': 'application/json',
						'x-service-signature': fixture.sign(body),
					},
				});
				expect(answer.status).toBe(200);
				copiesAnswered++;
			}
		}
		await fixture.exactlyRuns(workflow.id, 2);
		const executions = await executionsOf(workflow.id);
		const handled = executions.flatMap((execution) =>
			nodeItems(execution, 'Review finished').map((item) => item.json.document_id),
		);
		expect(handled.sort()).toEqual([before.document_id, during.document_id].sort());
		const attempts = delivered.length;
		log(
			'hardening',
			`restart: 2 events (1 while n8n was down: ${attempts} attempts, the last one delivered) + ${copiesAnswered} copies after the restart → ${executions.length} executions, 0 lost, 0 duplicated`,
		);
	});

	it('the same event 12 times in a row and 12 times at once starts exactly one execution each', async () => {
		const definition = triggerWorkflow({
			name: 'hardening: duplicate deliveries',
			trigger: reviewTriggerNode(fixture.credential, ['document.verified']),
		});
		const workflow = await fixture.stack.client.createWorkflow(definition);
		const path = `${definition.webhookId}/webhook`;
		await fixture.stack.client.activateWorkflow(workflow.id);
		await fixture.stack.client.waitForWebhook(path);
		const payload = (documentId: string) =>
			JSON.stringify({
				event: 'document.verified',
				timestamp: new Date().toISOString(),
				document_id: documentId,
				review_id: 'rev_dup',
				verified_by: 'human_reviewer',
				corrections_made: false,
				data: {},
				confidence: { original: 0.7, final: 1 },
			});
		const send = async (body: string) =>
			await fixture.stack.client.callWebhook(path, {
				body,
				headers: { 'content-type': 'application/json', 'x-service-signature': fixture.sign(body) },
			});

		const sequential = payload('doc_hardening_sequential');
		const sequentialAnswers: number[] = [];
		for (let copy = 0; copy < 12; copy++) {
			sequentialAnswers.push((await send(sequential)).status);
			await sleep(150);
		}
		const concurrent = payload('doc_hardening_concurrent');
		const concurrentAnswers = (
			await Promise.all(Array.from({ length: 12 }, async () => await send(concurrent)))
		).map((answer) => answer.status);
		expect([...sequentialAnswers, ...concurrentAnswers].every((status) => status === 200)).toBe(
			true,
		);

		await fixture.exactlyRuns(workflow.id, 2);
		const executions = await executionsOf(workflow.id);
		const handled = executions.flatMap((execution) =>
			nodeItems(execution, 'Review finished').map((item) => item.json.document_id),
		);
		expect(handled.sort()).toEqual(['doc_hardening_concurrent', 'doc_hardening_sequential']);
		log(
			'hardening',
			`duplicates: 24 copies of 2 events (12 sequential, 12 concurrent) → 24 × 200, ${executions.length} executions`,
		);
	});

	it('service faults (500, reset, malformed JSON, 503, slow): one output item per input item, paired, clear errors, never a second document', async () => {
		const files = Array.from({ length: 6 }, (_, index) => {
			const target = join(fixture.stack.n8n.fileAccessDirs[0], `fault-${index}.json`);
			copyFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'), target);
			return target;
		});
		// Applied to the next extract requests in this order; the sixth gets a normal answer.
		for (const fault of [
			{ mode: '500' },
			{ mode: 'reset' },
			{ mode: 'malformed' },
			{ mode: '503' },
			{ mode: 'slow', delayMs: 2_000 },
		]) {
			await sandboxControl(fixture.sandbox.url, 'faults', {
				...fault,
				count: 1,
				paths: ['/v1/extract'],
			});
		}
		const documentsBefore = (await fixture.sandboxState()).documents.length;
		const execution = await runOnce('hardening: faults', [
			readFileNode('Read invoices', join(fixture.stack.n8n.fileAccessDirs[0], 'fault-*.json')),
			extractNode('Extract', extractParameters()),
		]);
		expect(execution.status).toBe('success');
		const items = allOutputItems(execution, 'Extract');
		expect(items).toHaveLength(files.length);
		expect(items.map((item) => (item.pairedItem as { item: number }).item).sort()).toEqual([
			0, 1, 2, 3, 4, 5,
		]);
		const errors = items.filter((item) => item.json.error).map((item) => String(item.json.error));
		const documents = items
			.filter((item) => item.json.document_id)
			.map((item) => String(item.json.document_id));
		expect(errors).toHaveLength(4);
		expect(errors.join('\n')).toMatch(/server error \(500\)|500/);
		expect(errors.join('\n')).toMatch(/not (been )?(repeated|retried|sent again)/i);
		// A retried upload is a second document: no message or description suggests Retry On Fail (N19).
		const advice = items
			.filter((item) => item.json.error)
			.map((item) => `${String(item.json.error)} ${String(item.json.error_description ?? '')}`);
		for (const text of advice)
			expect(text).not.toMatch(/enable "Retry On Fail"|retry later|retry the request/i);
		expect(advice.filter((text) => text.includes('Do not turn on "Retry On Fail"'))).toHaveLength(
			3,
		);
		expect(documents).toHaveLength(2);
		// Exactly the documents the node reports exist at the sandbox: a fault never produced a second one.
		const after = (await fixture.sandboxState()).documents;
		expect(after.length - documentsBefore).toBe(2);
		expect(new Set(documents).size).toBe(2);
		for (const id of documents) expect(after.map((document) => document.id)).toContain(id);
		log(
			'hardening',
			`faults: 6 items (500, reset, malformed, 503, slow, normal) → 6 output items (4 errors, 2 documents), 2 documents at the service, 0 duplicated`,
		);
	});

	it('bad input is refused before any request, with a message that says what to fix', async () => {
		const odd = (fileName: string, content: string, mimeType: string) => ({
			fileName,
			data: Buffer.from(content).toString('base64'),
			mimeType,
		});
		const invoice = readFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'), 'utf8');
		const refusedBinaries = [
			odd('empty.pdf', '', 'application/pdf'),
			odd('no-extension', invoice, 'application/octet-stream'),
			odd('notes.txt', 'hello', 'text/plain'),
			odd('invoice.exe', invoice, 'application/x-msdownload'),
		];
		const makeItems = `return ${JSON.stringify(refusedBinaries)}.map((file) => ({ json: { name: file.fileName }, binary: { data: { data: file.data, mimeType: file.mimeType, fileName: file.fileName } } })).concat([{ json: { name: 'no binary at all' } }]);`;
		const badIds = [
			'../../etc/passwd',
			'doc_a/../b',
			'doc_%2F..%2Fx',
			'doc_a?x=1',
			'doc_a#x',
			`doc_${'x'.repeat(500)}`,
			'rev_notadocument',
			' ',
			'doc_ä',
		];
		const before = (await fixture.sandboxState()).counts;
		const extract = await runOnce('hardening: bad files', [
			codeNode('Bad files', makeItems),
			extractNode('Extract', extractParameters()),
		]);
		const status = await runOnce('hardening: bad document ids', [
			codeNode('Bad ids', `return ${JSON.stringify(badIds)}.map((id) => ({ json: { id } }));`),
			extractNode('Get Status', {
				resource: 'document',
				operation: 'getStatus',
				documentId: '={{ $json.id }}',
				options: {},
			}),
		]);
		const after = (await fixture.sandboxState()).counts;

		const extractErrors = allOutputItems(extract, 'Extract').map((item) =>
			String(item.json.error ?? ''),
		);
		expect(extractErrors).toHaveLength(refusedBinaries.length + 1);
		expect(extractErrors[0]).toMatch(/empty \(0 bytes\)/);
		expect(extractErrors[1]).toMatch(/not a type the service reads/);
		expect(extractErrors[2]).toMatch(/not a type the service reads/);
		expect(extractErrors[3]).toMatch(/not a type the service reads/);
		expect(extractErrors[4]).toMatch(/binary|no binary|has no/i);
		const statusErrors = allOutputItems(status, 'Get Status').map((item) =>
			String(item.json.error ?? ''),
		);
		expect(statusErrors).toHaveLength(badIds.length);
		for (const message of statusErrors)
			expect(message).toMatch(/not a document ID|Document ID is empty/);
		expect(after.extractRequests - before.extractRequests).toBe(0);
		expect(after.statusRequests - before.statusRequests).toBe(0);
		log(
			'hardening',
			`bad input: ${refusedBinaries.length + 1} bad files + ${badIds.length} bad document IDs → ${extractErrors.length + statusErrors.length} refused with a message, 0 requests sent`,
		);
	});

	it('odd but valid file names (unicode, spaces, quotes, very long) and a type that does not match the content reach the service once each', async () => {
		const invoice = readFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'), 'utf8');
		const names = [
			'Rechnung "März" №7 – ü.json',
			'spaces   and\ttab.json',
			`${'long-'.repeat(60)}name.json`,
			"o'brien; rm -rf.json",
			'looks-like.pdf',
		];
		const files = names.map((fileName) => ({
			fileName,
			data: Buffer.from(invoice).toString('base64'),
			mimeType: fileName.endsWith('.pdf') ? 'application/pdf' : 'application/json',
		}));
		const before = (await fixture.sandboxState()).documents.length;
		const execution = await runOnce('hardening: odd names', [
			codeNode(
				'Odd names',
				`return ${JSON.stringify(files)}.map((file) => ({ json: { name: file.fileName }, binary: { data: { data: file.data, mimeType: file.mimeType, fileName: file.fileName } } }));`,
			),
			extractNode('Extract', extractParameters()),
		]);
		const items = allOutputItems(execution, 'Extract');
		expect(items).toHaveLength(names.length);
		expect(items.filter((item) => item.json.error)).toEqual([]);
		const after = (await fixture.sandboxState()).documents.slice(before);
		expect(after).toHaveLength(names.length);
		// A JSON body named .pdf is uploaded as a PDF (the name decides, N4/D22); the service finds no PDF in it (D5).
		const mismatched = items.find((item) => item.json.status === 'processing');
		expect(mismatched, 'the .pdf that holds JSON is processing at the service').toBeDefined();
		log(
			'hardening',
			`odd names: ${names.length} files → ${after.length} documents, 0 refused, 0 duplicated`,
		);
	});

	it("no API key or signing secret in n8n's log or in any execution of the tests above", async () => {
		// Executions of its own, a success and a failure, so that it checks something when run alone.
		const target = join(fixture.stack.n8n.fileAccessDirs[0], 'secrets-scan.json');
		copyFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-acme.json'), target);
		await runOnce('hardening: secrets scan, success', [
			readFileNode('Read invoice', target),
			extractNode('Extract', extractParameters()),
		]);
		await runOnce('hardening: secrets scan, failure', [
			extractNode('Extract', extractParameters({ binaryPropertyName: 'missing' })),
		]);
		expect(fixture.stack.n8n.secretsSeenInOutput()).toEqual([]);
		let scanned = 0;
		for (const execution of seenExecutions) {
			const raw = JSON.stringify(execution.raw);
			expect(raw.includes(fixture.apiKey), `API key in execution ${execution.id}`).toBe(false);
			expect(
				raw.includes(fixture.signingSecret),
				`signing secret in execution ${execution.id}`,
			).toBe(false);
			scanned++;
		}
		expect(scanned).toBeGreaterThanOrEqual(2);
		log(
			'hardening',
			`secrets: ${scanned} executions and n8n's whole log scanned → 0 secrets found`,
		);
	});
});
