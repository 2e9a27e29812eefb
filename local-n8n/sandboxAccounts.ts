// The account of a tier that a sandbox serves (API key and signing secret), for the n8n
// credentials that `npm start`, the bench and the e2e tests create.

import type { ResolvedAccount } from '../sandbox/config.ts';
import { registerSecret } from './log.ts';
import type { SandboxHandle } from './sandbox.ts';
import type { Tier } from '../nodes/DocumentExtraction/tierLimits.ts';

/** The sandbox's account of `tier`, or undefined when it serves none. Its secrets are masked in logs from then on. */
export function sandboxAccount(sandbox: SandboxHandle, tier: Tier): ResolvedAccount | undefined {
	const account = sandbox.accounts.find((candidate) => candidate.tier === tier);
	if (account) {
		registerSecret(account.apiKey);
		registerSecret(account.signingSecret);
	}
	return account;
}
