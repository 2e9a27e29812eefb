// The email-to-books templates' mail, as the tests start it: the mailbox their Email Trigger reads
// (a real IMAP server), the approver's mail server, and the credentials a template is published
// with (the service's, IMAP, SMTP).

import { afterAll, beforeAll } from 'vitest';
import { registerSecret, type Credential, type N8nClient } from '../../../local-n8n/index.ts';
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

/** Starts the two servers and makes their credentials in `client`'s n8n beside `documentExtraction`. */
export async function startMailboxes(
	client: N8nClient,
	documentExtraction: Credential,
): Promise<Mailboxes> {
	const imap = await startImapServer();
	registerSecret(imap.password);
	const mail = await startMailServer();
	const credentials = [
		documentExtraction,
		await createImapCredential(client, imap),
		await createSmtpCredential(client, mail),
	];
	return { imap, mail, credentials };
}

/** The mailboxes for a file (or a describe block): started in its beforeAll, stopped in its afterAll. */
export function useMailboxes(fixture: N8nAndSandbox): Mailboxes {
	const mailboxes = {} as Mailboxes;
	beforeAll(async () => {
		Object.assign(mailboxes, await startMailboxes(fixture.stack.client, fixture.credential));
		fixture.secrets.push(mailboxes.imap.password);
	});
	afterAll(async () => {
		await mailboxes.imap?.stop();
		await mailboxes.mail?.stop();
	});
	return mailboxes;
}
