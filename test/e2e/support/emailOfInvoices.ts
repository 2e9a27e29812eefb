// An email of invoices as the retry tests send it, in one process and in queue mode alike: one item
// with a file per attachment (`attachment_0`, `attachment_1`, … as n8n's Email Trigger names them),
// posted as a form to a Webhook, through Extract of every `attachment_*` file with Skip Files
// Already Submitted on; what Extract puts out for it; and the two scenarios of a transient 500, with
// the same assertions in both modes.

import { expect } from 'vitest';
import {
	actionNode,
	nodeItems,
	extractParameters,
	log,
	sandboxControl,
	sandboxState,
	webhookWorkflow,
	type Credential,
	type DecodedExecution,
	type N8nClient,
	type NodeExecutionItem,
	type WorkflowDefinition,
} from '../../../local-n8n/index.ts';
import type { N8nAndSandbox } from './n8nAndSandbox.ts';
import { untaxedInvoice } from './sampleInvoices.ts';

/** Extract's outputs (version 1.2) with Skip Files Already Submitted and a file pattern. */
export const EMAIL_OUTPUTS = [
	'Verified',
	'Needs Review',
	'Already Submitted',
	'Skipped Files',
] as const;
export type EmailOutput = (typeof EMAIL_OUTPUTS)[number];

export interface Attachment {
	fileName: string;
	invoiceNo: string;
	bytes: Buffer;
	/** `application/json` unless given. */
	contentType?: string;
}

/** `count` distinct invoices (`<label>-01` …), as the JSON files an email carries. */
export function invoices(label: string, count: number): Attachment[] {
	return Array.from({ length: count }, (_, index) => {
		const invoiceNo = `${label}-${String(index + 1).padStart(2, '0')}`;
		return {
			fileName: `${invoiceNo.toLowerCase()}.json`,
			invoiceNo,
			bytes: Buffer.from(JSON.stringify(untaxedInvoice('Initech GmbH', invoiceNo))),
		};
	});
}

/** Webhook (answering at once) → Extract of every `attachment_*` file, Skip Files Already Submitted on. */
export function emailWorkflow(
	name: string,
	credential: Credential,
	continueOnFail: boolean,
): WorkflowDefinition & { webhookPath: string } {
	return webhookWorkflow({
		name,
		responseMode: 'onReceived',
		nodes: [
			actionNode(
				'Extract',
				credential,
				extractParameters({
					binaryPropertyName: 'attachment_*',
					options: { skipDuplicates: true },
				}),
				{ typeVersion: 1.2, ...(continueOnFail ? { onError: 'continueRegularOutput' } : {}) },
			),
		],
	});
}

/** Posts the attachments to the workflow's webhook through `client` (n8n, or a load balancer). */
export async function postEmail(
	client: N8nClient,
	path: string,
	attachments: Attachment[],
): Promise<void> {
	const form = new FormData();
	form.append('subject', 'Invoices for October');
	attachments.forEach((file, index) =>
		form.append(
			`attachment_${index}`,
			new Blob([file.bytes], { type: file.contentType ?? 'application/json' }),
			file.fileName,
		),
	);
	const encoded = new Response(form);
	const answer = await client.callWebhook(path, {
		body: Buffer.from(await encoded.arrayBuffer()),
		headers: { 'content-type': encoded.headers.get('content-type') as string },
	});
	expect(answer.status, answer.text).toBe(200);
}

/** The upload after `after` others is answered 500 once (the service creates nothing). */
export async function failUploadAfter(sandboxUrl: string, after: number): Promise<void> {
	await sandboxControl(sandboxUrl, 'faults', {
		mode: '500',
		count: 1,
		after,
		paths: ['/v1/extract'],
	});
}

/** Extract's items per output. */
export function extractOutputs(
	execution: DecodedExecution,
): Record<EmailOutput, NodeExecutionItem[]> {
	return Object.fromEntries(
		EMAIL_OUTPUTS.map((name, output) => [name, nodeItems(execution, 'Extract', { output })]),
	) as Record<EmailOutput, NodeExecutionItem[]>;
}

/** The error Extract failed with, in a failed execution. */
export function extractError(
	execution: DecodedExecution,
): { message?: string; description?: string } | undefined {
	return execution.data.resultData?.runData?.Extract?.at(-1)?.error as
		| { message?: string; description?: string }
		| undefined;
}

/** An invoice on Verified with its data: the file it came from, and what was extracted from it. */
export function withItsData(file: Attachment) {
	return expect.objectContaining({
		file_name: file.fileName,
		status: 'verified',
		document_id: expect.stringMatching(/^doc_/),
		vendor: 'Initech GmbH',
		invoice_no: file.invoiceNo,
		total: 0.3,
	});
}

/**
 * A file an earlier execution of the workflow submitted, on Already Submitted: the same item in one
 * process and on a worker. It names no earlier document (docs/memory.md, "What is not remembered").
 */
export function submittedByAnEarlierRun(file: Attachment) {
	return expect.objectContaining({
		document_id: null,
		status: 'already_submitted',
		duplicate: true,
		submitted_concurrently: false,
		file_name: file.fileName,
		content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
		message: expect.stringContaining('an earlier execution of this workflow submitted'),
	});
}

/** How a test file runs the email in its mode: sends it and retries a failed execution, both finished. */
export interface EmailRuns {
	sandboxUrl: string;
	send(attachments: Attachment[]): Promise<DecodedExecution>;
	/** Retried as the editor's "Retry with original workflow" does (N8nClient.retryExecution). */
	retry(failed: DecodedExecution): Promise<DecodedExecution>;
}

