// How a suite that was not run for lack of a system program is named, shared by
// describeNeeding() (requirements.ts), which names it, and the closing summary
// (test/summaryReporter.ts), which reads the name back.

import {
	SYSTEM_REQUIREMENTS,
	type SystemRequirementName,
} from '../../../local-n8n/systemPackages.ts';

const MARKER = '[not run here, needs: ';

/** The name of a suite not run because `missing` are not on this machine. */
export function notRunTitle(name: string, missing: SystemRequirementName[]): string {
	return `${name} ${MARKER}${missing.join(', ')}]`;
}

/** The suite's own name and what it lacks, when `title` was made by notRunTitle(). */
export function parseNotRunTitle(
	title: string,
): { name: string; missing: SystemRequirementName[] } | undefined {
	const at = title.indexOf(MARKER);
	if (at < 0) return undefined;
	const missing = title
		.slice(at + MARKER.length)
		.replace(/\]$/, '')
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry): entry is SystemRequirementName => entry in SYSTEM_REQUIREMENTS);
	return { name: title.slice(0, at).trim(), missing };
}
