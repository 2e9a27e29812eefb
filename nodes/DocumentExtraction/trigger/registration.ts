/**
 * What the service holds for one trigger node: every registration it was given (the service has no
 * list and no unregister, so none of them ever goes away), and which of them are current.
 * Pure helpers: tested without n8n. docs/spec-decisions.md#n32
 */

export interface HeldRegistration {
	webhookId: string | null;
	url: string;
	/** The events this registration delivers (the trigger registers only the events not yet covered). */
	events: string[];
	/**
	 * A short keyed fingerprint of the secret it was registered with; never the secret. It tells a
	 * new API key (a new own secret, docs/spec-decisions.md#n61) from the one registered before.
	 */
	secretFingerprint: string;
	registeredAt: string;
}

/** At most this many registrations are remembered per node (the oldest are forgotten first). */
const MAX_HELD_REGISTRATIONS = 50;

export function normalizedEvents(events: unknown): string[] {
	return Array.isArray(events)
		? [...new Set(events.filter((event) => typeof event === 'string'))].sort()
		: [];
}

/** The wanted events that no registration for `url` with one of these secrets delivers yet. */
export function missingEvents(
	held: HeldRegistration[],
	url: string,
	fingerprints: string[],
	wanted: string[],
): string[] {
	const covered = held
		.filter(
			(registration) =>
				registration.url === url && fingerprints.includes(registration.secretFingerprint),
		)
		.flatMap((registration) => registration.events);
	return normalizedEvents(wanted).filter((event) => !covered.includes(event));
}

/** The URL of the newest registration: the one n8n served when the trigger last registered. */
export function registeredUrl(held: HeldRegistration[]): string | undefined {
	return held[held.length - 1]?.url;
}

/**
 * Appends `registration`, keeping at most MAX_HELD_REGISTRATIONS (a new array: n8n notices a replaced
 * value).
 */
export function withRegistration(
	held: HeldRegistration[],
	registration: HeldRegistration,
): HeldRegistration[] {
	return [...held, registration].slice(-MAX_HELD_REGISTRATIONS);
}
