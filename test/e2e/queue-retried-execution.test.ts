// The retry after a transient 500 in n8n's queue mode (the full queue stack: Postgres, Redis, main,
// 2 workers, 2 webhook processes behind HAProxy), the same scenarios and the same assertions as in
// one process (retried-execution.test.ts, support/emailOfInvoices.ts): the email posted through the
// public URL runs on a worker and fails there; retried from main as the editor does, the retry runs
// on a worker and outputs every invoice with its data. With Continue On Fail, the same email again
// extracts only the failed file, and the files an earlier run submitted come out on Already
// Submitted as the same items as in one process: naming no earlier document in either mode
// (docs/memory.md, "What is not remembered").

import { beforeAll, expect, it } from 'vitest';
import {
	sandboxCredential,
	type Credential,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import {
	RETRY_CASES,
	emailWorkflow,
	expectFailedFileAloneAgain,
	expectRetryStrandsNothing,
	invoices,
	postEmail,
	type EmailRuns,
} from './support/emailOfInvoices.ts';
import {
	useQueueFixture,
	waitForPublicWebhook,
	type QueueFixture,
	workersThatRan,
} from './support/queueFixture.ts';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';

let fixture: QueueFixture;
const credentials: Partial<Record<'pilot' | 'growth', Credential>> = {};
const secrets: string[] = [];

/** The worker whose log says it ran `execution` (one, and a worker: not main). */
function workerOf(execution: DecodedExecution): string {
	const ran = workersThatRan(fixture.stack, execution.id);
	expect(ran, `the workers that ran execution ${execution.id}`).toHaveLength(1);
	return ran[0];
}

function expectNoSecretIn(execution: DecodedExecution): void {
	const text = JSON.stringify(execution.raw);
	for (const secret of secrets) expect(text.includes(secret)).toBe(false);
}

/** An active email workflow on the tier's credential, run through the public URL on the workers. */
async function emailRuns(
	name: string,
	tier: 'pilot' | 'growth',
	continueOnFail: boolean,
): Promise<EmailRuns> {
	const { client, lbClient } = fixture.stack;
	const definition = emailWorkflow(name, credentials[tier]!, continueOnFail);
	const { id } = await client.createWorkflow(definition);
	await client.activateWorkflow(id);
	await waitForPublicWebhook(fixture.stack, definition.webhookPath);
	const finished = async (executionId: string): Promise<DecodedExecution> => {
		const execution = await client.waitForExecution(executionId, { timeoutMs: 180_000 });
		workerOf(execution);
		expectNoSecretIn(execution);
		return execution;
	};
	return {
		sandboxUrl: fixture.sandbox.url,
		send: async (attachments) => {
			const known = (await client.listExecutions(id)).length;
			await postEmail(lbClient, definition.webhookPath, attachments);
			const listed = await client.waitForExecutions(id, known + 1, { timeoutMs: 180_000 });
			return await finished(listed.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b)).id);
		},
		retry: async (failed) =>
			await finished(await client.retryExecution(failed.id, { loadWorkflow: false })),
	};
}

describeNeeding(QUEUE_MODE_REQUIREMENTS, 'a failed execution retried on the workers', () => {
	// Pilot takes 10 uploads a minute: a 10-second minute lets the cases follow each other unpaced.
	useQueueFixture({ sandbox: { minuteMs: 10_000 } }, (started) => (fixture = started));

	beforeAll(async () => {
		for (const tier of ['pilot', 'growth'] as const) {
			const account = await sandboxCredential(
				fixture.stack.client,
				fixture.sandbox,
				tier,
				`Document Extraction (${tier})`,
			);
			credentials[tier] = account.credential;
			secrets.push(account.apiKey, account.signingSecret);
		}
		secrets.push(fixture.account.apiKey, fixture.account.signingSecret);
	});

	it.each(RETRY_CASES)(
		'$label, $mode: upload $failing of $count answered 500 once on a worker; the retry outputs all $count with their data',
		async ({ tier, label, count, failing }) => {
			const runs = await emailRuns(`e2e queue: retried execution (${label})`, tier, false);
			await expectRetryStrandsNothing(runs, invoices(`QUEUE-RETRY-${tier}`, count), failing);
		},
	);

	it.each(RETRY_CASES)(
		'$label, Continue On Fail: the same email again extracts only the failed file; the others on Already Submitted as in one process',
		async ({ tier, label, count, failing }) => {
			const runs = await emailRuns(
				`e2e queue: continue on fail, same email (${label})`,
				tier,
				true,
			);
			await expectFailedFileAloneAgain(runs, invoices(`QUEUE-AGAIN-${tier}`, count), failing);
		},
	);
});
