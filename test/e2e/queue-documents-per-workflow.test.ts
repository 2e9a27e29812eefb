// Each review result to the workflow that sent the document (docs/spec-decisions.md#n40) in n8n's
// queue mode (Postgres, Redis, main, 2 workers, 2 webhook processes behind HAProxy): the Extract runs
// on a worker, the results arrive at either webhook process, and each document's result still runs
// exactly the workflow(s) it should, while the submitting execution still runs. The single-process
// case, with the log and the trigger's memory, is test/e2e/documents-per-workflow.test.ts.

import { expect, it } from 'vitest';
import { eachResultToItsWorkflow, type OneAccount } from './support/documentsPerWorkflow.ts';
import { sleep } from './support/n8nAndSandbox.ts';
import {
	useQueueFixture,
	waitForPublicWebhook,
	type QueueFixture,
} from './support/queueFixture.ts';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';

let fixture: QueueFixture;

describeNeeding(QUEUE_MODE_REQUIREMENTS, 'several workflows on one account (queue mode)', () => {
	useQueueFixture(
		{ sandbox: { reviewDelayMs: 600_000, retryBaseMs: 300 } },
		(started) => (fixture = started),
	);

	it("each document's review result runs the workflow that sent it; another's document starts nothing", async () => {
		const account: OneAccount = {
			client: fixture.stack.client,
			caller: fixture.stack.lbClient,
			webhookBase: `${fixture.stack.publicUrl}/webhook`,
			credential: fixture.account.credential,
			sandboxUrl: fixture.sandbox.url,
			served: async (path) => await waitForPublicWebhook(fixture.stack, path),
			settle: async () => {
				await sleep(3_000);
			},
		};
		const { flows } = await eachResultToItsWorkflow(account, 'Q', ['reject', 'approve', 'approve']);
		expect(await fixture.stack.client.listExecutions(flows.intake.id)).toHaveLength(1);
	});
});
