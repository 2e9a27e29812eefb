import { randomBytes } from 'crypto';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { API_PATHS, CREDENTIAL_TYPE, WEBHOOK_EVENTS } from '../shared/constants.ts';
import { deliveryKey, rememberDelivery } from '../shared/deliveryDedupe.ts';
import { eventOutput } from '../shared/eventMapping.ts';
import type { OutputMode } from '../shared/invoiceMapping.ts';
import { NODE_NAMES } from '../shared/nodeTypes.ts';
import { outputModeProperty } from '../shared/outputMode.description.ts';
import { answerWithoutRun, readSignedDelivery } from '../shared/signedDelivery.ts';
import { credentialSigningSecret } from '../shared/signingSecret.ts';
import { apiRequest } from './transport/index.ts';
import { acceptOnce } from './trigger/recentDeliveries.ts';
import type { RegistrationRecord } from './trigger/registration.ts';
import { normalizedEvents, registrationMatches, secretFingerprint } from './trigger/registration.ts';

interface TriggerStaticData extends IDataObject {
	registration?: RegistrationRecord & IDataObject;
	seenDeliveries?: string[];
}

function staticDataOf(context: IHookFunctions | IWebhookFunctions): TriggerStaticData {
	return context.getWorkflowStaticData('node') as TriggerStaticData;
}

