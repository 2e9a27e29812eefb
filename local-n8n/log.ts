/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/require-node-api-error -- test tooling: plain errors outside any node */
// A tiny logger for the harness and scripts: progress goes to stderr (so a script's stdout stays
// for what a person reads), every line is stamped, and registered secrets are masked.

const secrets = new Set<string>();

/** Registers a value (API key, signing secret, password) that must never appear in a log line. */
export function registerSecret(value: string | undefined): void {
	if (value && value.length >= 6) secrets.add(value);
}

/**
 * The registered secrets that occur in `text`. Used on a child's raw output before it is masked, so
 * a test can prove that a secret never reached n8n's log (the log file itself is masked).
 */
export function secretsIn(text: string): string[] {
	return [...secrets].filter((secret) => text.includes(secret));
}

/** Length of the longest registered secret (0 when none). */
export function longestSecretLength(): number {
	let longest = 0;
	for (const secret of secrets) longest = Math.max(longest, secret.length);
	return longest;
}

/** Replaces every registered secret in `text` with a mask. */
export function redact(text: string): string {
	let out = text;
	for (const s of secrets) out = out.split(s).join('***');
	return out;
}

const quiet = process.env.E2E_QUIET === '1';

function stamp(): string {
	return new Date().toISOString().slice(11, 19);
}

/** Progress line (stderr): `[hh:mm:ss] [scope] message`. */
export function log(scope: string, message: string): void {
	if (quiet) return;
	process.stderr.write(`[${stamp()}] [${scope}] ${redact(message)}\n`);
}

/** A line for the person running a script (stdout), unstamped. */
export function say(message = ''): void {
	process.stdout.write(`${redact(message)}\n`);
}

/** Runs `fn`, logging start, end and duration of a slow step. */
export async function step<T>(scope: string, what: string, fn: () => Promise<T>): Promise<T> {
	const t0 = Date.now();
	log(scope, `${what} ...`);
	try {
		const result = await fn();
		log(scope, `${what}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		return result;
	} catch (error) {
		log(scope, `${what}: FAILED after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		throw error;
	}
}
