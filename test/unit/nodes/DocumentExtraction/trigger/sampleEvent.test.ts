// The sample event (docs/spec-decisions.md#n37), and the hook that sends it.
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { DocumentExtractionTrigger } from '../../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import { computeSignature } from '../../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import {
	signingKeys,
	triggerOwnSecret,
} from '../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts';
import { isSample } from '../../../../../nodes/DocumentExtraction/delivery/eventMapping.ts';
import { sendSampleEvent } from '../../../../../nodes/DocumentExtraction/trigger/sampleEvent.ts';
import { credentialData, fakeNode, silentLogger } from '../../../harness/fakeHookContext.ts';

afterEach(() => {
	vi.useRealTimers();
});

/** The sample of `event` as sendSampleEvent posts it. */
async function postedSample(event: string): Promise<IDataObject> {
	const bodies: string[] = [];
	const context = {
		logger: silentLogger(),
		helpers: {
			httpRequest: async (request: { body: string }) => {
				bodies.push(request.body);
				return '';
			},
		},
	} as unknown as IHookFunctions;
	vi.useFakeTimers({ toFake: ['setTimeout'] });
	sendSampleEvent(context, 'https://n8n.example/webhook-test/abc/webhook', event, 'whsec_UNITTEST');
	await vi.advanceTimersByTimeAsync(2_000);
	vi.useRealTimers();
	expect(bodies).toHaveLength(1);
	return JSON.parse(bodies[0]) as IDataObject;
}

describe('the sample event', () => {
	it('is shaped like the service delivers it and clearly marked', async () => {
		const verified = await postedSample('document.verified');
		expect(verified).toMatchObject({
			event: 'document.verified',
			sample: true,
			verified_by: 'human_reviewer',
		});
		expect(String(verified.document_id)).toMatch(/^doc_sample_[0-9a-f]{16}$/);
		expect(verified.data).toMatchObject({
			header: { vendor: 'Sample Supplies Ltd' },
			amounts: { total: 119 },
		});
		expect(await postedSample('document.rejected')).toMatchObject({
			event: 'document.rejected',
			sample: true,
			reason: expect.stringContaining('Sample'),
		});
		expect(isSample(verified)).toBe(true);
		expect(isSample({ document_id: 'doc_sample_x' })).toBe(false);
		expect(isSample({ document_id: 'doc_sample_x', sample: true })).toBe(true);
		expect(isSample({ document_id: 'doc_real_1' })).toBe(false);
	});

	it('is posted, signed as the service signs what reaches that address, to the test URL when listening starts with the option on, and never in production', async () => {
		const posted: Array<{ url: string; body: string; headers: Record<string, string> }> = [];
		const context = (mode: string, sendSampleEvent: boolean | undefined, typeVersion = 1.1) =>
			({
				getMode: () => mode,
				getNodeWebhookUrl: (name: string) =>
					name === 'setup'
						? 'https://n8n.example/webhook-test/document-extraction/wf-sample'
						: 'https://n8n.example/webhook-test/abc/webhook',
				getNodeParameter: (name: string, fallback: unknown) =>
					name === 'events'
						? ['document.verified', 'document.rejected']
						: name === 'options' && typeVersion < 1.2
							? { sendSampleEvent }
							: name === 'sendSampleEvent' && typeVersion >= 1.2 && sendSampleEvent !== undefined
								? sendSampleEvent
								: fallback,
				getCredentials: async () => credentialData('whsec_UNITTEST_sample'),
				getWorkflowStaticData: () => ({}),
				getWorkflow: () => ({ id: 'wf-sample', name: 'sample', active: false }),
				getNode: () => fakeNode({ id: 'node-sample', name: 'Review finished', typeVersion }),
				logger: silentLogger(),
				helpers: {
					httpRequestWithAuthentication: async () => ({
						statusCode: 200,
						headers: {},
						body: { webhook_id: 'wh_test', status: 'active' },
					}),
					httpRequest: async (request: {
						url: string;
						body: string;
						headers: Record<string, string>;
					}) => {
						posted.push(request);
						return '';
					},
				},
			}) as unknown as IHookFunctions;
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const methods = new DocumentExtractionTrigger().webhookMethods.default;
		await methods.create.call(context('trigger', true)); // production: no sample
		await methods.create.call(context('manual', false)); // option off: no sample
		await methods.create.call(context('manual', undefined)); // 1.1, option not added: no sample
		await methods.create.call(context('manual', false, 1.2)); // 1.2, turned off: no sample
		await methods.create.call(context('manual', true));
		// The sample leaves after a short delay (n8n finishes setting up the listener first).
		await vi.advanceTimersByTimeAsync(2_000);
		expect(posted).toHaveLength(1);
		expect(posted[0].url).toBe('https://n8n.example/webhook-test/abc/webhook');
		// From 1.2 on by default (the parameter's default, as n8n fills it in).
		await methods.create.call(context('manual', undefined, 1.2));
		await vi.advanceTimersByTimeAsync(2_000);
		expect(posted).toHaveLength(2);
		expect(JSON.parse(posted[0].body)).toMatchObject({ event: 'document.verified', sample: true });
		// Every Document on the Account (1.1's default): to the registered test URL, signed with the
		// trigger's own secret for it, as the service signs that registration's deliveries.
		const ownSecret = triggerOwnSecret(
			await signingKeys({ getCredentials: async () => credentialData('whsec_UNITTEST_sample') }),
			'https://n8n.example/webhook-test/abc/webhook',
		);
		expect(posted[0].headers['x-service-signature']).toBe(
			computeSignature(posted[0].body, ownSecret),
		);
		// Sent by This Workflow (1.2's default): to the workflow's test address, signed with the
		// account's secret, as the service signs a document's own deliveries (D13).
		expect(posted[1].url).toBe('https://n8n.example/webhook-test/document-extraction/wf-sample');
		expect(posted[1].headers['x-service-signature']).toBe(
			computeSignature(posted[1].body, 'whsec_UNITTEST_sample'),
		);
	});
});
