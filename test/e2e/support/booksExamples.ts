// The "to the books" examples as a user sets them up in a real n8n: an n8n OAuth2 credential
// already connected to the local Xero or QuickBooks stand-in, and the example imported, its Settings
// pointed at that stand-in, and activated; one of them, or both side by side.

import type { Credential } from '../../../local-n8n/index.ts';
import {
	connectedOAuth2Credential,
	createActiveExample,
	startQuickBooksStandIn,
	startXeroStandIn,
	type QuickBooksStandIn,
	type QuickBooksStandInOptions,
	type XeroStandIn,
	type XeroStandInOptions,
} from '../../../local-n8n/accounting/index.ts';
import type { N8nAndSandbox } from './n8nAndSandbox.ts';

/** The access token the stand-ins accept, and the connected credentials carry. */
export const STAND_IN_ACCESS_TOKEN = 'stand-in-access-token';

const BOOKS = {
	xero: {
		example: 'invoice-to-xero.workflow.json',
		credentialType: 'xeroOAuth2Api',
		credentialName: 'Xero account',
	},
	quickbooks: {
		example: 'invoice-to-quickbooks.workflow.json',
		credentialType: 'quickBooksOAuth2Api',
		credentialName: 'QuickBooks account',
	},
} as const;

export interface ActiveBooksExample {
	id: string;
	webhookPath: string;
	/** The connected OAuth2 credential of the books. */
	credential: Credential;
}

/**
 * Connects an OAuth2 credential for `books` and imports its example with `settings` (the stand-in's
 * URL, tenant or realm, …) and the fixture's Document Extraction credential, active.
 */
export async function activeBooksExample(
	fixture: N8nAndSandbox,
	books: keyof typeof BOOKS,
	settings: Record<string, string>,
): Promise<ActiveBooksExample> {
	const { example, credentialType, credentialName } = BOOKS[books];
	const credential = await connectedOAuth2Credential(
		fixture.stack.client,
		credentialType,
		credentialName,
		STAND_IN_ACCESS_TOKEN,
	);
	const created = await createActiveExample(fixture.stack.client, example, settings, [
		fixture.credential,
		credential,
	]);
	return { ...created, credential };
}

export interface BothBooks {
	xero: XeroStandIn;
	quickBooks: QuickBooksStandIn;
	examples: Record<'xero' | 'quickbooks', ActiveBooksExample>;
}

/**
 * Starts the Xero and QuickBooks stand-ins (with `standIns`' options) and activates both examples
 * side by side, each pointed at its stand-in: Xero tenant "tenant", QuickBooks realm 9130 plus
 * `quickBooksSettings`. Close the stand-ins after the file.
 */
export async function activeBothBooks(
	fixture: N8nAndSandbox,
	standIns: {
		xero?: Omit<XeroStandInOptions, 'accessToken'>;
		quickBooks?: Omit<QuickBooksStandInOptions, 'accessToken'>;
	} = {},
	quickBooksSettings: Record<string, string> = {},
): Promise<BothBooks> {
	const xero = await startXeroStandIn({ ...standIns.xero, accessToken: STAND_IN_ACCESS_TOKEN });
	const quickBooks = await startQuickBooksStandIn({
		...standIns.quickBooks,
		accessToken: STAND_IN_ACCESS_TOKEN,
	});
	const examples = {
		xero: await activeBooksExample(fixture, 'xero', {
			xero_api_url: xero.url,
			xero_tenant_id: 'tenant',
		}),
		quickbooks: await activeBooksExample(fixture, 'quickbooks', {
			quickbooks_api_url: quickBooks.url,
			quickbooks_realm_id: '9130',
			...quickBooksSettings,
		}),
	};
	return { xero, quickBooks, examples };
}
