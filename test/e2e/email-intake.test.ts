/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// Every invoice of an email is extracted, proven with n8n's own Email Trigger (IMAP)
// reading a real IMAP server (Dovecot): an email with two PDF invoices, a PNG logo and a calendar
// invite becomes two extractions, each its own item with the file's name, its binary field and the
// email's fields; the logo and the invite come out on Skipped Files with their reasons and are never
// uploaded; the same invoices in a second email upload nothing (Skip Files Already Submitted).
// And a form: a Webhook receiving three files gives three extractions.
//
// Without Dovecot the IMAP suite is listed as not run with its install command (describeNeeding);
// the Webhook suite runs anyway.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	REPO_ROOT,
	actionNode,
	extractParameters,
	nodeItems,
	nodeJson,
	registerSecret,
	sandboxControl,
	sandboxState,
	loadExampleWorkflows,
	webhookWorkflow,
	withCredentialsByName,
	type Credential,
	type DecodedExecution,
	type NodeExecutionItem,
	type NodeSpec,
} from '../../local-n8n/index.ts';
import {
	calendarInvite,
	composeMessage,
	createImapCredential,
	invoicePdf,
	logoPng,
	startImapServer,
	type ImapServer,
	type MessageAttachment,
} from '../../local-n8n/mail/index.ts';
import { describeNeeding } from './support/requirements.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox();

/** A Set node after each output, as a flow routes them (it keeps the item's fields). */
function routeNode(output: string): NodeSpec {
	return {
		name: `On ${output}`,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'manual',
			includeOtherFields: true,
			assignments: {
				assignments: [{ id: output, name: 'route', value: output, type: 'string' }],
			},
			options: {},
		},
	};
}

function extractNode(binaryPropertyName: string, options: Record<string, unknown>): NodeSpec {
	return actionNode(
		'Extract',
		fixture.credential,
		extractParameters({ binaryPropertyName, holdNotReady: true, options }),
		{ typeVersion: 1.2 },
	);
}

/** The items of node `extract` per output (by the names given, in output order). */
function byOutput(execution: DecodedExecution, outputs: readonly string[], extract = 'Extract') {
	return Object.fromEntries(
		outputs.map((name, output) => [name, nodeItems(execution, extract, { output })]),
	) as Record<string, NodeExecutionItem[]>;
}

const fileNames = (items: NodeExecutionItem[]) =>
	items.map((item) => String(item.json.file_name)).sort();

/** The example this suite runs: Email Trigger (IMAP) → Extract every attachment → a Set node per output. */
const EXAMPLE = 'invoice-email-intake.workflow.json';
/** The example's Extract at version 1.3: Same Invoice's place (Detect Same Invoice is off) is unused. */
const EXAMPLE_OUTPUTS = [
	'Verified',
	'Needs Review',
	'Already Submitted',
	'Option Off',
	'Skipped Files',
] as const;
const EXTRACT = 'Extract every attachment';

