/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// No system package for the main job: n8n's own Email Trigger (IMAP), as the email-to-books
// templates set it (v2.2, Resolved, Mark as Read), reads the IMAP server in Node
// (local-n8n/mail/nodeImapServer.ts), forced here even where Dovecot is installed. n8n's credential
// test connects; an email with a PDF invoice becomes one execution whose attachment is the PDF byte
// for byte and the email is marked read; a second email, delivered once n8n's client is in IDLE,
// becomes the second execution. Runs everywhere: nothing to install.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	nodeItems,
	nodeJson,
	registerSecret,
	triggerWorkflow,
	type Credential,
} from '../../local-n8n/index.ts';
import {
	composeMessage,
	createImapCredential,
	imapCredentialData,
	invoicePdf,
	startImapServer,
	type ImapServer,
} from '../../local-n8n/mail/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox({ tier: null });

const TRIGGER = 'Email Trigger (IMAP)';
const AS_TEXT = 'Attachment as base64';

describe('n8n’s Email Trigger (IMAP) on the IMAP server in Node', () => {
	let imap: ImapServer;
	let credential: Credential;
	let workflowId = '';

	const email = (subject: string, pdf: Buffer) =>
		composeMessage({
			from: 'Acme Billing <billing@acme-supplies.example>',
			to: 'invoices@example.com',
			subject,
			text: 'Please find our invoice attached.',
			attachments: [{ fileName: 'invoice.pdf', contentType: 'application/pdf', content: pdf }],
		});

	beforeAll(async () => {
		imap = await startImapServer({ server: 'node' });
		expect(imap.kind).toBe('node');
		registerSecret(imap.password);
		fixture.secrets.push(imap.password);
		credential = await createImapCredential(fixture.stack.client, imap);
	});

	afterAll(async () => {
		if (workflowId)
			await fixture.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
		await imap?.stop();
	});

	it("n8n's credential test connects and lists the mailbox", async () => {
		const result = await fixture.stack.client.call<{ status: string; message: string }>(
			'POST',
			'/rest/credentials/test',
			{
				credentials: {
					id: credential.id,
					name: credential.name,
					type: 'imap',
					data: imapCredentialData(imap),
				},
			},
		);
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it('an email with a PDF: one execution, the PDF byte for byte, the email marked read; the next email, delivered while the client idles, the second', async () => {
		const definition = triggerWorkflow({
			name: 'e2e: Email Trigger on the IMAP server in Node',
			trigger: {
				name: TRIGGER,
				type: 'n8n-nodes-base.emailReadImap',
				typeVersion: 2.2,
				parameters: {
					mailbox: 'INBOX',
					postProcessAction: 'read',
					format: 'resolved',
					dataPropertyAttachmentsPrefixName: 'attachment_',
					options: {},
				},
				credentials: { imap: { id: credential.id, name: credential.name } },
			},
			nodes: [
				{
					name: AS_TEXT,
					type: 'n8n-nodes-base.extractFromFile',
					typeVersion: 1.1,
					parameters: {
						operation: 'binaryToPropery',
						binaryPropertyName: 'attachment_0',
						destinationKey: 'pdf_base64',
						options: {},
					},
				},
			],
		});
		const created = await fixture.stack.client.createWorkflow(definition);
		workflowId = created.id;
		await fixture.stack.client.activateWorkflow(workflowId);
		// The trigger starts on mail that arrives after it opened INBOX.
		await imap.waitForMailboxOpened();

		const first = invoicePdf(['Acme Supplies GmbH', 'Invoice INV-2001', 'Total 1,190.00']);
		imap.deliver(email('Invoice INV-2001', first));
		const [execution] = await fixture.stack.client.waitForExecutions(workflowId, 1, {
			timeoutMs: 30_000,
		});
		expect(execution.status).toBe('success');
		const [item] = nodeItems(execution, TRIGGER);
		expect(item.json.subject).toBe('Invoice INV-2001');
		expect(item.binary?.attachment_0).toMatchObject({
			fileName: 'invoice.pdf',
			mimeType: 'application/pdf',
		});
		expect(nodeJson(execution, AS_TEXT)).toEqual([{ pdf_base64: first.toString('base64') }]);
		// Marked read (Mark as Read): the Maildir file carries the S flag.
		expect(readdirSync(join(imap.maildir, 'cur'))).toEqual([expect.stringMatching(/:2,S$/)]);

		// n8n's client enters IDLE 15 s after its last command: the next email is announced there.
		await imap.waitForIdle!(1, 30_000);
		const second = invoicePdf(['Acme Supplies GmbH', 'Invoice INV-2002', 'Total 238.00']);
		imap.deliver(email('Invoice INV-2002', second));
		const executions = await fixture.stack.client.waitForExecutions(workflowId, 2, {
			timeoutMs: 30_000,
		});
		const latest = executions.find((run) => run.id !== execution.id)!;
		expect(latest.status).toBe('success');
		expect(nodeJson(latest, TRIGGER)).toEqual([
			expect.objectContaining({ subject: 'Invoice INV-2002' }),
		]);
		expect(nodeJson(latest, AS_TEXT)).toEqual([{ pdf_base64: second.toString('base64') }]);
		await fixture.settle();
		expect(await fixture.stack.client.listExecutions(workflowId)).toHaveLength(2);
		for (const run of executions)
			fixture.expectNoSecretIn(run, 'the IMAP password in an execution');
	});
});
