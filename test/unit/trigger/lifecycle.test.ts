// The trigger's webhook lifecycle at its edges, with a minimal hook context (the full lifecycle runs
// in a real n8n in test/e2e/trigger.test.ts): HTTPS required, checkExists, delete.
import type { IHookFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtractionTrigger } from '../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import { secretFingerprint } from '../../../nodes/DocumentExtraction/trigger/registration.ts';
import { NODE_TYPES } from '../../../nodes/shared/nodeTypes.ts';

function hookContext(options: { url: string; events?: string[]; secret?: string; staticData?: Record<string, unknown>; onRequest?: () => void }) {
	const staticData = options.staticData ?? {};
	const context = {
		getNodeWebhookUrl: () => options.url,
		getNodeParameter: (name: string) => (name === 'events' ? (options.events ?? ['document.verified', 'document.rejected']) : undefined),
		getCredentials: async () => ({ baseUrl: 'https://api.example.com', apiKey: 'k', signingSecret: options.secret ?? '', tier: 'pilot' }),
		getWorkflowStaticData: () => staticData,
		getNode: () => ({ id: 'n1', name: 'Review finished', type: NODE_TYPES.trigger, typeVersion: 1, position: [0, 0], parameters: {} }),
		logger: { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined },
		helpers: {
			httpRequestWithAuthentication: async () => {
				options.onRequest?.();
				return { statusCode: 200, headers: {}, body: { webhook_id: 'wh_1', url: options.url, status: 'active' } };
			},
		},
	};
	return { context: context as unknown as IHookFunctions, staticData };
}

const methods = new DocumentExtractionTrigger().webhookMethods.default;

describe('trigger lifecycle', () => {
	it('refuses to activate on an http webhook URL, saying how to fix it, without calling the service', async () => {
		let requests = 0;
		const { context } = hookContext({ url: 'http://localhost:5678/webhook/abc/webhook', onRequest: () => requests++ });
		const error = await methods.create.call(context).catch((caught: Error & { description?: string }) => caught);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toContain('delivers only to HTTPS');
		expect((error as { description?: string }).description).toMatch(/WEBHOOK_URL/);
		expect(requests).toBe(0);
	});

	it('records the registration with a fingerprint of the credential secret, never the secret', async () => {
		const { context, staticData } = hookContext({ url: 'https://n8n.example/webhook/abc/webhook', secret: 'credential-secret-value' });
		expect(await methods.create.call(context)).toBe(true);
		expect(staticData.registration).toMatchObject({ webhookId: 'wh_1', url: 'https://n8n.example/webhook/abc/webhook', events: ['document.rejected', 'document.verified'], credentialSecretFingerprint: secretFingerprint('credential-secret-value') });
		expect(JSON.stringify(staticData)).not.toContain('credential-secret-value');
		expect(await methods.checkExists.call(context)).toBe(true);
	});

	it('generates and keeps a secret when the credential has none', async () => {
		const { context, staticData } = hookContext({ url: 'https://n8n.example/webhook/abc/webhook' });
		await methods.create.call(context);
		expect((staticData.registration as { generatedSecret: string }).generatedSecret).toMatch(/^[0-9a-f]{64}$/);
		expect(await methods.checkExists.call(context)).toBe(true);
	});

	it('registers anew when the URL, the events or the credential secret change', async () => {
		const registered = hookContext({ url: 'https://n8n.example/webhook/abc/webhook', secret: 'one' });
		await methods.create.call(registered.context);
		const staticData = registered.staticData;
		expect(await methods.checkExists.call(hookContext({ url: 'https://n8n.example/webhook/other/webhook', secret: 'one', staticData }).context)).toBe(false);
		expect(await methods.checkExists.call(hookContext({ url: 'https://n8n.example/webhook/abc/webhook', secret: 'one', events: ['document.verified'], staticData }).context)).toBe(false);
		expect(await methods.checkExists.call(hookContext({ url: 'https://n8n.example/webhook/abc/webhook', secret: 'two', staticData }).context)).toBe(false);
		expect(await methods.checkExists.call(hookContext({ url: 'https://n8n.example/webhook/abc/webhook', secret: 'one', events: ['document.rejected', 'document.verified'], staticData }).context)).toBe(true);
	});

	it('delete forgets the registration, keeps the memory of received events, and never throws', async () => {
		const { context, staticData } = hookContext({ url: 'https://n8n.example/webhook/abc/webhook', secret: 's', staticData: { seenDeliveries: ['document.verified:doc_1'] } });
		await methods.create.call(context);
		expect(await methods.delete.call(context)).toBe(true);
		expect(staticData.registration).toBeUndefined();
		expect(staticData.seenDeliveries).toEqual(['document.verified:doc_1']);
		expect(await methods.delete.call(context)).toBe(true);
		expect(await methods.checkExists.call(context)).toBe(false);
	});
});
