/**
 * A delivery to the trigger, step by step: verify it (delivery/signedDelivery.ts), refuse or answer
 * what starts nothing, follow a changed signing secret, ignore a duplicate, start the run.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { Refusal } from '../delivery/signedDelivery.ts';
import { answerWithoutRun, readSignedDelivery } from '../delivery/signedDelivery.ts';
import { eventOutput } from '../delivery/eventMapping.ts';
import { knownSecret, rememberKnownSecret } from '../delivery/knownSecrets.ts';
import { withRefusal } from '../delivery/refusals.ts';
import { DEFAULT_REPLAY_WINDOW_HOURS, freshness, windowMs } from '../delivery/freshness.ts';
import { acceptDelivery, deliveryKey } from '../delivery/ignoreDuplicates.ts';
import { secretFingerprint } from '../delivery/signature.ts';
import { signingKeys, triggerOwnSecret, triggerSigningSecret } from '../delivery/signingSecret.ts';
import type { OutputMode } from '../invoice/invoiceMapping.ts';
import { registerMissingEvents } from './registerEvents.ts';
import type { HeldRegistration } from './registration.ts';
import {
	deliveryOrigin,
	normalizedEvents,
	registeredFingerprints,
	registeredUrl,
} from './registration.ts';
import {
	DOCUMENTS_PARAMETER,
	documentsThatStart,
	WORKFLOW_DOCUMENTS_WEBHOOK,
} from './documents.ts';
import { processMemory } from '../memory/processMemory.ts';
import { isSample } from './sampleEvent.ts';
import type { TriggerMemory, TriggerMode } from './triggerMemory.ts';
import { saveTriggerMemory, triggerMemory, triggerMode, triggerScope } from './triggerMemory.ts';

interface TriggerOptions {
	ignoreDuplicates?: boolean;
	replayWindowHours?: number;
}

/** An answer that starts no run, with the reason the service (and the person reading its log) sees. */
function notStarted(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}

export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const mode = triggerMode(context);
	const memory = triggerMemory(context);
	const url = registeredUrl(memory.registrations) ?? '';
	const delivery = await readSignedDelivery(
		context,
		(keys) => triggerSigningSecret(keys, url),
		(keys) => earlierSecrets(memory.registrations, url, triggerOwnSecret(keys, url)),
	);
	if (delivery.refusal) return refuse(context, mode, memory, delivery.refusal);
	const options = context.getNodeParameter('options', {}) as TriggerOptions;
	const windowHours = options.replayWindowHours ?? DEFAULT_REPLAY_WINDOW_HOURS;
	const fresh = freshness(delivery.payload.timestamp, windowHours, memory.accepted?.forgottenUpTo);
	if (fresh.stale) return refuseStale(context, mode, memory, fresh.reason);
	rememberKnownSecret(delivery.secret);
	const { payload } = delivery;

	const events = normalizedEvents(context.getNodeParameter('events', []));
	if (typeof payload.event !== 'string' || !events.includes(payload.event))
		return notStarted('event not subscribed');
	const outputMode = context.getNodeParameter('outputMode', 'simplified') as OutputMode;
	if (isSample(payload)) {
		if (mode === 'production') return notStarted('sample event (test listening only)');
		const sample = eventOutput(outputMode, payload).map((item) => ({ ...item, sample: true }));
		return {
			webhookResponse: { received: true, started: true },
			workflowData: [context.helpers.returnJsonArray(sample)],
		};
	}

	let registered = { memory, changed: false };
	if (delivery.earlier) {
		const followed = await followSecretChange(
			context,
			mode,
			memory,
			url,
			events,
			delivery.secret,
			payload.event,
		);
		if (followed === 'replaced') return notStarted('sent through a replaced registration');
		registered = followed;
	}
	const notForThis = notForThisTrigger(context);
	if (notForThis) return notStarted(countedNotForThis(context, payload, notForThis));
	return startRun(context, registered, payload, outputMode, {
		ignoreDuplicates: options.ignoreDuplicates !== false,
		at: fresh.at ?? null,
		windowMs: windowMs(windowHours),
	});
}

/**
 * Why the Documents setting keeps this delivery from starting a run, if it does
 * (docs/spec-decisions.md#n40). A document's own delivery to a trigger that hears the whole account is
 * a copy of what the account's registration brings it, so only one of the two runs.
 */
function notForThisTrigger(context: IWebhookFunctions): string | undefined {
	const documents = documentsThatStart(
		context.getNodeParameter(DOCUMENTS_PARAMETER, ''),
		context.getNode().typeVersion,
	);
	const toThisWorkflow = context.getWebhookName() === WORKFLOW_DOCUMENTS_WEBHOOK;
	if (documents === 'thisWorkflow')
		return toThisWorkflow ? undefined : 'not addressed to this workflow';
	return toThisWorkflow ? "a copy of the account's delivery" : undefined;
}

/** Deliveries that started no run because of Documents, by trigger, counted in this process. */
const notForThisCounts = processMemory<number>({ maxEntries: 1000 });

/**
 * Logs a delivery that Documents keeps from starting a run, with how many so far, and returns the
 * reason for the answer (200, so the service does not retry it). Not counted in static data: n8n saves
 * each webhook call's whole copy of it, so a write here would race with the write of the delivery
 * that does run (docs/spec-decisions.md#n40).
 */
function countedNotForThis(
	context: IWebhookFunctions,
	payload: IDataObject,
	reason: string,
): string {
	const scope = triggerScope(context);
	const count = (notForThisCounts.get(scope) ?? 0) + 1;
	notForThisCounts.set(scope, count);
	context.logger.info(
		`Document Extraction Trigger: no run for ${String(payload.event)} of ${String(payload.document_id)}: ${reason} (${count} since n8n started)`,
	);
	return reason;
}

