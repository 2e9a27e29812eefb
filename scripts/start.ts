/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// `npm start`: the whole thing, locally, from a fresh clone.
//   1. n8n (N8N_VERSION in local-n8n/paths.ts) in ~/.cache/n8n-nodes-document-extraction
//      (installed on first run, with progress)
//   2. a local CA + localhost certificate (n8n serves HTTPS; the sandbox trusts the CA)
//   3. the sandbox (the Document Extraction service) on http://127.0.0.1:4010
//   4. this package built, packed (`npm pack`) and installed into n8n's user folder the way n8n
//      documents manual installation (`npm install` into `.n8n/nodes`), then n8n started
//   5. the owner account, a Document Extraction credential for the sandbox's pilot account, and the
//      example workflows (examples/*.json) imported and activated; Invoice to Xero and Invoice to
//      QuickBooks post to local stand-ins of those APIs (local-n8n/accounting/); the approval
//      example emails through a local SMTP server (local-n8n/mail/) whose messages are printed
//   6. the two email-to-books templates published against a local mailbox each (Dovecot when
//      installed, else the IMAP server in Node: no system package; LOCAL_IMAP_SERVER=node|dovecot
//      chooses), the SMTP server and the stand-ins; `npm run send-invoice` (scripts/sendInvoice.ts)
//      mails them invoices, finding this start through its record (scripts/runningStart.ts)
// Ctrl-C stops everything it started. A workflow it could not publish is listed with the reason.
//
// Data: n8n's data (workflows, credential, executions) and the sandbox's state live in one folder
// that the next `npm start` reuses (default ~/.local/share/n8n-nodes-document-extraction, see
// localDataDir()); the examples and the credential are updated or skipped there, never added twice.
//
// Options: --port <n8n https port> (default 5678, else a free one), --sandbox-port <port> (default
// 4010), --data <folder> (keep the data there instead), --fresh (a throwaway folder, removed at
// the end), --no-build (skip `npm run build`), --queue (n8n in queue mode: Postgres, Redis, main + 2
// workers + 2 webhook processes behind HAProxy, always fresh; see docs/queue-mode.md; the only
// option that needs system programs: PostgreSQL, Redis, HAProxy, installed with apt-get when run as
// root on Debian, else one message says how to install them), --balance roundrobin|signature (the
// load balancer's mode with --queue, default signature),
// --lazy-isolates (with --queue: N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on every n8n process, the
// setting docs/queue-mode.md recommends for trigger throughput; off by default, as in n8n).
// Run with Node 24: `node scripts/start.ts` (npm scripts put the project's Node 24 first on PATH).

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
	DEFAULT_OWNER,
	QUEUE_MODE_REQUIREMENTS,
	REPO_ROOT,
	artifactsDir,
	ensureCerts,
	ensureRequirements,
	freePort,
	importWorkflows,
	isActivatable,
	missingCredentialTypes,
	missingCredentialsNote,
	loadExampleWorkflows,
	MINIMUM_NODE_MAJOR,
	localDataDir,
	makeTmpDir,
	say,
	sandboxAccount,
	setSignalHandling,
	startSandboxProcess,
	startQueueStack,
	startStack,
	stopAll,
	tailFile,
	waitForWorkflowWebhooks,
	type Credential,
	type QueueStack,
	type Stack,
	type WorkflowDefinition,
} from '../local-n8n/index.ts';
import {
	connectedOAuth2Credential,
	startQuickBooksStandIn,
	startXeroStandIn,
	withSettings,
} from '../local-n8n/accounting/index.ts';
import {
	APPROVALS_SMTP_CREDENTIAL_NAME,
	createSmtpCredential,
	startMailServer,
	startMailViewer,
	type MailMessage,
} from '../local-n8n/mail/index.ts';
import { EMAIL_TO_BOOKS, startMailboxes, type Mailboxes } from './mailboxes.ts';
import { APPROVAL_POLICY_TABLE, seedDemoPolicy } from './demoPolicy.ts';
import { MORNING_DIGEST, sendMorningDigest } from './morningDigest.ts';
import { recordStart } from './runningStart.ts';

