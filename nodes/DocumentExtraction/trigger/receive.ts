/**
 * A delivery to the trigger, top-down (docs/spec-decisions.md#n63): addressed to this trigger, signed
 * and fresh, subscribed, run. Each step is one call; a delivery that starts no run is answered, logged
 * and counted in this process, and writes nothing (docs/memory.md). Whether the event ran before is
 * decided by the run itself, in the trigger's execution step (delivery/ignoreDuplicates.ts), so n8n
 * answers a delivery that starts a run only once it has queued it: a process dying before that
 * leaves the delivery unanswered, and the service delivers it again.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { eventOutput, isSample } from '../delivery/eventMapping.ts';
import { answerWithoutRun, readSignedDelivery } from '../delivery/signedDelivery.ts';
import { addressSecrets } from '../delivery/signingSecret.ts';
import type { OutputMode } from '../invoice/invoiceMapping.ts';
import { RecentMemory } from '../memory/recentMemory.ts';
import {
	DOCUMENTS_PARAMETER,
	documentsThatStart,
	notAddressedReason,
	WORKFLOW_DOCUMENTS_WEBHOOK,
} from './documents.ts';
import { registeredUrl } from './registration.ts';
import { triggerMemory, triggerMode, triggerScope } from './triggerMemory.ts';

export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	// 1. Addressed to this trigger: by the address alone, before any credential read.
	const documents = documentsThatStart(
		context.getNodeParameter(DOCUMENTS_PARAMETER, ''),
		context.getNode().typeVersion,
	);
	const notAddressed = notAddressedReason(documents, context.getWebhookName());
	if (notAddressed) return startsNothing(context, notAddressed);

	// 2. The secrets of this address, from the credential as this process remembers it.
	const secrets = await addressSecrets(context, registeredAddress(context));

	// 3. Signed with one of them, and fresh.
	const options = context.getNodeParameter('options', {}) as { replayWindowHours?: number };
	const delivery = await readSignedDelivery(context, secrets, options.replayWindowHours);
	if (delivery.refusal)
		return startsNothing(context, refusalReason(delivery.refusal.reason), delivery.refusal);
	const { payload, previousUntil } = delivery;
	if (previousUntil !== undefined)
		context.logger.warn(
			`Document Extraction Trigger: accepted a delivery signed with a previous secret of the credential (accepted until ${new Date(previousUntil).toISOString()}); after a new API key, publish the workflow again before then, so that the service signs with the new one`,
		);

	// 4. Subscribed; a sample event only while listening for a test event (N37).
	const events = context.getNodeParameter('events', []) as unknown;
	if (!Array.isArray(events) || !events.includes(payload.event))
		return startsNothing(context, 'event not subscribed');
	const sample = isSample(payload);
	if (sample && triggerMode(context) === 'production')
		return startsNothing(context, 'sample event (test listening only)');

	// 5. Run: n8n queues it, then answers. Whether this event ran before is the run's first step.
	const outputMode = context.getNodeParameter('outputMode', 'simplified') as OutputMode;
	const items = eventOutput(outputMode, payload).map((item) =>
		sample ? { ...item, sample: true } : item,
	);
	return {
		webhookResponse: { received: true, started: true },
		workflowData: [context.helpers.returnJsonArray(items)],
	};
}

/**
 * The address the service signs with the trigger's own secret (docs/spec-decisions.md#n61): its
 * registered URL, in production n8n's webhook URL, in test listening the test URL this process
 * registered; none at the workflow's address, which the account's secret signs (D13).
 */
function registeredAddress(context: IWebhookFunctions): string | undefined {
	if (context.getWebhookName() === WORKFLOW_DOCUMENTS_WEBHOOK) return undefined;
	const url =
		triggerMode(context) === 'test'
			? registeredUrl(triggerMemory(context).registrations)
			: context.getNodeWebhookUrl('default');
	return url ?? '';
}

/** Deliveries that started no run, by trigger (mode, workflow, node), counted in this process. */
const notStartedCounts = new RecentMemory<number>({ maxEntries: 1000 });

/**
 * Answers a delivery that starts no run (with `refusal`'s status and body, else a 200 saying why),
 * logged with how many this trigger answered so in this process. Nothing is written: what a stranger
 * sends costs no database write.
 */
function startsNothing(
	context: IWebhookFunctions,
	reason: string,
	refusal?: { status: number; body: IDataObject },
): IWebhookResponseData {
	const scope = triggerScope(context);
	const count = (notStartedCounts.get(scope) ?? 0) + 1;
	notStartedCounts.set(scope, count);
	const message = `Document Extraction Trigger: ${refusal ? 'refused' : 'answered'} a delivery without a run (${reason}; ${count} since n8n started)`;
	if (refusal) {
		context.logger.warn(message);
		return answerWithoutRun(context, refusal.status, refusal.body);
	}
	context.logger.info(message);
	return answerWithoutRun(context, 200, { received: true, started: false, reason });
}

/** The refusal as the log says it: the verdict only, never a secret or what the delivery carried. */
function refusalReason(reason: string): string {
	return ['missing', 'malformed', 'mismatch'].includes(reason) ? `signature ${reason}` : reason;
}
