// n8n's mail credentials pointed at the local servers: SMTP plain, no login, no STARTTLS (n8n's Email
// node passes `disableStartTls` to nodemailer as `ignoreTLS` when `secure` is false); IMAP plain on
// loopback, with the mailbox's own user and password.

import type { Credential, N8nClient } from '../n8nApi.ts';
import type { ImapServer } from './imapServer.ts';
import type { MailServer } from './smtpServer.ts';

/** The name the approval example gives its SMTP credential (examples/invoice-approval-by-manager.workflow.json). */
export const APPROVALS_SMTP_CREDENTIAL_NAME = 'SMTP (approvals)';

export function smtpCredentialData(server: Pick<MailServer, 'host' | 'port'>) {
	return {
		host: server.host,
		port: server.port,
		secure: false,
		disableStartTls: true,
		user: '',
		password: '',
		hostName: '',
	};
}

/** Creates the credential (n8n's REST API) for the server. */
export async function createSmtpCredential(
	client: N8nClient,
	server: Pick<MailServer, 'host' | 'port'>,
	name = APPROVALS_SMTP_CREDENTIAL_NAME,
): Promise<Credential> {
	return await client.createCredential(name, 'smtp', smtpCredentialData(server));
}

export function imapCredentialData(imap: Pick<ImapServer, 'user' | 'password' | 'host' | 'port'>) {
	return {
		user: imap.user,
		password: imap.password,
		host: imap.host,
		port: imap.port,
		secure: false,
		allowUnauthorizedCerts: false,
	};
}

/** Creates n8n's IMAP credential (n8n's REST API) for the local mailbox. */
export async function createImapCredential(
	client: N8nClient,
	imap: Pick<ImapServer, 'user' | 'password' | 'host' | 'port'>,
	name = 'IMAP (invoices)',
): Promise<Credential> {
	return await client.createCredential(name, 'imap', imapCredentialData(imap));
}
