// Each review result to the workflow that sent the document (docs/spec-decisions.md#n40), in a real
// n8n (single process) against the sandbox: three workflows on one account plus a review log, each
// document reviewed while the execution that submitted it still runs; a delivery for a document no
// workflow of this n8n sent starts nothing.

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

	it("Sent by This Workflow receives only its own documents: nothing at its registered address, its document at the workflow's address, nothing written", async () => {
		const toRegistered = await fixture.deliveries(
			(delivery) => delivery.url === flows.xero.triggerUrl,
		);
		expect(toRegistered).toEqual([]);
		const addressed = await fixture.deliveries((delivery) =>
			delivery.url.endsWith(`/webhook/document-extraction/${flows.xero.id}`),
		);
		expect(addressed.map((attempt) => [attempt.documentId, attempt.event, attempt.status])).toEqual(
			[[documents[1], 'document.verified', 200]],
		);
		// The trigger keeps nothing for Sent by This Workflow: no registration, no memory of events.
		const workflow = await fixture.stack.client.getWorkflow(flows.xero.id);
		expect(JSON.stringify(workflow.staticData ?? {})).not.toContain(documents[1]);
		expect(JSON.stringify(workflow.staticData ?? {})).not.toContain('secretFingerprint');
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
