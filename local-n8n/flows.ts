/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// Small steps several end-to-end tests and the benchmarks share: polling until something holds, a
// document put into human review straight through the sandbox's service API, the trigger node, a
// sandbox demo account as an n8n credential.

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import type { Credential, N8nClient } from './n8nApi.ts';
import { PACKAGE_NAME, REPO_ROOT } from './paths.ts';
import type { SandboxHandle } from './sandbox.ts';
import { sandboxControl } from './sandbox.ts';
import type { Tier } from '../nodes/DocumentExtraction/tierLimits.ts';
import { sandboxAccount } from './sandboxAccounts.ts';
import type { NodeSpec } from './workflows.ts';

export const ACTION_NODE_TYPE = `${PACKAGE_NAME}.documentExtraction`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.documentExtractionTrigger`;

/** Polls `read` until `done` holds (or fails with `what` after the timeout), returning the last value. */
export async function eventually<T>(
	what: string,
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value)) return value;
		if (Date.now() > deadline)
			throw new Error(
				`${what}: still ${String(JSON.stringify(value)).slice(0, 500)} after ${timeoutMs} ms`,
			);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** A document sent to human review (confidence 0.7), submitted straight to the sandbox's service API. */
export async function documentInReview(
	sandboxUrl: string,
	apiKey: string,
	fileName = 'invoice-blurry.json',
): Promise<{ status: string; document_id: string; review_id: string }> {
	await sandboxControl(sandboxUrl, 'next-confidence', { confidence: 0.7 });
	const form = new FormData();
	form.append(
		'file',
		new Blob([readFileSync(join(REPO_ROOT, 'examples', 'files', fileName))], {
			type: 'application/json',
		}),
		fileName,
	);
	const encoded = new Response(form); // multipart/form-data bytes and their boundary
	const res = await request(`${sandboxUrl}/v1/extract`, {
		method: 'POST',
		body: Buffer.from(await encoded.arrayBuffer()),
		headers: { 'x-api-key': apiKey, 'content-type': encoded.headers.get('content-type') as string },
	});
	return (await res.body.json()) as { status: string; document_id: string; review_id: string };
}

/** How a workflow node refers to a Document Extraction API credential. */
export function credentialReference(credential: Credential): NodeSpec['credentials'] {
	return { documentExtractionApi: { id: credential.id, name: credential.name } };
}

/** The Document Extraction action node; `settings` adds node settings such as `onError`. */
export function actionNode(
	name: string,
	credential: Credential,
	parameters: Record<string, unknown>,
	settings: Partial<NodeSpec> = {},
): NodeSpec {
	return {
		name,
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		parameters,
		credentials: credentialReference(credential),
		...settings,
	};
}

/** Parameters of Extract: the file in the binary property `data`, the simplified output, no options; `overrides` win. */
export function extractParameters(
	overrides: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		resource: 'document',
		operation: 'extract',
		binaryPropertyName: 'data',
		outputMode: 'simplified',
		options: {},
		...overrides,
	};
}

/** The Document Extraction Trigger, as a workflow's first node, in the version new nodes get (1.1) unless `typeVersion` says otherwise. */
export function reviewTriggerNode(
	credential: Credential,
	events: string[] = ['document.verified', 'document.rejected'],
	typeVersion = 1.1,
): NodeSpec {
	return {
		name: 'Review finished',
		type: TRIGGER_NODE_TYPE,
		typeVersion,
		parameters: { events, outputMode: 'simplified', options: {} },
		credentials: credentialReference(credential),
	};
}

/** The service's signature of a delivery body (spec, Events > Signature). */
export function signBody(body: string, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

export interface SandboxCredential {
	credential: Credential;
	apiKey: string;
	signingSecret: string;
}

/**
 * The sandbox's demo account of `tier` as an n8n credential (by default under the name the example
 * workflows use), with its key and signing secret for the test's own requests and secret scans.
 */
export async function sandboxCredential(
	client: N8nClient,
	sandbox: SandboxHandle,
	tier: Tier,
	name = 'Document Extraction (sandbox)',
): Promise<SandboxCredential> {
	const account = sandboxAccount(sandbox, tier);
	if (!account?.signingSecret)
		throw new Error(`the sandbox has no ${tier} account with a signing secret`);
	const credential = await client.createDocumentExtractionCredential(name, {
		baseUrl: sandbox.url,
		apiKey: account.apiKey,
		signingSecret: account.signingSecret,
		tier,
	});
	return { credential, apiKey: account.apiKey, signingSecret: account.signingSecret };
}
