// The horizon of "seen before" (docs/memory.md: 100,000 keys per workflow, the oldest forgotten
// first), against n8n's own deduplication helper and database, filled to the limit and past it.
// The store is filled the cheapest real way: n8n's Remove Duplicates node (Remove Items Processed in
// Previous Executions, scope Workflow, Value Is New, History Size 100,000) in the same workflow as
// Extract writes the same row of the workflow's deduplication store, fed by a Code node that makes
// the items. A file submitted, then 99,999 other keys: the file is still Already Submitted, checked
// twice. One new file more (past the limit): the first file, now the oldest beyond the 100,000
// newest, is extracted again, and the newer one is still remembered.

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	actionNode,
	codeNode,
	extractParameters,
	log,
	nodeItems,
	sandboxState,
	type DecodedExecution,
	type WorkflowDefinition,
	type WorkflowNode,
} from '../../local-n8n/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { untaxedInvoice } from './support/sampleInvoices.ts';

const fixture = useN8nAndSandbox();

/** The bound docs/memory.md states, and the History Size the filling Remove Duplicates node writes with. */
const REMEMBERED_KEYS = 100_000;

/** Extract's outputs (version 1.2) with Skip Files Already Submitted. */
const OUTPUTS = ['Verified', 'Needs Review', 'Already Submitted'] as const;
type Output = (typeof OUTPUTS)[number];

function webhookNode(name: string, path: string, y: number): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		position: [0, y],
		// Answers when the run has finished: the test reads the execution next.
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'noData',
			options: {},
		},
	};
}

/**
 * One workflow, two webhooks: "Submit" sends a posted file through Extract (Skip Files Already
 * Submitted); "Fill" records `count` other keys (`other-<from>` …) with Remove Duplicates.
 */
function horizonWorkflow(name: string): WorkflowDefinition & { submit: string; fill: string } {
	const submit = `e2e-horizon-submit-${randomUUID().slice(0, 8)}`;
	const fill = `e2e-horizon-fill-${randomUUID().slice(0, 8)}`;
	const extract = actionNode(
		'Extract',
		fixture.credential,
		extractParameters({ binaryPropertyName: 'invoice', options: { skipDuplicates: true } }),
		{ typeVersion: 1.2 },
	);
	const others = codeNode(
		'Other keys',
		[
			'const { from, count } = $input.first().json.body;',
			'return Array.from({ length: count }, (_, index) => ({ json: { key: `other-${from + index}` } }));',
		].join('\n'),
	);
	const remember: WorkflowNode = {
		id: randomUUID(),
		name: 'Remember others',
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		position: [440, 300],
		parameters: {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json.key }}',
			options: { scope: 'workflow', historySize: REMEMBERED_KEYS },
		},
	};
	const link = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	return {
		name,
		nodes: [
			webhookNode('Submit', submit, 0),
			{ ...extract, id: randomUUID(), position: [220, 0] } as WorkflowNode,
			webhookNode('Fill', fill, 300),
			{ ...others, id: randomUUID(), position: [220, 300] } as WorkflowNode,
			remember,
		],
		connections: {
			Submit: link('Extract'),
			Fill: link('Other keys'),
			'Other keys': link('Remember others'),
		},
		settings: { executionOrder: 'v1' },
		submit,
		fill,
	};
}

type Horizon = { id: string; submit: string; fill: string };

async function createHorizonWorkflow(name: string): Promise<Horizon> {
	const definition = horizonWorkflow(name);
	const created = await fixture.stack.client.createWorkflow(definition);
	await fixture.stack.client.activateWorkflow(created.id);
	await fixture.stack.client.waitForWebhook(definition.submit);
	await fixture.stack.client.waitForWebhook(definition.fill);
	return { id: created.id, submit: definition.submit, fill: definition.fill };
}

/** The workflow's newest execution, finished. */
async function newestExecution(workflowId: string): Promise<DecodedExecution> {
	const [newest] = await fixture.stack.client.listExecutions(workflowId, { limit: 1 });
	return await fixture.stack.client.waitForExecution(newest.id, { timeoutMs: 120_000 });
}

const invoiceFile = (invoiceNo: string) =>
	Buffer.from(JSON.stringify(untaxedInvoice('Initech GmbH', invoiceNo)));

