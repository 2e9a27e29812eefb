import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `doc_`, `rev_`, `wh_` + 20 lowercase letters and digits (docs/spec-decisions.md#d4). */
export function newId(prefix: 'doc' | 'rev' | 'wh' | 'dlv'): string {
	const bytes = randomBytes(20);
	let suffix = '';
	for (const byte of bytes) suffix += ALPHABET[byte % ALPHABET.length];
	return `${prefix}_${suffix}`;
}
