/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// Building, importing and activating workflows.
//
// The simplest robust way to run a workflow in a real n8n is a workflow that starts with a Webhook
// node in production mode: activate it, POST to https://localhost:<port>/webhook/<path>, and with
// `responseMode: lastNode` the answer is the last node's output. Manual runs (the editor's
// "Execute workflow") work through N8nClient.runWorkflowManually with a Manual Trigger.

import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from './log.ts';
import type {
	Credential,
	N8nClient,
	Workflow,
	WorkflowDefinition,
	WorkflowNode,
} from './n8nApi.ts';
import { REPO_ROOT } from './paths.ts';

/** A node without position/id (they are filled in). */
export type NodeSpec = Omit<WorkflowNode, 'position' | 'id'> & {
	position?: [number, number];
	id?: string;
};

/** Gives nodes an id and a position, and trigger/webhook nodes the `webhookId` their URL is made of. */
function place(nodes: NodeSpec[], startX = 0): WorkflowNode[] {
	return nodes.map((n, i) => {
		const node = {
			id: n.id ?? randomUUID(),
			position: n.position ?? [startX + i * 220, 0],
			...n,
		} as WorkflowNode;
		if (
			!node.webhookId &&
			/(trigger|\.webhook)$/i.test(node.type) &&
			node.type !== 'n8n-nodes-base.manualTrigger'
		)
			node.webhookId = randomUUID();
		return node;
	});
}

/**
 * A workflow that starts with the given trigger node (e.g. the Document Extraction Trigger);
 * its production webhook is `/webhook/<webhookId>/<path of the node's webhook>`.
 */
export function triggerWorkflow(options: {
	name: string;
	trigger: NodeSpec;
	nodes?: NodeSpec[];
	connections?: Record<string, unknown>;
}): WorkflowDefinition & { webhookId: string } {
	const nodes = place([options.trigger, ...(options.nodes ?? [])]);
	return {
		name: options.name,
		nodes,
		connections: options.connections ?? chain(nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
		webhookId: nodes[0].webhookId as string,
	};
}

/** Connects nodes one after another on their first output. */
export function chain(names: string[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

export interface WebhookWorkflowOptions {
	name: string;
	/** Webhook path (default: a random one). */
	path?: string;
	httpMethod?: 'POST' | 'GET' | 'PUT';
	/** 'lastNode' (default): answer with the last node's output; 'onReceived': answer at once. */
	responseMode?: 'lastNode' | 'onReceived' | 'responseNode';
	/** 'allEntries' returns every item of the last node; 'firstEntryJson' (n8n default) only the first. */
	responseData?: 'allEntries' | 'firstEntryJson' | 'firstEntryBinary' | 'noData';
	/** Nodes after the webhook, connected in order. */
	nodes: NodeSpec[];
	/** Replace the linear chain with explicit connections (names must include 'Webhook'). */
	connections?: Record<string, unknown>;
}

/** A workflow that starts with a production Webhook node (see the file comment). */
export function webhookWorkflow(
	options: WebhookWorkflowOptions,
): WorkflowDefinition & { webhookPath: string } {
	const path = options.path ?? `e2e-${randomUUID().slice(0, 8)}`;
	const webhook: NodeSpec = {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: {
			httpMethod: options.httpMethod ?? 'POST',
			path,
			responseMode: options.responseMode ?? 'lastNode',
			...(options.responseMode === 'responseNode'
				? {}
				: { responseData: options.responseData ?? 'allEntries' }),
			options: {},
		},
	};
	const nodes = place([webhook, ...options.nodes]);
	return {
		name: options.name,
		nodes,
		connections: options.connections ?? chain(nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
		webhookPath: path,
	};
}

/** A workflow that starts with a Manual Trigger named "Start". */
export function manualWorkflow(options: {
	name: string;
	nodes: NodeSpec[];
	connections?: Record<string, unknown>;
}): WorkflowDefinition {
	const start: NodeSpec = {
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		parameters: {},
	};
	const nodes = place([start, ...options.nodes]);
	return {
		name: options.name,
		nodes,
		connections: options.connections ?? chain(nodes.map((n) => n.name)),
		settings: { executionOrder: 'v1' },
	};
}

/** A Code node (JavaScript, run once for all items). */
export function codeNode(name: string, jsCode: string): NodeSpec {
	return { name, type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode } };
}

/**
 * A Read/Write Files from Disk node that reads `fileSelector` (a path or glob; must lie in one of
 * n8n's allowed folders, see StartN8nOptions.fileAccessDirs) into binary property `data`.
 */
export function readFileNode(
	name: string,
	fileSelector: string,
	options: { dataPropertyName?: string; mimeType?: string } = {},
): NodeSpec {
	const opts: Record<string, unknown> = {};
	if (options.dataPropertyName) opts.dataPropertyName = options.dataPropertyName;
	if (options.mimeType) opts.mimeType = options.mimeType;
	return {
		name,
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1.1,
		parameters: { operation: 'read', fileSelector, options: opts },
	};
}

/** Workflows in `examples/*.json` (each file one exported workflow), sorted by file name. */
export function loadExampleWorkflows(
	dir = join(REPO_ROOT, 'examples'),
): Array<{ file: string; workflow: WorkflowDefinition }> {
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(readFileSync(join(dir, file), 'utf8')) as WorkflowDefinition,
		}));
}