/** The email workflow published on `credential` in the fixture's n8n, and how to run it. */
export async function activeEmailRuns(
	fixture: N8nAndSandbox,
	name: string,
	credential: Credential,
	continueOnFail: boolean,
): Promise<EmailRuns & { workflowId: string }> {
	const { client } = fixture.stack;
	const definition = emailWorkflow(name, credential, continueOnFail);
	const { id } = await client.createWorkflow(definition);
	await client.activateWorkflow(id);
	await client.waitForWebhook(definition.webhookPath);
	const finished = async (executionId: string): Promise<DecodedExecution> => {
		const execution = await client.waitForExecution(executionId, { timeoutMs: 120_000 });
		fixture.expectNoSecretIn(execution);
		return execution;
	};
	return {
		workflowId: id,
		sandboxUrl: fixture.sandbox.url,
		send: async (attachments) => {
			const known = (await client.listExecutions(id)).length;
			await postEmail(client, definition.webhookPath, attachments);
			const listed = await client.waitForExecutions(id, known + 1, { timeoutMs: 120_000 });
			return await finished(listed.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b)).id);
		},
		retry: async (failed) =>
			await finished(await client.retryExecution(failed.id, { loadWorkflow: false })),
	};
}

/** Documents the sandbox made since `before` (a count), by file name. */
async function documentsSince(sandboxUrl: string, before: number): Promise<string[]> {
	return (await sandboxState(sandboxUrl)).documents
		.slice(before)
		.map((document) => String(document.fileName))
		.sort();
}

const documentCount = async (sandboxUrl: string) =>
	(await sandboxState(sandboxUrl)).documents.length;

/**
 * Without Continue On Fail: upload `failing` is answered 500 once and the execution fails; its retry
 * outputs every invoice on Verified with its data, in the email's order, none on Already Submitted,
 * and extracts each file once.
 */
export async function expectRetryStrandsNothing(
	runs: EmailRuns,
	files: Attachment[],
	failing: number,
): Promise<{ failed: DecodedExecution; retried: DecodedExecution }> {
	await failUploadAfter(runs.sandboxUrl, failing - 1);
	const failed = await runs.send(files);
	expect(failed.status).toBe('error');
	const error = extractError(failed);
	expect(error?.message).toMatch(/\(500\)/);
	// What the person reads before retrying, for the report beside what the retry then does.
	log('retry', `the failed execution says: ${error?.message} | ${error?.description ?? ''}`);

	const before = await documentCount(runs.sandboxUrl);
	const retried = await runs.retry(failed);
	expect(retried.mode).toBe('retry');
	expect(retried.status).toBe('success');
	const out = extractOutputs(retried);
	expect(out['Already Submitted'].map((item) => item.json)).toEqual([]);
	expect(out['Needs Review'].map((item) => item.json)).toEqual([]);
	expect(out['Skipped Files']).toEqual([]);
	expect(out.Verified.map((item) => item.json)).toEqual(files.map(withItsData));
	expect(await documentsSince(runs.sandboxUrl, before)).toEqual(
		files.map((file) => file.fileName).sort(),
	);
	return { failed, retried };
}

/**
 * With Continue On Fail: upload `failing` is answered 500 once; the failed file alone comes out on
 * Needs Review as an error item, the others on Verified with their data. The same email again
 * extracts only the failed file; the others come out on Already Submitted as files an earlier run
 * submitted.
 */
export async function expectFailedFileAloneAgain(
	runs: EmailRuns,
	files: Attachment[],
	failing: number,
): Promise<{ first: DecodedExecution; again: DecodedExecution }> {
	await failUploadAfter(runs.sandboxUrl, failing - 1);
	const first = await runs.send(files);
	expect(first.status).toBe('success');
	const firstOut = extractOutputs(first);
	expect(firstOut['Already Submitted']).toEqual([]);
	// Whole items, so that a failure shows what else came out on Needs Review.
	expect(firstOut['Needs Review'].map((item) => item.json)).toEqual([
		expect.objectContaining({ error: expect.stringMatching(/\(500\)/), http_code: 500 }),
	]);
	// In parallel, the failing upload is whichever reached the service in that place.
	const verifiedFirst = firstOut.Verified.map((item) => String(item.json.file_name));
	const failedFiles = files.filter((file) => !verifiedFirst.includes(file.fileName));
	expect(failedFiles).toHaveLength(1);
	const [failedFile] = failedFiles;
	expect(String(firstOut['Needs Review'][0].json.error)).toContain(failedFile.fileName);
	const others = files.filter((file) => file !== failedFile);
	expect(firstOut.Verified.map((item) => item.json)).toEqual(others.map(withItsData));

	const before = await documentCount(runs.sandboxUrl);
	const again = await runs.send(files);
	expect(again.status).toBe('success');
	const out = extractOutputs(again);
	expect(out['Needs Review'].map((item) => item.json)).toEqual([]);
	expect(out.Verified.map((item) => item.json)).toEqual([withItsData(failedFile)]);
	expect(out['Already Submitted'].map((item) => item.json)).toEqual(
		others.map(submittedByAnEarlierRun),
	);
	expect(await documentsSince(runs.sandboxUrl, before)).toEqual([failedFile.fileName]);
	return { first, again };
}

/** The cases of the issue: Pilot one upload at a time, Growth in parallel. */
export const RETRY_CASES = [
	{ tier: 'pilot', label: 'Pilot', mode: 'one upload at a time', count: 5, failing: 3 },
	{ tier: 'growth', label: 'Growth', mode: 'uploads in parallel', count: 12, failing: 4 },
] as const;
