/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- tooling runs in plain Node, never inside n8n */
// The local mailboxes `npm start` gives the two email-to-books templates: an IMAP server each
// (Dovecot when installed, else the IMAP server in Node: local-n8n/mail/imapServer.ts; LOCAL_IMAP_SERVER
// chooses), its mail kept in the data folder as a Maildir; an n8n IMAP credential each, updated in
// place at every start (the port may change); and mailboxes.json beside them, which
// `npm run send-invoice` reads.

import { rmSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerSecret, type Credential, type N8nClient } from '../local-n8n/index.ts';
import {
	chooseImapServer,
	createImapCredential,
	imapCredentialData,
	startImapServer,
	type ImapServer,
	type ImapServerKind,
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
	/** Why they did not start (when they did not). */
	failure?: string;
	/** One line for the start output. */
	note: string;
	/** The mailbox of an example file, when it is an email-to-books template. */
	forTemplate(file: string | undefined): { credential: Credential } | undefined;
}

type Started = Record<Books, { credential: Credential; server: ImapServer }>;

/** Both mailboxes on IMAP servers of `kind`, each with its credential; none when one fails. */
async function startBoth(
	client: N8nClient,
	dataDir: string,
	kind: ImapServerKind,
): Promise<Started> {
	const started: Partial<Started> = {};
	const servers: ImapServer[] = [];
	try {
		for (const books of BOOKS) {
			const { user, credential: name, port } = EMAIL_TO_BOOKS[books];
			const server = await startImapServer({
				server: kind,
				user,
				port,
				// As root (CI) Dovecot's mail processes run as its own user, who cannot enter a folder
				// below root's home or a private temporary one: a fresh mailbox each start then.
				dir:
					kind === 'dovecot' && process.getuid?.() === 0 ? undefined : join(dataDir, 'mail', books),
				neededBy: "npm start's email-to-books templates",
			});
			servers.push(server);
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
		return started as Started;
	} catch (error) {
		for (const server of servers) await server.stop().catch(() => undefined);
		throw error;
	}
}

const TITLES: Record<ImapServerKind, string> = {
	dovecot: 'Dovecot',
	node: 'the IMAP server in Node',
};

/**
 * The two mailboxes: on Dovecot when it is installed, else (or when Dovecot fails to start, unless
 * LOCAL_IMAP_SERVER=dovecot asks for it) on the IMAP server in Node.
 */
export async function startMailboxes(client: N8nClient, dataDir: string): Promise<Mailboxes> {
	const kind = chooseImapServer('auto');
	let started: Started | undefined;
	let how = TITLES[kind];
	let failure: string | undefined;
	try {
		started = await startBoth(client, dataDir, kind);
		if (kind === 'node' && !process.env.LOCAL_IMAP_SERVER) how += ': no Dovecot found, none needed';
	} catch (error) {
		failure = `${TITLES[kind]} did not start: ${(error as Error).message}`;
	}
	// Dovecot there but failing (a port, a permission): the IMAP server in Node instead, unless
	// LOCAL_IMAP_SERVER asked for Dovecot.
	if (!started && kind === 'dovecot' && !process.env.LOCAL_IMAP_SERVER) {
		try {
			started = await startBoth(client, dataDir, 'node');
			how = `the IMAP server in Node, since ${failure}`;
		} catch (error) {
			failure += `; the IMAP server in Node did not either: ${(error as Error).message}`;
		}
	}
	if (!started) {
		// What an earlier start wrote would send mail where no server reads it.
		rmSync(mailboxesFile(dataDir), { force: true });
		return {
			started: false,
			failure,
			note: `not started, so the email-to-books templates stay unpublished: ${failure}`,
			forTemplate: () => undefined,
		};
	}
	const ready = started;
	const addresses = Object.fromEntries(
		BOOKS.map((books) => [
			books,
			{
				maildir: ready[books].server.maildir,
				address: `${EMAIL_TO_BOOKS[books].user}@localhost`,
			},
		]),
	);
	writeFileSync(mailboxesFile(dataDir), `${JSON.stringify(addresses, null, 2)}\n`);
	return {
		started: true,
		note: `${BOOKS.map((books) => `${books} IMAP 127.0.0.1:${ready[books].server.port}`).join(', ')} (${how}; npm run send-invoice delivers into them)`,
		forTemplate: (file) => {
			const books = BOOKS.find((candidate) => file?.endsWith(EMAIL_TO_BOOKS[candidate].template));
			return books ? ready[books] : undefined;
		},
	};
}