/**
 * An exported workflow with every credential reference pointed at this instance's credential of the
 * same name (the exported `id` belongs to another instance). Throws when a node names a credential
 * that `credentials` does not have, so a renamed credential is noticed.
 */
export function withCredentialsByName(
	workflow: WorkflowDefinition,
	credentials: Credential[],
): WorkflowDefinition {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (!node.credentials) return node;
			const refs: Record<string, { id: string; name: string }> = {};
			for (const [type, ref] of Object.entries(node.credentials)) {
				const mine = credentials.find(
					(credential) => credential.name === ref.name && credential.type === type,
				);
				if (!mine)
					throw new Error(
						`"${workflow.name}" → node "${node.name}" uses a ${type} credential named "${ref.name}", which this n8n does not have`,
					);
				refs[type] = { id: mine.id, name: mine.name };
			}
			return { ...node, credentials: refs };
		}),
	};
}

/** n8n trigger nodes whose type name does not end in "Trigger" (Email Trigger (IMAP)). */
const TRIGGERS_NAMED_OTHERWISE = new Set(['n8n-nodes-base.emailReadImap']);

/** Whether a workflow has a trigger or webhook node that can be activated. */
export function isActivatable(workflow: WorkflowDefinition): boolean {
	return workflow.nodes.some(
		(n) =>
			!n.disabled &&
			(/(trigger|\.webhook)$/i.test(n.type) || TRIGGERS_NAMED_OTHERWISE.has(n.type)) &&
			n.type !== 'n8n-nodes-base.manualTrigger',
	);
}

/**
 * The credential types the workflow's nodes name that `credentials` has none of (e.g. the email
 * intake example's IMAP mailbox, which `npm start` does not make): activating it would fail on the
 * missing credential, so it is imported and left for the user to connect.
 */
export function missingCredentialTypes(
	workflow: WorkflowDefinition,
	credentials: Record<string, Credential>,
): string[] {
	const types = workflow.nodes
		.filter((node) => !node.disabled)
		.flatMap((node) => Object.keys(node.credentials ?? {}));
	return [...new Set(types)].filter((type) => !(type in credentials));
}

/** Why the workflow is not activated with `credentials` (what to connect first), or undefined. */
export function missingCredentialsNote(
	workflow: WorkflowDefinition,
	credentials: Record<string, Credential>,
): string | undefined {
	const missing = missingCredentialTypes(workflow, credentials);
	return missing.length > 0
		? `connect its ${missing.join(', ')} credential in the editor, then Publish it`
		: undefined;
}

/**
 * Waits until the production URLs of the workflow's Webhook nodes answer (activation registers
 * webhooks a moment after the API call returns), so callers can use them at once.
 */
