/**
 * The credential's signing secret as this n8n process last read it, kept for a few seconds. In a
 * webhook, every credential read makes n8n take an expression isolate of its own (a new V8 isolate
 * whenever its small pool is empty), which made reading the secret a large part of each delivery's
 * cost. A delivery is first checked against the remembered secret; one that does not verify reads
 * the credential again, so a new secret works at once and a replaced one stops working within
 * REMEMBER_SECRET_MS.
 */
export const REMEMBER_SECRET_MS = 10_000;
const MAX_REMEMBERED = 1000;

const remembered = new Map<string, { secret: string; at: number }>();

/** The secret read for `credentialId` less than REMEMBER_SECRET_MS ago ('' = it has none). */
export function rememberedSecret(credentialId: string, now = Date.now()): string | undefined {
	const entry = remembered.get(credentialId);
	if (!entry) return undefined;
	if (now - entry.at >= REMEMBER_SECRET_MS || now < entry.at) {
		remembered.delete(credentialId);
		return undefined;
	}
	return entry.secret;
}

export function rememberSecret(credentialId: string, secret: string, now = Date.now()): void {
	remembered.delete(credentialId);
	remembered.set(credentialId, { secret, at: now });
	for (const key of remembered.keys()) {
		if (remembered.size <= MAX_REMEMBERED) break;
		remembered.delete(key);
	}
}

/** Forgets every remembered secret (tests). */
export function forgetSecrets(): void {
	remembered.clear();
}
