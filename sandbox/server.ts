/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/require-node-api-error -- a server outside n8n: plain errors */
/**
 * The sandbox: the Document Extraction service of `../shared/spec/document-extraction-api.md` on
 * loopback, with every "not shown" point decided as in docs/spec-decisions.md, plus a control API
 * under /__sandbox/ (not part of the service) for tests and demos.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	AUTO_VERIFY_THRESHOLD,
	DEMO_ACCOUNTS,
	DEMO_SIGNING_SECRET,
	resolveSettings,
	TIERS,
	type ResolvedSettings,
	type SandboxOptions,
	type Tier,
} from './config.ts';
import { Deliverer, type DeliveryAttempt, type DeliveryTarget } from './deliveries.ts';
import { applyCorrections, documentKind, extract, type ExtractedData } from './extraction.ts';
import { BodyTooLargeError, humanDuration, isHttpsUrl, readSmallBody, sendError, sendJson } from './http.ts';
import { newId } from './ids.ts';
import { makeLogger } from './log.ts';
import { boundaryOf, MalformedMultipartError, readMultipart, UploadLimitError } from './multipart.ts';
import { Store, type DocumentRecord, type DocumentState, type StoreSnapshot } from './store.ts';

export type { SandboxOptions } from './config.ts';

export const EVENTS = ['document.verified', 'document.rejected'] as const;

/** JSON and CSV are parsed only up to this size; larger ones are read as opaque files. */
const KEEP_CONTENT_BYTES = 8 * 1024 * 1024;

interface Account {
	id: string;
	tier: Tier;
	signingSecret: string;
}

type FaultMode = '500' | '503' | 'slow' | 'reset' | 'malformed';

interface Fault {
	mode: FaultMode;
	remaining: number;
	delayMs: number;
	paths?: string[];
}

export interface SandboxStateSnapshot extends StoreSnapshot {
	counts: { extractRequests: number; statusRequests: number; registerRequests: number; rateLimited: number };
	settings: ResolvedSettings;
}

export interface RunningSandbox {
	/** e.g. http://127.0.0.1:4010 (no trailing slash). */
	url: string;
	port: number;
	accounts: Array<{ apiKey: string; tier: Tier; signingSecret: string }>;
	state(): SandboxStateSnapshot;
	deliveries(): DeliveryAttempt[];
	close(): Promise<void>;
}

/** decodeURIComponent, or undefined for a malformed escape (then nothing matches: 404, not 500). */
function decodePathSegment(segment: string): string | undefined {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}

