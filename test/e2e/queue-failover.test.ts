/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// A webhook process dies during a stream of real deliveries (queue mode: 2 webhook processes behind
// HAProxy over HTTPS, 2 workers, Postgres, Redis). Reviews finish in the sandbox one after the other;
// the sandbox signs each result and delivers it to the trigger's public URL with its retries
// (spec: 3 retries, exponential backoff). A third of the way through, webhook1 gets SIGKILL. HAProxy's
// health check takes it out, and connection failures are retried on the other process
// (`retries`, `option redispatch`, `retry-on`); what the load balancer does not absorb, the sandbox's
// retries carry: every attempt ends within the delivery timeout, and the backoff (from 2 s: retries
// 7, 16 and 29 s after a first attempt that timed out) outlasts the failover, which takes HAProxy a
// few seconds. So every delivery ends with a 2xx, and every event runs (executions counted per
// document_id). The trigger runs as recommended for queue mode, Ignore Duplicates off: n8n answers a
// delivery only once it has queued the run, so a process killed before that leaves the delivery
// unanswered and it is delivered again, never lost. A run that was queued but whose answer died with
// the process can then run a second time: counted here, and absorbed downstream by Check Invoice
// Duplicate (queue-exactly-once.test.ts). With Ignore Duplicates on, the trigger answers before n8n
// queues the run, and a kill in between loses the event (docs/queue-mode.md).
// With the recommended balancing (hash of X-Service-Signature); another mode can be added to the
// list (webhook1 is then started again and HAProxy takes it back in first). Figures go to the log.

import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';
import {
	documentInReview,
	eventually,
	log,
	sandboxControl,
	sandboxDeliveries,
	sandboxState,
	type Balance,
} from '../../local-n8n/index.ts';
import {
	allExecutions,
	duplicates,
	lost,
	runsPerDocument,
	sleep,
} from './support/queueDeliveries.ts';
import { activeTrigger, useQueueFixture, type QueueFixture } from './support/queueFixture.ts';

const EVENTS = 40;
/** The event before which webhook1 is killed. */
const KILL_AT = 13;
/** Pause between two finished reviews: a stream, not a burst. */
const STREAM_GAP_MS = 200;
const SETTLE_MS = 5_000;

let fixture: QueueFixture;
const figures: string[] = [];

/** HAProxy's log lines for `path`: which process answered, with which status, after how many retries (`+` = redispatched). */
function haproxyLines(path: string): Array<{ server: string; status: number; retries: string }> {
	const pattern =
		/n8n_webhook_processes\/(\S+) \S+ (-?\d+) .* \d+\/\d+\/\d+\/\d+\/(\+?\d+) \d+\/\d+ "POST \/webhook\/(\S+) /;
	return readFileSync(fixture.stack.lb.logFile, 'utf8')
		.split('\n')
		.map((line) => pattern.exec(line))
		.filter((match): match is RegExpExecArray => match !== null && match[4] === path)
		.map((match) => ({ server: match[1], status: Number(match[2]), retries: match[3] }));
}

/** Polls `done` until it holds or `timeoutMs` has passed (the assertions come after). */
async function until(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await done()) && Date.now() < deadline) await sleep(500);
}

/** How often HAProxy's health check has marked `server` UP or DOWN (its log line; the same line also goes to stderr as a warning). */
const stateChanges = (server: string, state: 'UP' | 'DOWN') =>
	readFileSync(fixture.stack.lb.logFile, 'utf8')
		.split('\n')
		.filter((line) => line.startsWith(`Server n8n_webhook_processes/${server} is ${state},`))
		.length;

