/**
 * The secrets a delivery is verified with: the credential's Webhook Signing Secret (the account's,
 * for a document's own deliveries and Wait for Review) and the trigger's own secret for its
 * registration (docs/spec-decisions.md#n5), derived from the API key and the webhook URL whenever it
 * is needed and never stored.
 *
 * In a webhook, every credential read makes n8n take an expression isolate of its own (a new V8
 * isolate whenever its small pool is empty), which made reading the credential a large part of each
 * delivery's cost. What a delivery needs from the credential is therefore kept by this n8n process for
 * REMEMBER_SECRET_MS, whatever the deliveries bring: a burst of forged ones costs no read beyond that
 * one, and a changed secret is read within REMEMBER_SECRET_MS (the service retries what was refused).
 */
import { createHmac } from 'crypto';
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../constants.ts';
import { RecentMemory } from '../memory/recentMemory.ts';

/**
 * How long this process keeps what it read from the credential: the time a changed signing secret
 * may take to count, as docs/spec-decisions.md#n61 tells users.
 */
export const REMEMBER_SECRET_MS = 10_000;

/** What verifying a delivery needs from the credential. No API key itself is kept. */
export interface SigningKeys {
	/** The Webhook Signing Secret ('' = the credential has none). */
	signingSecret: string;
	/** A key derived from the API key, from which the trigger's own secrets are derived ('' = no key). */
	triggerKey: string;
	/** The same of the previous signing secret and API key (N68), and until when they verify (ms). */
	previousSigningSecret: string;
	previousTriggerKey: string;
	previousUntil?: number;
}

/** Any n8n context that can read the node's credential (execute, hook and webhook contexts). */
interface CredentialReader {
	getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
}

/** A webhook's context, as far as reading its node's credential goes. */
type DeliveryContext = CredentialReader & { getNode(): INode };

async function readCredential(
	context: CredentialReader,
	itemIndex?: number,
): Promise<ICredentialDataDecryptedObject> {
	return itemIndex === undefined
		? await context.getCredentials(CREDENTIAL_TYPE)
		: await context.getCredentials(CREDENTIAL_TYPE, itemIndex);
}

function text(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/** The credential's signing secrets and the trigger keys of its API keys. */
export async function signingKeys(
	context: CredentialReader,
	itemIndex?: number,
): Promise<SigningKeys> {
	const credentials = await readCredential(context, itemIndex);
	const triggerKey = (apiKey: string) =>
		apiKey
			? createHmac('sha256', apiKey).update('document-extraction trigger key').digest('hex')
			: '';
	return {
		signingSecret: text(credentials.signingSecret),
		triggerKey: triggerKey(text(credentials.apiKey)),
		previousSigningSecret: text(credentials.previousSigningSecret),
		previousTriggerKey: triggerKey(text(credentials.previousApiKey)),
		previousUntil: acceptedUntil(credentials.acceptPreviousUntil),
	};
}

/** ISO 8601: a date, or a date and time (an offset optional); any other notation is read differently by each parser. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * "Accept Previous Until (UTC)" in ms, or undefined when empty or not an ISO 8601 time. The editor's
 * picker gives a date and time without an offset: UTC, whatever n8n's time zone
 * (docs/spec-decisions.md#n68).
 */
function acceptedUntil(value: unknown): number | undefined {
	const until = text(value).trim();
	if (!ISO_DATE_TIME.test(until)) return undefined;
	const at = Date.parse(/T[^Z+-]*$/.test(until) ? `${until}Z` : until);
	return Number.isNaN(at) ? undefined : at;
}

/** The Webhook Signing Secret of the credential, or '' when it has none. */
export async function credentialSigningSecret(
	context: CredentialReader,
	itemIndex?: number,
): Promise<string> {
	return text((await readCredential(context, itemIndex)).signingSecret);
}

/**
 * The secret the trigger registers `url` with, and so verifies the registration's deliveries with.
 * Derived, not random: the same API key and URL always give the same secret, so nothing has to be
 * stored to verify the service's deliveries later; a workflow export carries no secret, the derivation
 * cannot be reversed to the API key, and a changed signing secret in the credential changes nothing
 * the service holds (docs/spec-decisions.md#n61).
 */
export function triggerOwnSecret(keys: Pick<SigningKeys, 'triggerKey'>, url: string): string {
	if (!keys.triggerKey || !url) return '';
	return createHmac('sha256', keys.triggerKey).update(url).digest('hex');
}

/** The secrets a delivery may be signed with: the current ones, and the previous ones until then. */
export interface DeliverySecrets {
	current: string[];
	previous: string[];
	/** Until when (ms) the previous ones verify; undefined: not at all. */
	previousUntil?: number;
}

/**
 * The secrets a delivery to this address may be signed with, from the keys of the node's credential
 * this process remembers: the account's signing secret (D13: a document's own deliveries, Wait for
 * Review) and, for the trigger's registered `url`, its own secret for it (docs/spec-decisions.md#n61);
 * the same of the previous secret and API key (docs/spec-decisions.md#n68).
 */
export async function addressSecrets(
	context: DeliveryContext,
	url?: string,
): Promise<DeliverySecrets> {
	const keys = await deliveryKeys(context);
	const own = (triggerKey: string) =>
		url === undefined ? [] : [triggerOwnSecret({ triggerKey }, url)];
	return {
		current: [...own(keys.triggerKey), keys.signingSecret],
		previous: [...own(keys.previousTriggerKey), keys.previousSigningSecret],
		previousUntil: keys.previousUntil,
	};
}

/** The keys of the node's credential for a delivery: those this process remembers, else read now. */
async function deliveryKeys(context: DeliveryContext): Promise<SigningKeys> {
	const credentialId = context.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? undefined;
	return (
		(credentialId ? recentlyRead.get(credentialId) : undefined) ??
		(await freshSigningKeys(context, credentialId))
	);
}

/** Keys by credential id, read less than REMEMBER_SECRET_MS ago. */
const recentlyRead = new RecentMemory<SigningKeys>({ maxEntries: 1000, ttlMs: REMEMBER_SECRET_MS });

const readsInFlight = new Map<string, Promise<SigningKeys>>();

/**
 * The credential's keys read now, and remembered. Deliveries that arrive while a read for the same
 * credential is under way wait for that read instead of starting their own: when the remembered keys
 * expire under load, every delivery in flight would otherwise read the credential at once.
 */
async function freshSigningKeys(
	context: CredentialReader,
	credentialId?: string,
): Promise<SigningKeys> {
	if (!credentialId) return await signingKeys(context);
	let reading = readsInFlight.get(credentialId);
	if (!reading) {
		reading = signingKeys(context).finally(() => readsInFlight.delete(credentialId));
		readsInFlight.set(credentialId, reading);
	}
	const keys = await reading;
	recentlyRead.set(credentialId, keys);
	return keys;
}
