/**
 * Per-tier limits of the spec's Limits table, used for checks before any request is sent.
 * Megabytes are binary (docs/spec-decisions.md#d20): the larger reading, so that a file the service accepts is never refused here.
 */
export type Tier = 'pilot' | 'growth' | 'enterprise';

const MEBIBYTE = 1024 * 1024;

export interface TierLimits {
	label: string;
	maxFileBytes: number;
	/** Requests per minute; `null` means unlimited. */
	requestsPerMinute: number | null;
	/**
	 * Extract's uploads in flight at once unless the node says otherwise (docs/spec-decisions.md#n44):
	 * enough to reach the rate at a few seconds per extraction; Pilot's 10 a minute is reached one at a
	 * time; Enterprise, without a rate, sends a month-end batch at once (within the run's byte budget).
	 */
	parallelUploads: number;
}

export const TIER_LIMITS: Readonly<Record<Tier, TierLimits>> = {
	pilot: {
		label: 'Pilot (free)',
		maxFileBytes: 10 * MEBIBYTE,
		requestsPerMinute: 10,
		parallelUploads: 1,
	},
	growth: {
		label: 'Growth',
		maxFileBytes: 25 * MEBIBYTE,
		requestsPerMinute: 100,
		parallelUploads: 8,
	},
	enterprise: {
		label: 'Enterprise',
		maxFileBytes: 100 * MEBIBYTE,
		requestsPerMinute: null,
		parallelUploads: 256,
	},
};

function isTier(value: unknown): value is Tier {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TIER_LIMITS, value);
}

/** Unknown or missing tiers fall back to the smallest one, so a check never lets through too much. */
export function limitsForTier(tier: unknown): TierLimits {
	return isTier(tier) ? TIER_LIMITS[tier] : TIER_LIMITS.pilot;
}

export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} bytes`;
	if (bytes < MEBIBYTE) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / MEBIBYTE).toFixed(1)} MB`;
}

/** Returns a message explaining the problem when the file is above the tier's limit, otherwise undefined. */
export function fileSizeProblem(tier: unknown, fileBytes: number): string | undefined {
	const limits = limitsForTier(tier);
	if (fileBytes <= limits.maxFileBytes) return undefined;
	return (
		`The file is ${formatBytes(fileBytes)}, above the ${formatBytes(limits.maxFileBytes)} limit of the ` +
		`${limits.label} tier. Use a smaller file (split a multi-page PDF or lower the image resolution), ` +
		'or set the credential to the tier your account actually has if it is larger.'
	);
}