describeNeeding(
	['dovecot'],
	'Every file of an email, from a real IMAP server (the email intake example)',
	() => {
		let imap: ImapServer;
		let imapCredential: Credential;
		let workflowId = '';
		const SUBJECT = 'Invoices October: Acme Supplies';
		const SENDER = 'billing@acme-supplies.example';
		// Longer than 1,000 characters: not copied onto each file's item (the invoices are the point).
		const LONG_BODY = `Dear accounts payable team,\n\nplease find our invoices attached.\n\n${'Terms and conditions apply. '.repeat(50)}`;
		const attachments: MessageAttachment[] = [
			{
				fileName: 'invoice-1.pdf',
				contentType: 'application/pdf',
				content: invoicePdf(['Acme Supplies GmbH', 'Invoice INV-1001', 'Total 1,190.00']),
			},
			{
				fileName: 'invoice-2.pdf',
				contentType: 'application/pdf',
				content: invoicePdf(['Acme Supplies GmbH', 'Invoice INV-1002', 'Total 238.00']),
			},
			{ fileName: 'logo.png', contentType: 'image/png', content: logoPng() },
			{ fileName: 'invite.ics', contentType: 'text/calendar', content: calendarInvite() },
		];
		const email = (messageId: string) =>
			composeMessage({
				from: `Acme Billing <${SENDER}>`,
				to: 'invoices@example.com',
				subject: SUBJECT,
				messageId,
				text: LONG_BODY,
				attachments,
			});

		beforeAll(async () => {
			imap = await startImapServer();
			registerSecret(imap.password);
			fixture.secrets.push(imap.password);
			imapCredential = await createImapCredential(fixture.stack.client, imap);
			// The example as a user imports it: its credentials matched by name.
			const example = loadExampleWorkflows().find(({ file }) => file === EXAMPLE);
			if (!example) throw new Error(`examples/${EXAMPLE} is missing`);
			expect(
				example.workflow.nodes.find((node) => node.name === EXTRACT)?.parameters,
			).toMatchObject({ binaryPropertyName: 'attachment_*', options: { skipDuplicates: true } });
			const definition = withCredentialsByName(example.workflow, [
				fixture.credential,
				imapCredential,
			]);
			const created = await fixture.stack.client.createWorkflow(definition);
			workflowId = created.id;
			await fixture.stack.client.activateWorkflow(workflowId);
			// The trigger starts on mail that arrives after it opened INBOX (mail already there waits,
			// unread, for the next arrival): deliver only once it has.
			await imap.waitForMailboxOpened();
		});

		afterAll(async () => {
			if (workflowId)
				await fixture.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
			await imap?.stop();
		});

		it('two PDF invoices, a logo and an invite: two extractions, each its own item; the logo and the invite skipped with their reasons and never uploaded', async () => {
			const before = (await sandboxState(fixture.sandbox.url)).documents.length;
			// One confident upload and one for review, whichever of the two PDFs is sent first.
			await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: [0.99, 0.7] });
			imap.deliver(email('first-delivery@acme-supplies.example'));

			const [execution] = await fixture.stack.client.waitForExecutions(workflowId, 1, {
				timeoutMs: 90_000,
			});
			expect(execution.status).toBe('success');
			const out = byOutput(execution, EXAMPLE_OUTPUTS, EXTRACT);
			const extracted = [...out.Verified, ...out['Needs Review']];
			expect(out.Verified).toHaveLength(1);
			expect(out['Needs Review']).toHaveLength(1);
			expect(out.Verified[0].json.status).toBe('verified');
			expect(out['Needs Review'][0].json.status).toBe('needs_review');
			expect(fileNames(extracted)).toEqual(['invoice-1.pdf', 'invoice-2.pdf']);
			for (const item of extracted) {
				// The Email Trigger names attachments by their place in the email: attachment_0, _1, …
				const place = attachments.findIndex((file) => file.fileName === item.json.file_name);
				expect(item.json.binary_field).toBe(`attachment_${place}`);
				expect(item.json.document_id).toMatch(/^doc_/);
				expect(item.pairedItem).toMatchObject({ item: 0 });
				// The email's fields a flow routes on; its long body is left out.
				const source = item.json.source as Record<string, unknown>;
				expect(source.subject).toBe(SUBJECT);
				expect(source.messageId).toBe('<first-delivery@acme-supplies.example>');
				expect(JSON.stringify(source.from)).toContain(SENDER);
				expect(source.text).toBeUndefined();
				for (const value of Object.values(source))
					if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(1000);
				// From version 1.2 the file travels on as `data`, for the books' attachment.
				expect(item.binary?.data?.fileName).toBe(item.json.file_name);
			}
			expect(new Set(extracted.map((item) => item.json.document_id)).size).toBe(2);

			const skipped = Object.fromEntries(
				out['Skipped Files'].map((item) => [String(item.json.file_name), item]),
			);
			expect(Object.keys(skipped).sort()).toEqual(['invite.ics', 'logo.png']);
			expect(skipped['logo.png'].json.skipped_because).toMatch(/logo\.png.*too small/);
			expect(skipped['invite.ics'].json.skipped_because).toMatch(
				/invite\.ics.*not a type the service reads/,
			);
			for (const item of Object.values(skipped)) {
				expect(item.json.document_id).toBeUndefined();
				expect(item.pairedItem).toMatchObject({ item: 0 });
			}
			expect(out['Already Submitted']).toEqual([]);

			// The example's routes: each says which email the file came from.
			const routed = {
				books: nodeJson(execution, 'Ready for the books'),
				review: nodeJson(execution, 'Waiting for review'),
				notAnInvoice: nodeJson(execution, 'Not an invoice'),
			};
			expect(routed.books.map((json) => json.file_name)).toEqual([out.Verified[0].json.file_name]);
			expect(routed.review.map((json) => json.file_name)).toEqual([
				out['Needs Review'][0].json.file_name,
			]);
			expect(routed.notAnInvoice.map((json) => json.reason)).toEqual(
				out['Skipped Files'].map((item) => item.json.skipped_because),
			);
			for (const json of [...routed.books, ...routed.review, ...routed.notAnInvoice]) {
				expect(json.email_subject).toBe(SUBJECT);
				expect(json.email_from).toContain(SENDER);
			}

			// Uploaded: the two PDFs, nothing else.
			const documents = (await sandboxState(fixture.sandbox.url)).documents.slice(before);
			expect(documents.map((document) => document.fileName).sort()).toEqual([
				'invoice-1.pdf',
				'invoice-2.pdf',
			]);
			expect(documents.map((document) => document.id).sort()).toEqual(
				extracted.map((item) => String(item.json.document_id)).sort(),
			);
			fixture.expectNoSecretIn(execution, 'the IMAP password or an API key in the execution');
		});

		it('the same invoices in the next email upload nothing: both on Already Submitted', async () => {
			const before = (await sandboxState(fixture.sandbox.url)).documents.length;
			imap.deliver(email('forwarded-again@acme-supplies.example'));

			const executions = await fixture.stack.client.waitForExecutions(workflowId, 2, {
				timeoutMs: 90_000,
			});
			const second = executions[1];
			expect(second.status).toBe('success');
			const out = byOutput(second, EXAMPLE_OUTPUTS, EXTRACT);
			expect(fileNames(out['Already Submitted'])).toEqual(['invoice-1.pdf', 'invoice-2.pdf']);
			expect(out.Verified).toEqual([]);
			expect(out['Needs Review']).toEqual([]);
			expect(fileNames(out['Skipped Files'])).toEqual(['invite.ics', 'logo.png']);
			await fixture.settle();
			expect((await sandboxState(fixture.sandbox.url)).documents).toHaveLength(before);
			// One execution per email.
			expect(await fixture.stack.client.listExecutions(workflowId)).toHaveLength(2);
		});
	},
);

