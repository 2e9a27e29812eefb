// What every benchmark gets: a real n8n with this package, the sandbox, credentials, and helpers to
// create, activate and call workflows.

import type {
	Credential,
	N8nClient,
	NodeSpec,
	SandboxCredential,
	SandboxHandle,
	Stack,
	WorkflowDefinition,
} from '../local-n8n/index.ts';
import {
	actionNode,
	extractParameters,
	log,
	sandboxCredential,
	triggerWorkflow,
	webhookWorkflow,
} from '../local-n8n/index.ts';

export interface BenchContext {
	stack: Stack;
	sandbox: SandboxHandle;
	enterprise: SandboxCredential;
	growth: SandboxCredential;
	pilot: SandboxCredential;
	progress(message: string): void;
	/** Where webhook calls go (queue mode: the load balancer); default `stack.client` (n8n main). */
	webhookClient?: N8nClient;
	/** Every process that must serve a new workflow's webhook before it is called; default `stack.client`. */
	servingClients?: N8nClient[];
}

export function webhookClient(context: BenchContext): N8nClient {
	return context.webhookClient ?? context.stack.client;
}

export function progress(message: string): void {
	log('bench', message);
}

/** The sandbox's accounts as n8n credentials named `<label> (<tier>)`, created in this order. */
export async function benchCredentials(
	stack: Stack,
	sandbox: SandboxHandle,
	label: string,
): Promise<Pick<BenchContext, 'enterprise' | 'growth' | 'pilot'>> {
	const credential = (tier: 'enterprise' | 'growth' | 'pilot') =>
		sandboxCredential(stack.client, sandbox, tier, `${label} (${tier})`);
	return {
		enterprise: await credential('enterprise'),
		growth: await credential('growth'),
		pilot: await credential('pilot'),
	};
}

/** Creates and activates the workflow, waits until every serving process serves `path`. */
async function activate(context: BenchContext, definition: WorkflowDefinition, path: string) {
	const workflow = await context.stack.client.createWorkflow(definition);
	await context.stack.client.activateWorkflow(workflow.id);
	for (const client of context.servingClients ?? [context.stack.client])
		await client.waitForWebhook(path);
	return { id: workflow.id, path };
}

/** Creates and activates Webhook → nodes; returns its id and webhook path. */
export async function activeWebhookWorkflow(
	context: BenchContext,
	name: string,
	nodes: NodeSpec[],
	responseMode: 'lastNode' | 'onReceived' = 'lastNode',
) {
	const definition = webhookWorkflow({ name, nodes, responseMode });
	return await activate(context, definition, definition.webhookPath);
}

/**
 * Creates and activates a workflow started by `trigger` (a node whose webhook path is `webhook`);
 * returns its id and webhook path.
 */
export async function activeTriggerNodeWorkflow(
	context: BenchContext,
	name: string,
	trigger: NodeSpec,
) {
	const definition = triggerWorkflow({ name, trigger });
	return await activate(context, definition, `${definition.webhookId}/webhook`);
}

/** Extract with the service's raw answer as output. */
export function extractNode(
	credential: Credential,
	overrides: Record<string, unknown> = {},
): NodeSpec {
	return actionNode('Extract', credential, extractParameters({ outputMode: 'raw', ...overrides }));
}

/** n8n's HTTP Request node doing the same multipart upload by hand (what a user would build). */
export function httpRequestUploadNode(
	sandboxUrl: string,
	apiKey: string,
	extraOptions: Record<string, unknown> = {},
): NodeSpec {
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
			bodyParameters: {
				parameters: [{ parameterType: 'formBinaryData', name: 'file', inputDataFieldName: 'data' }],
			},
			options: { ...extraOptions },
		},
	};
}
