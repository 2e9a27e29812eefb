/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling runs in plain Node, never inside n8n */
// The sandbox behind HTTPS, the way a node reaches the real service: a TLS front (the local CA's
// certificate, which n8n trusts) that passes each connection on to the sandbox's plain HTTP port.
// An upload over TLS costs memory that one over plain HTTP does not (the encrypted bytes of a write
// wait in memory until the socket takes them), so the upload benchmarks measure it this way.

import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { createServer } from 'node:tls';
import type { RunningSandbox, TlsMaterial } from '../local-n8n/index.ts';

export async function behindHttps(
	sandbox: RunningSandbox,
	tls: TlsMaterial,
): Promise<RunningSandbox> {
	const open = new Set<Socket>();
	const front = createServer(
		{ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) },
		(client) => {
			const upstream = connect(sandbox.port, '127.0.0.1');
			open.add(client);
			client.on('close', () => open.delete(client));
			client.pipe(upstream).pipe(client);
			client.on('error', () => upstream.destroy());
			upstream.on('error', () => client.destroy());
		},
	);
	await new Promise<void>((resolve, reject) => {
		front.once('error', reject);
		front.listen(0, '127.0.0.1', () => resolve());
	});
	return {
		...sandbox,
		url: `https://127.0.0.1:${(front.address() as AddressInfo).port}`,
		close: async () => {
			const closed = new Promise<void>((resolve) => front.close(() => resolve()));
			// Kept-alive connections would hold the front open.
			for (const socket of open) socket.destroy();
			await closed;
			await sandbox.close();
		},
	};
}