export class DocumentExtractionTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction Trigger',
		name: NODE_NAMES.trigger,
		icon: { light: 'file:documentExtraction.svg', dark: 'file:documentExtraction.dark.svg' },
		group: ['trigger'],
		// 1.1: n8n reads the body of a version-1 start node only after evaluating an expression (the
		// Webhook node v1's binaryData option), which costs an expression isolate per delivery; from
		// 1.1 n8n parses JSON bodies itself, as for its own Webhook node. The node's behaviour is the same.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{ $parameter["events"].join(", ") }}',
		description: 'Starts the workflow when a human reviewer verifies or rejects an extracted document',
		defaults: { name: 'Document Extraction Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty: when n8n answers after queuing the run, it then sends the webhookResponse returned
				// by webhook() (unset, n8n falls back to "firstEntryJson" and sends that word as the body).
				responseData: '',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'The service delivers only to HTTPS: n8n\'s webhook URL must start with https:// (set WEBHOOK_URL, use a public HTTPS address, or a tunnel for local tests). Activating registers this URL with the service; deactivating cannot remove that registration (the service has no unregister), so later deliveries to an inactive workflow are answered 404 and dropped after the service\'s retries. For "Listen for test event", a review must finish while n8n is listening (about 2 minutes).',
				name: 'httpsNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{
						name: 'Document Rejected',
						value: 'document.rejected',
						description: 'A human reviewer rejected the extraction because of a data quality issue',
					},
					{
						name: 'Document Verified',
						value: 'document.verified',
						description: 'A human reviewer approved the extraction (possibly with corrections)',
					},
				],
				default: ['document.verified', 'document.rejected'],
				description: 'Which review outcomes start the workflow',
			},
			outputModeProperty,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Ignore Duplicates',
						name: 'ignoreDuplicates',
						type: 'boolean',
						default: true,
						description:
							'Whether to start no execution for an event already received for the same document (the service may deliver an event more than once). The last 1000 events are remembered. On: the delivery is answered before n8n has queued the run (the memory needs it), so an n8n process dying in between loses the event. Off: n8n answers only after queuing the run (at least once; copies run). In queue mode, turn it off and put Check Invoice Duplicate after the trigger.',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const events = normalizedEvents(this.getNodeParameter('events', []));
				const secret = await credentialSigningSecret(this);
				const record = staticDataOf(this).registration;
				return registrationMatches(record, this.getNodeWebhookUrl('default'), events, secret);
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const url = this.getNodeWebhookUrl('default') ?? '';
				if (!url.startsWith('https://')) {
					throw new NodeOperationError(
						this.getNode(),
						`The service delivers only to HTTPS, but this workflow's webhook URL is "${url}"`,
						{
							description:
								'Serve n8n over HTTPS or set the WEBHOOK_URL environment variable to a public HTTPS address of this n8n (for local tests, a tunnel such as ngrok or cloudflared), then activate again.',
						},
					);
				}
				const events = normalizedEvents(this.getNodeParameter('events', []));
				if (events.length === 0) {
					throw new NodeOperationError(this.getNode(), 'Choose at least one event to listen for', {
						description: `Events: ${WEBHOOK_EVENTS.join(', ')}.`,
					});
				}
				const configuredSecret = await credentialSigningSecret(this);
				const secret = configuredSecret || randomBytes(32).toString('hex');

				const response = await apiRequest.call(this, {
					method: 'POST',
					path: API_PATHS.registerWebhook,
					body: async () => ({ url, events, secret }),
					operation: 'register the trigger\'s webhook',
					idempotent: false,
					retries: 3,
				});

				const record: RegistrationRecord = {
					webhookId: typeof response.webhook_id === 'string' ? response.webhook_id : null,
					url,
					events,
					registeredAt: new Date().toISOString(),
					...(configuredSecret
						? { credentialSecretFingerprint: secretFingerprint(configuredSecret) }
						: { generatedSecret: secret }),
				};
				staticDataOf(this).registration = record as RegistrationRecord & IDataObject;
				this.logger.info(
					`Document Extraction Trigger: registered ${url} for ${events.join(', ')} as ${record.webhookId ?? 'an unnamed webhook'}`,
				);
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				// The spec has no unregister operation (docs/spec-decisions.md#d18): forget the registration locally. The memory of
				// received events stays, so events of the old registration are not run twice.
				delete staticDataOf(this).registration;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const staticData = staticDataOf(this);
		const { payload, refusal } = await readSignedDelivery.call(this, staticData.registration?.generatedSecret);
		if (refusal) {
			this.logger.warn(
				refusal.status === 401
					? `Document Extraction Trigger: refused a delivery (signature ${refusal.reason})`
					: 'Document Extraction Trigger: refused a signed delivery whose body is not a JSON object',
			);
			return answerWithoutRun.call(this, refusal.status, refusal.body);
		}

		const events = normalizedEvents(this.getNodeParameter('events', []));
		if (typeof payload.event !== 'string' || !events.includes(payload.event)) {
			return { webhookResponse: { received: true, started: false, reason: 'event not subscribed' } };
		}

		const options = this.getNodeParameter('options', {}) as { ignoreDuplicates?: boolean };
		const outputMode = this.getNodeParameter('outputMode', 'simplified') as OutputMode;
		const workflowData = [this.helpers.returnJsonArray(eventOutput(outputMode, payload))];
		if (options.ignoreDuplicates === false) {
			// No memory to save: n8n answers only once the run is queued, so a process dying before that
			// leaves the delivery unanswered and the service delivers it again (at least once).
			return { webhookResponse: { received: true, started: true }, workflowData };
		}

		const key = deliveryKey(payload.event, payload.document_id);
		if (key) {
			const scopedKey = `${this.getWorkflow().id ?? ''}:${this.getNode().id}:${key}`;
			staticData.seenDeliveries ??= [];
			const isNew = rememberDelivery(staticData.seenDeliveries, key);
			if (!acceptOnce(scopedKey) || !isNew) {
				this.logger.info(`Document Extraction Trigger: ignored a duplicate ${key}`);
				return { webhookResponse: { received: true, started: false, reason: 'duplicate' } };
			}
		}

		// Answer here, before n8n queues the run. n8n saves the static data (the memory of accepted
		// deliveries above) when the webhook call is answered; a deferred "onReceived" answer comes only
		// after the run has started, and starting it clears n8n's "static data changed" flag, so the
		// memory would never be saved and a copy arriving after a restart would run again (docs/spec-decisions.md#n6). The
		// price: a process dying between this answer and the queuing loses the event.
		this.getResponseObject().status(200).json({ received: true, started: true });
		return { noWebhookResponse: true, workflowData };
	}
}
