/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// HAProxy (Debian's or Homebrew's) in front of n8n's webhook processes, terminating HTTPS with
// the local certificate, as a production load balancer would: health checks on
// /healthz/readiness take a dead process out, connection failures are retried on the other one.
// Balancing: `roundrobin`, or hashing the delivery signature header so that the copies of one
// event (same body, same signature) reach the same process.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '../log.ts';
import { artifactsDir, makeTmpDir, timestampForFiles } from '../paths.ts';
import { requirementPath } from '../systemPackages.ts';
import { freePort, spawnTracked, stopProcess, tailFile, type Tracked } from '../processes.ts';
import type { TlsMaterial } from '../tls.ts';

export type Balance = 'roundrobin' | 'signature';

export const SIGNATURE_HEADER = 'X-Service-Signature';

export interface LoadBalancer {
	/** `https://localhost:<port>` */
	url: string;
	port: number;
	logFile: string;
	configFile: string;
	balance(): Balance;
	/** Rewrites the configuration with another balancing mode and restarts HAProxy on the same port. */
	setBalance(balance: Balance): Promise<void>;
	/** The registered secrets (log.ts `registerSecret`) HAProxy has written to its log output, found before masking. */
	secretsSeenInOutput(): string[];
	stop(): Promise<void>;
}

/**
 * `testWebhooks`: the process that serves "Listen for test event" (n8n's main): n8n serves
 * `/webhook-test/` on main only, so a load balancer in front of webhook processes sends that path there.
 */
export function haproxyConfig(args: {
	port: number;
	pemFile: string;
	caFile: string;
	backends: { name: string; port: number }[];
	balance: Balance;
	testWebhooks?: { name: string; port: number };
}): string {
	const balance =
		args.balance === 'signature'
			? `balance hdr(${SIGNATURE_HEADER})\n\thash-type consistent`
			: 'balance roundrobin';
	return `global
	log stdout format raw local0 info
	maxconn 2000

defaults
	mode http
	log global
	option httplog
	option http-buffer-request
	timeout connect 5s
	timeout client 60s
	# A request is never held much longer than its sender waits (the service gives up after 5 s and
	# retries): a process that does not answer within 30 s gets a 504, and a request that reached a
	# live process is not sent again by the load balancer (no response-timeout in retry-on), so only
	# the sender's retry repeats it. An aborted request still queued here is dropped.
	timeout server 30s
	timeout queue 5s
	option abortonclose
	timeout http-request 10s
	# A busy process may take seconds to finish the TLS handshake of a health check and answer it;
	# only a refused connection or a 503 should take it out, not a slow answer. A check connects
	# within min(timeout connect, inter), then reads within timeout check.
	timeout check 5s
	retries 3
	option redispatch 1
	retry-on conn-failure empty-response 503

frontend webhooks
	bind 127.0.0.1:${args.port} ssl crt ${args.pemFile}
${args.testWebhooks ? '\tacl test_webhook path_beg /webhook-test/\n\tuse_backend n8n_main if test_webhook\n' : ''}	default_backend n8n_webhook_processes

backend n8n_webhook_processes
	${balance}
	option httpchk GET /healthz/readiness
	http-check expect status 200
	default-server ssl verify required ca-file ${args.caFile} verifyhost localhost check inter 5s fastinter 1s downinter 1s fall 2 rise 2
${args.backends.map((b) => `\tserver ${b.name} 127.0.0.1:${b.port}`).join('\n')}
${
	args.testWebhooks
		? `
backend n8n_main
	default-server ssl verify required ca-file ${args.caFile} verifyhost localhost
	server ${args.testWebhooks.name} 127.0.0.1:${args.testWebhooks.port}
`
		: ''
}`;
}

export async function startLoadBalancer(options: {
	tls: TlsMaterial;
	backends: { name: string; port: number }[];
	testWebhooks?: { name: string; port: number };
	balance?: Balance;
	port?: number;
}): Promise<LoadBalancer> {
	const port = options.port ?? (await freePort());
	const dir = makeTmpDir('queue-haproxy');
	const pemFile = join(dir, 'localhost.pem');
	writeFileSync(
		pemFile,
		readFileSync(options.tls.certFile, 'utf8') + readFileSync(options.tls.keyFile, 'utf8'),
		{ mode: 0o600 },
	);
	const configFile = join(dir, 'haproxy.cfg');
	const logFile = join(artifactsDir(), `haproxy-${timestampForFiles()}-${port}.log`);
	let balance: Balance = options.balance ?? 'signature';
	let proc: Tracked | undefined;
	const secretsSeen = new Set<string>();
	const launch = async () => {
		writeFileSync(
			configFile,
			haproxyConfig({
				port,
				pemFile,
				caFile: options.tls.caCertFile,
				backends: options.backends,
				testWebhooks: options.testWebhooks,
				balance,
			}),
		);
		proc = spawnTracked({
			name: 'haproxy',
			command: requirementPath('haproxy'),
			args: ['-db', '-f', configFile],
			cwd: dir,
			logFile,
			onSecret: (secret) => secretsSeen.add(secret),
		});
		const deadline = Date.now() + 15_000;
		for (;;) {
			if (proc.hasExited()) throw new Error(`haproxy exited:\n${tailFile(logFile)}`);
			const listening = await freePort(port).then((p) => p !== port);
			if (listening) break;
			if (Date.now() > deadline)
				throw new Error(`haproxy not listening on ${port}:\n${tailFile(logFile)}`);
			await new Promise((r) => setTimeout(r, 100));
		}
		log(
			'haproxy',
			`https://localhost:${port} → ${options.backends.map((b) => `${b.name}:${b.port}`).join(', ')} (${balance})`,
		);
	};
	await launch();
	return {
		url: `https://localhost:${port}`,
		port,
		logFile,
		configFile,
		balance: () => balance,
		secretsSeenInOutput: () => [...secretsSeen],
		setBalance: async (next) => {
			balance = next;
			if (proc) await stopProcess(proc, 5_000);
			await launch();
		},
		stop: async () => {
			if (proc) await stopProcess(proc, 5_000);
		},
	};
}
