/**
 * The credential's Webhook Signing Secret, and the same secret as this n8n process last read it, kept
 * for a few seconds. In a webhook, every credential read makes n8n take an expression isolate of its
 * own (a new V8 isolate whenever its small pool is empty), which made reading the secret a large part
 * of each delivery's cost. A delivery is first checked against the remembered secret; one that does
 * not verify reads the credential again, so a new secret works at once and a replaced one stops
 * working within REMEMBER_SECRET_MS.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../constants.ts';
import { RecentMemory } from '../memory/recentMemory.ts';

export const REMEMBER_SECRET_MS = 10_000;

/** Secret by credential id ('' = the credential has none). */
const recentlyRead = new RecentMemory<string>({ maxEntries: 1000, ttlMs: REMEMBER_SECRET_MS });

/** Any n8n context that can read the node's credential (execute, hook and webhook contexts). */
interface CredentialReader {
	getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
}

/** The Webhook Signing Secret of the credential, or '' when it has none. */
export async function credentialSigningSecret(
	context: CredentialReader,
	itemIndex?: number,
): Promise<string> {
	const credentials =
		itemIndex === undefined
			? await context.getCredentials(CREDENTIAL_TYPE)
			: await context.getCredentials(CREDENTIAL_TYPE, itemIndex);
	return typeof credentials.signingSecret === 'string' ? credentials.signingSecret : '';
}

/** The secret read for `credentialId` less than REMEMBER_SECRET_MS ago ('' = it has none). */
export function rememberedSecret(credentialId: string, now = Date.now()): string | undefined {
	return recentlyRead.get(credentialId, now);
}

export function rememberSecret(credentialId: string, secret: string, now = Date.now()): void {
	recentlyRead.set(credentialId, secret, now);
}

/** Credential reads under way, by credential id. */
const readsInFlight = new Map<string, Promise<string>>();

/**
 * The credential's secret read now, and remembered. Deliveries that arrive while a read for the same
 * credential is under way wait for that read instead of starting their own: when the remembered
 * secret expires under load, every delivery in flight would otherwise read the credential at once.
 */
export async function freshSigningSecret(
	context: CredentialReader,
	credentialId?: string,
): Promise<string> {
	if (!credentialId) return await credentialSigningSecret(context);
	let reading = readsInFlight.get(credentialId);
	if (!reading) {
		reading = credentialSigningSecret(context).finally(() => readsInFlight.delete(credentialId));
		readsInFlight.set(credentialId, reading);
	}
	const secret = await reading;
	rememberSecret(credentialId, secret);
	return secret;
}

/** Forgets every remembered secret (tests). */
export function forgetSecrets(): void {
	recentlyRead.clear();
}