export async function waitForWorkflowWebhooks(
	client: N8nClient,
	workflow: WorkflowDefinition,
): Promise<void> {
	for (const node of workflow.nodes) {
		if (
			node.type !== 'n8n-nodes-base.webhook' ||
			node.disabled ||
			typeof node.parameters.path !== 'string'
		)
			continue;
		await client.waitForWebhook(node.parameters.path, String(node.parameters.httpMethod ?? 'GET'));
	}
}

/**
 * Creates the workflows in n8n (credential references pointed at `credentials`, by type) and
 * activates those that can be activated (`activate: 'auto'`, default: with a trigger, and every
 * credential type they name among `credentials`, when given), all, or none.
 */
export async function importWorkflows(
	client: N8nClient,
	workflows: Array<{ file?: string; workflow: WorkflowDefinition }>,
	options: {
		credentials?: Record<string, Credential>;
		activate?: 'auto' | boolean;
		webhookClient?: N8nClient;
	} = {},
): Promise<Array<{ file?: string; workflow: Workflow; activated: boolean; error?: string }>> {
	const results: Array<{ file?: string; workflow: Workflow; activated: boolean; error?: string }> =
		[];
	for (const { file, workflow } of workflows) {
		const created = await client.createWorkflow(workflow, { credentials: options.credentials });
		const activate =
			options.activate === undefined || options.activate === 'auto'
				? isActivatable(workflow)
				: options.activate;
		let activated = false;
		let error: string | undefined;
		const note = options.credentials
			? missingCredentialsNote(workflow, options.credentials)
			: undefined;
		if (activate && options.activate !== true && note) {
			error = note;
		} else if (activate) {
			try {
				await client.activateWorkflow(created.id);
				activated = true;
				// In queue mode production webhooks are served by the webhook processes, not by main.
				await waitForWorkflowWebhooks(options.webhookClient ?? client, workflow);
			} catch (e) {
				error = (e as Error).message;
				log('workflows', `could not activate "${workflow.name}": ${error}`);
			}
		}
		results.push({ file, workflow: created, activated, error });
	}
	return results;
}

/** A Code node that echoes its items, adding the `caller` of the Webhook item each one descends from. */
export function callerEchoNode(name: string): NodeSpec {
	return codeNode(
		name,
		"return $input.all().map((item, index) => ({ json: { ...item.json, caller: $('Webhook').itemMatching(index).json.body.caller } }));",
	);
}

/**
 * Webhook → Read File (`examples/files/<fileName>`, copied into n8n's allowed folder `fileDir`) →
 * `extract` (named "Extract") → one caller-echo node per output, created and activated; resolves once
 * n8n serves the webhook.
 */
export async function createExtractRouteWorkflow(
	client: N8nClient,
	options: {
		name: string;
		fileDir: string;
		fileName: string;
		extract: NodeSpec;
		outputs: string[];
		/** Resolves once the webhook is served where it will be called (default: by `client`'s n8n). */
		waitForServed?: (path: string) => Promise<void>;
	},
): Promise<{ id: string; path: string }> {
	const target = join(options.fileDir, options.fileName);
	copyFileSync(join(REPO_ROOT, 'examples', 'files', options.fileName), target);
	const definition = webhookWorkflow({
		name: options.name,
		responseMode: 'onReceived',
		nodes: [
			readFileNode('Read invoice', target),
			options.extract,
			...options.outputs.map(callerEchoNode),
		],
		connections: {
			Webhook: { main: [[{ node: 'Read invoice', type: 'main', index: 0 }]] },
			'Read invoice': { main: [[{ node: 'Extract', type: 'main', index: 0 }]] },
			Extract: { main: options.outputs.map((node) => [{ node, type: 'main', index: 0 }]) },
		},
	});
	const workflow = await client.createWorkflow(definition);
	await client.activateWorkflow(workflow.id);
	await (options.waitForServed ?? ((path: string) => client.waitForWebhook(path)))(
		definition.webhookPath,
	);
	return { id: workflow.id, path: definition.webhookPath };
}