describe('Every file of a form, from a Webhook', () => {
	it('three files (two PDFs, one CSV) posted to a Webhook: three extractions, each its own item', async () => {
		const outputs = ['Verified', 'Needs Review', 'Skipped Files'];
		const definition = webhookWorkflow({
			name: 'e2e: every file of a form',
			responseMode: 'onReceived',
			nodes: [extractNode('*', { reviewResultsToTrigger: false }), ...outputs.map(routeNode)],
			connections: {
				Webhook: { main: [[{ node: 'Extract', type: 'main', index: 0 }]] },
				Extract: {
					main: outputs.map((output) => [{ node: `On ${output}`, type: 'main', index: 0 }]),
				},
			},
		});
		const created = await fixture.stack.client.createWorkflow(definition);
		await fixture.stack.client.activateWorkflow(created.id);
		await fixture.stack.client.waitForWebhook(definition.webhookPath);

		const files = [
			{
				field: 'file1',
				name: 'form-a.pdf',
				type: 'application/pdf',
				bytes: invoicePdf(['Form invoice A']),
			},
			{
				field: 'file2',
				name: 'form-b.pdf',
				type: 'application/pdf',
				bytes: invoicePdf(['Form invoice B']),
			},
			{
				field: 'file3',
				name: 'invoice-globex.csv',
				type: 'text/csv',
				bytes: readFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-globex.csv')),
			},
		];
		const form = new FormData();
		form.append('reference', 'PO-7781');
		for (const file of files)
			form.append(file.field, new Blob([file.bytes], { type: file.type }), file.name);
		const encoded = new Response(form);
		const before = (await sandboxState(fixture.sandbox.url)).documents.length;
		await sandboxControl(fixture.sandbox.url, 'next-confidence', {
			confidence: [0.99, 0.99, 0.99],
		});
		const answer = await fixture.stack.client.callWebhook(definition.webhookPath, {
			body: Buffer.from(await encoded.arrayBuffer()),
			headers: { 'content-type': encoded.headers.get('content-type') as string },
		});
		expect(answer.status, answer.text).toBe(200);

		const [execution] = await fixture.stack.client.waitForExecutions(created.id, 1);
		expect(execution.status).toBe('success');
		const out = byOutput(execution, outputs);
		expect(out['Needs Review']).toEqual([]);
		expect(out['Skipped Files']).toEqual([]);
		expect(
			out.Verified.map((item) => [item.json.binary_field, item.json.file_name]).sort(),
		).toEqual(files.map((file) => [file.field, file.name]));
		for (const item of out.Verified) {
			expect(item.pairedItem).toMatchObject({ item: 0 });
			expect((item.json.source as { body?: Record<string, unknown> }).body).toMatchObject({
				reference: 'PO-7781',
			});
		}
		const globex = out.Verified.find((item) => item.json.binary_field === 'file3');
		expect(globex?.json).toMatchObject({ vendor: 'Globex Corporation', invoice_no: 'GX-2026-311' });
		const documents = (await sandboxState(fixture.sandbox.url)).documents.slice(before);
		expect(documents.map((document) => document.fileName).sort()).toEqual(
			files.map((file) => file.name).sort(),
		);
	});
});
