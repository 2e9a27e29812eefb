/**
 * The parts the hand-made webhook and hook contexts of the unit tests share (the trigger's
 * deliveries and lifecycle, the Wait for Review callback): the credential's data, the node, a logger
 * that says nothing, a response that records what it was told, static data laid out as n8n keeps it,
 * and a service that accepts every webhook registration. Whole workflows run in n8n's real engine
 * instead (harness/index.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { NODE_TYPES } from './nodeTypes.ts';
import { STATIC_DATA_KEY } from '../../../nodes/DocumentExtraction/trigger/triggerMemory.ts';
import { secretFingerprint } from '../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';

/** The credential's data: API key 'k' and the given signing secret ('' = none). */
export const credentialData = (signingSecret: string) => ({
	baseUrl: 'https://api.example.com',
	apiKey: 'k',
	signingSecret,
	tier: 'pilot',
});

/** A logger that drops every message. */
export const silentLogger = () => ({
	info: () => undefined,
	warn: () => undefined,
	debug: () => undefined,
	error: () => undefined,
});

/** What a webhook answered through the response object. */
export interface RecordedAnswer<Body = IDataObject> {
	status?: number;
	body?: Body;
}

/** A response object as n8n hands it to webhook(): its status and JSON body land in `answer`. */
export function recordingResponse<Body = IDataObject>() {
	const answer: RecordedAnswer<Body> = {};
	const response = {
		status(code: number) {
			answer.status = code;
			return response;
		},
		json(body: Body) {
			answer.body = body;
			return response;
		},
	};
	return { answer, response };
}

/** The node getNode() returns: the trigger at [0, 0] with no parameters unless told otherwise. */
export const fakeNode = (node: {
	id: string;
	name: string;
	typeVersion: number;
	type?: string;
	parameters?: IDataObject;
	credentials?: IDataObject;
}) => ({ type: NODE_TYPES.trigger, position: [0, 0], parameters: {}, ...node });

/** getWorkflowStaticData over the layout n8n keeps: { global, 'node:<name>' }. */
export const staticDataByType =
	(staticData: Record<string, IDataObject>, nodeName: string) => (type: string) => {
		const key = type === 'global' ? 'global' : `node:${nodeName}`;
		staticData[key] ??= {};
		return staticData[key];
	};

/** The trigger's memory (global static data) holding one registration, of webhook 'wh_1'. */
export function heldRegistration(url: string, events: string[], secret: string): IDataObject {
	return {
		[STATIC_DATA_KEY]: {
			n1: {
				registrations: [
					{
						webhookId: 'wh_1',
						url,
						events,
						secretFingerprint: secretFingerprint(secret),
						registeredAt: '',
					},
				],
			},
		},
	};
}

/** The body of a webhook registration the node sends. */
export interface Registration {
	url: string;
	events: string[];
	secret: string;
}

/**
 * httpRequestWithAuthentication of a service that accepts every webhook registration: each body is
 * pushed to `registered`, and answered with the webhook id `webhookId()` gives.
 */
export const acceptingRegistrations =
	(registered: Registration[] | undefined, webhookId: () => string) =>
	async (_type: string, request: { body: Registration }) => {
		registered?.push(request.body);
		return {
			statusCode: 200,
			headers: {},
			body: { webhook_id: webhookId(), url: request.body.url, status: 'active' },
		};
	};
