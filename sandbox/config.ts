/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/** The sandbox's settings and the service's limits (spec: Limits; docs/spec-decisions.md#d20: 1 MB = 1,048,576 bytes). */
import { readFileSync } from 'node:fs';

// The tiers are the nodes' (a type-only import: nothing of nodes/ is loaded at run time).
import type { Tier } from '../nodes/DocumentExtraction/tierLimits.ts';

export type { Tier };

const MEBIBYTE = 1024 * 1024;

export const TIERS: Record<Tier, { maxFileBytes: number; requestsPerMinute: number | null }> = {
	pilot: { maxFileBytes: 10 * MEBIBYTE, requestsPerMinute: 10 },
	growth: { maxFileBytes: 25 * MEBIBYTE, requestsPerMinute: 100 },
	enterprise: { maxFileBytes: 100 * MEBIBYTE, requestsPerMinute: null },
};

/** How requests per minute are counted: see SandboxOptions.rateLimitWindow. */
export type RateLimitWindow = 'fixed' | 'rolling';

/** Spec: confidence above 95% is verified automatically; exactly 0.95 goes to review (docs/spec-decisions.md#d2). */
export const AUTO_VERIFY_THRESHOLD = 0.95;

export interface AccountConfig {
	apiKey: string;
	tier: Tier;
	/** Signs deliveries to a document's own webhook_url (docs/spec-decisions.md#d13). */
	signingSecret?: string;
}

export interface SandboxOptions {
	port?: number;
	host?: string;
	accounts?: AccountConfig[];
	signingSecret?: string;
	/** Length of the rate-limit window ("a minute"); shorter in tests. */
	minuteMs?: number;
	/**
	 * 'fixed' (default): a window of minuteMs from its first request; 'rolling': the requests of the
	 * last minuteMs count (the spec shows no window, docs/spec-decisions.md#n69).
	 */
	rateLimitWindow?: RateLimitWindow;
	/** Requests per minute for these tiers instead of the spec's (e.g. { pilot: 3 }); null: unlimited. */
	requestsPerMinute?: Partial<Record<Tier, number | null>>;
	/** How long an extraction takes, drawn evenly between min and max for each upload (0: at once). */
	extractLatencyMinMs?: number;
	extractLatencyMaxMs?: number;
	/** Time until a review finishes by itself (approved). */
	reviewDelayMs?: number;
	/** Time a document stays in `processing`. */
	processingDelayMs?: number;
	/** Files above this size are answered `processing` (large files take a while). */
	processingThresholdBytes?: number;
	/** Base of the exponential backoff between delivery attempts (docs/spec-decisions.md#d9). */
	retryBaseMs?: number;
	/** A delivery without a 2xx within this time has failed (spec: 5 s; docs/spec-decisions.md#d10). */
	deliveryTimeoutMs?: number;
	/** Deliver every event twice, so receivers' duplicate handling can be tested. */
	duplicateDeliveries?: boolean;
	/** PEM of a CA to trust for HTTPS deliveries (a local n8n's certificate). */
	trustCa?: string;
	/** Keep documents and webhooks in this JSON file across restarts. */
	stateFile?: string;
	/** true: JSON lines to stdout; a function: receives each line; false: silent. */
	log?: boolean | ((line: string) => void);
}

export const DEMO_SIGNING_SECRET = 'whsec_sandbox_demo_secret';

export const DEMO_ACCOUNTS: AccountConfig[] = [
	{ apiKey: 'sk_sandbox_pilot', tier: 'pilot' },
	{ apiKey: 'sk_sandbox_growth', tier: 'growth' },
	{ apiKey: 'sk_sandbox_enterprise', tier: 'enterprise' },
];

/** An account as the running sandbox serves it: with the secret that signs its own webhook_url deliveries. */
export interface ResolvedAccount {
	apiKey: string;
	tier: Tier;
	signingSecret: string;
}

export function resolveAccounts(
	options: Pick<SandboxOptions, 'accounts' | 'signingSecret'>,
): ResolvedAccount[] {
	const defaultSecret = options.signingSecret ?? DEMO_SIGNING_SECRET;
	return (options.accounts ?? DEMO_ACCOUNTS).map((account) => ({
		apiKey: account.apiKey,
		tier: account.tier,
		signingSecret: account.signingSecret ?? defaultSecret,
	}));
}

export interface ResolvedSettings {
	minuteMs: number;
	rateLimitWindow: RateLimitWindow;
	requestsPerMinute: Record<Tier, number | null>;
	extractLatencyMinMs: number;
	extractLatencyMaxMs: number;
	reviewDelayMs: number;
	processingDelayMs: number;
	processingThresholdBytes: number;
	retryBaseMs: number;
	deliveryTimeoutMs: number;
	duplicateDeliveries: boolean;
}

