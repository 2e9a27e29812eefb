import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, NODE_NAMES, WEBHOOK_EVENTS } from './constants.ts';
import { firstTimeEvents } from './delivery/ignoreDuplicates.ts';
import { DEFAULT_REPLAY_WINDOW_HOURS, secretFingerprint } from './delivery/signedDelivery.ts';
import { signingKeys, triggerOwnSecret } from './delivery/signingSecret.ts';
import { outputModeProperty } from './invoice/outputMode.description.ts';
import { refusals } from './refusals.ts';
import { receiveDelivery } from './trigger/receive.ts';
import { registerMissingEvents } from './trigger/registerEvents.ts';
import { missingEvents, normalizedEvents } from './trigger/registration.ts';
import { sendSampleEvent } from './trigger/sampleEvent.ts';
import { triggerMemory, triggerMode } from './trigger/triggerMemory.ts';
import type { DocumentsThatStart } from './trigger/documents.ts';
import {
	DOCUMENTS_PARAMETER,
	documentsThatStart,
	WORKFLOW_DOCUMENTS_PATH,
	WORKFLOW_DOCUMENTS_WEBHOOK,
} from './trigger/documents.ts';
import { documentsProperties } from './trigger/documents.description.ts';

export class DocumentExtractionTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction Trigger',
		name: NODE_NAMES.trigger,
		icon: { light: 'file:documentExtraction.svg', dark: 'file:documentExtraction.dark.svg' },
		group: ['trigger'],
		// 1.1: n8n reads the body of a version-1 start node only after evaluating an expression (the
		// Webhook node v1's binaryData option), which costs an expression isolate per delivery; from
		// 1.1 n8n parses JSON bodies itself, as for its own Webhook node. The node's behaviour is the same.
		// 1.2: Documents defaults to "Sent by This Workflow" (docs/spec-decisions.md#n40).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		// In words: the canvas cuts a subtitle at about 25 characters.
		subtitle:
			'={{ $parameter["events"].length > 1 ? "Verified or rejected" : ({ "document.verified": "Verified", "document.rejected": "Rejected" })[$parameter["events"][0]] ?? "No event" }}',
		description:
			'Starts the workflow when a human reviewer verifies or rejects an extracted document',
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
			{
				// This workflow's documents (docs/spec-decisions.md#n40): Extract in this workflow sends this
				// address as a document's webhook_url. Not registered with the service.
				name: WORKFLOW_DOCUMENTS_WEBHOOK,
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: WORKFLOW_DOCUMENTS_PATH,
				isFullPath: true,
				ndvHideUrl: true,
			},
		],
		properties: [
			{
				displayName:
					'The service delivers only to HTTPS, so n8n\'s webhook URL must start with https:// (set WEBHOOK_URL). The trigger registers once and keeps its registration through switching the workflow off and on, renaming and publishing (<a href="https://github.com/document-extraction/n8n-nodes-document-extraction/blob/main/docs/trigger.md" target="_blank">more</a>).',
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
			...documentsProperties,
			outputModeProperty,
			{
				// From 1.2 on the panel and on by default: the quickest way to see the output while building.
				displayName: 'Send Sample Event When Listening',
				name: 'sendSampleEvent',
				type: 'boolean',
				default: true,
				displayOptions: { show: { '@version': [{ _cnd: { gte: 1.2 } }] } },
				description:
					'Whether "Listen for test event" receives a clearly marked sample event (sample: true) right away, so you can build the workflow without waiting for a review. Never sent in production.',
			},
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
							"Whether to run an event only the first time it arrives for a document, whichever n8n process receives it (the service may deliver an event more than once). Remembered in n8n's database with this workflow's other memories (the last 100,000 events, files and invoices). A copy still makes an execution that stops at this node with no items.",
					},
					{
						displayName: 'Replay Window (Hours)',
						name: 'replayWindowHours',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 720 },
						default: DEFAULT_REPLAY_WINDOW_HOURS,
						description:
							'A delivery signed longer ago than this (or more than 5 minutes ahead of this clock) is refused: a copy of an old delivery starts nothing',
					},
					{
						displayName: 'Send Sample Event When Listening',
						name: 'sendSampleEvent',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '@version': [1, 1.1] } },
						description:
							'Whether "Listen for test event" receives a clearly marked sample event (sample: true, document_id doc_sample_…) right away, signed like a real delivery, so you can build the workflow without waiting for a review. Never sent or run in production.',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const target = await listeningTarget(this);
				if (target instanceof NodeOperationError) return false; // create() says what is missing
				// Sent by This Workflow receives at the workflow's address only: nothing to register
				// (docs/spec-decisions.md#n62).
				const exists =
					target.documents === 'thisWorkflow' ||
					missingEvents(
						triggerMemory(this).registrations,
						target.url,
						[target.secret, ...target.alsoVerified].filter(Boolean).map(secretFingerprint),
						target.events,
					).length === 0;
				if (exists) sendSampleIfAsked(this, target);
				return exists;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const target = await listeningTarget(this);
				if (target instanceof NodeOperationError) throw target;
				const { url, events, secret, alsoVerified } = target;
				if (target.documents === 'account')
					await registerMissingEvents(this, url, events, secret, alsoVerified);
				sendSampleIfAsked(this, target);
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				// n8n calls this on deactivation, on every publish of an active workflow and when a test
				// listener stops. The service cannot unregister (docs/spec-decisions.md#d18) and keeps
				// delivering, so the record of what it holds stays: the next activation reuses it
				// (docs/spec-decisions.md#n32).
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}

	/** The run's first step: an event already run starts nothing further (delivery/ignoreDuplicates.ts). */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [await firstTimeEvents(this)];
	}
}

