/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// Each review result to the workflow that sent the document (docs/spec-decisions.md#n40), in a real
// n8n (single process) against the sandbox: three workflows on one account plus a review log, each
// document reviewed while the execution that submitted it still runs; a delivery for a document no
// workflow of this n8n sent starts nothing.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	eachResultToItsWorkflow,
	triggerRuns,
	type ActiveFlow,
	type OneAccount,
} from './support/documentsPerWorkflow.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { verifiedEventBody } from './support/verifiedEvent.ts';

const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST });

function oneAccount(): OneAccount {
	return {
		client: fixture.stack.client,
		caller: fixture.stack.client,
		webhookBase: `${fixture.stack.n8n.baseUrl}/webhook`,
		credential: fixture.credential,
		sandboxUrl: fixture.sandbox.url,
		served: async (path) => await fixture.stack.client.waitForWebhook(path),
		settle: async () => await fixture.settle(),
	};
}

describe('several workflows on one account (single process)', () => {
	let flows: Record<'intake' | 'xero' | 'quickBooks' | 'reviewLog', ActiveFlow>;
	/** intake's, Xero's, QuickBooks' */
	let documents: string[];

	it("each document's review result runs the workflow that sent it, and the review log hears them all", async () => {
		({ flows, documents } = await eachResultToItsWorkflow(oneAccount(), 'INV', [
			'approve',
			'approve',
			'reject',
		]));
	});

	it("the account's deliveries of other workflows' documents were answered 200 without a run, counted in the log", async () => {
		const attempts = await fixture.deliveries((delivery) => delivery.url === flows.xero.triggerUrl);
		// Three documents reviewed: the Xero trigger's registration received all three, 200 each; its
		// marked address received its own document's result.
		expect(attempts.filter((attempt) => attempt.ok)).toHaveLength(3);
		expect(attempts.every((attempt) => attempt.status === 200)).toBe(true);
		const addressed = await fixture.deliveries((delivery) =>
			delivery.url.endsWith(`/webhook/document-extraction/${flows.xero.id}`),
		);
		expect(addressed.map((attempt) => [attempt.event, attempt.status])).toEqual([
			['document.verified', 200],
		]);
		// Counted in n8n's log: each reviewed document once through the account's registration, this
		// workflow's own included (its result also came to the workflow's own address, which ran it).
		const log = readFileSync(fixture.stack.n8n.logFile, 'utf8');
		for (const documentId of documents)
			expect(log).toMatch(`of ${documentId}: not addressed to this workflow`);
		// The trigger's memory of the document it ran is kept (no concurrent save of the copies overwrote it).
		const workflow = (await fixture.stack.client.getWorkflow(flows.xero.id)) as unknown as {
			staticData?: {
				global?: {
					documentExtractionTrigger?: Record<string, { accepted?: { entries: object } }>;
				};
			};
		};
		const [memory] = Object.values(workflow.staticData?.global?.documentExtractionTrigger ?? {});
		expect(Object.keys(memory?.accepted?.entries ?? {}), JSON.stringify(memory)).toContain(
			`document.verified:${documents[1]}`,
		);
	});

	it('a signed delivery for a document that no workflow here sent starts nothing (answered 200, not started)', async () => {
		const before = (await triggerRuns(oneAccount(), flows.xero)).length;
		const body = verifiedEventBody('doc_never_submitted_here', {
			reviewId: 'rev_x',
			header: { vendor: 'Someone Else Ltd', date: '2026-11-01', invoice_no: 'X-1' },
			originalConfidence: 0.7,
		});
		const answer = await fixture.stack.client.callWebhook(flows.xero.triggerPath!, {
			body,
			headers: { 'content-type': 'application/json', 'x-service-signature': fixture.sign(body) },
		});
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual({
			received: true,
			started: false,
			reason: 'not addressed to this workflow',
		});
		await fixture.settle();
		expect(await triggerRuns(oneAccount(), flows.xero)).toHaveLength(before);
	});
});
