/**
 * A bounded memory held by this n8n process only, with an optional expiry: for what may be lost on a
 * restart but must be answered fast (copies of a delivery arriving at the same moment, a credential
 * read a few seconds ago, secrets seen before). The oldest entries are forgotten first; a read or a
 * write of an entry makes it the newest.
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

	/** Stores `key` and says whether it was new (absent or expired): the first of several copies wins. */
	addIfNew(key: string, value: V, now = Date.now()): boolean {
		if (this.get(key, now) !== undefined) return false;
		this.set(key, value, now);
		return true;
	}

	/** The entries that have not expired, oldest first. */
	*entries(now = Date.now()): Generator<[string, V]> {
		for (const [key, entry] of this.stored) {
			if (!this.expired(entry.at, now)) yield [key, entry.value];
		}
	}

	clear(): void {
		this.stored.clear();
	}

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
