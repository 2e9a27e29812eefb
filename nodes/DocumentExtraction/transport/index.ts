/**
 * The one way the nodes talk to the service: authentication through the credential (X-API-Key only),
 * error messages that say what to do, and retries that never duplicate a document.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../constants.ts';
import {
	adviceForStatus,
	connectionFailure,
	rateLimitWaitOver,
	serviceErrorText,
	waitTooLong,
} from './errors.ts';
import type { PacedStart, RequestPacer } from './pacer.ts';
import {
	MAX_RETRY_WAIT_MS,
	retryAfterMs,
	retryDelayMs,
	waitWithinDeadline,
} from './retryPolicy.ts';
import { jsonObject } from '../jsonObject.ts';
import { refusals } from '../refusals.ts';

export type ApiContext = IExecuteFunctions | IHookFunctions | IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	/** Built anew for every attempt: a streamed upload can be sent only once. */
	body?: () => Promise<IDataObject | FormData>;
	/** Words for messages: "... while trying to <operation>". */
	operation: string;
	itemIndex?: number;
	/**
	 * True when repeating the request cannot create anything twice (a status lookup). Requests that
	 * are not idempotent are retried only after a 429, which the service answers before doing anything.
	 */
	idempotent: boolean;
	/**
	 * How often a 5xx or a broken connection (idempotent requests only) is retried, and a 429 when
	 * there is no `rateLimitWaitMs`.
	 */
	retries: number;
	/**
	 * A 429 is retried until this long after the first attempt, not `retries` times: the service
	 * refused it before doing anything, so a run may wait (Extract's Rate Limit Wait,
	 * docs/spec-decisions.md#n69).
	 */
	rateLimitWaitMs?: number;
	timeoutMs?: number;
	/** Shared by the requests of one node run that go out in parallel (transport/pacer.ts). */
	pacer?: RequestPacer;
}

/** Sleeps, counted among the run's waiting requests meanwhile (for the error of a deadline). */
async function waitOut(request: ApiRequest, waitMs: number): Promise<void> {
	request.pacer?.waitStarted();
	try {
		await sleep(waitMs);
	} finally {
		request.pacer?.waitEnded();
	}
}

/**
 * Waits until the pacer lets a request start. A run held longer than the node waits (a 429 with a
 * long Retry-After) sends nothing more; nor does a request whose Rate Limit Wait would end first.
 */
async function pacedStart(
	context: ApiContext,
	request: ApiRequest,
	pacer: RequestPacer,
	deadline: number | undefined,
): Promise<PacedStart> {
	for (;;) {
		const start = pacer.tryStart();
		if ('sequence' in start) return start;
		if (start.waitMs > MAX_RETRY_WAIT_MS)
			throw waitTooLongError(context, request, 429, start.waitMs);
		if (
			deadline !== undefined &&
			waitWithinDeadline(start.waitMs, start.waitMs, Date.now(), deadline) === null
		)
			throw rateLimitWaitOverError(context, request);
		await waitOut(request, start.waitMs);
	}
}

/** The Rate Limit Wait ran out with the service still answering 429; the pacer knows who else waits. */
function rateLimitWaitOverError(context: ApiContext, request: ApiRequest): NodeApiError {
	// The request failing is not asleep: it is one of those waiting.
	const waiting = (request.pacer?.waitingRequests() ?? 0) + 1;
	return new NodeApiError(context.getNode(), { rate_limited: true } as JsonObject, {
		itemIndex: request.itemIndex,
		httpCode: '429',
		...rateLimitWaitOver(request.operation, request.rateLimitWaitMs ?? 0, waiting),
	});
}

function waitTooLongError(
	context: ApiContext,
	request: ApiRequest,
	statusCode: number,
	waitMs: number,
): NodeApiError {
	return new NodeApiError(context.getNode(), { retry_after_ms: waitMs } as JsonObject, {
		itemIndex: request.itemIndex,
		httpCode: String(statusCode),
		...waitTooLong(statusCode, request.operation, waitMs, MAX_RETRY_WAIT_MS),
	});
}

const TRANSIENT_STATUS = new Set([500, 502, 503, 504]);
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The credential, read once per node run and context: every read costs n8n a database query and a
 * decryption, and a month-end run made three per file (its tier, the address, then the API key).
 */
