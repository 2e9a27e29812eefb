/**
 * Signing secrets this n8n process has read from a credential, by fingerprint, in memory only (never
 * in static data, which n8n exports with the workflow). When a credential's secret changes, the
 * service keeps signing with the secret it was given at registration; this memory lets the trigger
 * still verify those deliveries until the new secret is registered, and recognise copies through the
 * replaced registration afterwards. docs/spec-decisions.md#n34
 */
import { processMemory } from '../memory/processMemory.ts';
import { secretFingerprint } from './signature.ts';

const known = processMemory<string>({ maxEntries: 200 });

export function rememberKnownSecret(secret: string): void {
	if (secret) known.set(secretFingerprint(secret), secret);
}

export function knownSecret(fingerprint: string): string | undefined {
	return known.get(fingerprint);
}