/** Answers 401 or 400 and counts the refusal where the workflow's owner sees it (production only). */
function refuse(
	context: IWebhookFunctions,
	mode: TriggerMode,
	memory: TriggerMemory,
	refusal: Refusal,
): IWebhookResponseData {
	context.logger.warn(
		refusal.status === 401
			? `Document Extraction Trigger: refused a delivery (signature ${refusal.reason})`
			: 'Document Extraction Trigger: refused a signed delivery whose body is not a JSON object',
	);
	if (mode === 'production') {
		saveTriggerMemory(context, {
			...memory,
			refused: withRefusal(memory.refused, refusalReason(refusal.reason)),
		});
	}
	return answerWithoutRun(context, refusal.status, refusal.body);
}

/**
 * A validly signed delivery whose signed time is outside the replay window (docs/spec-decisions.md#n41):
 * answered 400 (the service gives up after its retries; a replay starts nothing) and counted.
 */
function refuseStale(
	context: IWebhookFunctions,
	mode: TriggerMode,
	memory: TriggerMemory,
	reason: string,
): IWebhookResponseData {
	context.logger.warn(`Document Extraction Trigger: refused a signed delivery ${reason} (stale)`);
	if (mode === 'production') {
		saveTriggerMemory(context, {
			...memory,
			refused: withRefusal(memory.refused, `stale: ${reason} (answered 400)`),
		});
	}
	return answerWithoutRun(context, 400, {
		error: `Stale delivery: ${reason}; a copy of an old delivery starts nothing`,
	});
}

/**
 * Signed with a secret the credential no longer holds (docs/spec-decisions.md#n34): a copy through a
 * replaced registration is answered and dropped; a delivery the service sent before learning the new
 * secret runs, and in production the new secret is registered now.
 */
async function followSecretChange(
	context: IWebhookFunctions,
	mode: TriggerMode,
	memory: TriggerMemory,
	url: string,
	events: string[],
	secret: string,
	event: string,
): Promise<'replaced' | { memory: TriggerMemory; changed: boolean }> {
	const current = triggerSigningSecret(await signingKeys(context), url);
	const origin = deliveryOrigin(
		memory.registrations,
		url,
		secretFingerprint(secret),
		secretFingerprint(current),
		event,
	);
	if (origin === 'replaced') {
		context.logger.info(
			`Document Extraction Trigger: answered a copy of ${event} sent through a replaced registration`,
		);
		return 'replaced';
	}
	if (origin !== 'notYetReplaced' || mode !== 'production' || !url)
		return { memory, changed: false };
	try {
		await registerMissingEvents(context, url, events, current);
		return { memory: triggerMemory(context), changed: true };
	} catch (error) {
		context.logger.warn(
			`Document Extraction Trigger: could not register the credential's new signing secret yet (${(error as Error).message}); the next delivery tries again`,
		);
		return { memory, changed: false };
	}
}

/** Starts the run, unless Ignore Duplicates recognises the event. */
function startRun(
	context: IWebhookFunctions,
	registered: { memory: TriggerMemory; changed: boolean },
	payload: IDataObject,
	outputMode: OutputMode,
	accept: { ignoreDuplicates: boolean; at: number | null; windowMs: number },
): IWebhookResponseData {
	const workflowData = [context.helpers.returnJsonArray(eventOutput(outputMode, payload))];
	if (!accept.ignoreDuplicates && !registered.changed) {
		// No memory to save: n8n answers only once the run is queued, so a process dying before that
		// leaves the delivery unanswered and the service delivers it again (at least once).
		return { webhookResponse: { received: true, started: true }, workflowData };
	}

	const key = accept.ignoreDuplicates ? deliveryKey(payload.event, payload.document_id) : undefined;
	if (key) {
		// Test listening and production each have their own memory: neither takes the other's event
		// (docs/spec-decisions.md#n30).
		const scope = triggerScope(context);
		const accepted = acceptDelivery(
			registered.memory.accepted,
			key,
			accept.at,
			scope,
			accept.windowMs,
		);
		if (!accepted) {
			context.logger.info(`Document Extraction Trigger: ignored a duplicate ${key}`);
			return notStarted('duplicate');
		}
		saveTriggerMemory(context, { ...registered.memory, accepted });
	}

	// Answer here, before n8n queues the run. n8n saves the static data (the memory of accepted
	// deliveries above) when the webhook call is answered; a deferred "onReceived" answer comes only
	// after the run has started, and starting it clears n8n's "static data changed" flag, so the
	// memory would never be saved and a copy arriving after a restart would run again
	// (docs/spec-decisions.md#n6). The price: a process dying between this answer and the queuing
	// loses the event.
	context.getResponseObject().status(200).json({ received: true, started: true });
	return { noWebhookResponse: true, workflowData };
}

/**
 * The secrets the service may still sign deliveries to `url` with, other than the current one: those
 * of its registrations that this process has read, and the trigger's own (derived again, N5).
 */
function earlierSecrets(held: HeldRegistration[], url: string, ownSecret: string): string[] {
	const own = ownSecret ? secretFingerprint(ownSecret) : '';
	const secrets: string[] = [];
	for (const fingerprint of registeredFingerprints(held, url)) {
		const secret = fingerprint === own ? ownSecret : knownSecret(fingerprint);
		if (secret) secrets.push(secret);
	}
	return secrets;
}

function refusalReason(reason: string): string {
	return reason === 'not a JSON object'
		? 'signed, but the body is not a JSON object (answered 400)'
		: `signature ${reason} (answered 401)`;
}
