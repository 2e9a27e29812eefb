/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// The local mailboxes `npm start` gives the two email-to-books templates: a Dovecot each, its mail
// kept in the data folder (as a normal user); an n8n IMAP credential each, updated in place at every
// start (the port may change); and mailboxes.json beside them, which `npm run send-invoice` reads.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerSecret, type Credential, type N8nClient } from '../local-n8n/index.ts';
import {
	createImapCredential,
	imapCredentialData,
	startImapServer,
	type ImapServer,
} from '../local-n8n/mail/index.ts';

/** The email-to-books templates, the mailbox each reads and its preferred IMAP port. */
export const EMAIL_TO_BOOKS = {
	xero: {
		template: 'invoices-email-to-xero-with-approval.workflow.json',
		user: 'invoices-xero',
		credential: 'IMAP (invoices for Xero)',
		port: 1143,
	},
	quickbooks: {
		template: 'invoices-email-to-quickbooks-with-approval.workflow.json',
		user: 'invoices-quickbooks',
		credential: 'IMAP (invoices for QuickBooks)',
		port: 1144,
	},
} as const;

export type Books = keyof typeof EMAIL_TO_BOOKS;
const BOOKS = Object.keys(EMAIL_TO_BOOKS) as Books[];

/** What send-invoice needs of a mailbox. */
export interface MailboxAddress {
	maildir: string;
	address: string;
}

export function mailboxesFile(dataDir: string): string {
	return join(dataDir, 'mailboxes.json');
}

export function readMailboxes(dataDir: string): Partial<Record<Books, MailboxAddress>> {
	return JSON.parse(readFileSync(mailboxesFile(dataDir), 'utf8')) as Partial<
		Record<Books, MailboxAddress>
	>;
}

export interface Mailboxes {
	started: boolean;
	/** One line for the start output. */
	note: string;
	/** The mailbox of an example file, when it is an email-to-books template. */
	forTemplate(file: string | undefined): { credential: Credential } | undefined;
}

export async function startMailboxes(client: N8nClient, dataDir: string): Promise<Mailboxes> {
	const started: Partial<Record<Books, { credential: Credential; server: ImapServer }>> = {};
	try {
		for (const books of BOOKS) {
			const { user, credential: name, port } = EMAIL_TO_BOOKS[books];
			const server = await startImapServer({
				user,
				port,
				// As root (CI) Dovecot's mail processes run as its own user, who cannot enter a folder
				// below root's home or a private temporary one: a fresh mailbox each start then.
				dir: process.getuid?.() === 0 ? undefined : join(dataDir, 'mail', books),
				neededBy: "npm start's email-to-books templates",
			});
			registerSecret(server.password);
			const kept = (await client.listCredentials()).find(
				(credential) => credential.name === name && credential.type === 'imap',
			);
			const credential = kept
				? await client.updateCredential(kept.id, {
						name,
						type: 'imap',
						data: imapCredentialData(server),
					})
				: await createImapCredential(client, server, name);
			started[books] = { credential, server };
		}
	} catch (error) {
		return {
			started: false,
			note: `not started, so the email-to-books templates stay unpublished: ${(error as Error).message}`,
			forTemplate: () => undefined,
		};
	}
	const addresses = Object.fromEntries(
		BOOKS.map((books) => [
			books,
			{
				maildir: started[books]!.server.maildir,
				address: `${EMAIL_TO_BOOKS[books].user}@localhost`,
			},
		]),
	);
	writeFileSync(mailboxesFile(dataDir), `${JSON.stringify(addresses, null, 2)}\n`);
	return {
		started: true,
		note: `${BOOKS.map((books) => `${books} IMAP 127.0.0.1:${started[books]!.server.port}`).join(', ')} (Dovecot; npm run send-invoice delivers into them)`,
		forTemplate: (file) => {
			const books = BOOKS.find((candidate) => file?.endsWith(EMAIL_TO_BOOKS[candidate].template));
			return books ? started[books] : undefined;
		},
	};
}
