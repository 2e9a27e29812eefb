// What every benchmark gets: a real n8n with this package, the sandbox, credentials, and helpers to
// create, activate and call workflows.

import type { Credential, NodeSpec, SandboxCredential, SandboxHandle, Stack } from '../local-n8n/index.ts';
import { log, webhookWorkflow } from '../local-n8n/index.ts';

export interface BenchContext {
	stack: Stack;
	sandbox: SandboxHandle;
	enterprise: SandboxCredential;
	pilot: SandboxCredential;
	progress(message: string): void;
}

export const PACKAGE_NODE = 'n8n-nodes-document-extraction.documentExtraction';

export function progress(message: string): void {
	log('bench', message);
}

/** Creates and activates Webhook → nodes; returns its id and webhook path. */
export async function activeWebhookWorkflow(context: BenchContext, name: string, nodes: NodeSpec[], responseMode: 'lastNode' | 'onReceived' = 'lastNode') {
	const definition = webhookWorkflow({ name, nodes, responseMode });
	const workflow = await context.stack.client.createWorkflow(definition);
	await context.stack.client.activateWorkflow(workflow.id);
	await context.stack.client.waitForWebhook(definition.webhookPath);
	return { id: workflow.id, path: definition.webhookPath };
}

export function extractNode(credential: Credential, extra: Record<string, unknown> = {}): NodeSpec {
	return {
		name: 'Extract',
		type: PACKAGE_NODE,
		typeVersion: 1,
		parameters: { resource: 'document', operation: 'extract', binaryPropertyName: 'data', outputMode: 'raw', options: {}, ...extra },
		credentials: { documentExtractionApi: { id: credential.id, name: credential.name } },
	};
}

/** n8n's HTTP Request node doing the same multipart upload by hand (what a user would build). */
export function httpRequestUploadNode(sandboxUrl: string, apiKey: string, extraOptions: Record<string, unknown> = {}): NodeSpec {
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${sandboxUrl}/v1/extract`,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'X-API-Key', value: apiKey }] },
			sendBody: true,
			contentType: 'multipart-form-data',
			bodyParameters: { parameters: [{ parameterType: 'formBinaryData', name: 'file', inputDataFieldName: 'data' }] },
			options: { ...extraOptions },
		},
	};
}
