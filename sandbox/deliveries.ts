/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/**
 * Signed webhook deliveries (spec: Events, Signature, Delivery rules): POST of the exact JSON bytes,
 * `X-Service-Signature` = lowercase hex HMAC-SHA256 of those bytes with the target's secret, HTTPS
 * only, 2xx within the timeout or it failed (docs/spec-decisions.md#d10), 3 retries with exponential backoff (#d9).
 *
 * Every attempt ends by its deadline, whatever phase the request is in (queued for a pooled
 * connection, connecting, waiting for headers, reading the body): a timer of the deliverer's own
 * aborts it and the attempt is recorded as failed. Not AbortSignal.timeout: combined with
 * AbortSignal.any its timer is only weakly held and a garbage collection can drop it, and undici's
 * headersTimeout only starts once the request is written to a socket.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';

import { newId } from './ids.ts';

export interface DeliveryTarget {
	url: string;
	secret: string;
	/** The registration this target comes from, or undefined for a document's own webhook_url. */
	webhookId?: string;
}

export interface DeliveryAttempt {
	deliveryId: string;
	copy: number;
	event: string;
	documentId: string;
	url: string;
	webhookId?: string;
	attempt: number;
	at: string;
	status?: number;
	error?: string;
	ok: boolean;
	durationMs: number;
}

export interface DeliverySettings {
	retryBaseMs: number;
	deliveryTimeoutMs: number;
	duplicateDeliveries: boolean;
}

export const MAX_RETRIES = 3;

/** undici's own header/body timeouts only back up the deliverer's deadline, which ends the attempt first. */
const CLIENT_TIMEOUT_MARGIN_MS = 1_000;

/** The reason an attempt is aborted at its deadline; its code is what the attempt records. */
export class DeliveryTimeoutError extends Error {
	static readonly code = 'DELIVERY_TIMEOUT';

	readonly code = DeliveryTimeoutError.code;

	constructor(timeoutMs: number) {
		super(`no 2xx answer within ${timeoutMs} ms`);
		this.name = 'DeliveryTimeoutError';
	}
}

export function sign(body: Buffer, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

export class Deliverer {
	readonly attempts: DeliveryAttempt[] = [];

	private readonly agent: Agent;

	private readonly timers = new Map<NodeJS.Timeout, () => void>();

	private readonly inFlight = new Set<Promise<void>>();

	private closed = false;

	/** The abort of every attempt in flight, so that close() ends them all. */
	private readonly attemptAborts = new Set<AbortController>();

	private readonly settings: () => DeliverySettings;

	private readonly log: (record: Record<string, unknown>) => void;

	constructor(
		settings: () => DeliverySettings,
		log: (record: Record<string, unknown>) => void,
		trustCa?: string,
	) {
		this.settings = settings;
		this.log = log;
		this.agent = new Agent({ connect: trustCa ? { ca: trustCa } : {} });
	}

	/** Sends `payload` to every target (twice each when duplicates are on). Returns at once. */
	deliver(
		event: string,
		documentId: string,
		payload: Record<string, unknown>,
		targets: DeliveryTarget[],
	): void {
		const body = Buffer.from(JSON.stringify(payload));
		const copies = this.settings().duplicateDeliveries ? 2 : 1;
		for (const target of targets) {
			const deliveryId = newId('dlv');
			const run = (async () => {
				for (let copy = 1; copy <= copies; copy++)
					await this.deliverOne(deliveryId, copy, event, documentId, body, target);
			})();
			this.inFlight.add(run);
			void run.finally(() => this.inFlight.delete(run));
		}
	}

	private async deliverOne(
		deliveryId: string,
		copy: number,
		event: string,
		documentId: string,
		body: Buffer,
		target: DeliveryTarget,
	): Promise<void> {
		const signature = sign(body, target.secret);
		for (let attempt = 1; attempt <= 1 + MAX_RETRIES; attempt++) {
			if (this.closed) return;
			if (attempt > 1) await this.wait(this.settings().retryBaseMs * 2 ** (attempt - 2));
			if (this.closed) return;
			const started = Date.now();
			const record: DeliveryAttempt = {
				deliveryId,
				copy,
				event,
				documentId,
				url: target.url,
				webhookId: target.webhookId,
				attempt,
				at: new Date().toISOString(),
				ok: false,
				durationMs: 0,
			};
			const outcome = await this.attempt(target.url, body, {
				'content-type': 'application/json',
				'user-agent': 'DocumentExtractionSandbox/1.0',
				'x-service-signature': signature,
				'x-service-event': event,
				'x-service-delivery': deliveryId,
			});
			record.status = outcome.status;
			record.error = outcome.error;
			record.ok = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
			record.durationMs = Date.now() - started;
			this.attempts.push(record);
			this.log({
				kind: 'delivery',
				event,
				document_id: documentId,
				url: target.url,
				attempt,
				copy,
				status: record.status ?? null,
				error: record.error ?? null,
				ok: record.ok,
			});
			if (record.ok) return;
		}
	}

	/** One POST; resolves with the status, or the error code, by the delivery timeout at the latest. */
	private async attempt(
		url: string,
		body: Buffer,
		headers: Record<string, string>,
	): Promise<{ status?: number; error?: string }> {
		const timeoutMs = this.settings().deliveryTimeoutMs;
		const abort = new AbortController();
		this.attemptAborts.add(abort);
		const deadline = setTimeout(() => abort.abort(new DeliveryTimeoutError(timeoutMs)), timeoutMs);
		// Settles on the deadline or on close(), whether or not the client has settled by then.
		const aborted = new Promise<{ error: string }>((resolve) => {
			abort.signal.addEventListener(
				'abort',
				() =>
					resolve({
						error:
							abort.signal.reason instanceof DeliveryTimeoutError
								? DeliveryTimeoutError.code
								: 'AbortError',
					}),
				{ once: true },
			);
		});
		const sent = (async () => {
			try {
				const response = await request(url, {
					method: 'POST',
					body,
					headers,
					dispatcher: this.agent,
					headersTimeout: timeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
					bodyTimeout: timeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
					signal: abort.signal,
				});
				await response.body.dump();
				return { status: response.statusCode };
			} catch (error) {
				return { error: (error as { code?: string }).code ?? (error as Error).name ?? 'error' };
			}
		})();
		try {
			return await Promise.race([sent, aborted]);
		} finally {
			clearTimeout(deadline);
			this.attemptAborts.delete(abort);
		}
	}

	private wait(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.set(timer, resolve);
		});
	}

	async close(): Promise<void> {
		this.closed = true;
		for (const abort of this.attemptAborts) abort.abort();
		// Pending backoffs end now; the loops see `closed` and stop.
		for (const [timer, resolve] of this.timers) {
			clearTimeout(timer);
			resolve();
		}
		this.timers.clear();
		await Promise.allSettled([...this.inFlight]);
		// Every attempt is aborted: nothing is left to finish, not even a connection still being made.
		await this.agent.destroy();
	}
}
