// The sandbox's demo accounts (one API key per tier, and the account signing secret), for the
// credential that `npm start` creates. Taken from sandbox/server.ts's exports when it has them,
// otherwise from what `node sandbox/main.ts` printed.

import { registerSecret } from './log.ts';
import { importSandboxModule, sandboxAvailable } from './sandbox.ts';

export type Tier = 'pilot' | 'growth' | 'enterprise';

export interface DemoAccount {
	tier: Tier;
	apiKey: string;
	signingSecret?: string;
}

function fromValue(value: unknown, tier: Tier): DemoAccount | undefined {
	const list: unknown[] = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value as Record<string, unknown>) : [];
	for (const entry of list) {
		if (!entry || typeof entry !== 'object') continue;
		const e = entry as Record<string, unknown>;
		if (e.tier !== tier) continue;
		const apiKey = (e.apiKey ?? e.api_key ?? e.key) as string | undefined;
		const signingSecret = (e.signingSecret ?? e.signing_secret ?? e.secret) as string | undefined;
		if (typeof apiKey === 'string') return { tier, apiKey, signingSecret: typeof signingSecret === 'string' ? signingSecret : undefined };
	}
	return undefined;
}

function fromOutput(output: string, tier: Tier): DemoAccount | undefined {
	const lines = output.split('\n');
	const keyLine = lines.find((l) => new RegExp(`\\b${tier}\\b`, 'i').test(l) && /\b(sk|key)_?[A-Za-z0-9_]{6,}/.test(l));
	const apiKey = keyLine?.match(/\b(sk_[A-Za-z0-9_]+)/)?.[1];
	if (!apiKey) return undefined;
	const secretLine = lines.find((l) => /signing secret/i.test(l));
	const signingSecret = secretLine?.match(/([A-Za-z0-9_-]{16,})\s*$/)?.[1];
	return { tier, apiKey, signingSecret };
}

/**
 * The demo account of `tier`: from a running in-process sandbox's `accounts`, else from what
 * `node sandbox/main.ts` printed, else from sandbox/config.ts's DEMO_ACCOUNTS and
 * DEMO_SIGNING_SECRET. Undefined when none tells. Secrets are masked in logs from then on.
 */
export async function sandboxDemoAccount(tier: Tier, source?: string | { accounts?: unknown }): Promise<DemoAccount | undefined> {
	let account: DemoAccount | undefined;
	if (source && typeof source === 'object') account = fromValue(source.accounts, tier);
	if (!account && typeof source === 'string') account = fromOutput(source, tier);
	if (!account && sandboxAvailable()) {
		const config = await importSandboxModule('config').catch(() => ({}) as Record<string, unknown>);
		account = fromValue(config.DEMO_ACCOUNTS, tier);
		if (account && !account.signingSecret && typeof config.DEMO_SIGNING_SECRET === 'string') account.signingSecret = config.DEMO_SIGNING_SECRET;
	}
	if (account) {
		registerSecret(account.apiKey);
		registerSecret(account.signingSecret);
	}
	return account;
}
