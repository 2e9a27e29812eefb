/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs `npm start`'s script as a user does */
// `npm start` keeps its data: the script itself (scripts/start.ts, as `npm start` runs it) is started
// twice on the same data folder (its default location, moved into a temporary folder for the test):
// the second run shows the same example workflows (same ids, still active, none added twice), the one
// credential, and the execution made during the first run. `--fresh` starts from an empty folder.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
	DEFAULT_OWNER,
	N8nClient,
	REPO_ROOT,
	ensureCerts,
	eventually,
	freePort,
	loadExampleWorkflows,
	node24,
	stopAll,
} from '../../local-n8n/index.ts';
import { cleanChildEnv } from '../../local-n8n/npmEnv.ts';

const CREDENTIAL_NAME = 'Document Extraction (sandbox)';
const dataHome = mkdtempSync(join(tmpdir(), 'start-persistence-'));
const running = new Set<ChildProcess>();

interface Started {
	process: ChildProcess;
	output: () => string;
	client: N8nClient;
	dataDir: string;
}

/** Runs `node scripts/start.ts --no-build <args>` until it says it is running; logs in as the owner. */
async function startScript(args: string[] = []): Promise<Started> {
	const port = await freePort(5800);
	const sandboxPort = await freePort(4100);
	const child = spawn(
		node24(),
		[
			'scripts/start.ts',
			'--no-build',
			'--port',
			String(port),
			'--sandbox-port',
			String(sandboxPort),
			...args,
		],
		{
			cwd: REPO_ROOT,
			env: cleanChildEnv({ N8N_LOCAL_DATA_DIR: dataHome }),
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	running.add(child);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	await new Promise<void>((resolve, reject) => {
		const timer = setInterval(() => {
			if (/ is running \(ready in/.test(output)) {
				clearInterval(timer);
				resolve();
			}
		}, 250);
		child.once('exit', (code) => {
			clearInterval(timer);
			reject(
				new Error(`npm start exited (${code}) before it was running:\n${output.slice(-3000)}`),
			);
		});
	});
	const dataDir = output.match(/^Data folder: (\S+)/m)?.[1];
	if (!dataDir) throw new Error(`npm start did not print its data folder:\n${output}`);
	const client = new N8nClient(`https://localhost:${port}`, ensureCerts().caPem);
	await client.login(DEFAULT_OWNER.email, DEFAULT_OWNER.password);
	return { process: child, output: () => output, client, dataDir };
}

/** Ctrl-C, as a user stops it; waits until it has stopped everything and exited. */
async function stopScript(started: Started): Promise<void> {
	const exited = new Promise<number | null>((resolve) => started.process.once('exit', resolve));
	started.process.kill('SIGINT');
	expect(await exited).toBe(0);
	running.delete(started.process);
}

async function snapshot(client: N8nClient) {
	const workflows = await client.listWorkflows();
	const credentials = (await client.listCredentials()).filter(
		(c) => c.type === 'documentExtractionApi',
	);
	const executions = (await Promise.all(workflows.map((w) => client.listExecutions(w.id))))
		.flat()
		.map((e) => e.id);
	return {
		workflows: workflows
			.map((w) => ({ id: w.id, name: w.name, active: w.active }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		credentials,
		executions,
	};
}

/** Sends examples/files/invoice-acme.json to the first active example with a Webhook, as the script's own hint does. */
async function sendInvoice(started: Started): Promise<string> {
	const hint = started.output().match(/-F (\w+)=@(\S+) (https:\/\/\S+\/webhook\/(\S+))/);
	if (!hint) throw new Error(`npm start printed no curl hint:\n${started.output()}`);
	const [, field, file, , path] = hint;
	const form = new FormData();
	form.append(
		field,
		new Blob([readFileSync(join(REPO_ROOT, file))], { type: 'application/json' }),
		'invoice-acme.json',
	);
	const encoded = new Response(form);
	const response = await started.client.callWebhook(path, {
		body: Buffer.from(await encoded.arrayBuffer()),
		headers: { 'content-type': encoded.headers.get('content-type') as string },
	});
	expect(response.status, response.text).toBe(200);
	return path;
}

describe('npm start keeps its data', () => {
	const examples = loadExampleWorkflows()
		.map((e) => e.workflow.name)
		.sort();
	let first: Awaited<ReturnType<typeof snapshot>>;
	let firstDataDir = '';

	afterAll(async () => {
		for (const child of running) child.kill('SIGKILL');
		await stopAll();
		rmSync(dataHome, { recursive: true, force: true });
	});

	it('a first run imports the examples and the credential into the default data folder and records an execution', async () => {
		const started = await startScript();
		firstDataDir = started.dataDir;
		expect(firstDataDir.startsWith(dataHome)).toBe(true);
		await sendInvoice(started);
		first = await eventually(
			'an execution of the invoice sent',
			() => snapshot(started.client),
			(state) => state.executions.length >= 1,
		);
		expect(first.workflows.map((w) => w.name)).toEqual(examples);
		expect(first.credentials.map((c) => c.name)).toEqual([CREDENTIAL_NAME]);
		expect(first.executions.length).toBeGreaterThanOrEqual(1);
		await stopScript(started);
	});

	it('a second run shows the same workflows, credential and executions, nothing added twice', async () => {
		const started = await startScript();
		expect(started.dataDir).toBe(firstDataDir);
		const second = await snapshot(started.client);
		expect(second.workflows).toEqual(first.workflows);
		expect(second.credentials.map((c) => c.id)).toEqual(first.credentials.map((c) => c.id));
		expect(second.executions).toEqual(expect.arrayContaining(first.executions));
		await stopScript(started);
	});

	it('--fresh starts from an empty, temporary folder and removes it afterwards', async () => {
		const started = await startScript(['--fresh']);
		expect(started.dataDir.startsWith(dataHome)).toBe(false);
		const fresh = await snapshot(started.client);
		expect(fresh.workflows.map((w) => w.name)).toEqual(examples);
		expect(
			fresh.workflows.map((w) => w.id).some((id) => first.workflows.some((w) => w.id === id)),
		).toBe(false);
		expect(fresh.executions).toEqual([]);
		expect(fresh.credentials).toHaveLength(1);
		await stopScript(started);
		expect(existsSync(started.dataDir)).toBe(false);
		expect(existsSync(firstDataDir)).toBe(true);
	});
});
