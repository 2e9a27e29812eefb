import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants.ts';

/** Any n8n context that can read the node's credential (execute, hook and webhook contexts). */
interface CredentialReader {
	getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
}

/** The Webhook Signing Secret of the credential, or '' when it has none. */
export async function credentialSigningSecret(context: CredentialReader, itemIndex?: number): Promise<string> {
	const credentials =
		itemIndex === undefined
			? await context.getCredentials(CREDENTIAL_TYPE)
			: await context.getCredentials(CREDENTIAL_TYPE, itemIndex);
	return typeof credentials.signingSecret === 'string' ? credentials.signingSecret : '';
}