function fingerprint(apiKey: string): string {
	return createHash('sha256').update(apiKey).digest('hex').slice(0, 8);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const settings = resolveSettings(options);
	const log = makeLogger(options.log ?? false);
	const defaultSecret = options.signingSecret ?? DEMO_SIGNING_SECRET;
	const accountConfigs = options.accounts ?? DEMO_ACCOUNTS;
	const accounts = new Map<string, Account>();
	for (const config of accountConfigs) {
		accounts.set(config.apiKey, { id: `acct_${config.tier}_${fingerprint(config.apiKey)}`, tier: config.tier, signingSecret: config.signingSecret ?? defaultSecret });
	}
	const accountsById = new Map([...accounts.values()].map((account) => [account.id, account]));

	const store = new Store(options.stateFile);
	const deliverer = new Deliverer(() => settings, log, options.trustCa);
	const timers = new Map<string, NodeJS.Timeout>();
	const windows = new Map<string, { startedAt: number; count: number }>();
	const counts = { extractRequests: 0, statusRequests: 0, registerRequests: 0, rateLimited: 0 };
	const control: { nextConfidence: number[]; nextStatus: Array<'processing'>; faults: Fault[]; nextExtraction: ExtractedData[] } = { nextConfidence: [], nextStatus: [], faults: [], nextExtraction: [] };

	// ---- document lifecycle -------------------------------------------------------------------

	const schedule = (document: DocumentRecord, delayMs: number, step: () => void) => {
		clearTimeout(timers.get(document.id));
		document.dueAt = new Date(Date.now() + delayMs).toISOString();
		timers.set(document.id, setTimeout(() => {
			timers.delete(document.id);
			step();
		}, delayMs));
	};

	const targetsFor = (document: DocumentRecord, event: string): DeliveryTarget[] => {
		const targets: DeliveryTarget[] = [];
		for (const webhook of store.webhooks.values()) {
			if (webhook.accountId === document.accountId && webhook.events.includes(event)) targets.push({ url: webhook.url, secret: webhook.secret, webhookId: webhook.id });
		}
		// D13: the document's own webhook_url, signed with the account secret, once per URL.
		if (document.webhookUrl && !targets.some((target) => target.url === document.webhookUrl)) {
			targets.push({ url: document.webhookUrl, secret: accountsById.get(document.accountId)?.signingSecret ?? defaultSecret });
		}
		return targets;
	};

	const sendToReview = (document: DocumentRecord) => {
		document.state = 'needs_review';
		document.reviewId ??= newId('rev');
		schedule(document, settings.reviewDelayMs, () => approve(document, undefined));
	};

	/** D2/D6: strictly above 0.95 is verified by the AI; otherwise a person reviews it. */
	const decide = (document: DocumentRecord) => {
		if (document.confidence > AUTO_VERIFY_THRESHOLD) {
			document.state = 'verified';
			document.verifiedBy = 'ai_auto';
			document.finalConfidence = document.confidence;
			document.dueAt = undefined;
		} else {
			sendToReview(document);
		}
	};

	const finishProcessing = (document: DocumentRecord) => {
		if (document.state !== 'processing') return;
		if (!document.data) {
			document.state = 'failed';
			document.failureReason = 'unreadable_file';
			document.dueAt = undefined;
		} else {
			decide(document);
			// decide() changed the state; the cast stops TypeScript narrowing it to 'processing' still.
			if ((document.state as DocumentState) === 'verified' && document.webhookUrl) {
				// D6: the verified result of a processed document goes to its own webhook_url only, signed
				// per D13 (with the registration's secret when that URL is registered for the event).
				const ownUrl = targetsFor(document, 'document.verified').filter((target) => target.url === document.webhookUrl);
				deliverer.deliver('document.verified', document.id, verifiedPayload(document), ownUrl);
			}
		}
		store.save();
		log({ kind: 'transition', document_id: document.id, to: document.state });
	};

	const verifiedPayload = (document: DocumentRecord) => ({
		event: 'document.verified',
		timestamp: new Date().toISOString(),
		document_id: document.id,
		...(document.reviewId ? { review_id: document.reviewId } : {}),
		verified_by: document.verifiedBy,
		corrections_made: document.correctionsMade ?? false,
		data: document.data,
		confidence: { original: document.confidence, final: document.finalConfidence ?? document.confidence },
	});

	const approve = (document: DocumentRecord, corrections: unknown): boolean => {
		if (document.state !== 'needs_review' || !document.data) return false;
		clearTimeout(timers.get(document.id));
		timers.delete(document.id);
		const corrected = typeof corrections === 'object' && corrections !== null && Object.keys(corrections).length > 0;
		document.data = corrected ? applyCorrections(document.data, corrections) : document.data;
		document.state = 'verified';
		document.verifiedBy = 'human_reviewer';
		document.correctionsMade = corrected;
		document.finalConfidence = corrected ? 1 : 0.99;
		document.dueAt = undefined;
		store.save();
		log({ kind: 'transition', document_id: document.id, to: 'verified', by: 'human_reviewer' });
		deliverer.deliver('document.verified', document.id, verifiedPayload(document), targetsFor(document, 'document.verified'));
		return true;
	};

	const reject = (document: DocumentRecord, reason: string): boolean => {
		if (document.state !== 'needs_review') return false;
		clearTimeout(timers.get(document.id));
		timers.delete(document.id);
		document.state = 'rejected';
		document.failureReason = 'rejected_by_reviewer';
		document.rejectionReason = reason;
		document.dueAt = undefined;
		store.save();
		log({ kind: 'transition', document_id: document.id, to: 'rejected' });
		// D8
		const payload = {
			event: 'document.rejected',
			timestamp: new Date().toISOString(),
			document_id: document.id,
			review_id: document.reviewId,
			rejected_by: 'human_reviewer',
			reason,
			confidence: { original: document.confidence },
		};
		deliverer.deliver('document.rejected', document.id, payload, targetsFor(document, 'document.rejected'));
		return true;
	};

	// Documents kept from an earlier run pick up their pending step.
	for (const document of store.documents.values()) {
		if (!document.dueAt) continue;
		const left = Math.max(0, Date.parse(document.dueAt) - Date.now());
		if (document.state === 'processing') schedule(document, left, () => finishProcessing(document));
		if (document.state === 'needs_review') schedule(document, left, () => approve(document, undefined));
	}

	// ---- service endpoints -------------------------------------------------------------------

	/** Fixed window per key; returns the rate-limit headers, or undefined when over the limit. */
	const countRequest = (account: Account): { headers: Record<string, string | number>; limited: boolean; retryAfter: number } => {
		const limit = TIERS[account.tier].requestsPerMinute;
		if (limit === null) return { headers: {}, limited: false, retryAfter: 0 };
		const now = Date.now();
		let window = windows.get(account.id);
		if (!window || now - window.startedAt >= settings.minuteMs) {
			window = { startedAt: now, count: 0 };
			windows.set(account.id, window);
		}
		const resetSeconds = Math.max(1, Math.ceil((window.startedAt + settings.minuteMs - now) / 1000));
		const limited = window.count >= limit;
		if (!limited) window.count++;
		return {
			headers: { 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': Math.max(0, limit - window.count), 'x-ratelimit-reset': resetSeconds },
			limited,
			retryAfter: resetSeconds,
		};
	};

	const handleExtract = async (request: IncomingMessage, response: ServerResponse, account: Account, headers: Record<string, string | number>) => {
		counts.extractRequests++;
		const boundary = boundaryOf(request.headers['content-type']);
		if (!boundary) return sendError(response, 400, 'invalid_body', 'Send the document as multipart/form-data with the file in the field "file".', headers);
		const maxFileBytes = TIERS[account.tier].maxFileBytes;
		let form;
		try {
			form = await readMultipart(request, boundary, { maxFileBytes, keepContentBytes: KEEP_CONTENT_BYTES });
		} catch (error) {
			if (error instanceof UploadLimitError) {
				// Answer before the rest of the upload arrives (it stays unread) and close the connection a
				// moment later. Ending the answer at once would make Node close a socket with unread data,
				// and the reset could reach a client that is still sending before it read the 413.
				const text = JSON.stringify({ success: false, error: { code: 'file_too_large', message: `The file exceeds the ${maxFileBytes / 1048576} MB limit of the ${account.tier} tier.` } });
				response.writeHead(413, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers, connection: 'close' });
				response.write(text);
				setTimeout(() => response.end(), 1000).unref();
				return;
			}
			if (error instanceof MalformedMultipartError) return sendError(response, 400, 'invalid_body', `The multipart body is malformed: ${error.message}.`, headers);
			throw error;
		}
		const files = form.files.filter((file) => file.fieldName === 'file');
		if (files.length !== 1) return sendError(response, 400, 'missing_file', files.length === 0 ? 'The field "file" with the document is missing.' : 'Send exactly one file in the field "file".', headers);
		const [file] = files;
		const webhookUrl = form.fields.webhook_url?.trim() || undefined;
		if (webhookUrl !== undefined && !isHttpsUrl(webhookUrl)) return sendError(response, 400, 'invalid_webhook_url', 'webhook_url must be an absolute https:// URL.', headers);
		const kind = documentKind(file.fileName, file.contentType);
		if (!kind) return sendError(response, 400, 'unsupported_type', 'Supported types: PDF, JPG, PNG, JSON, CSV.', headers);
		if (file.size === 0) return sendError(response, 400, 'empty_file', 'The file is empty.', headers);

		const result = extract(kind, file);
		const document: DocumentRecord = {
			id: newId('doc'),
			accountId: account.id,
			state: 'processing',
			confidence: control.nextConfidence.shift() ?? result.requestedConfidence ?? result.hashConfidence,
			// A queued extraction lets two different files (a PDF and a scan) carry the same invoice.
			data: control.nextExtraction.shift() ?? result.data,
			webhookUrl,
			fileName: file.fileName,
			kind,
			size: file.size,
			sha256: file.sha256,
			createdAt: new Date().toISOString(),
		};
		store.documents.set(document.id, document);
		const forcedProcessing = control.nextStatus.shift() === 'processing';
		if (forcedProcessing || !document.data || file.size > settings.processingThresholdBytes) {
			schedule(document, settings.processingDelayMs, () => finishProcessing(document));
		} else {
			decide(document);
		}
		store.save();
		log({ kind: 'document', document_id: document.id, account: account.id, file_kind: kind, size: file.size, state: document.state, confidence: document.confidence });

		if (document.state === 'verified') {
			return sendJson(response, 200, { success: true, status: 'verified', confidence: document.confidence, document_id: document.id, extracted_json: document.data, verified_by: 'ai_auto' }, headers);
		}
		if (document.state === 'needs_review') {
			return sendJson(response, 200, { success: true, status: 'needs_review', confidence: document.confidence, document_id: document.id, review_id: document.reviewId }, headers);
		}
		return sendJson(response, 200, { success: true, status: 'processing', document_id: document.id }, headers);
	};

	const handleStatus = (response: ServerResponse, account: Account, documentId: string | undefined, headers: Record<string, string | number>) => {
		counts.statusRequests++;
		const document = documentId === undefined ? undefined : store.documents.get(documentId);
		if (!document || document.accountId !== account.id) return sendError(response, 404, 'not_found', `No document "${(documentId ?? '').slice(0, 80)}" for this API key.`, headers);
		const pending = document.state === 'processing' || document.state === 'needs_review';
		sendJson(response, 200, {
			document_id: document.id,
			status: document.state === 'rejected' ? 'failed' : document.state,
			confidence: document.finalConfidence ?? document.confidence,
			...(document.reviewId ? { review_id: document.reviewId } : {}),
			estimated_time: pending && document.dueAt ? humanDuration(Date.parse(document.dueAt) - Date.now()) : '0 seconds',
			created_at: document.createdAt,
			...(document.failureReason ? { failure_reason: document.failureReason } : {}),
			...(document.rejectionReason ? { rejection_reason: document.rejectionReason } : {}),
		}, headers);
	};

	const handleRegister = async (request: IncomingMessage, response: ServerResponse, account: Account, headers: Record<string, string | number>) => {
		counts.registerRequests++;
		if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return sendError(response, 400, 'invalid_body', 'Send a JSON body with Content-Type: application/json.', headers);
		let body: unknown;
		try {
			body = JSON.parse((await readSmallBody(request)).toString('utf8'));
		} catch (error) {
			if (error instanceof BodyTooLargeError) return sendError(response, 400, 'invalid_body', 'The body is too large.', headers);
			return sendError(response, 400, 'invalid_json', 'The body is not valid JSON.', headers);
		}
		const { url, events, secret } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
		if (!isHttpsUrl(url)) return sendError(response, 400, 'invalid_url', 'url must be an absolute https:// URL (deliveries go to HTTPS only).', headers);
		if (!Array.isArray(events) || events.length === 0 || !events.every((event) => (EVENTS as readonly unknown[]).includes(event))) {
			return sendError(response, 400, 'invalid_events', `events must be a non-empty list of: ${EVENTS.join(', ')}.`, headers);
		}
		if (typeof secret !== 'string' || secret === '' || secret.length > 1024) return sendError(response, 400, 'invalid_secret', 'secret must be a non-empty string.', headers);
		const webhook = { id: newId('wh'), accountId: account.id, url, events: [...new Set(events as string[])], secret, status: 'active' as const, createdAt: new Date().toISOString() };
		store.webhooks.set(webhook.id, webhook);
		store.save();
		log({ kind: 'webhook', webhook_id: webhook.id, account: account.id, url, events: webhook.events });
		sendJson(response, 200, { webhook_id: webhook.id, url: webhook.url, status: webhook.status }, headers);
	};

	// ---- faults -------------------------------------------------------------------------------

	/** Applies the next injected fault; true when the request was answered (or dropped) by it. */
	const applyFault = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> => {
		const fault = control.faults.find((candidate) => candidate.remaining > 0 && (!candidate.paths || candidate.paths.some((prefix) => path.startsWith(prefix))));
		if (!fault) return false;
		fault.remaining--;
		control.faults = control.faults.filter((candidate) => candidate.remaining > 0);
		log({ kind: 'fault', mode: fault.mode, path });
		switch (fault.mode) {
			case 'reset':
				request.socket.destroy();
				return true;
			case '500':
				request.resume();
				sendError(response, 500, 'internal_error', 'Injected server error.');
				return true;
			case '503':
				request.resume();
				sendError(response, 503, 'unavailable', 'Injected unavailability.', { 'retry-after': 1 });
				return true;
			case 'malformed':
				request.resume();
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end('{"success": true, "status": "verif');
				return true;
			case 'slow':
				await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
				return false;
		}
	};

	// ---- control API (/__sandbox/, not part of the service) ------------------------------------

	const state = (): SandboxStateSnapshot => ({ ...store.snapshot(), counts: { ...counts }, settings: { ...settings } });

	const handleControl = async (request: IncomingMessage, response: ServerResponse, path: string) => {
		const method = request.method ?? 'GET';
		let body: Record<string, unknown> = {};
		if (method === 'POST') {
			const raw = (await readSmallBody(request)).toString('utf8');
			try {
				body = raw.trim() === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
			} catch {
				return sendError(response, 400, 'invalid_json', 'The body is not valid JSON.');
			}
		}
		if (method === 'GET' && path === '/__sandbox/state') return sendJson(response, 200, state());
		if (method === 'GET' && path === '/__sandbox/deliveries') return sendJson(response, 200, { deliveries: deliverer.attempts });
		if (method === 'GET' && path === '/__sandbox/health') return sendJson(response, 200, { ok: true });
		if (method === 'POST' && path === '/__sandbox/next-confidence') {
			const values = Array.isArray(body.confidence) ? body.confidence : [body.confidence];
			if (!values.every((value) => typeof value === 'number' && value >= 0 && value <= 1)) return sendError(response, 400, 'invalid_confidence', 'confidence: a number (or list) from 0 to 1.');
			control.nextConfidence.push(...(values as number[]));
			return sendJson(response, 200, { queued: control.nextConfidence });
		}
		if (method === 'POST' && path === '/__sandbox/next-extraction') {
			const data = body.data as ExtractedData | undefined;
			if (typeof data !== 'object' || data === null || typeof data.header !== 'object' || typeof data.amounts !== 'object' || !Array.isArray(data.line_items)) {
				return sendError(response, 400, 'invalid_extraction', 'data: an extracted-data object with header, amounts and line_items.');
			}
			control.nextExtraction.push(data);
			return sendJson(response, 200, { queued: control.nextExtraction.length });
		}
		if (method === 'POST' && path === '/__sandbox/next-status') {
			if (body.status !== 'processing') return sendError(response, 400, 'invalid_status', 'status: "processing".');
			control.nextStatus.push('processing');
			return sendJson(response, 200, { queued: control.nextStatus.length });
		}
		const review = /^\/__sandbox\/reviews\/([^/]+)\/(approve|reject)$/.exec(path);
		if (method === 'POST' && review) {
			const reviewId = decodePathSegment(review[1]);
			const document = reviewId === undefined ? undefined : store.documentByReview(reviewId);
			if (!document) return sendError(response, 404, 'not_found', 'No such review.');
			const done = review[2] === 'approve' ? approve(document, body.corrections) : reject(document, typeof body.reason === 'string' ? body.reason : 'Data quality issue');
			if (!done) return sendError(response, 409, 'not_in_review', `The document is ${document.state}, not in review.`);
			return sendJson(response, 200, { document_id: document.id, state: document.state });
		}
		if (method === 'POST' && path === '/__sandbox/config') {
			for (const key of ['minuteMs', 'reviewDelayMs', 'processingDelayMs', 'processingThresholdBytes', 'retryBaseMs', 'deliveryTimeoutMs'] as const) {
				if (typeof body[key] === 'number' && (body[key] as number) >= 0) settings[key] = body[key] as number;
			}
			if (typeof body.duplicateDeliveries === 'boolean') settings.duplicateDeliveries = body.duplicateDeliveries;
			return sendJson(response, 200, { settings });
		}
		if (method === 'POST' && path === '/__sandbox/faults') {
			const modes: FaultMode[] = ['500', '503', 'slow', 'reset', 'malformed'];
			const mode = String(body.mode) as FaultMode;
			if (!modes.includes(mode)) return sendError(response, 400, 'invalid_fault', `mode: one of ${modes.join(', ')}.`);
			const paths = Array.isArray(body.paths) ? body.paths.map(String) : undefined;
			control.faults.push({ mode, remaining: typeof body.count === 'number' ? body.count : 1, delayMs: typeof body.delayMs === 'number' ? body.delayMs : 6000, paths });
			return sendJson(response, 200, { faults: control.faults });
		}
		if (method === 'POST' && path === '/__sandbox/reset') {
			for (const timer of timers.values()) clearTimeout(timer);
			timers.clear();
			windows.clear();
			store.clear();
			control.nextConfidence = [];
			control.nextStatus = [];
			control.faults = [];
			control.nextExtraction = [];
			deliverer.attempts.length = 0;
			Object.assign(counts, { extractRequests: 0, statusRequests: 0, registerRequests: 0, rateLimited: 0 });
			return sendJson(response, 200, { reset: true });
		}
		return sendError(response, 404, 'not_found', 'Unknown control endpoint.');
	};

	// ---- router -------------------------------------------------------------------------------

	const route = async (request: IncomingMessage, response: ServerResponse) => {
		const started = Date.now();
		const path = new URL(request.url ?? '/', 'http://sandbox').pathname;
		let accountId: string | null = null;
		response.on('finish', () => {
			log({ kind: 'request', method: request.method, path: path.slice(0, 200), status: response.statusCode, account: accountId, ms: Date.now() - started });
		});
		if (path.startsWith('/__sandbox/')) return handleControl(request, response, path);

		const isExtract = path === '/v1/extract';
		const statusMatch = /^\/v1\/status\/([^/]+)$/.exec(path);
		const isRegister = path === '/webhooks/register';
		if (!isExtract && !statusMatch && !isRegister) {
			request.resume();
			return sendError(response, 404, 'not_found', 'No such endpoint.');
		}
		if (await applyFault(request, response, path)) return;

		const key = request.headers['x-api-key'];
		const account = typeof key === 'string' ? accounts.get(key) : undefined;
		if (!account) {
			request.resume();
			return sendError(response, 401, 'unauthorized', 'Missing or invalid API key. Send it in the X-API-Key header.');
		}
		accountId = account.id;
		const { headers, limited, retryAfter } = countRequest(account);
		if (limited) {
			counts.rateLimited++;
			request.resume();
			return sendError(response, 429, 'rate_limited', `The ${account.tier} tier allows ${TIERS[account.tier].requestsPerMinute} requests per minute.`, { ...headers, 'retry-after': retryAfter });
		}

		const method = request.method ?? 'GET';
		if (isExtract && method === 'POST') return handleExtract(request, response, account, headers);
		if (statusMatch && method === 'GET') return handleStatus(response, account, decodePathSegment(statusMatch[1]), headers);
		if (isRegister && method === 'POST') return handleRegister(request, response, account, headers);
		request.resume();
		return sendError(response, 405, 'method_not_allowed', `${method} is not allowed here.`, headers);
	};

	const server: Server = createServer((request, response) => {
		route(request, response).catch((error: Error) => {
			log({ kind: 'error', message: error.message });
			if (!response.headersSent) sendError(response, 500, 'internal_error', 'Sandbox error.');
			else response.destroy();
		});
	});
	server.keepAliveTimeout = 5_000;

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	const host = options.host ?? '127.0.0.1';

	return {
		url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
		port,
		accounts: [...accounts.entries()].map(([apiKey, account]) => ({ apiKey, tier: account.tier, signingSecret: account.signingSecret })),
		state,
		deliveries: () => [...deliverer.attempts],
		close: async () => {
			for (const timer of timers.values()) clearTimeout(timer);
			timers.clear();
			await deliverer.close();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
