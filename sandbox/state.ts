/* eslint-disable @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * The one state object of a running sandbox: its settings, accounts, store, deliverer, the timers of
 * pending document steps, the rate-limit windows, the request counts and the control API's queues.
 * Every module of the server receives it; none keeps state of its own.
 */
import { createHash } from 'node:crypto';

import {
	DEMO_SIGNING_SECRET,
	resolveAccounts,
	resolveSettings,
	type ResolvedSettings,
	type SandboxOptions,
	type Tier,
} from './config.ts';
import { Deliverer } from './deliveries.ts';
import type { ExtractedData } from './extraction.ts';
import { makeLogger } from './log.ts';
import { Store, type StoreSnapshot } from './store.ts';

export interface Account {
	id: string;
	tier: Tier;
	signingSecret: string;
}

export type FaultMode = '500' | '503' | 'slow' | 'reset' | 'malformed';

export interface Fault {
	mode: FaultMode;
	remaining: number;
	/** Matching requests still to let through, served normally, before the fault applies. */
	after: number;
	delayMs: number;
	paths?: string[];
}

export interface RequestCounts {
	extractRequests: number;
	/** Uploads being answered right now, and the most there were at once. */
	extractInFlight: number;
	extractInFlightMost: number;
	statusRequests: number;
	registerRequests: number;
	rateLimited: number;
}

export interface SandboxStateSnapshot extends StoreSnapshot {
	counts: RequestCounts;
	readonly settings: ResolvedSettings;
}

export interface SandboxState {
	/** Changed at run time by POST /__sandbox/config. */
	readonly settings: ResolvedSettings;
	log: (record: Record<string, unknown>) => void;
	/** Signs deliveries to a document's own webhook_url when its account has no secret of its own. */
	defaultSecret: string;
	accountsByKey: Map<string, Account>;
	accountsById: Map<string, Account>;
	store: Store;
	deliverer: Deliverer;
	/** The pending step (end of processing, end of review) per document id. */
	timers: Map<string, NodeJS.Timeout>;
	/** Fixed rate-limit window per account id. */
	windows: Map<string, { startedAt: number; count: number }>;
	counts: RequestCounts;
	/** Set through the control API: what the next extractions get, and the faults still to inject. */
	control: {
		nextConfidence: number[];
		nextStatus: Array<'processing'>;
		faults: Fault[];
		nextExtraction: ExtractedData[];
	};
}

function zeroCounts(): RequestCounts {
	return {
		extractRequests: 0,
		extractInFlight: 0,
		extractInFlightMost: 0,
		statusRequests: 0,
		registerRequests: 0,
		rateLimited: 0,
	};
}

function fingerprint(apiKey: string): string {
	return createHash('sha256').update(apiKey).digest('hex').slice(0, 8);
}

export function createState(options: SandboxOptions): SandboxState {
	const settings = resolveSettings(options);
	const log = makeLogger(options.log ?? false);
	const defaultSecret = options.signingSecret ?? DEMO_SIGNING_SECRET;
	const accountsByKey = new Map<string, Account>();
	for (const account of resolveAccounts(options)) {
		accountsByKey.set(account.apiKey, {
			id: `acct_${account.tier}_${fingerprint(account.apiKey)}`,
			tier: account.tier,
			signingSecret: account.signingSecret,
		});
	}
	return {
		settings,
		log,
		defaultSecret,
		accountsByKey,
		accountsById: new Map([...accountsByKey.values()].map((account) => [account.id, account])),
		store: new Store(options.stateFile),
		deliverer: new Deliverer(() => settings, log, options.trustCa),
		timers: new Map(),
		windows: new Map(),
		counts: zeroCounts(),
		control: { nextConfidence: [], nextStatus: [], faults: [], nextExtraction: [] },
	};
}

export function snapshot(state: SandboxState): SandboxStateSnapshot {
	return {
		...state.store.snapshot(),
		counts: { ...state.counts },
		settings: { ...state.settings },
	};
}

export function clearTimers(state: SandboxState): void {
	for (const timer of state.timers.values()) clearTimeout(timer);
	state.timers.clear();
}

/** Back to a fresh start: no documents, webhooks, windows, queued values, faults, deliveries or counts. */
export function resetState(state: SandboxState): void {
	clearTimers(state);
	state.windows.clear();
	state.store.clear();
	state.control.nextConfidence = [];
	state.control.nextStatus = [];
	state.control.faults = [];
	state.control.nextExtraction = [];
	state.deliverer.attempts.length = 0;
	state.counts = zeroCounts();
}
