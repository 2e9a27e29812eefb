/**
 * A hand-made execute context for the unit tests of one step of an operation: only what the steps
 * call, with a deduplication store that behaves as n8n's (a record answers which values were there),
 * static data, the service's answers in order, and a record of what was asked. Whole operations run in
 * n8n's real engine instead (harness/index.ts).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { vi } from 'vitest';

export interface FakeExecuteContext {
	context: IExecuteFunctions;
	/** The deduplication store of the workflow. */
	store: Set<string>;
	staticData: IDataObject;
	requests: IHttpRequestOptions[];
	logs: string[];
	/** When the execution was put to wait, the date it waits until. */
	waitingUntil: () => Date | undefined;
	executeData: { data?: { main: INodeExecutionData[][] }; source?: unknown };
}

export interface FakeOptions {
	parameters?: Record<string, unknown>;
	credentials?: IDataObject;
	/** The service's answers, one per request: a status and a body, or an error thrown by the transport. */
	answers?: Array<{ statusCode: number; body: unknown } | Error>;
	inputItems?: INodeExecutionData[];
	/** The node's version (default 1.1). */
	typeVersion?: number;
}

export function fakeExecuteContext(options: FakeOptions = {}): FakeExecuteContext {
	const store = new Set<string>();
	const staticData: IDataObject = {};
	const requests: IHttpRequestOptions[] = [];
	const logs: string[] = [];
	const answers = [...(options.answers ?? [])];
	let waitingUntil: Date | undefined;
	const executeData: FakeExecuteContext['executeData'] = {
		source: { main: [{ previousNode: 'Start' }] },
	};
	const log = (level: string) => (message: string) => logs.push(`${level}: ${message}`);
	const parameters = options.parameters ?? {};
	const context = {
		getNode: () => ({
			id: 'node-1',
			name: 'Extract',
			type: 'n8n-nodes-document-extraction.documentExtraction',
			typeVersion: options.typeVersion ?? 1.1,
			position: [0, 0],
			parameters: {},
		}),
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
		getInputData: () => options.inputItems ?? [{ json: {} }],
		getCredentials: async () => ({
			baseUrl: 'https://api.example.com',
			apiKey: 'k_UNITTEST',
			tier: 'pilot',
			...options.credentials,
		}),
		getWorkflow: () => ({ id: 'workflow-1', name: 'Fake', active: true }),
		getWorkflowStaticData: () => staticData,
		getExecuteData: () => executeData,
		getExecutionId: () => 'exec-1',
		getContext: () => ({}),
		getWorkflowDataProxy: () => ({ $execution: { customData: { set: () => undefined } } }),
		setMetadata: () => undefined,
		putExecutionToWait: async (until: Date) => {
			waitingUntil = until;
		},
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
		helpers: {
			checkProcessedAndRecord: async (values: string[]) => {
				const processed = values.filter((value) => store.has(value));
				for (const value of values) store.add(value);
				return { new: values.filter((value) => !processed.includes(value)), processed };
			},
			removeProcessed: async (values: string[]) => {
				for (const value of values) store.delete(value);
			},
			httpRequestWithAuthentication: vi.fn(async (_type: string, request: IHttpRequestOptions) => {
				requests.push(request);
				const answer = answers.shift();
				if (!answer) throw new Error(`no answer prepared for request ${requests.length}`);
				if (answer instanceof Error) throw answer;
				return { ...answer, headers: {} };
			}),
		},
	} as unknown as IExecuteFunctions;
	return {
		context,
		store,
		staticData,
		requests,
		logs,
		waitingUntil: () => waitingUntil,
		executeData,
	};
}