const credentialOfRun = new WeakMap<ApiContext, Promise<ICredentialDataDecryptedObject>>();

export async function runCredential(
	context: ApiContext,
	itemIndex?: number,
): Promise<ICredentialDataDecryptedObject> {
	let credential = credentialOfRun.get(context);
	if (!credential) {
		credential = context.getCredentials(CREDENTIAL_TYPE, itemIndex);
		credentialOfRun.set(context, credential);
		// A failed read is not kept: the next request reads again.
		credential.catch(() => credentialOfRun.delete(context));
	}
	return await credential;
}

/** localhost, 127.0.0.0/8 and [::1], as WHATWG URL parsing writes them (lowercase, IPv4 normalised). */
function isLoopback(hostname: string): boolean {
	return (
		hostname === 'localhost' ||
		hostname === '[::1]' ||
		/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
	);
}

/**
 * Why a request to `url` must not carry the API key, or null when it may: over https, or over plain
 * http only to this machine (the local sandbox), where it never crosses a network
 * (docs/spec-decisions.md#n64). The credential's authenticate asks the same.
 */
export function plainHttpProblem(url: URL): string | null {
	if (url.protocol !== 'http:' || isLoopback(url.hostname)) return null;
	return `The Base URL "${url.origin}" would send the API key unencrypted: use the service's https:// address (plain http is only for this machine: localhost, 127.0.0.1 or [::1], e.g. the local sandbox)`;
}

async function baseUrlOf(context: ApiContext, itemIndex?: number): Promise<string> {
	const credentials = await runCredential(context, itemIndex);
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	const refusal = refusals(context, itemIndex);
	let url: URL;
	try {
		url = new URL(raw);
		if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
	} catch {
		throw refusal(
			`The Base URL in the Document Extraction API credential ("${raw}") is not a valid http(s) address`,
			'Open the credential and enter the service address, e.g. https://api.example.com.',
		);
	}
	const problem = plainHttpProblem(url);
	if (problem) {
		throw refusal(
			problem,
			"Open the Document Extraction API credential and enter the service's https:// address.",
		);
	}
	return raw.replace(/\/+$/, '');
}

function transportErrorCode(error: unknown): string {
	const candidate = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
	const code = candidate?.code ?? candidate?.cause?.code;
	return typeof code === 'string' ? code : 'connection error';
}

/** One attempt: the full response, or the transport's error as it was thrown. */
async function send(
	context: ApiContext,
	request: ApiRequest,
	baseURL: string,
): Promise<IN8nHttpFullResponse> {
	const stored = context.getNode().credentials?.[CREDENTIAL_TYPE];
	const credentialsDecrypted = {
		id: stored?.id ?? '',
		name: stored?.name ?? '',
		type: CREDENTIAL_TYPE,
		data: await runCredential(context, request.itemIndex),
	};
	return (await context.helpers.httpRequestWithAuthentication.call(
		context,
		CREDENTIAL_TYPE,
		{
			method: request.method,
			baseURL,
			url: request.path,
			body: request.body ? await request.body() : undefined,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		},
		{ credentialsDecrypted },
	)) as IN8nHttpFullResponse;
}

/** The error for an answer that is not a success and is not retried. */
function statusError(
	context: ApiContext,
	request: ApiRequest,
	response: IN8nHttpFullResponse,
): NodeApiError {
	const serviceText = serviceErrorText(response.body);
	const errorBody =
		typeof response.body === 'object' && response.body !== null
			? (response.body as JsonObject)
			: ({ body: serviceText ?? '' } as JsonObject);
	return new NodeApiError(context.getNode(), errorBody, {
		itemIndex: request.itemIndex,
		httpCode: String(response.statusCode),
		message: adviceForStatus(response.statusCode, request.operation, request.idempotent),
		description: serviceText ? `The service said: ${serviceText}` : undefined,
	});
}

