/**
 * Registers with the service only what it does not hold yet: the events not delivered to this URL
 * with this secret. Toggling, editing, renaming, restarting and publishing therefore register
 * nothing; a new URL, new events or a new secret register once. Called by the activation hooks only,
 * which n8n runs one at a time per workflow. docs/spec-decisions.md#n32
 */
import type { IHookFunctions } from 'n8n-workflow';

import { API_PATHS } from '../constants.ts';
import { secretFingerprint } from '../delivery/signedDelivery.ts';
import { apiRequest } from '../transport/index.ts';
import type { HeldRegistration } from './registration.ts';
import { missingEvents, withRegistration } from './registration.ts';
import { saveTriggerMemory, triggerMemory } from './triggerMemory.ts';

/**
 * Registers with `secret` the events the service does not deliver to `url` with it or with one of
 * `alsoVerified` (secrets the webhook accepts too); undefined when none.
 */
export async function registerMissingEvents(
	context: IHookFunctions,
	url: string,
	events: string[],
	secret: string,
	alsoVerified: string[] = [],
): Promise<HeldRegistration | undefined> {
	const memory = triggerMemory(context);
	const missing = missingEvents(
		memory.registrations,
		url,
		[secret, ...alsoVerified].filter(Boolean).map(secretFingerprint),
		events,
	);
	if (missing.length === 0) return undefined;

	const response = await apiRequest(context, {
		method: 'POST',
		path: API_PATHS.registerWebhook,
		body: async () => ({ url, events: missing, secret }),
		operation: "register the trigger's webhook",
		idempotent: false,
		retries: 3,
	});
	const registration: HeldRegistration = {
		webhookId: typeof response.webhook_id === 'string' ? response.webhook_id : null,
		url,
		events: missing,
		secretFingerprint: secretFingerprint(secret),
		registeredAt: new Date().toISOString(),
	};
	saveTriggerMemory(context, {
		...memory,
		registrations: withRegistration(memory.registrations, registration),
	});
	context.logger.info(
		`Document Extraction Trigger: registered ${url} for ${missing.join(', ')} as ${registration.webhookId ?? 'an unnamed webhook'}`,
	);
	return registration;
}
