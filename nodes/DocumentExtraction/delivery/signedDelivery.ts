/**
 * The one receive path of the service's signed deliveries (trigger and Wait for Review): the raw
 * body is verified against the signing secret before it is parsed, so nothing unsigned is ever read.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { CREDENTIAL_TYPE, SIGNATURE_HEADER } from '../constants.ts';
import { parseJsonObject } from './jsonBody.ts';

import type { SignatureVerdict } from './signature.ts';
import { signatureHeader, verifySignature } from './signature.ts';
import type { SigningKeys } from './signingSecret.ts';
import { freshSigningKeys, rememberedKeys } from './signingSecret.ts';

export interface Refusal {
	status: 400 | 401;
	body: IDataObject;
	/** Why, for the log: the signature's verdict, or 'not a JSON object' for a signed but unreadable body. */
	reason: Exclude<SignatureVerdict, 'valid'> | 'not a JSON object';
}

export type SignedDelivery =
	| {
			payload: IDataObject;
			refusal?: undefined;
			/** The secret that verified it. */
			secret: string;
			/** True when only one of `earlierSecrets` verified it, not the credential's secret. */
			earlier: boolean;
	  }
	| { payload?: undefined; refusal: Refusal; secret?: undefined; earlier?: undefined };

function verdictFor(rawBody: Buffer, header: string | undefined, secret: string): SignatureVerdict {
	return secret ? verifySignature(rawBody, header, secret) : 'missing';
}

/**
 * A verified payload, or the refusal to answer with. `secretOf` picks the secret from the
 * credential's keys (by default its signing secret; the trigger's falls back to its own);
 * `earlierSecrets` are tried last (the trigger's: secrets the service may still sign with after the
 * credential's changed).
 */
export async function readSignedDelivery(
	context: IWebhookFunctions,
	secretOf: (keys: SigningKeys) => string = (keys) => keys.signingSecret,
	earlierSecrets: (keys: SigningKeys) => string[] = () => [],
): Promise<SignedDelivery> {
	const request = context.getRequestObject();
	if (request.rawBody === undefined) await request.readRawBody();
	const rawBody: Buffer = request.rawBody ?? Buffer.alloc(0);
	const header = signatureHeader(context.getHeaderData() as IDataObject, SIGNATURE_HEADER);

	const credentialId = context.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? undefined;
	let keys = credentialId ? rememberedKeys(credentialId) : undefined;
	let secret = keys === undefined ? '' : secretOf(keys);
	let verdict = keys === undefined ? undefined : verdictFor(rawBody, header, secret);
	if (keys === undefined || verdict !== 'valid') {
		keys = await freshSigningKeys(context, credentialId);
		secret = secretOf(keys);
		verdict = verdictFor(rawBody, header, secret);
	}
	let earlier = false;
	if (verdict !== 'valid') {
		for (const candidate of earlierSecrets(keys)) {
			if (
				candidate &&
				candidate !== secret &&
				verifySignature(rawBody, header, candidate) === 'valid'
			) {
				secret = candidate;
				verdict = 'valid';
				earlier = true;
				break;
			}
		}
	}
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
	return { payload, secret, earlier };
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
