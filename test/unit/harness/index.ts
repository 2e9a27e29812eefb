/**
 * Runs workflows that use our nodes through n8n-core's real engine, the way n8n tests its own
 * nodes (its NodeTestHarness is not published, so this is a small one of ours).
 *
 * Real n8n pieces: `WorkflowExecute` (manual mode) with `ExecuteContext` and its helpers
 * (`httpRequestWithAuthentication` over n8n's outbound HTTP client, `assertBinaryData`,
 * `getBinaryStream`, `getBinaryMetadata`, `getBinaryDataBuffer`, `prepareBinaryData`), the
 * `Workflow` class (parameter defaults, expressions), `BinaryDataService` in filesystem or default
 * mode, `Credentials` + Cipher for stored credential data, `ExecutionLifecycleHooks`,
 * `InstanceSettings`, `ErrorReporter`, `ExecutionContextService`.
 * Ours: the node-type registry, the credentials helper (see credentialsHelper.ts), a start node
 * that outputs fixture items, a recording logger, and `sleep` as the nodes see it (recorded and
 * skipped, so retry waits are asserted by value instead of being waited for).
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	ITaskData,
	IVersionedNodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { vi } from 'vitest';

import { CREDENTIAL_TYPE } from '../../../nodes/DocumentExtraction/constants.ts';
import { NODE_TYPES } from './nodeTypes.ts';
import { TestCredentialsHelper } from './credentialsHelper.ts';
import { recordingResponse } from './fakeHookContext.ts';
import type { MemoryDeduplicator } from './deduplicator.ts';
import { useMemoryDeduplicator } from './deduplicator.ts';
import { n8nCore, n8nWorkflow } from './n8nModules.ts';
import type { BinaryMode, RecordingLogger } from './runtime.ts';
import { getLogger, useBinaryMode } from './runtime.ts';
import type { FixtureItem } from './sourceNode.ts';
import { createSourceNode, SOURCE_NODE_TYPE } from './sourceNode.ts';

export { Container, n8nCore, n8nWorkflow } from './n8nModules.ts';
export { ServiceMock, parseMultipart } from './service.ts';
export type { MockReply, MultipartPart, RecordedRequest } from './service.ts';
export type { FixtureFile, FixtureItem } from './sourceNode.ts';
export type { BinaryMode } from './runtime.ts';
export { disposeRuntime } from './runtime.ts';

export const ACTION_NODE_TYPE = NODE_TYPES.action;
export { CREDENTIAL_TYPE } from '../../../nodes/DocumentExtraction/constants.ts';
export const NODE_NAME = 'Document Extraction';
export const SOURCE_NODE_NAME = 'Source';

export const BASE_URL = 'https://api.docextract.test';
// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fake key, for tests only
export const API_KEY = 'dxk_UNITTEST_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fake secret, for tests only
export const SIGNING_SECRET = 'whsec_UNITTEST_f0e1d2c3b4a5968778695a4b3c2d1e0f';

export const DEFAULT_CREDENTIALS: ICredentialDataDecryptedObject = {
	baseUrl: BASE_URL,
	apiKey: API_KEY,
	signingSecret: SIGNING_SECRET,
	tier: 'pilot',
};

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IDataObject;
}

export interface RunResult {
	run: IRun;
	/** Tasks of every node that ran, by node name. */
	runData: Record<string, ITaskData[]>;
	/** One main output (default the first) of a node's (last) run; [] when it produced nothing there. */
	output(nodeName?: string, outputIndex?: number): INodeExecutionData[];
	/** Every main output of a node's (last) run, in order. */
	outputs(nodeName?: string): INodeExecutionData[][];
	/**
	 * The error a node stopped with, if any, as n8n records it in the run data: a plain copy of the
	 * error's fields (name, message, description, httpCode, context, ...), not the class instance.
	 */
	error(nodeName?: string): RecordedError | undefined;
	/** The execution's logs. */
	logs: RecordingLogger['entries'];
	/** Every text the run left behind, for secret scans: outputs, errors (message, description, cause, stack), logs. */
	everything(): string;
	/**
	 * Continues a waiting execution the way n8n's wait tracker does when its time limit is reached:
	 * a new WorkflowExecute over the stored run data.
	 */
	resumeAfterTimeout(): Promise<RunResult>;
	/**
	 * A POST to the waiting execution's resume URL, as n8n hands it to the waiting node: n8n-core's
	 * WebhookContext over the stored run data, the node's webhook() method. Returns what it answered.
	 */
	deliverToWaitingNode(request: {
		rawBody: Buffer;
		headers: Record<string, string>;
	}): Promise<WaitingWebhookAnswer>;
}

