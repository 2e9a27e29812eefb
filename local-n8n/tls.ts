/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- test tooling: starts local processes (npm, openssl, n8n); plain errors outside any node */
// A local certificate authority and a server certificate for localhost / 127.0.0.1 / ::1, made
// with the openssl CLI. n8n serves HTTPS with the server certificate; the sandbox (which delivers
// signed webhooks to n8n) and the harness's HTTP client trust the CA.

import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from './log.ts';
import { cacheRoot } from './paths.ts';

export interface TlsMaterial {
	dir: string;
	caCertFile: string;
	caKeyFile: string;
	certFile: string;
	keyFile: string;
	/** PEM text of the CA certificate. */
	caPem: string;
}

const HOSTS_SAN = 'DNS:localhost,IP:127.0.0.1,IP:::1';
const MIN_REMAINING_MS = 7 * 24 * 3600 * 1000;

function openssl(args: string[], cwd: string): void {
	try {
		execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
	} catch (error) {
		const e = error as { stderr?: Buffer; message: string };
		throw new Error(`openssl ${args[0]} failed: ${e.stderr?.toString() ?? e.message}`);
	}
}

function stillGood(dir: string): boolean {
	const files = ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem'].map((f) => join(dir, f));
	if (!files.every((f) => existsSync(f))) return false;
	try {
		const ca = new X509Certificate(readFileSync(files[0]));
		const server = new X509Certificate(readFileSync(files[2]));
		const soon = Date.now() + MIN_REMAINING_MS;
		if (new Date(ca.validTo).getTime() < soon || new Date(server.validTo).getTime() < soon)
			return false;
		if (!server.verify(ca.publicKey)) return false;
		return server.checkHost('localhost') !== undefined && server.checkIP('127.0.0.1') !== undefined;
	} catch {
		return false;
	}
}

export interface IssuedCertificates {
	caPem: string;
	certPem: string;
	keyPem: string;
}

/**
 * Makes a new CA (ca.pem, ca-key.pem) and a server certificate it signed for localhost, 127.0.0.1
 * and ::1 (server.pem, server-key.pem) in `dir` (created or emptied) and returns their PEM text.
 */
export function issueCertificates(
	dir: string,
	options: { days: { ca: number; server: number }; caName?: string },
): IssuedCertificates {
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, 'server.ext'),
		[
			'basicConstraints=critical,CA:FALSE',
			'keyUsage=critical,digitalSignature,keyEncipherment',
			'extendedKeyUsage=serverAuth',
			`subjectAltName=${HOSTS_SAN}`,
			'',
		].join('\n'),
	);
	openssl(
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-sha256',
			'-days',
			String(options.days.ca),
			'-keyout',
			'ca-key.pem',
			'-out',
			'ca.pem',
			'-subj',
			`/CN=${options.caName ?? 'n8n-nodes-document-extraction local test CA'}`,
			'-addext',
			'basicConstraints=critical,CA:TRUE',
			'-addext',
			'keyUsage=critical,keyCertSign,cRLSign',
		],
		dir,
	);
	openssl(
		[
			'req',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-sha256',
			'-keyout',
			'server-key.pem',
			'-out',
			'server.csr',
			'-subj',
			'/CN=localhost',
		],
		dir,
	);
	openssl(
		[
			'x509',
			'-req',
			'-in',
			'server.csr',
			'-CA',
			'ca.pem',
			'-CAkey',
			'ca-key.pem',
			'-CAcreateserial',
			'-out',
			'server.pem',
			'-days',
			String(options.days.server),
			'-sha256',
			'-extfile',
			'server.ext',
		],
		dir,
	);
	const read = (file: string) => readFileSync(join(dir, file), 'utf8');
	return { caPem: read('ca.pem'), certPem: read('server.pem'), keyPem: read('server-key.pem') };
}

/**
 * Returns a CA + server certificate in `dir` (default `<cache>/tls`), creating them with openssl
 * when missing, broken or expiring within a week. Kept in the cache so that a person who trusts
 * the CA in a browser once keeps trusting it across runs.
 */
export function ensureCerts(dir = join(cacheRoot(), 'tls')): TlsMaterial {
	mkdirSync(dir, { recursive: true });
	const material: TlsMaterial = {
		dir,
		caCertFile: join(dir, 'ca.pem'),
		caKeyFile: join(dir, 'ca-key.pem'),
		certFile: join(dir, 'server.pem'),
		keyFile: join(dir, 'server-key.pem'),
		caPem: '',
	};
	if (!stillGood(dir)) {
		log('tls', `creating a local CA and a localhost certificate in ${dir}`);
		const work = join(dir, `.tmp-${process.pid}`);
		issueCertificates(work, { days: { ca: 825, server: 397 } });
		for (const f of ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem'])
			renameSync(join(work, f), join(dir, f));
		rmSync(work, { recursive: true, force: true });
		if (!stillGood(dir)) throw new Error(`the certificates made in ${dir} do not verify`);
	}
	material.caPem = readFileSync(material.caCertFile, 'utf8');
	return material;
}
