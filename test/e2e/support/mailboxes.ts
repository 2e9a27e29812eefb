// The email-to-books templates' mail, as a file of tests starts it: the mailbox their Email Trigger
// reads (a real IMAP server), the approver's mail server, and the credentials a template is published
// with (the service's, IMAP, SMTP). Started in the caller's beforeAll, stopped in its afterAll.

import { afterAll, beforeAll } from 'vitest';
import { registerSecret, type Credential } from '../../../local-n8n/index.ts';
import {
	createImapCredential,
	createSmtpCredential,
	startImapServer,
	startMailServer,
	type ImapServer,
	type MailServer,
} from '../../../local-n8n/mail/index.ts';
import type { N8nAndSandbox } from './n8nAndSandbox.ts';

export interface Mailboxes {
	imap: ImapServer;
	mail: MailServer;
	/** The service's credential, then IMAP and SMTP: what withCredentialsByName matches a template to. */
	credentials: Credential[];
}

export function useMailboxes(fixture: N8nAndSandbox): Mailboxes {
	const mailboxes = {} as Mailboxes;
	beforeAll(async () => {
		const client = fixture.stack.client;
		mailboxes.imap = await startImapServer();
		registerSecret(mailboxes.imap.password);
		fixture.secrets.push(mailboxes.imap.password);
		mailboxes.mail = await startMailServer();
		mailboxes.credentials = [
			fixture.credential,
			await createImapCredential(client, mailboxes.imap),
			await createSmtpCredential(client, mailboxes.mail),
		];
	});
	afterAll(async () => {
		await mailboxes.imap?.stop();
		await mailboxes.mail?.stop();
	});
	return mailboxes;
}