/**
 * Where the trigger listens and with which secret: the registered address with the trigger's own
 * secret (docs/spec-decisions.md#n61), or, for Sent by This Workflow, the workflow's address with the
 * account's (D13); or the error that says what to set.
 */
async function listeningTarget(context: IHookFunctions): Promise<
	| NodeOperationError
	| {
			documents: DocumentsThatStart;
			url: string;
			events: string[];
			secret: string;
			/** Secrets the webhook also accepts, so their registrations count (the credential's). */
			alsoVerified: string[];
	  }
> {
	const refusal = refusals(context);
	const url = context.getNodeWebhookUrl('default') ?? '';
	if (!url.startsWith('https://')) {
		return refusal(
			`The service delivers only to HTTPS, but this workflow's webhook URL is "${url}"`,
			'Serve n8n over HTTPS or set the WEBHOOK_URL environment variable to a public HTTPS address of this n8n (for local tests, a tunnel such as ngrok or cloudflared), then activate again.',
		);
	}
	const events = normalizedEvents(context.getNodeParameter('events', []));
	if (events.length === 0) {
		return refusal(
			'Choose at least one event to listen for',
			`Events: ${WEBHOOK_EVENTS.join(', ')}.`,
		);
	}
	const keys = await signingKeys(context);
	const documents = documentsThatStart(
		context.getNodeParameter(DOCUMENTS_PARAMETER, ''),
		context.getNode().typeVersion,
	);
	if (documents === 'account')
		return {
			documents,
			url,
			events,
			secret: triggerOwnSecret(keys, url),
			alsoVerified: [keys.signingSecret],
		};
	if (!keys.signingSecret) {
		return refusal(
			'"Sent by This Workflow" needs the Webhook Signing Secret in the credential',
			'The service signs a document\'s own results with the account signing secret: paste it from the service\'s dashboard into the credential, or set Documents to "Every Document on the Account".',
		);
	}
	const ownAddress = context.getNodeWebhookUrl(WORKFLOW_DOCUMENTS_WEBHOOK) ?? '';
	return { documents, url: ownAddress, events, secret: keys.signingSecret, alsoVerified: [] };
}

/** In test listening only, with the option on: the sample event (docs/spec-decisions.md#n37). */
function sendSampleIfAsked(
	context: IHookFunctions,
	target: { url: string; events: string[]; secret: string },
): void {
	if (triggerMode(context) !== 'test' || !target.secret) return;
	const asked =
		context.getNode().typeVersion >= 1.2
			? context.getNodeParameter('sendSampleEvent', true) === true
			: (context.getNodeParameter('options', {}) as { sendSampleEvent?: boolean })
					.sendSampleEvent === true;
	if (!asked) return;
	const { url, events, secret } = target;
	const event = events.includes('document.verified') ? 'document.verified' : events[0];
	sendSampleEvent(context, url, event, secret);
}
