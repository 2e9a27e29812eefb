/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test tooling: local demo/placeholder values, not secrets */
// A client for the n8n 2.x REST API (the one its editor uses, under /rest, authenticated with
// the `n8n-auth` cookie), over HTTPS with the local CA trusted. Endpoints and request shapes were
// read from n8n's source (dist/controllers, dist/workflows, dist/executions, dist/credentials,
// @n8n/api-types DTOs):
//
//   POST   /rest/owner/setup              {email, firstName, lastName, password}   (no auth; once)
//   POST   /rest/login                    {emailOrLdapLoginId, password}
//   POST   /rest/node-types               {nodeInfos: [{name, version}]}
//   GET    /types/nodes.json, /types/credentials.json                         (auth cookie)
//   POST   /rest/credentials              {name, type, data, projectId?}
//   POST   /rest/workflows                {name, nodes, connections, settings?, …}
//   GET    /rest/workflows/:id            → {…, versionId, active, activeVersionId}
//   PATCH  /rest/workflows/:id            {…changes, versionId?}
//   POST   /rest/workflows/:id/activate   {versionId}        ("publish" in n8n 2.x)
//   POST   /rest/workflows/:id/deactivate {}
//   POST   /rest/workflows/:id/run        {triggerToStartFrom: {name}} | {destinationNode: {nodeName, mode}}
//   GET    /rest/executions?filter={"workflowId":…}&limit=N  → {results, count, estimated}
//   GET    /rest/executions/:id           → execution with flatted `data`
//   DELETE /rest/workflows/:id            (only when archived: POST /rest/workflows/:id/archive first)
// Every request carries a `browser-id` header: the auth cookie is bound to it.

import { Agent, request, type Dispatcher } from 'undici';
import { decodeExecution, type DecodedExecution } from './executionData.ts';
import { log, registerSecret } from './log.ts';
import type { Tier } from '../nodes/DocumentExtraction/tierLimits.ts';

export class N8nApiError extends Error {
	status: number;
	body: unknown;
	constructor(message: string, status: number, body: unknown) {
		super(message);
		this.name = 'N8nApiError';
		this.status = status;
		this.body = body;
	}
}

export interface OwnerAccount {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: OwnerAccount = {
	email: 'owner@example.com',
	password: 'Local-Demo-Passw0rd',
	firstName: 'Demo',
	lastName: 'Owner',
};

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	disabled?: boolean;
	[key: string]: unknown;
}

export interface WorkflowDefinition {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	pinData?: Record<string, unknown>;
	meta?: Record<string, unknown>;
	[key: string]: unknown;
}

export interface Workflow extends WorkflowDefinition {
	id: string;
	versionId: string;
	active: boolean;
	activeVersionId?: string | null;
}

export interface Credential {
	id: string;
	name: string;
	type: string;
}

export interface WebhookResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	/** Parsed JSON body, or undefined when the body is not JSON. */
	json: unknown;
}

export interface DocumentExtractionCredentialData {
	baseUrl: string;
	apiKey: string;
	signingSecret?: string;
	tier?: Tier;
}

const TERMINAL_STATUSES = new Set(['success', 'error', 'canceled', 'crashed']);

/** An undici dispatcher that trusts the given CA (PEM) in addition to nothing else. */
export function dispatcherTrusting(caPem: string): Dispatcher {
	return new Agent({ connect: { ca: caPem }, keepAliveTimeout: 4_000 });
}

/** One execution as n8n's execution list shows it. */
export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	startedAt: string | null;
	stoppedAt: string | null;
	waitTill: string | null;
}