const { values: args } = parseArgs({
	options: {
		port: { type: 'string' },
		'sandbox-port': { type: 'string' },
		data: { type: 'string' },
		fresh: { type: 'boolean', default: false },
		'no-build': { type: 'boolean', default: false },
		queue: { type: 'boolean', default: false },
		balance: { type: 'string', default: 'signature' },
		'lazy-isolates': { type: 'boolean', default: false },
		help: { type: 'boolean', short: 'h', default: false },
	},
});

if (args.help) {
	say(
		'Usage: node scripts/start.ts [--port 5678] [--sandbox-port 4010] [--data <folder> | --fresh] [--no-build] [--queue [--balance roundrobin|signature] [--lazy-isolates]]',
	);
	process.exit(0);
}

if (args.fresh && args.data) {
	process.stderr.write(
		'Choose one: --data <folder> keeps the data there, --fresh throws it away.\n',
	);
	process.exit(1);
}
if (args.queue && args.data) {
	process.stderr.write(
		"--data keeps a single n8n's SQLite data; --queue starts a fresh Postgres each time. Use one or the other.\n",
	);
	process.exit(1);
}
if (args.balance !== 'signature' && args.balance !== 'roundrobin') {
	process.stderr.write(`--balance must be roundrobin or signature (got ${args.balance}).\n`);
	process.exit(1);
}

if (Number(process.versions.node.split('.')[0]) < MINIMUM_NODE_MAJOR) {
	process.stderr.write(
		`This script needs Node ${MINIMUM_NODE_MAJOR} or newer (found ${process.version}). Run it through npm: "npm start".\n`,
	);
	process.exit(1);
}

// Queue mode needs Postgres, Redis and HAProxy; the single-process demo needs nothing but Node.
if (args.queue) {
	try {
		await ensureRequirements(QUEUE_MODE_REQUIREMENTS, '`npm start -- --queue`');
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		process.exit(1);
	}
}

/** The name the example workflows reference (their credential ids are replaced on import). */
const CREDENTIAL_NAME = 'Document Extraction (sandbox)';
const XERO_CREDENTIAL_NAME = 'Xero (local stand-in)';
const XERO_STAND_IN_TOKEN = 'local-stand-in-token';
const QUICKBOOKS_CREDENTIAL_NAME = 'QuickBooks (local stand-in)';
const QUICKBOOKS_STAND_IN_TOKEN = 'local-stand-in-token';
/** The local mail server's port when free: a kept SMTP credential then still points at it. */
/**
 * How long the sandbox's own reviewer takes to approve a scan in review (its default is 90 s): long
 * enough to see the invoice wait, short enough to watch the whole job. SANDBOX_REVIEW_DELAY_MS wins.
 */
const REVIEW_DELAY_MS = Number(process.env.SANDBOX_REVIEW_DELAY_MS ?? 20_000);
const MAIL_PORT = 2525;
/** The page of the emails n8n sent, when free. */
const MAIL_VIEWER_PORT = 2580;

let stopping = false;
let stack: Stack | undefined;
let queueStack: QueueStack | undefined;

async function shutdown(code: number): Promise<never> {
	if (!stopping) {
		stopping = true;
		say('\nStopping n8n and the sandbox ...');
		await stack?.stop().catch(() => undefined);
		await stopAll();
		say('Stopped.');
	}
	process.exit(code);
}

// Our own handlers: a clean message, then every process group the harness started is stopped.
setSignalHandling(false);
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

/** A received email in the log: who, subject, and the links a person opens (e.g. the approval form). */
function printMail(message: MailMessage): void {
	say(`[mail] to ${message.to.join(', ')}: ${message.subject}`);
	for (const link of message.links) say(`[mail]   ${link}`);
	if (message.attachments.length > 0) say(`[mail]   attached: ${message.attachments.join(', ')}`);
}

/** The binary field the Document Extraction node after `webhookName` reads (the multipart field to send). */
function binaryFieldAfter(
	workflow: {
		nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
		connections: Record<string, unknown>;
	},
	webhookName: string,
): string {
	const next = (
		workflow.connections[webhookName] as { main?: Array<Array<{ node: string }>> } | undefined
	)?.main?.[0]?.[0]?.node;
	const node = workflow.nodes.find((n) => n.name === next);
	const field = node?.parameters.binaryPropertyName;
	return typeof field === 'string' && field ? field : 'file';
}

