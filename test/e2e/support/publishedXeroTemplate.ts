// "Invoices from email to Xero, with approval" published as a user publishes it, against local
// parts: a Dovecot mailbox, the local SMTP server and the Xero stand-in; every supplier booked to the
// Settings' account (no account asked). For the queue-mode files that drive the whole template.

import {
	loadExampleWorkflows,
	withCredentialsByName,
	type Credential,
	type N8nClient,
	type WorkflowDefinition,
} from '../../../local-n8n/index.ts';
import {
	connectedOAuth2Credential,
	startXeroStandIn,
	withSettings,
	type XeroStandIn,
} from '../../../local-n8n/accounting/index.ts';
import type { ImapServer, MailServer } from '../../../local-n8n/mail/index.ts';
import { STAND_IN_ACCESS_TOKEN } from './booksExamples.ts';
import { startMailboxes } from './mailboxes.ts';

const TEMPLATE = 'invoices-email-to-xero-with-approval.workflow.json';

export interface PublishedXeroTemplate {
	workflowId: string;
	/** The template as imported (its nodes' names and parameters). */
	template: WorkflowDefinition;
	imap: ImapServer;
	mail: MailServer;
	xero: XeroStandIn;
	/** Stops the mail servers and the stand-in (the workflow is the caller's to remove). */
	stop(): Promise<void>;
}

export async function publishXeroTemplate(
	client: N8nClient,
	documentExtraction: Credential,
): Promise<PublishedXeroTemplate> {
	const {
		imap,
		mail,
		credentials: mailCredentials,
	} = await startMailboxes(client, documentExtraction);
	const xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
	const credentials = [
		...mailCredentials,
		await connectedOAuth2Credential(client, 'xeroOAuth2Api', 'Xero account', STAND_IN_ACCESS_TOKEN),
	];
	const template = loadExampleWorkflows().find((entry) => entry.file === TEMPLATE)!.workflow;
	const configured = withSettings(template, {
		xero_api_url: xero.url,
		xero_tenant_id: 'tenant',
		ask_account_for_new_suppliers: 'false',
	});
	const workflowId = (await client.createWorkflow(withCredentialsByName(configured, credentials)))
		.id;
	await client.activateWorkflow(workflowId);
	await imap.waitForMailboxOpened();
	return {
		workflowId,
		template,
		imap,
		mail,
		xero,
		async stop() {
			await imap.stop();
			await mail.stop();
			await xero.close();
		},
	};
}