export class N8nClient {
	readonly baseUrl: string;
	readonly dispatcher: Dispatcher;
	private cookie = '';
	/** Sent as `browser-id`; the auth cookie is bound to it (the editor keeps it in localStorage "n8n-browserId"). */
	readonly browserId = `e2e-harness-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

	constructor(baseUrl: string, caPem: string | Dispatcher) {
		this.baseUrl = baseUrl.replace(/\/+$/, '');
		this.dispatcher = typeof caPem === 'string' ? dispatcherTrusting(caPem) : caPem;
	}

	/** The value of the `n8n-auth` cookie (for a browser session, e.g. Playwright). */
	get authCookie(): string {
		return this.cookie.replace(/^n8n-auth=/, '');
	}

	/**
	 * What a browser (e.g. Playwright) needs to reuse this client's login: the cookie, and the
	 * localStorage entry that makes the editor send the same browser id. Call after login.
	 */
	browserSession(): {
		cookies: Array<{
			name: string;
			value: string;
			domain: string;
			path: string;
			secure: boolean;
			httpOnly: boolean;
			sameSite: 'Lax';
		}>;
		localStorage: Record<string, string>;
	} {
		const { hostname } = new URL(this.baseUrl);
		return {
			cookies: [
				{
					name: 'n8n-auth',
					value: this.authCookie,
					domain: hostname,
					path: '/',
					secure: true,
					httpOnly: true,
					sameSite: 'Lax',
				},
			],
			localStorage: { 'n8n-browserId': this.browserId },
		};
	}

	/** Low-level JSON request against n8n; returns `data` of n8n's `{data}` envelope. */
	async call<T = unknown>(
		method: Dispatcher.HttpMethod,
		path: string,
		body?: unknown,
		options: { query?: Record<string, string> } = {},
	): Promise<T> {
		const url = new URL(this.baseUrl + path);
		for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
		const headers: Record<string, string> = {
			accept: 'application/json',
			'browser-id': this.browserId,
		};
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const res = await request(url, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			dispatcher: this.dispatcher,
		});
		this.takeCookie(res.headers['set-cookie']);
		const text = await res.body.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON
		}
		if (res.statusCode >= 400) {
			const message =
				(parsed && typeof parsed === 'object' && 'message' in parsed
					? String((parsed as { message: unknown }).message)
					: text.slice(0, 500)) || `HTTP ${res.statusCode}`;
			throw new N8nApiError(
				`${method} ${path} → ${res.statusCode}: ${message}`,
				res.statusCode,
				parsed,
			);
		}
		if (parsed && typeof parsed === 'object' && 'data' in parsed)
			return (parsed as { data: T }).data;
		return parsed as T;
	}

	private takeCookie(setCookie: string | string[] | undefined): void {
		const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
		for (const c of list) {
			const first = c.split(';')[0];
			if (first.startsWith('n8n-auth=')) this.cookie = first;
		}
	}

	// ---------------------------------------------------------------- users

	/** Whether the owner account has been set up (from the public settings). */
	async isOwnerSetUp(): Promise<boolean> {
		const settings = await this.call<{ userManagement?: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/rest/settings',
		);
		return settings.userManagement?.showSetupOnFirstLoad === false;
	}

	/** Sets up the owner account if the instance has none yet, then logs in. */
	async setupOwnerAndLogin(owner: OwnerAccount = DEFAULT_OWNER): Promise<void> {
		// The owner password is a local demo value that `npm start` prints on purpose; not masked.
		if (!(await this.isOwnerSetUp())) {
			await this.call('POST', '/rest/owner/setup', owner);
			log('n8n-api', `owner ${owner.email} set up`);
		}
		await this.login(owner.email, owner.password);
	}

	async login(email: string, password: string): Promise<void> {
		await this.call('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	}

	// ---------------------------------------------------------------- types

	/** All node types the editor knows (`/types/nodes.json`). */
	async nodeTypes(): Promise<
		Array<{ name: string; version: number | number[]; displayName: string; [key: string]: unknown }>
	> {
		return await this.call('GET', '/types/nodes.json');
	}

	/** All credential types the editor knows (`/types/credentials.json`). */
	async credentialTypes(): Promise<
		Array<{
			name: string;
			displayName: string;
			properties: Array<{ name: string }>;
			[key: string]: unknown;
		}>
	> {
		return await this.call('GET', '/types/credentials.json');
	}

	/** Node descriptions from the backend's node-type registry. */
	async nodeDescriptions(
		nodeInfos: Array<{ name: string; version: number }>,
	): Promise<Array<Record<string, unknown>>> {
		return await this.call('POST', '/rest/node-types', { nodeInfos });
	}

	// ---------------------------------------------------------------- credentials

	async createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<Credential> {
		const created = await this.call<Credential>('POST', '/rest/credentials', { name, type, data });
		return { id: created.id, name: created.name, type: created.type };
	}

	/** Creates a credential of type `documentExtractionApi` (secrets are masked in all logs). */
	async createDocumentExtractionCredential(
		name: string,
		data: DocumentExtractionCredentialData,
	): Promise<Credential> {
		registerSecret(data.apiKey);
		registerSecret(data.signingSecret);
		return await this.createCredential(name, 'documentExtractionApi', {
			baseUrl: data.baseUrl,
			apiKey: data.apiKey,
			signingSecret: data.signingSecret ?? '',
			tier: data.tier ?? 'pilot',
		});
	}

	/** Replaces a credential's data (and name/type if given): `PATCH /rest/credentials/:id`. */
	async updateCredential(
		id: string,
		changes: { name?: string; type?: string; data: Record<string, unknown> },
	): Promise<Credential> {
		for (const value of Object.values(changes.data))
			if (typeof value === 'string') registerSecret(value);
		const updated = await this.call<Credential>(
			'PATCH',
			`/rest/credentials/${encodeURIComponent(id)}`,
			changes,
		);
		return { id: updated.id, name: updated.name, type: updated.type };
	}

	// ---------------------------------------------------------------- data tables

	/** The Data Tables of the owner's personal project, where a workflow of theirs keeps them. */
	private async dataTables(): Promise<{
		path: string;
		tables: Array<{ id: string; name: string }>;
	}> {
		const project = await this.call<{ id: string }>('GET', '/rest/projects/personal');
		const path = `/rest/projects/${project.id}/data-tables`;
		return {
			path,
			tables: (
				await this.call<{ data: Array<{ id: string; name: string }> }>('GET', `${path}?take=250`)
			).data,
		};
	}

	/** The path of the Data Table named `name`; undefined when there is none. */
	private async dataTablePath(name: string): Promise<string | undefined> {
		const { path, tables } = await this.dataTables();
		const table = tables.find((candidate) => candidate.name === name);
		return table ? `${path}/${table.id}` : undefined;
	}

	/** Whether the owner's personal project has a Data Table named `name`. */
	async dataTableExists(name: string): Promise<boolean> {
		return (await this.dataTablePath(name)) !== undefined;
	}

	/** The rows of the Data Table named `name` (oldest first); none when it does not exist. */
	async dataTableRows(name: string): Promise<Array<Record<string, unknown>>> {
		const table = await this.dataTablePath(name);
		if (!table) return [];
		return (
			await this.call<{ data: Array<Record<string, unknown>> }>(
				'GET',
				`${table}/rows?take=250&sortBy=id:asc`,
			)
		).data;
	}

	/** Creates the Data Table `name` with `columns`, as a person does in the Data tables page. */
	async createDataTable(
		name: string,
		columns: Array<{ name: string; type: 'string' | 'number' | 'boolean' | 'date' }>,
	): Promise<void> {
		const { path } = await this.dataTables();
		await this.call('POST', path, { name, columns });
	}

	/** Inserts rows into the Data Table named `name`. */
	async insertDataTableRows(name: string, rows: Array<Record<string, string>>): Promise<void> {
		const table = await this.dataTablePath(name);
		if (!table) throw new Error(`no Data Table "${name}"`);
		await this.call('POST', `${table}/insert`, { data: rows, returnType: 'count' });
	}

	/** Sets `changes` on the rows of the Data Table named `name` whose `column` is `value`. */
	async updateDataTableRows(
		name: string,
		match: { column: string; value: string },
		changes: Record<string, string>,
	): Promise<void> {
		const table = await this.dataTablePath(name);
		if (!table) throw new Error(`no Data Table "${name}"`);
		await this.call('PATCH', `${table}/rows`, {
			filter: {
				type: 'and',
				filters: [{ columnName: match.column, condition: 'eq', value: match.value }],
			},
			data: changes,
		});
	}

	/** Deletes every Data Table of the owner's personal project. */
	async deleteDataTables(): Promise<void> {
		const { path, tables } = await this.dataTables();
		for (const table of tables) await this.call('DELETE', `${path}/${table.id}`);
	}

	async deleteCredential(id: string): Promise<void> {
		await this.call('DELETE', `/rest/credentials/${encodeURIComponent(id)}`);
	}

	async listCredentials(): Promise<Credential[]> {
		return await this.call('GET', '/rest/credentials');
	}

	// ---------------------------------------------------------------- workflows

	/**
	 * Creates a workflow. `credentials` maps a credential type to the credential to use: every node
	 * that references that type (in an exported workflow, with ids of another instance) is pointed
	 * at it.
	 */
	async createWorkflow(
		definition: WorkflowDefinition,
		options: { credentials?: Record<string, Credential> } = {},
	): Promise<Workflow> {
		const body = prepareWorkflow(definition, options.credentials ?? {});
		return await this.call<Workflow>('POST', '/rest/workflows', body);
	}

	async getWorkflow(id: string): Promise<Workflow> {
		return await this.call('GET', `/rest/workflows/${encodeURIComponent(id)}`);
	}

	async listWorkflows(): Promise<Workflow[]> {
		return await this.call('GET', '/rest/workflows');
	}

	async updateWorkflow(id: string, changes: Partial<WorkflowDefinition>): Promise<Workflow> {
		const current = await this.getWorkflow(id);
		return await this.call('PATCH', `/rest/workflows/${encodeURIComponent(id)}`, {
			...changes,
			versionId: current.versionId,
		});
	}

	/** Publishes (activates) the workflow's current version. Triggers and webhooks go live. */
	async activateWorkflow(id: string): Promise<Workflow> {
		const current = await this.getWorkflow(id);
		return await this.call('POST', `/rest/workflows/${encodeURIComponent(id)}/activate`, {
			versionId: current.versionId,
		});
	}

	async deactivateWorkflow(id: string): Promise<Workflow> {
		return await this.call('POST', `/rest/workflows/${encodeURIComponent(id)}/deactivate`, {});
	}

	/**
	 * Archives then deletes a workflow (n8n 2.x deletes archived workflows only). n8n 2.41 unpublishes
	 * in the background and answers the delete 409 until it has, so the delete is tried again.
	 */
	async deleteWorkflow(id: string): Promise<void> {
		const path = `/rest/workflows/${encodeURIComponent(id)}`;
		const wf = (await this.getWorkflow(id)) as Workflow & { isArchived?: boolean };
		if (wf.active) await this.deactivateWorkflow(id);
		if (!wf.isArchived) await this.call('POST', `${path}/archive`, {});
		for (let attempt = 1; ; attempt++) {
			const refused = await this.call('DELETE', path).then(
				() => undefined,
				(error: unknown) => error,
			);
			if (refused === undefined) return;
			const unpublishing = refused instanceof N8nApiError && refused.status === 409;
			if (!unpublishing || attempt === 60) return Promise.reject(refused);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}

	/**
	 * Runs a workflow manually, as the editor's "Execute workflow" does, starting from the named
	 * trigger (e.g. a Manual Trigger). Returns the execution id (the run goes on in n8n).
	 */
	async runWorkflowManually(id: string, triggerName: string): Promise<string> {
		const result = await this.call<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${encodeURIComponent(id)}/run`,
			{
				triggerToStartFrom: { name: triggerName },
			},
		);
		if (!result.executionId)
			throw new Error(`manual run of ${id} started no execution: ${JSON.stringify(result)}`);
		return result.executionId;
	}

	// ---------------------------------------------------------------- webhooks

	/** Whether n8n serves a production webhook at `path` for `method` right now (CORS preflight probe). */
	async isWebhookServed(path: string, method = 'POST'): Promise<boolean> {
		const res = await request(`${this.baseUrl}/webhook/${path.replace(/^\/+/, '')}`, {
			method: 'OPTIONS',
			headers: { origin: this.baseUrl, 'access-control-request-method': method },
			dispatcher: this.dispatcher,
		});
		await res.body.text();
		const allowed = String(res.headers['access-control-allow-methods'] ?? '');
		return (
			res.statusCode < 300 &&
			allowed
				.split(',')
				.map((m) => m.trim())
				.includes(method)
		);
	}

	/**
	 * Waits until n8n serves (or, with `gone: true`, no longer serves) a production webhook at
	 * `path` for `method`: activation and deactivation take effect asynchronously. Probes with a
	 * CORS preflight, which never runs the workflow.
	 */
	async waitForWebhook(
		path: string,
		method = 'POST',
		options: { timeoutMs?: number; gone?: boolean } = {},
	): Promise<void> {
		const timeoutMs = options.timeoutMs ?? 30_000;
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const served = await this.isWebhookServed(path, method);
			if (served !== Boolean(options.gone)) return;
			if (Date.now() > deadline) {
				throw new Error(
					`n8n ${options.gone ? 'still serves' : 'does not serve'} ${method} /webhook/${path} after ${timeoutMs} ms`,
				);
			}
			await new Promise((r) => setTimeout(r, 250));
		}
	}

	/** Calls a production webhook (`/webhook/<path>`) or, with `test: true`, a test webhook. */
	async callWebhook(
		path: string,
		options: {
			method?: Dispatcher.HttpMethod;
			json?: unknown;
			body?: string | Buffer;
			headers?: Record<string, string>;
			test?: boolean;
			timeoutMs?: number;
		} = {},
	): Promise<WebhookResponse> {
		const url = `${this.baseUrl}/${options.test ? 'webhook-test' : 'webhook'}/${path.replace(/^\/+/, '')}`;
		const headers: Record<string, string> = { ...(options.headers ?? {}) };
		let body: string | Buffer | undefined = options.body;
		if (options.json !== undefined) {
			body = JSON.stringify(options.json);
			headers['content-type'] ??= 'application/json';
		}
		const res = await request(url, {
			method: options.method ?? 'POST',
			headers,
			body,
			dispatcher: this.dispatcher,
			headersTimeout: options.timeoutMs ?? 120_000,
			bodyTimeout: options.timeoutMs ?? 120_000,
		});
		const text = await res.body.text();
		let json: unknown;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		return { status: res.statusCode, headers: res.headers, text, json };
	}

	// ---------------------------------------------------------------- executions

	/**
	 * Executions of a workflow, newest first (summaries; no data), at most `limit` (default 100).
	 * n8n answers at most 100 per request (2.41 refuses a larger `limit`), so larger lists are read
	 * page by page (see below).
	 */
	async listExecutions(
		workflowId: string,
		options: { limit?: number; status?: string[] } = {},
	): Promise<ExecutionSummary[]> {
		const filter: Record<string, unknown> = { workflowId };
		if (options.status) filter.status = options.status;
		const limit = options.limit ?? 100;
		// By id, the last listing winning: an execution whose status changed while the pages were read
		// can be listed twice.
		const listed = new Map<string, ExecutionSummary>();
		// n8n from 2.41 answers with an opaque `nextCursor` and refuses `lastId`; earlier versions page
		// by `lastId`. 2.41 orders a page by start time but its cursor continues below the last row's
		// id, so executions that started out of id order (queue mode) fall between pages: it is paged
		// here by start time instead (`startedBefore` is inclusive, hence the listing by id).
		let startedBefore: string | undefined;
		let lastId: string | undefined;
		while (listed.size < limit) {
			const known = listed.size;
			const query: Record<string, string> = {
				filter: JSON.stringify(startedBefore ? { ...filter, startedBefore } : filter),
				limit: '100',
			};
			if (lastId) query.lastId = lastId;
			const answer = await this.call<{ results: ExecutionSummary[]; nextCursor?: string | null }>(
				'GET',
				'/rest/executions',
				undefined,
				{ query },
			);
			for (const summary of answer.results) listed.set(summary.id, summary);
			const last = answer.results.at(-1);
			if ('nextCursor' in answer) {
				if (!answer.nextCursor || !last?.startedAt) break;
				if (listed.size === known)
					throw new Error(
						`more than 100 executions of workflow ${workflowId} started at ${last.startedAt}: cannot page by start time`,
					);
				startedBefore = last.startedAt;
			} else {
				if (answer.results.length < 100 || !last) break;
				lastId = last.id;
			}
		}
		return [...listed.values()].slice(0, limit);
	}

	/** One execution with its data decoded (per-node output items: see executionData.ts). */
	async getExecution(id: string): Promise<DecodedExecution> {
		const raw = await this.call<Record<string, unknown>>(
			'GET',
			`/rest/executions/${encodeURIComponent(id)}`,
		);
		return decodeExecution(raw);
	}

	/**
	 * Retries a failed execution as the editor's "Retry" does (`loadWorkflow: false`: "Retry with
	 * original workflow"; true: "Retry with currently saved workflow"): n8n runs it again from the node
	 * that failed, with that node's saved input, as a new execution in mode `retry`. n8n answers once
	 * the retry has finished; returns the new execution's id.
	 */
	async retryExecution(id: string, options: { loadWorkflow?: boolean } = {}): Promise<string> {
		const retried = await this.call<{ id?: string | number }>(
			'POST',
			`/rest/executions/${encodeURIComponent(id)}/retry`,
			{ loadWorkflow: options.loadWorkflow ?? false },
		);
		if (retried?.id === undefined)
			throw new Error(`retry of execution ${id} returned no execution: ${JSON.stringify(retried)}`);
		return String(retried.id);
	}

	/** Polls an execution until it has finished (success/error/canceled/crashed), or `until` says so. */
	async waitForExecution(
		id: string,
		options: { timeoutMs?: number; until?: (e: DecodedExecution) => boolean } = {},
	): Promise<DecodedExecution> {
		const deadline = Date.now() + (options.timeoutMs ?? 60_000);
		const done = options.until ?? ((e: DecodedExecution) => TERMINAL_STATUSES.has(e.status));
		for (;;) {
			const execution = await this.getExecution(id);
			if (done(execution)) return execution;
			if (Date.now() > deadline)
				throw new Error(
					`execution ${id} still "${execution.status}" after ${options.timeoutMs ?? 60_000} ms`,
				);
			await new Promise((r) => setTimeout(r, 500));
		}
	}

	/**
	 * Waits until a workflow has at least `count` executions matching `filter` (default: any
	 * finished one) and returns them decoded, oldest first.
	 */
	async waitForExecutions(
		workflowId: string,
		count: number,
		options: { timeoutMs?: number; filter?: (e: { status: string }) => boolean } = {},
	): Promise<DecodedExecution[]> {
		const deadline = Date.now() + (options.timeoutMs ?? 60_000);
		const filter = options.filter ?? ((e: { status: string }) => TERMINAL_STATUSES.has(e.status));
		for (;;) {
			const all = await this.listExecutions(workflowId);
			const list = all.filter(filter);
			if (list.length >= count) {
				const decoded: DecodedExecution[] = [];
				for (const e of list.slice().reverse()) decoded.push(await this.getExecution(e.id));
				return decoded;
			}
			if (Date.now() > deadline) {
				throw new Error(
					`workflow ${workflowId} has ${list.length} matching execution(s), expected ${count}, after ${options.timeoutMs ?? 60_000} ms (all: ${all.map((e) => `${e.id} ${e.status}`).join(', ') || 'none'})`,
				);
			}
			await new Promise((r) => setTimeout(r, 500));
		}
	}
}

/**
 * Strips what an exported workflow carries from its old instance (id, versionId, active flags,
 * ownership) and points its credential references at this instance's credentials by type.
 */
export function prepareWorkflow(
	definition: WorkflowDefinition,
	credentialsByType: Record<string, Credential>,
): WorkflowDefinition {
	const { name, nodes, connections, settings, pinData, meta } = definition;
	const preparedNodes = nodes.map((node) => {
		if (!node.credentials) return node;
		const credentials: Record<string, { id: string; name: string }> = {};
		for (const [type, ref] of Object.entries(node.credentials)) {
			const mine = credentialsByType[type];
			credentials[type] = mine ? { id: mine.id, name: mine.name } : ref;
		}
		return { ...node, credentials };
	});
	const body: WorkflowDefinition = {
		name,
		nodes: preparedNodes,
		connections,
		settings: settings ?? { executionOrder: 'v1' },
	};
	if (pinData) body.pinData = pinData;
	if (meta) body.meta = meta;
	return body;
}