export interface WaitingWebhookAnswer {
	result: IWebhookResponseData;
	status?: number;
	body?: unknown;
}

export interface WorkflowRunSettings {
	/** n8n's own address (default https://localhost:5678): resume and webhook URLs derive from it. */
	n8nBaseUrl?: string;
}

export interface RecordedError {
	name: string;
	message: string;
	description?: string | null;
	httpCode?: string | null;
	context?: IDataObject;
	messages?: string[];
	[key: string]: unknown;
}

export interface RunOptions {
	/** Parameters of the Document Extraction node. */
	parameters: INodeParameters;
	/** Items the Source node outputs (default: one empty item). */
	items?: FixtureItem[];
	/** Overrides of the stored credential data (merged into DEFAULT_CREDENTIALS). */
	credentials?: ICredentialDataDecryptedObject;
	/** The node's "On Error: Continue (using regular output)" setting. */
	continueOnFail?: boolean;
	/** The node's "On Error" setting, when it is another than continueOnFail's. */
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
	/** n8n's own address (see WorkflowRunSettings). */
	n8nBaseUrl?: string;
	/** The Document Extraction node's version (default 1). */
	typeVersion?: number;
}

export interface Harness {
	nodeTypes: INodeTypes;
	credentialsHelper: TestCredentialsHelper;
	/** Waits the nodes asked `sleep` for, in milliseconds, since the last `reset()`. */
	waits: number[];
	useBinaryMode(mode: BinaryMode): Promise<void>;
	/** Source -> Document Extraction, run in manual mode. */
	run(options: RunOptions): Promise<RunResult>;
	/** Any workflow JSON; `fixtures` feed its Source nodes (parameter "fixture"). */
	runWorkflow(
		workflow: WorkflowJson,
		fixtures?: Record<string, FixtureItem[]>,
		credentials?: ICredentialDataDecryptedObject,
		settings?: WorkflowRunSettings,
	): Promise<RunResult>;
	/** The workflow's static data, kept across runs until reset() (as n8n keeps it for an active workflow). */
	staticData: IDataObject;
	/** n8n's deduplication store (in memory), emptied by reset(). */
	deduplicator: MemoryDeduplicator;
	reset(): void;
}

/** The Source node of a workflow: it outputs the fixture items given for 'input'. */
export const sourceNode = (): INode => ({
	id: 'source',
	name: SOURCE_NODE_NAME,
	type: SOURCE_NODE_TYPE,
	typeVersion: 1,
	position: [0, 0],
	parameters: { fixture: 'input' },
});

/** A Document Extraction node (version 1 unless told) using the stored credential 'cred-1'. */
export const actionNode = (
	node: Pick<INode, 'id' | 'name' | 'position' | 'parameters'> & Partial<INode>,
): INode => ({
	type: ACTION_NODE_TYPE,
	typeVersion: 1,
	credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Document Extraction account' } },
	...node,
});

class NodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType | IVersionedNodeType>;

	constructor(types: Record<string, INodeType | IVersionedNodeType>) {
		this.types = types;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type) throw new n8nWorkflow.UnexpectedError(`Unknown node type "${nodeType}"`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const type = this.getByName(nodeType);
		return 'nodeVersions' in type ? type.getNodeType(version) : type;
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(Object.keys(this.types).map((name) => [name, {}]));
	}
}

