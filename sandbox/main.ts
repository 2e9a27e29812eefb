/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/** `npm run sandbox`: the sandbox on loopback, configured from the environment. */
import { readFileSync } from 'node:fs';

import { accountOptionsFromEnv, DEMO_SIGNING_SECRET, rateLimitOptionsFromEnv } from './config.ts';
import { startSandbox } from './server.ts';

const env = process.env;
const number = (name: string) => (env[name] ? Number(env[name]) : undefined);

const sandbox = await startSandbox({
	port: number('SANDBOX_PORT') ?? 4010,
	host: env.SANDBOX_HOST ?? '127.0.0.1',
	...accountOptionsFromEnv(env),
	trustCa: env.SANDBOX_TRUST_CA ? readFileSync(env.SANDBOX_TRUST_CA, 'utf8') : undefined,
	stateFile: env.SANDBOX_STATE_FILE || undefined,
	minuteMs: number('SANDBOX_MINUTE_MS'),
	...rateLimitOptionsFromEnv(env),
	extractLatencyMinMs: number('SANDBOX_EXTRACT_LATENCY_MIN_MS'),
	extractLatencyMaxMs: number('SANDBOX_EXTRACT_LATENCY_MAX_MS'),
	reviewDelayMs: number('SANDBOX_REVIEW_DELAY_MS'),
	processingDelayMs: number('SANDBOX_PROCESSING_DELAY_MS'),
	retryBaseMs: number('SANDBOX_RETRY_BASE_MS'),
	duplicateDeliveries: env.SANDBOX_DUPLICATE_DELIVERIES === 'true',
	log: env.SANDBOX_LOG !== 'false',
});

const lines = [
	'',
	`Document Extraction sandbox listening on ${sandbox.url}`,
	'',
	'Demo API keys (X-API-Key):',
	...sandbox.accounts.map((account) => `  ${account.tier.padEnd(11)} ${account.apiKey}`),
	'',
	`Webhook Signing Secret for the n8n credential: ${sandbox.accounts[0]?.signingSecret ?? DEMO_SIGNING_SECRET}`,
	'',
	'Control API (not part of the service):',
	`  curl -X POST ${sandbox.url}/__sandbox/next-confidence -H 'content-type: application/json' -d '{"confidence":0.7}'`,
	`  curl -X POST ${sandbox.url}/__sandbox/reviews/<review_id>/approve -H 'content-type: application/json' -d '{"corrections":{"amounts":{"tax":19}}}'`,
	`  curl -X POST ${sandbox.url}/__sandbox/reviews/<review_id>/reject -H 'content-type: application/json' -d '{"reason":"Total is unreadable"}'`,
	`  curl -X POST ${sandbox.url}/__sandbox/faults -H 'content-type: application/json' -d '{"mode":"503","count":2}'`,
	`  curl ${sandbox.url}/__sandbox/state    curl ${sandbox.url}/__sandbox/deliveries`,
	'',
];
process.stdout.write(`${lines.join('\n')}\n`);

const stop = () => {
	void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