describeNeeding(
	QUEUE_MODE_REQUIREMENTS,
	'a webhook process killed during a stream of real deliveries',
	() => {
		useQueueFixture(
			{ balance: 'signature', sandbox: { retryBaseMs: 2_000, reviewDelayMs: 600_000 } },
			(started) => (fixture = started),
		);

		afterAll(async () => {
			if (figures.length)
				process.stdout.write(`queue failover measured:\n  ${figures.join('\n  ')}\n`);
		});

		it("HAProxy checks the processes' health and retries failed connections on the other process", () => {
			const config = readFileSync(fixture.stack.lb.configFile, 'utf8');
			expect(config).toMatch(/option httpchk GET \/healthz\/readiness/);
			expect(config).toMatch(
				/default-server .* check inter 5s fastinter 1s downinter 1s fall 2 rise 2/,
			);
			expect(config).toMatch(/timeout connect 5s/);
			expect(config).toMatch(/timeout server 30s/);
			expect(config).toMatch(/timeout queue 5s/);
			expect(config).toMatch(/option abortonclose/);
			expect(config).toMatch(/timeout check 5s/);
			expect(config).toMatch(/retries 3/);
			expect(config).toMatch(/option redispatch 1/);
			expect(config).toMatch(/retry-on conn-failure empty-response 503$/m);
		});

		for (const balance of ['signature'] as Balance[]) {
			it(`balance ${balance}: ${EVENTS} events, webhook1 SIGKILLed before event ${KILL_AT + 1}: every delivery ends acknowledged, every event runs, none lost (Ignore Duplicates off)`, async () => {
				const { stack, sandbox, account } = fixture;
				const [webhook1] = stack.webhooks;
				if (!webhook1.isRunning()) {
					const upBefore = stateChanges('webhook1', 'UP');
					await webhook1.restart();
					await eventually(
						'HAProxy takes webhook1 back',
						async () => stateChanges('webhook1', 'UP'),
						(n) => n > upBefore,
						30_000,
					);
				}
				if (stack.lb.balance() !== balance) await stack.lb.setBalance(balance);
				const trigger = await activeTrigger(fixture, `queue failover (${balance})`, {
					ignoreDuplicates: false,
				});
				const documents: Array<{ document_id: string; review_id: string }> = [];
				for (let i = 0; i < EVENTS; i++) {
					const document = await documentInReview(sandbox.url, account.apiKey);
					expect(document.status).toBe('needs_review');
					documents.push(document);
				}
				const ids = documents.map((document) => document.document_id);
				const downBefore = stateChanges('webhook1', 'DOWN');

				let killing: Promise<void> | undefined;
				let killedAt = 0;
				for (const [index, document] of documents.entries()) {
					// Not awaited: deliveries are in flight while the process dies.
					if (index === KILL_AT) killing = webhook1.kill().then(() => void (killedAt = Date.now()));
					await sandboxControl(sandbox.url, `reviews/${document.review_id}/approve`, {});
					await sleep(STREAM_GAP_MS);
				}
				await killing;

				const attemptsFor = async () =>
					(await sandboxDeliveries(sandbox.url)).filter(
						(attempt) => attempt.url === trigger.url && ids.includes(attempt.documentId),
					);
				// Every delivery has ended (delivered, or failed its last retry) and every delivered event has run;
				// asserted after the figures are logged, whatever happened.
				await until(async () => {
					const attempts = await attemptsFor();
					return ids.every((id) =>
						attempts.some(
							(attempt) => attempt.documentId === id && (attempt.ok || attempt.attempt === 4),
						),
					);
				}, 90_000);
				const delivered = new Set(
					(await attemptsFor())
						.filter((attempt) => attempt.ok)
						.map((attempt) => attempt.documentId),
				);
				await until(async () => {
					const { runs, total } = await runsPerDocument(stack.client, trigger.id);
					const running = (await allExecutions(stack.client, trigger.id)).filter(
						(e) => e.status === 'running' || e.status === 'new',
					).length;
					return running === 0 && total > 0 && ids.every((id) => runs.has(id));
				}, 60_000);
				await sleep(SETTLE_MS);
				const result = await runsPerDocument(stack.client, trigger.id);
				const attempts = await attemptsFor();
				const lines = haproxyLines(trigger.path);
				const retriedByHaproxy = lines.filter((line) => line.retries !== '0');
				const line = [
					`balance ${balance}: ${EVENTS} events, webhook1 killed before event ${KILL_AT + 1}`,
					`sandbox: ${attempts.length} delivery attempts, ${attempts.filter((attempt) => attempt.attempt > 1).length} retries, ${attempts.filter((attempt) => !attempt.ok).length} failed attempts (${[...new Set(attempts.filter((a) => !a.ok).map((a) => a.status ?? a.error))].join(', ') || 'none'}), longest attempt ${Math.max(0, ...attempts.map((a) => a.durationMs))} ms, ${ids.filter((id) => !attempts.some((a) => a.documentId === id)).length} events without a finished attempt`,
					`HAProxy: ${lines.filter((l) => l.server === 'webhook1').length} answered by webhook1, ${lines.filter((l) => l.server === 'webhook2').length} by webhook2, ${retriedByHaproxy.length} after retries (${retriedByHaproxy.map((l) => `${l.retries}→${l.server} ${l.status}`).join(', ') || 'none'}), webhook1 marked DOWN ${stateChanges('webhook1', 'DOWN') - downBefore}×`,
					`executions: ${result.total}, ${duplicates(result.runs)} duplicate runs, ${lost(result.runs, ids).length} lost (${lost(result.runs, ids).filter((id) => !delivered.has(id)).length} never delivered), ${result.failed} not successful`,
				].join('; ');
				figures.push(line);
				log('queue-failover', line);
				await stack.client.deactivateWorkflow(trigger.id);
				const neverRun = lost(result.runs, ids).filter((id) => delivered.has(id));
				if (neverRun.length > 0) {
					// Acknowledged but never run: when each was acknowledged, relative to webhook1's death.
					const acknowledged = neverRun.map((id) => {
						const ok = attempts.find((attempt) => attempt.documentId === id && attempt.ok);
						return `${id}: 2xx ${ok ? killedAt - (Date.parse(ok.at) + ok.durationMs) : '?'} ms before webhook1 was killed`;
					});
					log('queue-failover', `acknowledged (2xx) but never run: ${acknowledged.join(', ')}`);
				}
				const undelivered = ids.filter((id) => !delivered.has(id));
				if (undelivered.length > 0) {
					const everyAttempt = await sandboxDeliveries(sandbox.url);
					const states = (await sandboxState(sandbox.url)).documents
						.filter((document) => undelivered.includes(document.id))
						.map(
							(document) =>
								`${document.id} (${document.state}): ${
									everyAttempt
										.filter((attempt) => attempt.documentId === document.id)
										.map((attempt) => `#${attempt.attempt} ${attempt.status ?? attempt.error}`)
										.join(' ') || 'no attempt finished'
								}`,
						);
					log('queue-failover', `not delivered (no 2xx) by the sandbox: ${states.join(', ')}`);
				}

				expect(stateChanges('webhook1', 'DOWN') - downBefore, 'HAProxy marked webhook1 DOWN').toBe(
					1,
				);
				expect(lines.filter((l) => l.server === 'webhook2').length).toBeGreaterThan(0);
				expect(
					ids.filter((id) => !attempts.some((attempt) => attempt.documentId === id)),
					'events without any finished delivery attempt',
				).toEqual([]);
				expect(
					undelivered,
					'events the sandbox could not deliver (no 2xx in 1 try + 3 retries)',
				).toEqual([]);
				expect(lost(result.runs, ids), 'events that never ran').toEqual([]);
				// A second run only for an event whose delivery met the kill: never more than two, never many.
				expect(Math.max(...result.runs.values()), 'runs of one event').toBeLessThanOrEqual(2);
				expect(duplicates(result.runs), 'events that ran twice').toBeLessThanOrEqual(
					retriedByHaproxy.length + attempts.filter((attempt) => attempt.attempt > 1).length,
				);
				expect(result.failed).toBe(0);
			});
		}
	},
);