/** Serializes anything, including an error's non-enumerable message, stack and cause. */
function dump(value: unknown): string {
	const seen = new WeakSet<object>();
	const walk = (current: unknown): unknown => {
		if (current === null || typeof current !== 'object') return current;
		if (Buffer.isBuffer(current)) return `<buffer ${current.length}>`;
		if (seen.has(current)) return '<circular>';
		seen.add(current);
		if (Array.isArray(current)) return current.map(walk);
		const names =
			current instanceof Error ? Object.getOwnPropertyNames(current) : Object.keys(current);
		const result: Record<string, unknown> = {};
		for (const name of names) {
			try {
				result[name] = walk((current as Record<string, unknown>)[name]);
			} catch {
				result[name] = '<unreadable>';
			}
		}
		if (current instanceof Error) result.__toJSON = JSON.stringify(current);
		return result;
	};
	return JSON.stringify(walk(value));
}

let executionCounter = 0;

export async function setupHarness(): Promise<Harness> {
	const waits: number[] = [];
	// The nodes get the one n8n-workflow n8n-core uses (as a community node does inside n8n), with a
	// `sleep` that records instead of waiting.
	vi.doMock('n8n-workflow', () => ({
		...n8nWorkflow,
		sleep: async (ms: number) => {
			waits.push(ms);
		},
	}));
	const { DocumentExtraction } = await import(
		'../../../nodes/DocumentExtraction/DocumentExtraction.node.ts'
	);
	const { DocumentExtractionApi } = await import(
		'../../../credentials/DocumentExtractionApi.credentials.ts'
	);

	const fixtures = new Map<string, FixtureItem[]>();
	const nodeTypes = new NodeTypes({
		[ACTION_NODE_TYPE]: new DocumentExtraction(),
		[SOURCE_NODE_TYPE]: createSourceNode(fixtures),
	});
	const credentialsHelper = new TestCredentialsHelper([
		new DocumentExtractionApi() as ICredentialType,
	]);
	const logger = getLogger();
	await useBinaryMode('filesystem');
	const deduplicator = await useMemoryDeduplicator();
	const staticData: IDataObject = {};

	async function runWorkflow(
		workflowJson: WorkflowJson,
		fixtureItems: Record<string, FixtureItem[]> = {},
		credentials: ICredentialDataDecryptedObject = {},
		settings: WorkflowRunSettings = {},
	): Promise<RunResult> {
		const base = (settings.n8nBaseUrl ?? 'https://localhost:5678').replace(/\/+$/, '');
		fixtures.clear();
		for (const [name, items] of Object.entries(fixtureItems)) fixtures.set(name, items);
		await credentialsHelper.store({
			id: 'cred-1',
			name: 'Document Extraction account',
			type: CREDENTIAL_TYPE,
			data: { ...DEFAULT_CREDENTIALS, ...credentials },
		});

		const executionId = String(++executionCounter);
		const nodes = structuredClone(workflowJson.nodes);
		const workflow = new n8nWorkflow.Workflow({
			id: 'unit-test-workflow',
			name: workflowJson.name ?? 'Unit test',
			nodes,
			connections: workflowJson.connections,
			active: false,
			nodeTypes,
			staticData,
			settings: { executionOrder: 'v1', ...workflowJson.settings },
		});
		const hooks = new n8nCore.ExecutionLifecycleHooks('manual', executionId, {
			id: 'unit-test-workflow',
			name: workflow.name,
			nodes,
			connections: workflowJson.connections,
			active: false,
			isArchived: false,
			activeVersionId: null,
			createdAt: new Date(),
			updatedAt: new Date(),
		} as never);
		const unavailable = (what: string) => async () => {
			throw new n8nWorkflow.UnexpectedError(`${what} is not available in unit tests`);
		};
		const additionalData = {
			credentialsHelper,
			hooks,
			executionId,
			workflowId: 'unit-test-workflow',
			currentNodeExecutionIndex: 0,
			restApiUrl: `${base}/rest`,
			instanceBaseUrl: base,
			formBaseUrl: `${base}/form`,
			formWaitingBaseUrl: `${base}/form-waiting`,
			formTestBaseUrl: `${base}/form-test`,
			webhookBaseUrl: `${base}/webhook`,
			webhookWaitingBaseUrl: `${base}/webhook-waiting`,
			webhookTestBaseUrl: `${base}/webhook-test`,
			mcpBaseUrl: `${base}/mcp`,
			mcpTestBaseUrl: `${base}/mcp-test`,
			variables: {},
			logAiEvent: () => {},
			executeWorkflow: unavailable('executeWorkflow'),
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			startRunnerTask: unavailable('startRunnerTask'),
		} as unknown as IWorkflowExecuteAdditionalData;

		const startNode =
			nodes.find((node) => node.type === SOURCE_NODE_TYPE) ?? workflow.getStartNode();
		const result = (run: IRun, logStart: number): RunResult => {
			const runData = run.data.resultData.runData;
			const logs = logger.entries.slice(logStart);
			const lastTask = (nodeName: string) => runData[nodeName]?.at(-1);
			return {
				run,
				runData,
				logs,
				output: (nodeName = NODE_NAME, outputIndex = 0) =>
					lastTask(nodeName)?.data?.main?.[outputIndex] ?? [],
				outputs: (nodeName = NODE_NAME) =>
					(lastTask(nodeName)?.data?.main ?? []).map((items) => items ?? []),
				error: (nodeName = NODE_NAME) => lastTask(nodeName)?.error as RecordedError | undefined,
				everything: () =>
					[JSON.stringify(run.data), dump(run.data.resultData), dump(logs)].join('\n'),
				deliverToWaitingNode: async (incoming) => {
					if (!run.waitTill) throw new Error('the execution is not waiting');
					const data = structuredClone(run.data);
					const [entry] = data.executionData!.nodeExecutionStack;
					const { answer: told, response: httpResponse } = recordingResponse<unknown>();
					const requestAdditionalData = {
						...additionalData,
						httpRequest: {
							rawBody: incoming.rawBody,
							headers: incoming.headers,
							body: {},
							query: {},
							params: {},
							readRawBody: async () => undefined,
						},
						httpResponse,
					} as unknown as IWorkflowExecuteAdditionalData;
					const nodeType = nodeTypes.getByNameAndVersion(entry.node.type, entry.node.typeVersion);
					const webhookData = {
						httpMethod: 'POST',
						node: entry.node.name,
						path: '',
						webhookDescription: nodeType.description.webhooks![0],
						workflowId: workflow.id,
					} as unknown as IWebhookData;
					const context = new n8nCore.WebhookContext(
						workflow,
						workflow.getNode(entry.node.name)!,
						requestAdditionalData,
						'webhook',
						webhookData,
						[],
						data,
					);
					const result = await nodeType.webhook!.call(context);
					return { result, ...told };
				},
				resumeAfterTimeout: async () => {
					if (!run.waitTill) throw new Error('the execution is not waiting');
					const resumeLogStart = logger.entries.length;
					const resumed = await new n8nCore.WorkflowExecute(
						additionalData,
						'manual',
						structuredClone(run.data),
					).processRunExecutionData(workflow);
					return result(resumed, resumeLogStart);
				},
			};
		};
		const logStart = logger.entries.length;
		return result(
			await new n8nCore.WorkflowExecute(additionalData, 'manual').run({ workflow, startNode }),
			logStart,
		);
	}

	async function run(options: RunOptions): Promise<RunResult> {
		const parameters = structuredClone(options.parameters);
		return await runWorkflow(
			{
				nodes: [
					sourceNode(),
					actionNode({
						id: 'node',
						name: NODE_NAME,
						typeVersion: options.typeVersion ?? 1,
						position: [220, 0],
						parameters,
						...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
						...(options.onError ? { onError: options.onError } : {}),
					}),
				],
				connections: {
					[SOURCE_NODE_NAME]: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
				},
			},
			{ input: options.items ?? [{ json: {} }] },
			options.credentials,
			{ n8nBaseUrl: options.n8nBaseUrl },
		);
	}

	return {
		nodeTypes,
		credentialsHelper,
		waits,
		useBinaryMode,
		run,
		runWorkflow,
		staticData,
		deduplicator,
		reset() {
			waits.length = 0;
			credentialsHelper.authenticated.length = 0;
			credentialsHelper.reads = 0;
			deduplicator.contexts.clear();
			for (const key of Object.keys(staticData)) delete staticData[key];
		},
	};
}
