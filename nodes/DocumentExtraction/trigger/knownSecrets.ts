/**
 * Signing secrets this n8n process has read from a credential, by fingerprint, in memory only (never
 * in static data, which n8n exports with the workflow). When a credential's secret changes, the
 * service keeps signing with the secret it was given at registration; this memory lets the trigger
 * still verify those deliveries until the new secret is registered, and recognise copies through the
 * replaced registration afterwards. docs/spec-decisions.md#n34
 */
import { secretFingerprint } from './registration.ts';

const MAX_KNOWN = 200;
const known = new Map<string, string>();

export function rememberKnownSecret(secret: string): void {
	if (!secret) return;
	const fingerprint = secretFingerprint(secret);
	known.delete(fingerprint);
	known.set(fingerprint, secret);
	for (const key of known.keys()) {
		if (known.size <= MAX_KNOWN) break;
		known.delete(key);
	}
}

export function knownSecret(fingerprint: string): string | undefined {
	return known.get(fingerprint);
}

/** Forgets every known secret (tests; a restart does the same). */
export function forgetKnownSecrets(): void {
	known.clear();
}
