/**
 * The count of refused deliveries and the last one's time and reason, kept so the workflow's owner
 * sees them without n8n's log (docs/spec-decisions.md#n36). The reason is the verdict only: never
 * a secret, a signature or anything the delivery carried.
 */
export interface RefusalRecord {
	count: number;
	lastAt: string;
	lastReason: string;
}

export function withRefusal(
	previous: RefusalRecord | undefined,
	reason: string,
	at = new Date(),
): RefusalRecord {
	return { count: (previous?.count ?? 0) + 1, lastAt: at.toISOString(), lastReason: reason };
}
