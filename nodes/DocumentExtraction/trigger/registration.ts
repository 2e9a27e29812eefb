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
	/** A short keyed fingerprint of the secret it was registered with; never the secret. */
	secretFingerprint: string;
	registeredAt: string;
}

/** At most this many registrations are remembered per node (the oldest are forgotten first). */
export const MAX_HELD_REGISTRATIONS = 50;

export function normalizedEvents(events: unknown): string[] {
	return Array.isArray(events)
		? [...new Set(events.filter((event) => typeof event === 'string'))].sort()
		: [];
}

/** The events that registrations for `url` made with the secret `fingerprint` deliver. */
export function coveredEvents(
	held: HeldRegistration[],
	url: string,
	fingerprint: string,
): Set<string> {
	const covered = new Set<string>();
	for (const registration of held) {
		if (registration.url === url && registration.secretFingerprint === fingerprint) {
			for (const event of registration.events) covered.add(event);
		}
	}
	return covered;
}

/** The wanted events that no registration for `url` with this secret delivers yet. */
export function missingEvents(
	held: HeldRegistration[],
	url: string,
	fingerprint: string,
	wanted: string[],
): string[] {
	const covered = coveredEvents(held, url, fingerprint);
	return normalizedEvents(wanted).filter((event) => !covered.has(event));
}

/** The URL of the newest registration: the one n8n served when the trigger last registered. */
export function registeredUrl(held: HeldRegistration[]): string | undefined {
	return held[held.length - 1]?.url;
}

/** The fingerprints of the secrets registered for `url`, newest first, without repeats. */
export function registeredFingerprints(held: HeldRegistration[], url: string): string[] {
	const fingerprints: string[] = [];
	for (let index = held.length - 1; index >= 0; index--) {
		const registration = held[index];
		if (registration.url === url && !fingerprints.includes(registration.secretFingerprint)) {
			fingerprints.push(registration.secretFingerprint);
		}
	}
	return fingerprints;
}

/** Appends `registration`, keeping at most `limit` (a new array: n8n notices a replaced value). */
export function withRegistration(
	held: HeldRegistration[],
	registration: HeldRegistration,
	limit = MAX_HELD_REGISTRATIONS,
): HeldRegistration[] {
	const next = [...held, registration];
	return next.length > limit ? next.slice(next.length - limit) : next;
}

/**
 * Where a verified delivery came from, by the secret that verified it:
 * - `current`: the secret the trigger uses now (the credential's, or its own: docs/spec-decisions.md#n5);
 * - `replaced`: another secret, and registrations with the current secret deliver this event too, so
 *   the same event arrives (or arrived) through them: a copy through a replaced registration;
 * - `notYetReplaced`: another secret, and no registration with the current secret delivers this event
 *   yet (the secret changed since the registration): accepted, and the current secret is registered.
 */
export type DeliveryOrigin = 'current' | 'replaced' | 'notYetReplaced';

export function deliveryOrigin(
	held: HeldRegistration[],
	url: string,
	verifiedFingerprint: string,
	currentFingerprint: string,
	event: string,
): DeliveryOrigin {
	if (verifiedFingerprint === currentFingerprint) return 'current';
	return coveredEvents(held, url, currentFingerprint).has(event) ? 'replaced' : 'notYetReplaced';
}