/** A success's body, which must be a JSON object. */
function successBody(
	context: ApiContext,
	request: ApiRequest,
	response: IN8nHttpFullResponse,
): IDataObject {
	const body = response.body;
	const object = jsonObject(body);
	if (object) return object;
	throw new NodeApiError(context.getNode(), { body: String(body).slice(0, 500) } as JsonObject, {
		itemIndex: request.itemIndex,
		httpCode: String(response.statusCode),
		message: `The service answered ${response.statusCode} with a body that is not a JSON object while trying to ${request.operation}`,
		description:
			'This is unexpected for this service; check that the Base URL points at the Document Extraction service.',
	});
}

/**
 * The wait before the next attempt after a retryable answer, or the error that ends the request: a
 * 429 within the Rate Limit Wait (`deadline`), anything else within `retries`.
 */
function nextWait(
	context: ApiContext,
	request: ApiRequest,
	response: IN8nHttpFullResponse,
	attempt: number,
	deadline: number | undefined,
): number {
	const { statusCode } = response;
	const retryAfter = response.headers?.['retry-after'];
	const askedMs = retryAfterMs(retryAfter);
	if (askedMs !== null && askedMs > MAX_RETRY_WAIT_MS) {
		// The rest of the run would only meet the same refusal.
		if (statusCode === 429) request.pacer?.hold(askedMs);
		throw waitTooLongError(context, request, statusCode, askedMs);
	}
	const waitMs = retryDelayMs(retryAfter, attempt, Math.random);
	if (statusCode !== 429 || deadline === undefined) {
		if (attempt > request.retries) throw statusError(context, request, response);
		return waitMs;
	}
	const withinDeadline = waitWithinDeadline(waitMs, askedMs, Date.now(), deadline);
	if (withinDeadline === null) throw rateLimitWaitOverError(context, request);
	return withinDeadline;
}

export async function apiRequest(context: ApiContext, request: ApiRequest): Promise<IDataObject> {
	const baseURL = await baseUrlOf(context, request.itemIndex);
	const { itemIndex } = request;
	// Set at the first attempt: waiting for the pacer before it is the run's pace, not a 429's wait.
	let deadline: number | undefined;

	for (let attempt = 1; ; attempt++) {
		let response: IN8nHttpFullResponse;
		const start = request.pacer
			? await pacedStart(context, request, request.pacer, deadline)
			: undefined;
		if (deadline === undefined && request.rateLimitWaitMs !== undefined)
			deadline = Date.now() + request.rateLimitWaitMs;
		try {
			response = await send(context, request, baseURL);
		} catch (error) {
			// A problem with the credential itself: already a clear node error.
			if (error instanceof NodeOperationError)
				throw new NodeOperationError(context.getNode(), error, { itemIndex });
			// No HTTP answer (status errors are returned, not thrown). Only a plain error code goes into
			// the message: the raw error carries the request's headers, and with them the API key.
			const code = transportErrorCode(error);
			if (request.idempotent && attempt <= request.retries) {
				const waitMs = retryDelayMs(undefined, attempt, Math.random);
				context.logger.warn(
					`Document Extraction: ${code} while trying to ${request.operation}; retry ${attempt} of ${request.retries} in ${waitMs} ms`,
				);
				await waitOut(request, waitMs);
				continue;
			}
			// Not `code`: n8n would read it as the HTTP code, and replace a message naming a network error
			// code with its generic "retry" advice, the opposite of what an upload needs.
			throw new NodeApiError(context.getNode(), { transport_error: code } as JsonObject, {
				itemIndex,
				...connectionFailure(code, request.operation, baseURL, request.idempotent),
			});
		}

		const { statusCode } = response;
		if (start) request.pacer!.observe(start, response.headers);
		if (statusCode >= 200 && statusCode < 300) return successBody(context, request, response);
		const retryable =
			statusCode === 429 || (request.idempotent && TRANSIENT_STATUS.has(statusCode));
		if (!retryable) throw statusError(context, request, response);
		const waitMs = nextWait(context, request, response, attempt, deadline);
		if (statusCode === 429) request.pacer?.hold(waitMs);
		const of = statusCode === 429 && deadline !== undefined ? '' : ` of ${request.retries}`;
		context.logger.info(
			`Document Extraction: HTTP ${statusCode} while trying to ${request.operation}; waiting ${Math.round(waitMs / 1000)} s before retry ${attempt}${of}`,
		);
		await waitOut(request, waitMs);
	}
}
