/**
 * What the trigger remembers about its registration, in the workflow's static data (persisted by n8n).
 * Pure helpers: tested without n8n.
 */
import { createHmac } from 'crypto';

export interface RegistrationRecord {
	webhookId: string | null;
	url: string;
	events: string[];
	/** Set only when the trigger generated the secret itself (the credential has none). */
	generatedSecret?: string;
	/**
	 * A short keyed fingerprint of the credential's secret: a changed secret registers anew (deliveries
	 * signed with the old one would all be refused). Not the secret, and too short to test guesses against.
	 */
	credentialSecretFingerprint?: string;
	registeredAt: string;
}

export function normalizedEvents(events: unknown): string[] {
	return Array.isArray(events) ? [...new Set(events.filter((event) => typeof event === 'string'))].sort() : [];
}

export function secretFingerprint(secret: string): string {
	return createHmac('sha256', 'document-extraction-trigger').update(secret).digest('hex').slice(0, 8);
}

/** True when the recorded registration serves this URL, these events and this secret. */
export function registrationMatches(
	record: RegistrationRecord | undefined,
	url: string | undefined,
	events: string[],
	credentialSecret: string,
): boolean {
	if (!record || !url || record.url !== url) return false;
	if (normalizedEvents(record.events).join(',') !== normalizedEvents(events).join(',')) return false;
	if (credentialSecret) return record.credentialSecretFingerprint === secretFingerprint(credentialSecret);
	return typeof record.generatedSecret === 'string' && record.generatedSecret !== '';
}
