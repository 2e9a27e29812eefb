/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n */
// How an e2e file says which system programs it needs (Postgres, Redis, HAProxy for queue mode;
// Chromium for the browser test). On a machine without one, the suite is not run and its name
// says why, so the closing summary (test/summaryReporter.ts) can list it with the install command.
// With CI=true it always runs: a missing program then fails it with the same install message.

import { describe } from 'vitest';
import {
	QUEUE_MODE_REQUIREMENTS,
	missingRequirements,
	type SystemRequirementName,
} from '../../../local-n8n/index.ts';
import { notRunTitle } from './notRun.ts';

export { QUEUE_MODE_REQUIREMENTS };

/** `describe(name, fn)` for a suite that needs `requirements` (see the file comment). */
export function describeNeeding(
	requirements: SystemRequirementName[],
	name: string,
	fn: () => void,
): void {
	const missing = process.env.CI === 'true' ? [] : missingRequirements(requirements);
	const title =
		missing.length > 0
			? notRunTitle(
					name,
					missing.map((r) => r.name),
				)
			: name;
	describe.skipIf(missing.length > 0)(title, fn);
}