export function resolveSettings(options: SandboxOptions): ResolvedSettings {
	return {
		minuteMs: options.minuteMs ?? 60_000,
		rateLimitWindow: options.rateLimitWindow ?? 'fixed',
		requestsPerMinute: {
			pilot: TIERS.pilot.requestsPerMinute,
			growth: TIERS.growth.requestsPerMinute,
			enterprise: TIERS.enterprise.requestsPerMinute,
			...options.requestsPerMinute,
		},
		extractLatencyMinMs: options.extractLatencyMinMs ?? 0,
		extractLatencyMaxMs: options.extractLatencyMaxMs ?? options.extractLatencyMinMs ?? 0,
		reviewDelayMs: options.reviewDelayMs ?? 90_000,
		processingDelayMs: options.processingDelayMs ?? 3_000,
		processingThresholdBytes: options.processingThresholdBytes ?? 5 * MEBIBYTE,
		retryBaseMs: options.retryBaseMs ?? 10_000,
		deliveryTimeoutMs: options.deliveryTimeoutMs ?? 5_000,
		duplicateDeliveries: options.duplicateDeliveries ?? false,
	};
}

/** Parses `key:tier[:secret],key:tier` (SANDBOX_ACCOUNTS). */
export function parseAccounts(text: string): AccountConfig[] {
	return text
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean)
		.map((entry) => {
			const [apiKey, tier, signingSecret] = entry.split(':');
			if (!apiKey || !(tier in TIERS))
				throw new Error(
					`SANDBOX_ACCOUNTS: "${entry}" is not key:tier (tier: pilot, growth, enterprise)`,
				);
			return { apiKey, tier: tier as Tier, ...(signingSecret ? { signingSecret } : {}) };
		});
}

/**
 * The accounts and signing secret `node sandbox/main.ts` serves: SANDBOX_ACCOUNTS_FILE (a JSON list
 * of accounts), else SANDBOX_ACCOUNTS, else the demo accounts; SANDBOX_SIGNING_SECRET, else the demo secret.
 */
export function accountOptionsFromEnv(
	env: NodeJS.ProcessEnv,
): Pick<SandboxOptions, 'accounts' | 'signingSecret'> {
	const accounts: AccountConfig[] = env.SANDBOX_ACCOUNTS_FILE
		? (JSON.parse(readFileSync(env.SANDBOX_ACCOUNTS_FILE, 'utf8')) as AccountConfig[])
		: env.SANDBOX_ACCOUNTS
			? parseAccounts(env.SANDBOX_ACCOUNTS)
			: DEMO_ACCOUNTS;
	return { accounts, signingSecret: env.SANDBOX_SIGNING_SECRET ?? DEMO_SIGNING_SECRET };
}

/** Parses `tier:number,tier:unlimited` (SANDBOX_REQUESTS_PER_MINUTE). */
export function parseRequestsPerMinute(text: string): Partial<Record<Tier, number | null>> {
	const rates: Partial<Record<Tier, number | null>> = {};
	for (const entry of text
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean)) {
		const [tier, rate] = entry.split(':');
		const value = rate === 'unlimited' ? null : Number(rate);
		if (!(tier in TIERS) || (value !== null && !(Number.isInteger(value) && value >= 0)))
			throw new Error(
				`SANDBOX_REQUESTS_PER_MINUTE: "${entry}" is not tier:number or tier:unlimited (tier: pilot, growth, enterprise)`,
			);
		rates[tier as Tier] = value;
	}
	return rates;
}

/** The rate limit `node sandbox/main.ts` keeps: SANDBOX_RATE_LIMIT_WINDOW and SANDBOX_REQUESTS_PER_MINUTE. */
export function rateLimitOptionsFromEnv(
	env: NodeJS.ProcessEnv,
): Pick<SandboxOptions, 'rateLimitWindow' | 'requestsPerMinute'> {
	const text = env.SANDBOX_RATE_LIMIT_WINDOW || undefined;
	const window = (['fixed', 'rolling'] as const).find((kind) => kind === text);
	if (text !== undefined && window === undefined)
		throw new Error(`SANDBOX_RATE_LIMIT_WINDOW: "${text}" is not fixed or rolling`);
	return {
		rateLimitWindow: window,
		requestsPerMinute: env.SANDBOX_REQUESTS_PER_MINUTE
			? parseRequestsPerMinute(env.SANDBOX_REQUESTS_PER_MINUTE)
			: undefined,
	};
}
