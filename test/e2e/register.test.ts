/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// Webhook → Register (node version 1.3) in a real n8n against the sandbox: an endpoint outside n8n
// gets a secret of its own, never the account's signing secret (docs/spec-decisions.md#n65), and the
// service's deliveries to it are signed with that secret.

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionNode, eventually, nodeJson, webhookWorkflow } from '../../local-n8n/index.ts';
import { approveReviewOf } from './support/laterInvoices.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST });

/** An HTTPS endpoint outside n8n, with a certificate of the CA the sandbox trusts. */
const received: Array<{ headers: IncomingHttpHeaders; body: Buffer }> = [];
let endpoint: ReturnType<typeof createServer>;
let endpointUrl: string;

beforeAll(async () => {
	const { certFile, keyFile } = fixture.stack.tls;
	endpoint = createServer(
		{ cert: readFileSync(certFile), key: readFileSync(keyFile) },
		(request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				received.push({ headers: request.headers, body: Buffer.concat(chunks) });
				response.writeHead(200).end();
			});
		},
	);
	await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
	endpointUrl = `https://127.0.0.1:${(endpoint.address() as AddressInfo).port}/review-results`;
});

afterAll(async () => {
	await new Promise((resolve) => endpoint?.close(resolve));
});

describe('Webhook → Register 1.3 in a real n8n', () => {
	it('registers the endpoint with a new secret, output once, and the deliveries are signed with it', async () => {
		const definition = webhookWorkflow({
			name: 'e2e register 1.3',
			nodes: [
				actionNode(
					'Register',
					fixture.credential,
					{ resource: 'webhook', operation: 'register', url: endpointUrl },
					{ typeVersion: 1.3 },
				),
			],
		});
		const workflow = await fixture.stack.client.createWorkflow(definition);
		await fixture.stack.client.activateWorkflow(workflow.id);
		await fixture.stack.client.waitForWebhook(definition.webhookPath);
		await fixture.stack.client.callWebhook(definition.webhookPath, { json: {} });
		const [execution] = await fixture.stack.client.waitForExecutions(workflow.id, 1);
		// Neither the API key nor the account's signing secret is anywhere in the execution.
		fixture.expectNoSecretIn(execution, 'a credential secret in the Register execution');

		const [item] = nodeJson(execution, 'Register');
		expect(item).toEqual({
			webhook_id: expect.stringMatching(/^wh_/),
			url: endpointUrl,
			status: 'active',
			events: ['document.verified', 'document.rejected'],
			secret: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
		const secret = String(item.secret);
		expect(secret).not.toBe(fixture.signingSecret);
		const registrations = (await fixture.sandboxState()).webhooks.filter(
			(webhook) => webhook.url === endpointUrl,
		);
		expect(registrations.map((webhook) => [webhook.id, webhook.secret])).toEqual([
			[item.webhook_id, secret],
		]);

		const { document_id: documentId } = await fixture.documentInReview();
		await approveReviewOf(fixture.sandbox.url, documentId);
		const [delivery] = await eventually(
			'the verified event at the endpoint',
			async () => received.filter(({ body }) => body.toString('utf8').includes(documentId)),
			(found) => found.length > 0,
			30_000,
		);
		const signature = String(delivery.headers['x-service-signature']);
		expect(signature).toBe(createHmac('sha256', secret).update(delivery.body).digest('hex'));
		expect(signature).not.toBe(
			createHmac('sha256', fixture.signingSecret).update(delivery.body).digest('hex'),
		);
	});
});
