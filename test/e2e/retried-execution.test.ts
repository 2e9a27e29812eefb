// A transient failure strands no invoice (docs/memory.md, "How a claim works"), in a real n8n
// against the sandbox: an email of invoices (support/emailOfInvoices.ts) goes through Extract with
// Skip Files Already Submitted on, and one upload is answered 500 once (the service created nothing).
// - Without Continue On Fail the execution fails; retried as the editor retries it (POST
//   /rest/executions/<id>/retry, "Retry with original workflow"), it outputs every invoice on
//   Verified with its data, none on Already Submitted: Pilot one upload at a time (5 invoices, the
//   3rd fails), Growth in parallel (12 invoices, the 4th fails).
// - With Continue On Fail the failed file alone comes out as an error item, the others on Verified;
//   the same email again extracts only it, and the others come out on Already Submitted naming no
//   earlier document, the same items as on a queue-mode worker (queue-retried-execution.test.ts).

import { beforeAll, describe, it } from 'vitest';
import { sandboxCredential, type Credential } from '../../local-n8n/index.ts';
import {
	RETRY_CASES,
	activeEmailRuns,
	expectFailedFileAloneAgain,
	expectRetryStrandsNothing,
	invoices,
	type EmailRuns,
} from './support/emailOfInvoices.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

// Pilot takes 10 uploads a minute: a 10-second minute lets the cases follow each other unpaced.
const fixture = useN8nAndSandbox({ tier: 'pilot', sandbox: { minuteMs: 10_000 } });

let growth: Credential;

beforeAll(async () => {
	const account = await sandboxCredential(
		fixture.stack.client,
		fixture.sandbox,
		'growth',
		'Document Extraction (growth)',
	);
	growth = account.credential;
	fixture.secrets.push(account.apiKey, account.signingSecret);
});

/** An active email workflow on the tier's credential, and how this file runs it. */
const emailRuns = async (
	name: string,
	tier: 'pilot' | 'growth',
	continueOnFail: boolean,
): Promise<EmailRuns> =>
	await activeEmailRuns(
		fixture,
		name,
		tier === 'pilot' ? fixture.credential : growth,
		continueOnFail,
	);

describe('A failed execution retried in n8n strands no invoice', () => {
	it.each(RETRY_CASES)(
		'$label, $mode: $count invoices, upload $failing answered 500 once; the retry outputs all $count with their data',
		async ({ tier, label, count, failing }) => {
			const runs = await emailRuns(`e2e: retried execution (${label})`, tier, false);
			await expectRetryStrandsNothing(runs, invoices(`RETRY-${tier}`, count), failing);
		},
	);
});

describe('Continue On Fail: the failed file alone is an error item, and alone extracted again', () => {
	it.each(RETRY_CASES)(
		'$label, $mode: $count invoices, upload $failing answered 500 once; the same email again extracts only the failed one',
		async ({ tier, label, count, failing }) => {
			const runs = await emailRuns(`e2e: continue on fail, same email (${label})`, tier, true);
			await expectFailedFileAloneAgain(runs, invoices(`AGAIN-${tier}`, count), failing);
		},
	);
});
