/**
 * A bounded memory held by this n8n process only (module level), with an optional expiry: for what
 * may be lost on a restart but must be answered fast (a credential read a few seconds ago, deliveries
 * that started no run, a test listener's registrations). The oldest entries are forgotten first; a
 * read or a write of an entry makes it the newest.
 */
export interface RecentMemoryLimits {
	maxEntries: number;
	/** How long an entry counts, in ms; unset: until it is pushed out by newer ones. */
	ttlMs?: number;
}

export class RecentMemory<V> {
	private readonly stored = new Map<string, { value: V; at: number }>();
	private readonly limits: RecentMemoryLimits;

	constructor(limits: RecentMemoryLimits) {
		this.limits = limits;
	}

	/** The value stored under `key`, unless it expired (a clock that went back counts as expired). */
	get(key: string, now = Date.now()): V | undefined {
		const entry = this.stored.get(key);
		if (!entry) return undefined;
		if (this.expired(entry.at, now)) {
			this.stored.delete(key);
			return undefined;
		}
		return entry.value;
	}

	set(key: string, value: V, now = Date.now()): void {
		this.stored.delete(key);
		this.stored.set(key, { value, at: now });
		this.forgetOldest(now);
	}

	/** How many entries it holds now, expired ones not yet dropped included: the bound, as seen. */
	get size(): number {
		return this.stored.size;
	}

	private expired(at: number, now: number): boolean {
		return this.limits.ttlMs !== undefined && (now - at >= this.limits.ttlMs || now < at);
	}

	/** Oldest first: stops at the first entry that is neither expired nor over the bound. */
	private forgetOldest(now: number): void {
		for (const [key, entry] of this.stored) {
			if (this.stored.size <= this.limits.maxEntries && !this.expired(entry.at, now)) break;
			this.stored.delete(key);
		}
	}
}
