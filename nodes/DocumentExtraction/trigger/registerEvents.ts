/**
 * Registers with the service only what it does not hold yet: the events not delivered to this URL
 * with this secret. Toggling, editing, renaming, restarting and publishing therefore register
 * nothing; a new URL, new events or a new secret register once. docs/spec-decisions.md#n32
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { API_PATHS } from '../constants.ts';
import { apiRequest } from '../transport/index.ts';
import type { HeldRegistration } from './registration.ts';
import { missingEvents, withRegistration } from './registration.ts';
import { secretFingerprint } from '../delivery/signature.ts';
import { saveTriggerMemory, triggerMemory, triggerScope } from './triggerMemory.ts';

type Context = IHookFunctions | IWebhookFunctions;

/** One registration at a time per node in this process (concurrent deliveries may ask together). */
const inFlight = new Map<string, Promise<HeldRegistration | undefined>>();

async function registerOnce(
	context: Context,
	url: string,
	events: string[],
	secret: string,
): Promise<HeldRegistration | undefined> {
	// Read again: another call may have registered while this one waited.
	const memory = triggerMemory(context);
	const fingerprint = secretFingerprint(secret);
	const missing = missingEvents(memory.registrations, url, fingerprint, events);
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
		secretFingerprint: fingerprint,
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

/** Registers the events the service does not deliver to `url` with `secret`; undefined when none. */
export async function registerMissingEvents(
	context: Context,
	url: string,
	events: string[],
	secret: string,
): Promise<HeldRegistration | undefined> {
	const key = triggerScope(context);
	const previous = inFlight.get(key) ?? Promise.resolve(undefined);
	const next = previous
		.catch(() => undefined)
		.then(async () => await registerOnce(context, url, events, secret));
	inFlight.set(key, next);
	try {
		return await next;
	} finally {
		if (inFlight.get(key) === next) inFlight.delete(key);
	}
}
