/**
 * The first steps every signed delivery of the service takes (trigger and Wait for Review): the raw
 * body is verified against the signing secret before it is parsed, so nothing unsigned is ever read,
 * and its signed time must be inside the replay window. A refused delivery costs no credential read
 * beyond the one this process remembers (delivery/signingSecret.ts) and writes nothing.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { CREDENTIAL_TYPE, SIGNATURE_HEADER } from '../constants.ts';
import { freshness } from './freshness.ts';
import { parseJsonObject } from './jsonBody.ts';
import type { SignatureVerdict } from './signature.ts';
import { signatureHeader, verifySignature } from './signature.ts';
import type { SigningKeys } from './signingSecret.ts';
import { signingKeysOf } from './signingSecret.ts';

export interface Refusal {
	status: 400 | 401;
	body: IDataObject;
	/**
	 * Why, for the log: the signature's verdict, 'not a JSON object' for a signed but unreadable body,
	 * or 'stale: …' for a body signed outside the replay window.
	 */
	reason: Exclude<SignatureVerdict, 'valid'> | 'not a JSON object' | `stale: ${string}`;
}

export type SignedDelivery =
	| { payload: IDataObject; refusal?: undefined }
	| { payload?: undefined; refusal: Refusal };

/** The verdict of the first secret that verifies the body, else that of the first secret. */
function verdictOf(
	rawBody: Buffer,
	header: string | undefined,
	secrets: string[],
): SignatureVerdict {
	const verdicts = secrets
		.filter((secret) => secret !== '')
		.map((secret) => verifySignature(rawBody, header, secret));
	return verdicts.find((verdict) => verdict === 'valid') ?? verdicts[0] ?? 'missing';
}

/**
 * The verified, fresh payload, or the refusal to answer with. `secretsOf` picks the secrets that may
 * sign it from the credential's keys (by default its signing secret: the account's, D13);
 * `windowHours` is the replay window (docs/spec-decisions.md#n41).
 */
export async function readSignedDelivery(
	context: IWebhookFunctions,
	secretsOf: (keys: SigningKeys) => string[] = (keys) => [keys.signingSecret],
	windowHours?: number,
): Promise<SignedDelivery> {
	const request = context.getRequestObject();
	if (request.rawBody === undefined) await request.readRawBody();
	const rawBody: Buffer = request.rawBody ?? Buffer.alloc(0);
	const header = signatureHeader(context.getHeaderData() as IDataObject, SIGNATURE_HEADER);
	const credentialId = context.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? undefined;
	const verdict = verdictOf(rawBody, header, secretsOf(await signingKeysOf(context, credentialId)));
	if (verdict !== 'valid') {
		return {
			refusal: {
				status: 401,
				body: { error: 'Invalid or missing X-Service-Signature' },
				reason: verdict,
			},
		};
	}
	const payload = parseJsonObject(rawBody);
	if (!payload) {
		return {
			refusal: {
				status: 400,
				body: { error: 'Body is not a JSON object' },
				reason: 'not a JSON object',
			},
		};
	}
	const fresh = freshness(payload.timestamp, windowHours);
	if (fresh.stale) {
		return {
			refusal: {
				status: 400,
				body: { error: `Stale delivery: ${fresh.reason}; a copy of an old delivery is not run` },
				reason: `stale: ${fresh.reason}`,
			},
		};
	}
	return { payload };
}

/** Answers the delivery with `status` and `body`, starting or resuming nothing. */
export function answerWithoutRun(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	context.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}
