/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// The Document Extraction Trigger in a real n8n (HTTPS, package installed into its user folder as
// n8n documents manual installation) against the sandbox, which delivers signed events over HTTPS
// (it trusts the harness CA): the registration lifecycle across a restart and a deactivate/activate,
// approved and rejected reviews, forged deliveries, duplicates, "Listen for test event", and no
// secret in n8n's execution data or output.
//
// Executions are counted through n8n's executions API; "no execution" is asserted after a settle of
// a few seconds (n8n saves an execution well within it), "one execution" by polling.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
	PACKAGE_NAME,
	eventually,
	nodeJson,
	registerSecret,
	reviewTriggerNode,
	sandboxControl,
	triggerWorkflow,
	type Credential,
	type DeliveryAttempt,
} from '../../local-n8n/index.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { verifiedEventBody } from './support/verifiedEvent.ts';

const fixture = useN8nAndSandbox({ restartsN8n: true, sandbox: REVIEWS_DECIDED_BY_THE_TEST });
/** What the tests observed, printed once at the end (for the report; assertions are in the tests). */
const observed: string[] = [];

interface Target {
	id: string;
	url: string;
	path: string;
}

/** Waits until the sandbox has delivered `event` for the document successfully `count` times (all targets, all copies). */
async function deliveredOk(
	documentId: string,
	event: string,
	count: number,
): Promise<DeliveryAttempt[]> {
	return await fixture.deliveriesOnceOk(
		`successful ${event} deliveries for ${documentId}`,
		(d) => d.documentId === documentId && d.event === event && d.ok,
		count,
	);
}

/** A signed delivery sent by the test itself to a production webhook path. */
async function deliver(
	path: string,
	payload: string,
	headers: Record<string, string> = { 'x-service-signature': fixture.sign(payload) },
) {
	return await fixture.stack.client.callWebhook(path, {
		body: payload,
		headers: { 'content-type': 'application/json', ...headers },
	});
}

const verifiedPayload = (documentId: string): string =>
	verifiedEventBody(documentId, {
		reviewId: 'rev_e2e',
		header: { vendor: 'Signed By The Test Ltd' },
		originalConfidence: 0.6,
	});

function triggerDefinition(
	name: string,
	events: string[],
	withCredential: Credential = fixture.credential,
) {
	return triggerWorkflow({
		name,
		trigger: reviewTriggerNode(withCredential, events),
	});
}

async function createTrigger(
	name: string,
	events: string[],
	withCredential?: Credential,
	typeVersion?: number,
): Promise<Target & { webhookId: string }> {
	return await fixture.createTriggerWorkflow(
		name,
		reviewTriggerNode(withCredential ?? fixture.credential, events, typeVersion),
	);
}

async function activate(target: Target): Promise<void> {
	await fixture.stack.client.activateWorkflow(target.id);
	await fixture.stack.client.waitForWebhook(target.path);
}