/**
 * Why a workflow is not published, in the terms of what this start did: a credential it could not
 * make says why (no IMAP server, no pilot account), one it does not make says to connect it.
 */
function unpublishedBecause(
	workflow: WorkflowDefinition,
	credentials: Record<string, Credential>,
	context: { mailboxes: Mailboxes; isTemplate: boolean; credentialNote: string; error: string },
): string {
	const missing = missingCredentialTypes(workflow, credentials);
	if (missing.length === 0) return context.error;
	return missing
		.map((type) => {
			if (type === 'imap' && context.isTemplate && !context.mailboxes.started)
				return `no IMAP server: ${context.mailboxes.failure ?? context.mailboxes.note}`;
			if (type === 'documentExtractionApi')
				return `credential "${CREDENTIAL_NAME}" ${context.credentialNote}`;
			return `credential ${type} not connected: connect it in the editor, then Publish it`;
		})
		.join('; ');
}

async function main(): Promise<void> {
	const t0 = Date.now();
	say(
		'Document Extraction for n8n: starting the local demo (first run installs n8n: several minutes).',
	);
	const tls = ensureCerts();
	const dataDir = args.fresh ? makeTmpDir('n8n-demo') : resolve(args.data ?? localDataDir());
	mkdirSync(dataDir, { recursive: true });
	// Where this start runs, for `npm run send-invoice` (removed when it stops).
	const record = recordStart({
		pid: process.pid,
		dataDir,
		startedAt: new Date().toISOString(),
		state: 'starting',
	});
	say(
		`Data folder: ${dataDir}${args.fresh ? ' (temporary: removed when this stops)' : ' (kept: the next npm start continues with it; --fresh for an empty one)'}`,
	);

	// The sandbox first: the credential needs its address and demo key.
	const sandboxPort = args['sandbox-port'] ? Number(args['sandbox-port']) : await freePort(4010);
	// Its state (documents, reviews, webhook registrations) is kept with n8n's data.
	const sandbox = await startSandboxProcess(tls, {
		port: sandboxPort,
		env: {
			SANDBOX_STATE_FILE: join(dataDir, 'sandbox-state.json'),
			SANDBOX_REVIEW_DELAY_MS: String(REVIEW_DELAY_MS),
		},
	});

	const n8nPort = args.port ? Number(args.port) : await freePort(5678);
	const filesDir = join(REPO_ROOT, 'examples', 'files');
	const userFolder = join(dataDir, 'n8n');
	if (args.queue) {
		queueStack = await startQueueStack({
			package: 'repo',
			build: !args['no-build'],
			mainPort: n8nPort,
			fileAccessDirs: [filesDir],
			balance: args.balance as 'signature' | 'roundrobin',
			...(args['lazy-isolates'] ? { n8nEnv: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } } : {}),
		});
		stack = queueStack;
	} else {
		stack = await startStack({
			package: 'repo',
			build: !args['no-build'],
			n8nPort,
			userFolder,
			fileAccessDirs: [filesDir, join(userFolder, 'files')],
			owner: DEFAULT_OWNER,
			n8nName: 'n8n-demo',
		});
	}
	const { client, n8n } = stack;
	// Where production webhooks are public: the load balancer in queue mode, n8n itself otherwise.
	const publicUrl = queueStack?.publicUrl ?? n8n.baseUrl;

	// Credential for the sandbox's pilot account.
	const credentials: Record<string, Credential> = {};
	let credentialNote: string;
	const account = sandboxAccount(sandbox, 'pilot');
	if (account) {
		const data = {
			baseUrl: sandbox.url,
			apiKey: account.apiKey,
			signingSecret: account.signingSecret,
			tier: 'pilot',
		};
		// A credential from an earlier run is updated in place (the workflows use its id).
		const existing = (await client.listCredentials()).find(
			(c) => c.name === CREDENTIAL_NAME && c.type === 'documentExtractionApi',
		);
		credentials.documentExtractionApi = existing
			? await client.updateCredential(existing.id, {
					name: CREDENTIAL_NAME,
					type: 'documentExtractionApi',
					data,
				})
			: await client.createDocumentExtractionCredential(CREDENTIAL_NAME, {
					...data,
					tier: 'pilot',
				});
		credentialNote = `"${CREDENTIAL_NAME}" → ${sandbox.url} (pilot tier)`;
	} else {
		credentialNote = 'not created: the sandbox serves no pilot account (SANDBOX_ACCOUNTS)';
	}

	// The Xero and QuickBooks examples post to local stand-ins through already-connected OAuth2
	// credentials (in your own n8n you connect the real services in the credentials and Settings).
	const xero = await startXeroStandIn({
		accessToken: XERO_STAND_IN_TOKEN,
		port: await freePort(4020),
	});
	credentials.xeroOAuth2Api =
		(await client.listCredentials()).find(
			(c) => c.name === XERO_CREDENTIAL_NAME && c.type === 'xeroOAuth2Api',
		) ??
		(await connectedOAuth2Credential(
			client,
			'xeroOAuth2Api',
			XERO_CREDENTIAL_NAME,
			XERO_STAND_IN_TOKEN,
		));

	// Example workflows: those imported by an earlier run are kept (with the user's edits) and activated.
	const existingWorkflows = await client.listWorkflows();
	const quickBooks = await startQuickBooksStandIn({
		accessToken: QUICKBOOKS_STAND_IN_TOKEN,
		port: await freePort(4021),
	});
	credentials.quickBooksOAuth2Api =
		(await client.listCredentials()).find(
			(c) => c.name === QUICKBOOKS_CREDENTIAL_NAME && c.type === 'quickBooksOAuth2Api',
		) ??
		(await connectedOAuth2Credential(
			client,
			'quickBooksOAuth2Api',
			QUICKBOOKS_CREDENTIAL_NAME,
			QUICKBOOKS_STAND_IN_TOKEN,
		));
	// The approval example emails through a local mail server; every message is printed (subject and
	// links) so a person can answer the approval form in a browser.
	const mail = await startMailServer(await freePort(MAIL_PORT));
	mail.onMessage(printMail);
	// The morning digest template, once imported below, runs on demand from the mail page.
	const digest: { workflowId?: string } = {};
	const mailViewer = await startMailViewer(
		() => mail.messages(),
		MAIL_VIEWER_PORT,
		async () =>
			digest.workflowId
				? await sendMorningDigest(client, digest.workflowId)
				: `not sent: ${MORNING_DIGEST.template} is not imported`,
	);
	const keptSmtp = (await client.listCredentials()).find(
		(c) => c.name === APPROVALS_SMTP_CREDENTIAL_NAME && c.type === 'smtp',
	);
	credentials.smtp = keptSmtp ?? (await createSmtpCredential(client, mail));
	const mailNote =
		keptSmtp && mail.port !== MAIL_PORT
			? ` (port ${MAIL_PORT} was busy: set the port of the credential "${keptSmtp.name}" to ${mail.port} in n8n)`
			: '';
	// Each email-to-books template reads a local mailbox of its own, so that an email sent to one
	// becomes one bill in one set of books.
	const mailboxes = await startMailboxes(client, dataDir);
	const policy = await seedDemoPolicy(client);
	const xeroSettings = { xero_api_url: xero.url, xero_tenant_id: 'local-stand-in' };
	const quickBooksSettings = {
		quickbooks_api_url: quickBooks.url,
		quickbooks_realm_id: 'local-stand-in',
	};
	const standInSettings: Record<string, Record<string, string>> = {
		'invoice-to-xero.workflow.json': xeroSettings,
		'invoice-to-quickbooks.workflow.json': quickBooksSettings,
		[EMAIL_TO_BOOKS.xero.template]: xeroSettings,
		[EMAIL_TO_BOOKS.quickbooks.template]: {
			...quickBooksSettings,
			quickbooks_expense_account_id: '7',
			quickbooks_tax_account_id: '8',
		},
	};
	const examples = loadExampleWorkflows().map((e) => {
		const settings = Object.entries(standInSettings).find(([file]) => e.file.endsWith(file))?.[1];
		return settings ? { ...e, workflow: withSettings(e.workflow, settings) } : e;
	});
	const fresh = examples.filter((e) => !existingWorkflows.some((w) => w.name === e.workflow.name));
	// An email-to-books template reads its own mailbox; the rest share the credentials above.
	const credentialsOf = (file: string | undefined) => {
		const mailbox = mailboxes.forTemplate(file);
		return mailbox ? { ...credentials, imap: mailbox.credential } : credentials;
	};
	const imported = [];
	for (const e of fresh)
		imported.push(
			...(await importWorkflows(client, [e], {
				credentials: credentialsOf(e.file),
				webhookClient: queueStack?.lbClient,
			})),
		);
	for (const e of examples) {
		const kept = existingWorkflows.find((w) => w.name === e.workflow.name);
		if (!kept) continue;
		let activated = kept.active;
		// A workflow needing a credential this script does not make (the email intake's IMAP) stays
		// as the user left it; the note says what to connect.
		let error = activated ? undefined : missingCredentialsNote(e.workflow, credentialsOf(e.file));
		try {
			if (!activated && !error && isActivatable(e.workflow)) {
				await client.activateWorkflow(kept.id);
				activated = true;
			}
			if (activated) await waitForWorkflowWebhooks(client, e.workflow);
		} catch (err) {
			error = (err as Error).message;
		}
		imported.push({ file: e.file, workflow: await client.getWorkflow(kept.id), activated, error });
	}

	digest.workflowId = imported.find((r) => r.file?.endsWith(MORNING_DIGEST.template))?.workflow.id;

	// A workflow left unpublished says why: what was not made, or what to connect.
	for (const result of imported)
		if (!result.activated && result.error) {
			const example = examples.find((e) => e.file === result.file);
			if (example)
				result.error = unpublishedBecause(example.workflow, credentialsOf(example.file), {
					mailboxes,
					isTemplate: Object.values(EMAIL_TO_BOOKS).some((t) => example.file?.endsWith(t.template)),
					credentialNote,
					error: result.error,
				});
		}

	const line = '─'.repeat(78);
	say('');
	say(line);
	say(
		`n8n ${stack.install.version} with ${stack.packed?.name}@${stack.packed?.version} is running (ready in ${Math.round((Date.now() - t0) / 1000)} s).`,
	);
	say('');
	say(`  Editor      ${n8n.baseUrl}/`);
	say(`  Login       ${stack.owner.email}  /  ${stack.owner.password}`);
	say(`  HTTPS       certificate from a local CA: ${tls.caCertFile}`);
	say('              (the browser warns once; accept it, or import the CA into the browser)');
	say(`  Sandbox     ${sandbox.url}  (log: ${sandbox.logFile})`);
	say(`  Xero        local stand-in ${xero.url} (its bills: ${xero.url}/__standin/bills)`);
	say(
		`  QuickBooks  local stand-in ${quickBooks.url} (its bills: ${quickBooks.url}/__standin/bills)`,
	);
	say(
		`  Mail        ${mailViewer.url}  (every email n8n sends, as the approver receives it; SMTP 127.0.0.1:${mail.port}, credential "${credentials.smtp.name}"; each is also printed here with its links)${mailNote}`,
	);
	say(`  Mailboxes   ${mailboxes.note}`);
	say(`  Credential  ${credentialNote}`);
	say(`  Files       Read/Write Files from Disk may read ${filesDir}`);
	if (queueStack) {
		say(
			`  Webhooks    ${publicUrl}/webhook/…  (HAProxy, ${queueStack.lb.balance()} balancing, log: ${queueStack.lb.logFile})`,
		);
		say('  Processes   (queue mode: each n8n process has its own user folder)');
		for (const p of queueStack.processes())
			say(`    ${p.name.padEnd(9)} ${p.instance.baseUrl.padEnd(24)} log: ${p.instance.logFile}`);
		say(
			`    postgres  127.0.0.1:${queueStack.postgres.port}  database ${queueStack.postgres.database}  log: ${queueStack.postgres.logFile}`,
		);
		say(`    redis     127.0.0.1:${queueStack.redis.port}  log: ${queueStack.redis.logFile}`);
		say(
			'  n8n data    temporary in queue mode (Postgres and the user folders are removed on Ctrl-C)',
		);
	} else {
		say(
			`  Data        ${dataDir}${args.fresh ? ' (temporary)' : ' (kept across runs; --fresh for an empty one)'}`,
		);
	}
	say(`  Logs        ${artifactsDir()}  (n8n: ${n8n.logFile})`);
	say('');
	if (imported.length === 0) {
		say('  No example workflows in examples/*.json yet.');
	} else {
		say('  Example workflows:');
		for (const r of imported) {
			const state = r.activated
				? 'published'
				: r.error
					? `NOT published: ${r.error}`
					: 'not published (run it from the editor)';
			say(`    - ${r.workflow.name}  [${state}]  ${n8n.baseUrl}/workflow/${r.workflow.id}`);
		}
	}
	say('');
	if (mailboxes.started) {
		say('  The main job, an invoice email becoming a bill:');
		say(
			'    1. npm run send-invoice            (in another terminal: an email with four invoices to the Xero mailbox;',
		);
		say(
			'                                        -- --to quickbooks, or -- a.pdf b.png for your own files)',
		);
		say(
			`    2. ${mailViewer.url}: the approval emails, as the "${APPROVAL_POLICY_TABLE}" table says (${policy === 'made' ? 'made now' : 'yours, kept'}): up to 1,000 none, up to 10,000 the budget holder,`,
		);
		say(
			'                                        above it the budget holder and then the finance director (the 12,480.00 invoice: two emails in turn); each button opens the form: Approve',
		);
		say(
			`                                        (a scan the service is unsure of waits for its reviewer first: the sandbox's approves after ${REVIEW_DELAY_MS / 1000} s)`,
		);
		say(
			'                                        (a supplier without a rule yet: the form also asks its account, by name; the choice becomes its rule)',
		);
		say(
			`    3. the bills: ${xero.url}/__standin/bills  (QuickBooks: ${quickBooks.url}/__standin/bills)`,
		);
		say(
			`    4. ${n8n.baseUrl}/home/datatables: "${APPROVAL_POLICY_TABLE}" (who approves what), "Xero supplier rules" (the rules learned) and "Invoice register" (every file, as it moves)`,
		);
		say(
			`    5. ${mailViewer.url}: "Send the morning digest now" (what waits for a person, what was booked; published: every weekday at 08:00)`,
		);
		say('');
	}
	say('  Try first:');
	say(`    1. Open ${n8n.baseUrl}/ and log in.`);
	const webhooks = imported.flatMap((r) =>
		r.activated
			? r.workflow.nodes
					.filter(
						(node) =>
							node.type === 'n8n-nodes-base.webhook' && typeof node.parameters.path === 'string',
					)
					.map((node) => ({
						name: r.workflow.name,
						path: node.parameters.path as string,
						field: binaryFieldAfter(r.workflow, node.name),
					}))
			: [],
	);
	if (webhooks.length > 0) {
		say(
			"    2. Send an invoice to an active example workflow (the answer is its last node's output):",
		);
		for (const w of webhooks) {
			say(`       # ${w.name}`);
			say(
				`       curl --cacert ${tls.caCertFile} -F ${w.field}=@examples/files/invoice-acme.json ${publicUrl}/webhook/${w.path}`,
			);
		}
		say("       then open the workflow's Executions tab in the editor.");
	} else {
		say(
			'    2. Create a workflow: Read/Write Files from Disk (examples/files/invoice-acme.json) → Document Extraction → Extract.',
		);
	}
	say(
		'    3. Human review: send examples/files/invoice-blurry.json, then approve it in the sandbox (docs/usage.md: "Try it locally with the sandbox").',
	);
	say('');
	say('  Ctrl-C stops everything.');
	say(line);
	record.update({
		state: 'running',
		mailboxes: mailboxes.started
			? { started: true }
			: { started: false, why: mailboxes.failure ?? mailboxes.note },
	});

	// Stay up; if n8n or the sandbox dies, say so and stop the rest.
	const why = await Promise.race([
		...(queueStack ? queueStack.processes().map((p) => p.instance) : [n8n]).map((instance) =>
			instance.exited().then((code) => ({
				what: `n8n (${instance.logFile}) exited (${code})`,
				logFile: instance.logFile,
			})),
		),
		sandbox.exited.then((code) => ({
			what: `the sandbox exited (${code})`,
			logFile: sandbox.logFile,
		})),
	]);
	if (!stopping) {
		process.stderr.write(
			`\n${why.what}. Last lines of ${why.logFile}:\n${tailFile(why.logFile, 40)}\n`,
		);
		await shutdown(1);
	}
}

main().catch(async (error: Error) => {
	process.stderr.write(`\nnpm start failed: ${error.message}\n`);
	await shutdown(1);
});