/** Posts `file` to Submit; returns the output of Extract it came out on, and its item. */
async function submit(
	workflow: Horizon,
	fileName: string,
	file: Buffer,
): Promise<{ output: Output; json: Record<string, unknown> }> {
	const form = new FormData();
	form.append('invoice', new Blob([file], { type: 'application/json' }), fileName);
	const encoded = new Response(form);
	const answer = await fixture.stack.client.callWebhook(workflow.submit, {
		body: Buffer.from(await encoded.arrayBuffer()),
		headers: { 'content-type': encoded.headers.get('content-type') as string },
	});
	expect(answer.status, answer.text).toBe(200);
	const execution = await newestExecution(workflow.id);
	expect(execution.status).toBe('success');
	fixture.expectNoSecretIn(execution);
	const items = OUTPUTS.flatMap((output, index) =>
		nodeItems(execution, 'Extract', { output: index }).map((item) => ({
			output,
			json: item.json,
		})),
	);
	expect(items).toHaveLength(1);
	return items[0];
}

/** Records `count` other keys through Remove Duplicates; returns how long n8n took. */
async function fill(workflow: Horizon, from: number, count: number): Promise<number> {
	const started = Date.now();
	const answer = await fixture.stack.client.callWebhook(workflow.fill, {
		json: { from, count },
		timeoutMs: 300_000,
	});
	const took = Date.now() - started;
	const execution = await newestExecution(workflow.id);
	expect(
		execution.status,
		`${answer.status} ${answer.text.slice(0, 500)} ${JSON.stringify(execution.data.resultData?.error ?? null).slice(0, 500)}`,
	).toBe('success');
	// Every key was new: Remove Duplicates kept them all.
	expect(nodeItems(execution, 'Remember others')).toHaveLength(count);
	const nodeMs = (name: string) => execution.data.resultData?.runData?.[name]?.[0]?.executionTime;
	log(
		'memory-horizon',
		`${count} keys recorded in ${took} ms (Code node ${nodeMs('Other keys')} ms, Remove Duplicates ${nodeMs('Remember others')} ms)`,
	);
	return took;
}

const documentCount = async () => (await sandboxState(fixture.sandbox.url)).documents.length;

describe('Skip Files Already Submitted remembers 100,000 keys per workflow, in n8n’s own store', () => {
	let atLimit: Horizon;
	const atLimitFile = invoiceFile('HORIZON-AT-LIMIT');

	it('a file, then 99,999 other keys: the file is still Already Submitted', async () => {
		atLimit = await createHorizonWorkflow('e2e: horizon, at the limit');
		const first = await submit(atLimit, 'at-limit.json', atLimitFile);
		expect(first.output).toBe('Verified');

		await fill(atLimit, 0, REMEMBERED_KEYS - 1);

		const before = await documentCount();
		const again = await submit(atLimit, 'at-limit.json', atLimitFile);
		expect(again.output).toBe('Already Submitted');
		expect(await documentCount()).toBe(before);
	});

	// At the limit, a claim's own token is one key more while it is there: the store's bound leaves
	// room for it, so the check forgets nothing.
	it('at the limit, checking the file forgets nothing: it is Already Submitted the next time too', async () => {
		const before = await documentCount();
		const again = await submit(atLimit, 'at-limit.json', atLimitFile);
		expect(again.output).toBe('Already Submitted');
		expect(await documentCount()).toBe(before);
	});

	// The same row, full: one new file more pushes the oldest key out (one fill of 99,999 keys is
	// about 40 s, so the three steps share it).
	it('one new file more: the first file, now the oldest, is extracted again; the newer one is still remembered', async () => {
		const newer = invoiceFile('HORIZON-NEWER');
		expect((await submit(atLimit, 'newer.json', newer)).output).toBe('Verified');

		const before = await documentCount();
		const again = await submit(atLimit, 'at-limit.json', atLimitFile);
		expect(again.output).toBe('Verified');
		expect(again.json).toMatchObject({ status: 'verified', invoice_no: 'HORIZON-AT-LIMIT' });
		expect(await documentCount()).toBe(before + 1);
		// The newer file is among the newest keys: still remembered.
		expect((await submit(atLimit, 'newer.json', newer)).output).toBe('Already Submitted');
	});
});