describe('Document Extraction Trigger in a real n8n', () => {
	let all: Target;
	let verifiedOnly: Target;

	afterAll(async () => {
		if (observed.length > 0)
			process.stdout.write(`trigger e2e observed:\n  ${observed.join('\n  ')}\n`);
	});

	it('registers once on activation, and not again after a restart or a deactivate/activate (no unregister: D17/D18/N32)', async () => {
		// The installed package's node type, as a user gets it.
		expect(fixture.stack.installedNodeTypes).toContain(`${PACKAGE_NAME}.documentExtractionTrigger`);
		all = await createTrigger('review results (both events)', [
			'document.verified',
			'document.rejected',
		]);
		expect(all.url).toMatch(/^https:\/\/localhost:\d+\/webhook\//);
		await activate(all);
		const first = await fixture.settledRegistrations(all.url, 1);
		expect(first).toHaveLength(1);
		expect(first[0].events.sort()).toEqual(['document.rejected', 'document.verified']);

		// A delivery accepted before the restart ...
		const beforeRestart = verifiedPayload('doc_lifecycle0000000000001');
		expect((await deliver(all.path, beforeRestart)).status).toBe(200);
		await fixture.exactlyRuns(all.id, 1);

		await fixture.stack.restartN8n();
		await fixture.stack.client.waitForWebhook(all.path);
		const afterRestart = await fixture.settledRegistrations(all.url, 1);
		expect(afterRestart.map((webhook) => webhook.id)).toEqual([first[0].id]);
		// ... is still known after it (N63: the run's claim lives in n8n's database, not in the process).
		expect((await deliver(all.path, beforeRestart)).status).toBe(200);
		await fixture.exactlyRuns(all.id, 1);

		await fixture.stack.client.deactivateWorkflow(all.id);
		await fixture.stack.client.waitForWebhook(all.path, 'POST', { gone: true });
		expect(await fixture.registrationsFor(all.url)).toHaveLength(1); // the remote registration stays (D18)
		// What the service's deliveries meet meanwhile: n8n answers 404 and runs nothing.
		expect((await deliver(all.path, verifiedPayload('doc_lifecycle0000000000002'))).status).toBe(
			404,
		);
		await fixture.stack.client.activateWorkflow(all.id);
		await fixture.stack.client.waitForWebhook(all.path);
		const reactivated = await fixture.settledRegistrations(all.url, 1);
		expect(reactivated.map((webhook) => webhook.id)).toEqual([first[0].id]); // N32: the registration is reused
		expect((await fixture.runs(all.id)).length).toBe(1);

		verifiedOnly = await createTrigger('review results (verified only)', ['document.verified']);
		await activate(verifiedOnly);
		const registrations = await fixture.settledRegistrations(verifiedOnly.url, 1);
		expect(registrations).toHaveLength(1);
		expect(registrations[0].events).toEqual(['document.verified']);
		observed.push(
			`registrations for the both-events URL: after activation ${first.length}, after restart ${afterRestart.length}, after deactivate/activate ${reactivated.length}; verified-only URL: ${registrations.length}`,
			'a delivery replayed after the restart started no execution; a delivery to the deactivated workflow was answered 404',
		);
	});

	it('starts exactly one execution with the mapped invoice when a review is approved', async () => {
		const beforeBoth = (await fixture.runs(all.id)).length;
		const beforeVerified = (await fixture.runs(verifiedOnly.id)).length;
		const document = await fixture.documentInReview();
		await sandboxControl(fixture.sandbox.url, `reviews/${document.review_id}/approve`, {
			corrections: { amounts: { tax: 80 } },
		});
		const delivered = await deliveredOk(document.document_id, 'document.verified', 2);
		const toAll = delivered.filter((delivery) => delivery.url === all.url);
		expect(toAll).toHaveLength(1); // one registration, one delivery
		expect(delivered.filter((delivery) => delivery.url === verifiedOnly.url)).toHaveLength(1);

		await fixture.exactlyRunsOfEach([
			[all.id, beforeBoth + 1],
			[verifiedOnly.id, beforeVerified + 1],
		]);
		const execution = await fixture.lastRun(all.id);
		expect(execution.status).toBe('success');
		const [item] = nodeJson(execution, 'Review finished');
		expect(item).toMatchObject({
			event: 'document.verified',
			document_id: document.document_id,
			review_id: document.review_id,
			status: 'verified',
			verified_by: 'human_reviewer',
			corrections_made: true,
			confidence_original: 0.7,
			confidence_final: 1,
			vendor: 'Northwind Traders',
			invoice_no: 'NW-88123',
			subtotal: 420,
			tax: 80,
			total: 499.8,
		});
		expect(item.line_items).toEqual([
			{ description: 'Coffee beans 1 kg', quantity: 12, unit_price: 35, amount: 420 },
		]);
		observed.push(
			`approval: ${delivered.length} successful deliveries (1 to the both-events URL, 1 to the verified-only URL) → 1 execution each`,
		);
	});

	it('starts one execution on a rejection when subscribed, and none in the workflow subscribed only to document.verified', async () => {
		const beforeBoth = (await fixture.runs(all.id)).length;
		const beforeVerified = (await fixture.runs(verifiedOnly.id)).length;
		const document = await fixture.documentInReview();
		await sandboxControl(fixture.sandbox.url, `reviews/${document.review_id}/reject`, {
			reason: 'Total is unreadable',
		});
		const delivered = await deliveredOk(document.document_id, 'document.rejected', 1);
		expect(delivered.every((delivery) => delivery.url === all.url)).toBe(true);

		// Not registered for rejections: no delivery reaches it, and nothing runs.
		expect(
			await fixture.deliveries(
				(delivery) =>
					delivery.documentId === document.document_id && delivery.url === verifiedOnly.url,
			),
		).toHaveLength(0);
		await fixture.exactlyRunsOfEach([
			[all.id, beforeBoth + 1],
			[verifiedOnly.id, beforeVerified],
		]);
		const execution = await fixture.lastRun(all.id);
		expect(nodeJson(execution, 'Review finished')[0]).toMatchObject({
			event: 'document.rejected',
			document_id: document.document_id,
			review_id: document.review_id,
			status: 'rejected',
			rejected_by: 'human_reviewer',
			rejection_reason: 'Total is unreadable',
			confidence_original: 0.7,
			vendor: null,
			total: null,
		});
		observed.push(
			`rejection: ${delivered.length} deliveries to the both-events URL → 1 execution; verified-only workflow: 0 deliveries, 0 executions`,
		);
	});

	it('answers forged deliveries to the production URL with 401 and starts nothing', async () => {
		const before = (await fixture.runs(all.id)).length;
		const payload = verifiedPayload('doc_forged000000000000001');
		const attempts: Array<{ name: string; body: string; headers: Record<string, string> }> = [
			{
				name: 'forged body (valid signature of another body)',
				body: payload.replace('doc_forged', 'doc_FORGED'),
				headers: { 'x-service-signature': fixture.sign(payload) },
			},
			{
				name: 'wrong secret',
				body: payload,
				headers: { 'x-service-signature': fixture.sign(payload, 'not-the-secret') },
			},
			{ name: 'missing header', body: payload, headers: {} },
			{ name: 'empty body', body: '', headers: { 'x-service-signature': fixture.sign(payload) } },
			{
				name: 'uppercase hex',
				body: payload,
				headers: { 'x-service-signature': fixture.sign(payload).toUpperCase() },
			},
			{
				name: 'sha256= prefix',
				body: payload,
				headers: { 'x-service-signature': `sha256=${fixture.sign(payload)}` },
			},
		];
		const statuses: number[] = [];
		for (const attempt of attempts) {
			const res = await deliver(all.path, attempt.body, attempt.headers);
			statuses.push(res.status);
			expect(res.status, attempt.name).toBe(401);
			expect(res.text, attempt.name).not.toContain(fixture.signingSecret);
			expect(res.text, attempt.name).not.toContain(fixture.sign(payload));
		}
		await fixture.exactlyRuns(all.id, before);

		// Control: the same payload, correctly signed (header name in another case), starts one.
		const valid = await deliver(all.path, payload, {
			'X-SERVICE-SIGNATURE': fixture.sign(payload),
		});
		expect(valid.status).toBe(200);
		await fixture.exactlyRuns(all.id, before + 1);
		observed.push(
			`forged deliveries: ${statuses.filter((status) => status === 401).length}/${attempts.length} answered 401, 0 executions; the valid control → 1 execution`,
		);
	});

	it('answers a signed but unsubscribed event with 200 and starts nothing', async () => {
		const before = (await fixture.runs(verifiedOnly.id)).length;
		const payload = JSON.stringify({
			event: 'document.rejected',
			timestamp: new Date().toISOString(),
			document_id: 'doc_unsubscribed0000000001',
			review_id: 'rev_z',
			rejected_by: 'human_reviewer',
			reason: 'x',
		});
		const answer = await deliver(verifiedOnly.path, payload);
		expect(answer.status).toBe(200);
		await fixture.exactlyRuns(verifiedOnly.id, before);
	});

	it('keeps to one execution per event with the sandbox duplicating every delivery, and with 5 concurrent copies', async () => {
		await sandboxControl(fixture.sandbox.url, 'config', { duplicateDeliveries: true });
		try {
			const beforeBoth = (await fixture.runs(all.id)).length;
			const beforeVerified = (await fixture.runs(verifiedOnly.id)).length;
			const document = await fixture.documentInReview();
			await sandboxControl(fixture.sandbox.url, `reviews/${document.review_id}/approve`, {});
			const delivered = await deliveredOk(document.document_id, 'document.verified', 4); // 2 targets, each twice
			expect(delivered.filter((delivery) => delivery.url === all.url)).toHaveLength(2);
			await fixture.exactlyRunsOfEach([
				[all.id, beforeBoth + 1],
				[verifiedOnly.id, beforeVerified + 1],
			]);
			observed.push(
				`duplicate switch on: ${delivered.length} successful deliveries (2 to the both-events URL, 2 to the verified-only URL) → 1 execution each`,
			);
		} finally {
			await sandboxControl(fixture.sandbox.url, 'config', { duplicateDeliveries: false });
		}

		const before = (await fixture.runs(all.id)).length;
		const payload = verifiedPayload('doc_concurrent00000000001');
		const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(all.path, payload)));
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
		await fixture.exactlyRuns(all.id, before + 1);
		observed.push('5 concurrent copies of one signed delivery: 5 × 200 → 1 execution');
	});

	it('works with "Listen for test event": registers the test URL and runs once when a review finishes', async () => {
		const definition = triggerDefinition('review results (test event)', ['document.verified']);
		const workflow = await fixture.stack.client.createWorkflow(definition);
		const testUrl = `${fixture.stack.n8n.baseUrl}/webhook-test/${definition.webhookId}/webhook`;
		const started = await fixture.stack.client.call<{ waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${workflow.id}/run`,
			{ triggerToStartFrom: { name: 'Review finished' } },
		);
		expect(started.waitingForWebhook).toBe(true);
		const [registration] = await eventually(
			'the test URL registration',
			() => fixture.registrationsFor(testUrl),
			(found) => found.length > 0,
			20_000,
		);
		expect(registration.events).toEqual(['document.verified']);

		const document = await fixture.documentInReview();
		await sandboxControl(fixture.sandbox.url, `reviews/${document.review_id}/approve`, {});
		const [execution] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
		expect(execution.status).toBe('success');
		expect(nodeJson(execution, 'Review finished')[0]).toMatchObject({
			event: 'document.verified',
			document_id: document.document_id,
		});
	});

	it('with no signing secret in the credential, registers a generated secret that verifies deliveries (N5)', async () => {
		const bare = await fixture.stack.client.createDocumentExtractionCredential(
			'Document Extraction (no signing secret)',
			{ baseUrl: fixture.sandbox.url, apiKey: fixture.apiKey, tier: 'enterprise' },
		);
		const generated = await createTrigger(
			'review results (generated secret)',
			['document.verified'],
			bare,
		);
		await activate(generated);
		const [registration] = await eventually(
			'the generated-secret registration',
			() => fixture.registrationsFor(generated.url),
			(found) => found.length === 1,
		);
		expect(registration.secret).toMatch(/^[0-9a-f]{64}$/);
		registerSecret(registration.secret); // from now on also looked for in n8n's output
		const document = await fixture.documentInReview();
		await sandboxControl(fixture.sandbox.url, `reviews/${document.review_id}/approve`, {});
		await fixture.exactlyRuns(generated.id, 1);
		// The account secret does not sign for this registration; the generated one does.
		const payload = verifiedPayload('doc_generated0000000000001');
		expect((await deliver(generated.path, payload)).status).toBe(401);
		expect(
			(
				await deliver(generated.path, payload, {
					'x-service-signature': fixture.sign(payload, registration.secret),
				})
			).status,
		).toBe(200);
		await fixture.exactlyRuns(generated.id, 2);
		observed.push(
			'generated secret (credential without one): the sandbox-signed approval → 1 execution; the account secret → 401; the generated secret → 1 more execution',
		);
	});

	it('N68: the account signing secret changed, the previous one kept until a set time: a delivery signed with it still starts the workflow; one signed with neither is refused', async () => {
		const random = () => Math.random().toString(36).slice(2);
		const [previousSecret, currentSecret] = [`whsec_prev_${random()}`, `whsec_new_${random()}`];
		const rotating = await fixture.stack.client.createDocumentExtractionCredential(
			'Document Extraction (secret changed)',
			{ baseUrl: fixture.sandbox.url, apiKey: fixture.apiKey, signingSecret: previousSecret },
		);
		// Sent by This Workflow (1.2): the account secret signs what comes to the workflow's address.
		const target = await createTrigger(
			'review results (secret changed)',
			['document.verified'],
			rotating,
			1.2,
		);
		await activate(target);
		await fixture.stack.client.updateCredential(rotating.id, {
			name: rotating.name,
			type: rotating.type,
			data: {
				baseUrl: fixture.sandbox.url,
				apiKey: fixture.apiKey,
				signingSecret: currentSecret,
				previousSigningSecret: previousSecret,
				// As the editor's date picker gives it: no offset, read as UTC.
				acceptPreviousUntil: new Date(Date.now() + 3_600_000).toISOString().slice(0, 19),
				tier: 'pilot',
			},
		});
		// n8n's log from here on: the shared n8n's log holds the other files' deliveries too.
		const logBefore = readFileSync(fixture.stack.n8n.logFile, 'utf8').length;
		const statuses: number[] = [];
		for (const [index, secret] of [
			previousSecret,
			currentSecret,
			`whsec_neither_${random()}`,
		].entries()) {
			const payload = verifiedPayload(`doc_rotatedsecret00000000${index}`);
			const answer = await deliver(`document-extraction/${target.id}`, payload, {
				'x-service-signature': fixture.sign(payload, secret),
			});
			statuses.push(answer.status);
		}
		expect(statuses).toEqual([200, 200, 401]);
		await fixture.exactlyRuns(target.id, 2);
		await eventually(
			"the accepted previous secret in n8n's log",
			async () => readFileSync(fixture.stack.n8n.logFile, 'utf8').slice(logBefore),
			(log) => log.includes('accepted a delivery signed with a previous secret of the credential'),
			10_000,
		);
		const seen = fixture.stack.n8n.secretsSeenInOutput();
		for (const secret of [previousSecret, currentSecret])
			expect(seen.includes(secret), "a secret in n8n's output").toBe(false);
		observed.push(
			'signing secret changed, the previous one accepted for an hour: previous → 1 run, current → 1 run, neither → 401',
		);
	});

	it("keeps the API key and the signing secrets out of every execution and out of n8n's output", async () => {
		// The harness masks registered secrets in the log file, so n8n's raw output is checked as it
		// arrives (N8nInstance.secretsSeenInOutput). Positive control: a value n8n does log (the
		// webhook id inside a trigger's URL, logged at registration) is seen.
		const canary = await createTrigger('canary', ['document.verified']);
		registerSecret(canary.webhookId);
		await activate(canary);
		await eventually(
			"the canary in n8n's output",
			async () => fixture.stack.n8n.secretsSeenInOutput(),
			(seen) => seen.includes(canary.webhookId),
			30_000,
		);
		// Executions of its own, so that the check stands alone as well as after the tests above.
		for (const index of [1, 2, 3]) {
			const payload = verifiedPayload(`doc_canary000000000000000${index}`);
			expect((await deliver(canary.path, payload)).status).toBe(200);
		}
		await fixture.exactlyRuns(canary.id, 3);

		const generatedSecrets = (await fixture.sandboxState()).webhooks
			.map((webhook) => webhook.secret)
			.filter((secret) => secret !== fixture.signingSecret);
		const secrets = [fixture.apiKey, fixture.signingSecret, ...generatedSecrets];
		let checked = 0;
		let exportsWithRegistrations = 0;
		for (const workflow of await fixture.stack.client.listWorkflows()) {
			// What n8n exports with the workflow (static data included, N5): no secret, only fingerprints.
			const exported = JSON.stringify(await fixture.stack.client.getWorkflow(workflow.id));
			for (const secret of secrets)
				expect(exported.includes(secret), `a secret in workflow "${workflow.name}"`).toBe(false);
			if (exported.includes('secretFingerprint')) exportsWithRegistrations++;
			for (const summary of await fixture.stack.client.listExecutions(workflow.id)) {
				const text = JSON.stringify((await fixture.stack.client.getExecution(summary.id)).raw);
				for (const secret of secrets)
					expect(
						text.includes(secret),
						`a secret in execution ${summary.id} of "${workflow.name}"`,
					).toBe(false);
				checked++;
			}
		}
		expect(checked).toBeGreaterThanOrEqual(3);
		expect(exportsWithRegistrations).toBeGreaterThanOrEqual(1);
		const seen = fixture.stack.n8n.secretsSeenInOutput();
		for (const secret of secrets)
			expect(seen.includes(secret), "a secret in n8n's output").toBe(false);
		const log = readFileSync(fixture.stack.n8n.logFile, 'utf8');
		for (const secret of secrets)
			expect(log.includes(secret), "a secret in n8n's log file").toBe(false);
		observed.push(
			`secrets: ${secrets.length} secret values absent from ${checked} executions and from n8n's output (canary seen: yes)`,
		);
	});
});
