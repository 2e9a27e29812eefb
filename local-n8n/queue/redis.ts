/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// A throwaway Redis (Debian's or Homebrew's redis-server) for n8n's job queue and pub/sub: loopback, a free
// port, no persistence.

import { join } from 'node:path';
import { log } from '../log.ts';
import { artifactsDir, makeTmpDir, timestampForFiles } from '../paths.ts';
import { freePort, spawnTracked, stopProcess, tailFile } from '../processes.ts';
import { requirementPath } from '../systemPackages.ts';

export interface RedisServer {
	host: string;
	port: number;
	logFile: string;
	stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
	const port = await freePort();
	const dir = makeTmpDir('queue-redis');
	const logFile = join(artifactsDir(), `redis-${timestampForFiles()}-${port}.log`);
	let ready = false;
	const proc = spawnTracked({
		name: 'redis',
		command: requirementPath('redis'),
		args: [
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
		],
		cwd: dir,
		logFile,
		onLine: (line) => {
			if (line.includes('Ready to accept connections')) ready = true;
		},
	});
	const deadline = Date.now() + 30_000;
	while (!ready) {
		if (proc.hasExited())
			throw new Error(`redis-server exited before it was ready:\n${tailFile(logFile)}`);
		if (Date.now() > deadline) {
			await stopProcess(proc, 5_000);
			throw new Error(`redis-server not ready after 30 s:\n${tailFile(logFile)}`);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	log('redis', `ready on 127.0.0.1:${port}`);
	return { host: '127.0.0.1', port, logFile, stop: () => stopProcess(proc, 5_000) };
}
