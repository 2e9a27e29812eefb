/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling runs in plain Node (it asks git for the measured commit), never inside n8n */
// Month-end through the two email-to-books templates: 40 invoices of 10
// suppliers in 5 emails of 8 attachments, sent within a minute to a real mailbox (Dovecot), through
// each template published in a real n8n with this package installed, the service on the Pilot tier
// (10 requests a minute) under a fixed and a rolling rate window, the books' stand-ins keeping
// their documented limits. Every supplier has a rule in the template's supplier rules before the
// run and every invoice is under the approval threshold and confident: no person is asked anything.
// Per run: invoices booked, failed executions by node and message, 429s at the service and at the
// books, the wall time from the first email to the last execution's end, and the bound
// max(invoices / the service's rate, book calls / the books' rate).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
	REPO_ROOT,
	executedNodes,
	loadExampleWorkflows,
	prepareStack,
	registerSecret,
	sandboxControl,
	sandboxCredential,
	sandboxState,
	startSandboxInProcess,
	startStack,
	stopAll,
	withCredentialsByName,
	type Credential,
	type DecodedExecution,
	type N8nClient,
	type PreparedStack,
	type Stack,
	type WorkflowDefinition,
} from '../local-n8n/index.ts';
import {
	QUICKBOOKS_LIMITS,
	XERO_LIMITS,
	connectedOAuth2Credential,
	startQuickBooksStandIn,
	startXeroStandIn,
	withSettings,
	type StandInRequest,
} from '../local-n8n/accounting/index.ts';
import {
	composeMessage,
	createImapCredential,
	createSmtpCredential,
	invoicePdf,
	startImapServer,
	startMailServer,
} from '../local-n8n/mail/index.ts';
import type { RateLimitWindow } from '../sandbox/config.ts';
import { TIERS } from '../sandbox/config.ts';
import { normaliseVendor } from '../nodes/DocumentExtraction/invoice/invoiceIdentity.ts';
import { progress } from './context.ts';
import type { ResultRow } from './stats.ts';

export type TemplateName = 'xero' | 'quickbooks';

const TEMPLATES: Record<
	TemplateName,
	{
		file: string;
		label: string;
		rulesTable: string;
		booksPerMinute: number;
		credentialType: 'xeroOAuth2Api' | 'quickBooksOAuth2Api';
		credentialName: string;
	}
> = {
	xero: {
		file: 'invoices-email-to-xero-with-approval.workflow.json',
		label: 'Xero',
		rulesTable: 'Xero supplier rules',
		booksPerMinute: XERO_LIMITS.perMinute,
		credentialType: 'xeroOAuth2Api',
		credentialName: 'Xero account',
	},
	quickbooks: {
		file: 'invoices-email-to-quickbooks-with-approval.workflow.json',
		label: 'QuickBooks',
		rulesTable: 'QuickBooks supplier rules',
		booksPerMinute: QUICKBOOKS_LIMITS.perMinute,
		credentialType: 'quickBooksOAuth2Api',
		credentialName: 'QuickBooks account',
	},
};

const ACCESS_TOKEN = 'stand-in-access-token';
const EMAILS = 5;
const PER_EMAIL = 8;
const INVOICES = EMAILS * PER_EMAIL;
/** The 5 emails are delivered this far apart: the last 48 s after the first ("within a minute"). */
const EMAIL_SPACING_MS = 12_000;
const APPROVAL_THRESHOLD = 1000;
const SUPPLIERS = [
	'Acme Supplies GmbH',
	'Umbrella Office Ltd.',
	'Globex Corporation',
	'Initech LLC',
	'Hooli Cloud Services',
	'Stark Industries',
	'Wayne Enterprises',
	'Soylent Foods Ltd',
	'Massive Dynamic Inc',
	'Cyberdyne Systems',
];
type ServiceTier = 'pilot' | 'growth' | 'enterprise';
const POLL_MS = 3_000;
/** What a finished execution's outcome is read after: n8n saves its status before its custom data. */
const OUTCOME_GRACE_MS = 10_000;

export interface MonthEndTemplatesOptions {
	templates?: TemplateName[];
	windows?: RateLimitWindow[];
	/** Per run, from the first email: what is still running then is reported, not waited for. */
	deadlineMs?: number;
	/** Each books call waits this long at the stand-in (default: the stand-in's, 0). */
	booksDelayMs?: number;
	/** The service's tier (default Pilot, 10 requests a minute). */
	tier?: ServiceTier;
}

interface Invoice {
	index: number;
	invoiceNo: string;
	supplier: string;
	total: number;
	/** What the sandbox hands out for an upload (its `next-extraction`). */
	data: { header: object; amounts: object; line_items: object[] };
	fileName: string;
	bytes: Buffer;
}

/**
 * 40 invoices of 10 suppliers, 4 each, every total under the approval threshold, each a PDF of its
 * own (the books take a PDF as the bill's original; a JSON file they refuse, so it would not be
 * attached). The sandbox reads a PDF's invoice from its hash: the run queues these 40 extractions
 * and 40 confidences of 0.99 instead, handed out in the order the uploads are taken, so each upload
 * becomes one of the 40 invoices, verified without a reviewer.
 */
function monthEndInvoices(): Invoice[] {
	return Array.from({ length: INVOICES }, (_, index) => {
		const supplier = SUPPLIERS[index % SUPPLIERS.length];
		const invoiceNo = `ME-${String(index % SUPPLIERS.length).padStart(2, '0')}-${String(Math.floor(index / SUPPLIERS.length) + 1).padStart(2, '0')}`;
		const subtotal = 100 + 10 * index;
		const tax = Math.round(subtotal * 19) / 100;
		const total = Math.round((subtotal + tax) * 100) / 100;
		return {
			index,
			invoiceNo,
			supplier,
			total,
			data: {
				header: { vendor: supplier, date: '2026-11-27', invoice_no: invoiceNo },
				amounts: { subtotal, tax, total },
				line_items: [
					{ description: 'Office supplies', quantity: 1, unit_price: subtotal, amount: subtotal },
				],
			},
			fileName: `${invoiceNo.toLowerCase()}.pdf`,
			bytes: invoicePdf([
				supplier,
				`Invoice ${invoiceNo} of 2026-11-27`,
				`Office supplies ${subtotal.toFixed(2)}`,
				`VAT 19% ${tax.toFixed(2)}`,
				`Total ${total.toFixed(2)}`,
			]),
		};
	});
}

/** The template's Data Table → Create node `nodeName`: its table's name and columns. */
function tableOf(
	template: WorkflowDefinition,
	nodeName: string,
): { name: string; columns: Array<{ name: string; type: string }> } {
	const node = template.nodes.find((candidate) => candidate.name === nodeName);
	const parameters = node?.parameters as
		| { tableName?: string; columns?: { column?: Array<{ name: string; type: string }> } }
		| undefined;
	if (!parameters?.tableName || !parameters.columns?.column?.length)
		throw new Error(`"${template.name}" has no Data Table → Create node "${nodeName}"`);
	return { name: parameters.tableName, columns: parameters.columns.column };
}

/** Creates the Data Table as the template's node would (n8n's REST API, the owner's project). */
async function createTable(
	client: N8nClient,
	table: { name: string; columns: Array<{ name: string; type: string }> },
): Promise<void> {
	const project = await client.call<{ id: string }>('GET', '/rest/projects/personal');
	await client.call('POST', `/rest/projects/${project.id}/data-tables`, {
		name: table.name,
		columns: table.columns.map(({ name, type }) => ({ name, type })),
	});
}

/** One rule per supplier, keyed as Check Invoice Duplicate keys it (normaliseVendor). */
function supplierRules(template: TemplateName): Array<Record<string, string>> {
	const xeroAccounts = ['400', '429', '300'];
	const quickBooksAccounts = ['7', '12'];
	return SUPPLIERS.map((supplier, index): Record<string, string> => {
		const key = normaliseVendor(supplier) as string;
		return template === 'xero'
			? {
					supplier_key: key,
					supplier,
					account_code: xeroAccounts[index % xeroAccounts.length],
					tax_type: 'INPUT2',
				}
			: {
					supplier_key: key,
					supplier,
					expense_account_id: quickBooksAccounts[index % quickBooksAccounts.length],
					tax_account_id: '8',
				};
	});
}

function outcomeOf(execution: DecodedExecution): string | undefined {
	return (execution.raw.customData as Record<string, string> | undefined)?.outcome;
}

const TERMINAL = new Set(['success', 'error', 'canceled', 'crashed']);

/** Where an execution failed: the node and its error's message (n8n's own words). */
function failureOf(execution: DecodedExecution): string {
	const result = execution.data.resultData;
	const node = result?.error?.node?.name ?? result?.lastNodeExecuted ?? '?';
	const message = result?.error?.message ?? `(${execution.status}, no error saved)`;
	return `${node}: ${message}`;
}

/**
 * Errors a node had without failing its execution (Continue On Fail, an error output): a run's
 * error, or items carrying an `error` out of an HTTP Request node.
 */
function continuedErrors(execution: DecodedExecution): string[] {
	const found: string[] = [];
	const types = new Map(
		(execution.workflowData?.nodes ?? []).map((node) => [node.name, node.type]),
	);
	for (const [node, runs] of Object.entries(execution.data.resultData?.runData ?? {})) {
		for (const run of runs) {
			if (run.error && execution.status === 'success')
				found.push(`${node}: ${run.error.message ?? '(no message)'}`);
			if (types.get(node) !== 'n8n-nodes-base.httpRequest') continue;
			for (const output of run.data?.main ?? [])
				for (const item of output ?? []) {
					const error = item.json?.error;
					if (error === undefined || error === null) continue;
					const message =
						typeof error === 'string'
							? error
							: String((error as { message?: unknown }).message ?? JSON.stringify(error));
					found.push(`${node}: ${message}`);
				}
		}
	}
	return found;
}

function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
}

export interface MonthEndTemplateRun {
	template: TemplateName;
	window: RateLimitWindow;
	/** The template file as this run imported it: the first 16 hex digits of its SHA-256. */
	templateSha256: string;
	invoices: number;
	emails: number;
	/** Distinct invoice numbers of this run that the books hold a bill for. */
	booked: number;
	/** Bills beyond one per invoice number (a second bill of an invoice). */
	duplicateBills: number;
	/** Per-file executions by outcome (the template's execution data) or by status when it failed. */
	outcomes: Record<string, number>;
	failedExecutions: number;
	/** "<node>: <message>" of every failed execution, counted. */
	failures: Record<string, number>;
	/** Errors nodes continued past (Continue On Fail / error output), counted. */
	continued: Record<string, number>;
	/** Executions not ended at the deadline, by status (and node, for waiting ones). */
	unfinished: Record<string, number>;
	/** Emails' own executions (the Email Trigger's), and how many per-file executions started. */
	emailExecutions: number;
	fileExecutions: number;
	service: {
		tier: string;
		perMinute: number;
		window: RateLimitWindow;
		extractRequests: number;
		rateLimited: number;
		documents: number;
		/** Seconds from the first email to the service's first and last document. */
		firstDocumentS: number | null;
		lastDocumentS: number | null;
	};
	books: {
		perMinute: number;
		inProgress: number;
		delayMs: number;
		calls: number;
		admitted: number;
		throttled: number;
		throttledBy: Record<string, number>;
		/** Admitted calls per path kind (e.g. "GET Invoices"). */
		admittedBy: Record<string, number>;
		attachments: number;
		vendorsCreated?: number;
	};
	approverEmails: number;
	register: Record<string, number>;
	/** Seconds from the first email to the first execution's start. */
	firstExecutionStartS: number | null;
	/** Seconds from the first email to the last execution's end; null when not all ended. */
	wallS: number | null;
	/** Seconds waited when the run hit its deadline. */
	deadlineS: number;
	boundS: number;
	serviceBoundS: number;
	booksBoundS: number;
	ratio: number | null;
	pass: boolean;
}

/** "GET Invoices", "PUT Invoices/…/Attachments/…", "POST vendor": what a books call was. */
function callKind(request: StandInRequest): string {
	const path = request.path.split('?')[0];
	const tail = path
		.replace(/^\/api\.xro\/2\.0\//, '')
		.replace(/^\/v3\/company\/[^/]+\//, '')
		.replace(/[0-9a-f]{8}-[0-9a-f-]{27,}/gi, '…')
		.replace(/\/\d+(?=\/|$)/g, '/…')
		.replace(/Attachments\/[^/]+$/, 'Attachments/…');
	const query = request.path.includes('query=')
		? ` (${/select \* from (\w+)/i.exec(decodeURIComponent(request.path.replace(/\+/g, ' ')))?.[1] ?? 'query'})`
		: '';
	return `${request.method} ${tail}${query}`;
}

/** One template under one rate window, on its own n8n, sandbox, mailbox and books. */
async function runOnce(
	prepared: PreparedStack,
	template: TemplateName,
	window: RateLimitWindow,
	options: Required<Pick<MonthEndTemplatesOptions, 'deadlineMs' | 'tier'>> &
		Pick<MonthEndTemplatesOptions, 'booksDelayMs'>,
): Promise<MonthEndTemplateRun> {
	const serviceTier = options.tier;
	const spec = TEMPLATES[template];
	const invoices = monthEndInvoices();
	let stack: Stack | undefined;
	const closers: Array<() => Promise<unknown>> = [];
	try {
		stack = await startStack({ prepared, n8nName: `bench-month-end-${template}-${window}` });
		const { client } = stack;
		const sandbox = await startSandboxInProcess(stack.tls, {
			rateLimitWindow: window,
			reviewDelayMs: 600_000,
		});
		closers.push(() => sandbox.close());
		const imap = await startImapServer({
			server: 'dovecot',
			neededBy: 'the month-end templates benchmark',
		});
		registerSecret(imap.password);
		closers.push(() => imap.stop());
		const mail = await startMailServer();
		closers.push(() => mail.stop());
		const load = {
			accessToken: ACCESS_TOKEN,
			...(options.booksDelayMs !== undefined ? { responseDelayMs: options.booksDelayMs } : {}),
		};
		const xero = template === 'xero' ? await startXeroStandIn(load) : undefined;
		const quickBooks = template === 'quickbooks' ? await startQuickBooksStandIn(load) : undefined;
		const books = (xero ?? quickBooks)!;
		closers.push(() => books.close());
		// A supplier with a rule was booked before: QuickBooks knows it as a vendor.
		if (quickBooks)
			SUPPLIERS.forEach((supplier, index) =>
				quickBooks.vendors.push({
					Id: String(9000 + index),
					DisplayName: supplier,
					CurrencyRef: { value: 'EUR' },
				}),
			);
		const vendorsBefore = quickBooks?.vendors.length ?? 0;

		const credentials: Credential[] = [
			(await sandboxCredential(client, sandbox, serviceTier)).credential,
			await createImapCredential(client, imap),
			await createSmtpCredential(client, mail),
			await connectedOAuth2Credential(
				client,
				spec.credentialType,
				spec.credentialName,
				ACCESS_TOKEN,
			),
		];
		const workflow = loadExampleWorkflows().find((entry) => entry.file === spec.file)?.workflow;
		if (!workflow) throw new Error(`examples/${spec.file} is missing`);
		const rules = tableOf(workflow, 'Supplier rules');
		await createTable(client, rules);
		await client.insertDataTableRows(rules.name, supplierRules(template));

		const settings: Record<string, string> = {
			approval_threshold: String(APPROVAL_THRESHOLD),
			approver_email: 'manager@example.test',
			escalation_email: 'director@example.test',
			from_email: 'invoices@example.test',
			...(template === 'xero'
				? { xero_api_url: books.url, xero_tenant_id: 'tenant' }
				: {
						quickbooks_api_url: books.url,
						quickbooks_realm_id: '9130',
						quickbooks_expense_account_id: '7',
						quickbooks_tax_account_id: '8',
					}),
		};
		const created = await client.createWorkflow(
			withCredentialsByName(withSettings(workflow, settings), credentials),
		);
		const workflowId = created.id;
		await client.activateWorkflow(workflowId);
		await imap.waitForMailboxOpened();
		progress(
			`month-end templates: ${spec.label}, ${window} window: published; ${EMAILS} emails of ${PER_EMAIL} invoices, ${EMAIL_SPACING_MS / 1000} s apart`,
		);

		for (const invoice of invoices)
			await sandboxControl(sandbox.url, 'next-extraction', { data: invoice.data });
		await sandboxControl(sandbox.url, 'next-confidence', {
			confidence: invoices.map(() => 0.99),
		});

		// The emails, within a minute.
		const firstSentAt = Date.now();
		for (let email = 0; email < EMAILS; email++) {
			const wait = firstSentAt + email * EMAIL_SPACING_MS - Date.now();
			if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
			const attachments = invoices.slice(email * PER_EMAIL, (email + 1) * PER_EMAIL);
			imap.deliver(
				composeMessage({
					from: 'Accounts payable <billing@suppliers.example>',
					to: 'invoices@example.test',
					subject: `November invoices (${email + 1} of ${EMAILS})`,
					messageId: `month-end-${template}-${window}-${email + 1}@suppliers.example`,
					text: 'Please find our invoices attached.',
					attachments: attachments.map((invoice) => ({
						fileName: invoice.fileName,
						contentType: 'application/pdf',
						content: invoice.bytes,
					})),
				}),
			);
		}

		// Until every file's execution has ended (with its outcome saved), or the deadline.
		const deadline = firstSentAt + options.deadlineMs;
		const decoded = new Map<string, DecodedExecution>();
		const endedAt = new Map<string, number>();
		let summaries: Awaited<ReturnType<N8nClient['listExecutions']>> = [];
		let lastReport = 0;
		for (;;) {
			summaries = await client.listExecutions(workflowId);
			for (const summary of summaries) {
				if (!TERMINAL.has(summary.status)) continue;
				const known = decoded.get(summary.id);
				if (known && (known.status !== 'success' || outcomeOf(known) !== undefined)) continue;
				if (!endedAt.has(summary.id)) endedAt.set(summary.id, Date.now());
				if (known && Date.now() - (endedAt.get(summary.id) as number) > OUTCOME_GRACE_MS) continue;
				decoded.set(summary.id, await client.getExecution(summary.id));
			}
			const files = [...decoded.values()].filter((execution) =>
				executedNodes(execution).includes('Each attachment'),
			);
			// Ended with its outcome saved, or ended long enough ago that none will come.
			const settled = files.filter(
				(execution) =>
					execution.status !== 'success' ||
					outcomeOf(execution) !== undefined ||
					Date.now() - (endedAt.get(execution.id) ?? Date.now()) > OUTCOME_GRACE_MS,
			);
			const open = summaries.filter((summary) => !TERMINAL.has(summary.status));
			if (settled.length >= INVOICES && open.length === 0) break;
			if (Date.now() > deadline) {
				progress(
					`month-end templates: ${spec.label}, ${window}: deadline (${options.deadlineMs / 60_000} min) reached with ${open.length} execution(s) not ended`,
				);
				break;
			}
			if (Date.now() - lastReport > 30_000) {
				lastReport = Date.now();
				const documents = (await sandboxState(sandbox.url)).documents.length;
				progress(
					`month-end templates: ${spec.label}, ${window}: ${Math.round((Date.now() - firstSentAt) / 1000)} s, ${summaries.length} executions (${open.length} open), ${settled.length}/${INVOICES} files ended, ${documents} documents at the service`,
				);
			}
			await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		}

		// What the run did.
		const all = [...decoded.values()];
		const files = all.filter((execution) => executedNodes(execution).includes('Each attachment'));
		const emails = all.filter((execution) => !executedNodes(execution).includes('Each attachment'));
		const failed = all.filter((execution) => execution.status !== 'success');
		const open = summaries.filter((summary) => !TERMINAL.has(summary.status));
		const unfinished: string[] = [];
		for (const summary of open) {
			if (summary.status === 'waiting') {
				const execution = await client.getExecution(summary.id);
				unfinished.push(
					`waiting at "${execution.data.resultData?.lastNodeExecuted ?? '?'}" (until ${summary.waitTill ?? '?'})`,
				);
			} else unfinished.push(summary.status);
		}
		const state = await sandboxState(sandbox.url);
		const ourDocuments = state.documents.filter((document) =>
			invoices.some((invoice) => invoice.fileName === document.fileName),
		);
		const documentTimes = ourDocuments
			.map((document) => Date.parse(String(document.createdAt)))
			.filter(Number.isFinite)
			.sort((a, b) => a - b);
		const sinceFirst = (at: number | undefined) =>
			at === undefined ? null : Math.round((at - firstSentAt) / 100) / 10;

		const numbers = new Set(invoices.map((invoice) => invoice.invoiceNo));
		const billNumbers = xero
			? xero.documents.map((document) => String(document.InvoiceNumber ?? ''))
			: quickBooks!.transactions.map((transaction) => String(transaction.DocNumber ?? ''));
		const ours = billNumbers.filter((number) => numbers.has(number));
		const booked = new Set(ours).size;
		const requests = books.requests;
		const admitted = requests.filter((request) => !request.throttled);
		const throttled = requests.filter((request) => request.throttled);
		const booksLimits = books.limits;

		const stops = all
			.map((execution) => Date.parse(String(execution.stoppedAt)))
			.filter(Number.isFinite);
		const starts = all
			.map((execution) => Date.parse(String(execution.startedAt)))
			.filter(Number.isFinite);
		const finished = open.length === 0 && files.length >= INVOICES;
		const wallS = finished && stops.length ? sinceFirst(Math.max(...stops)) : null;
		// An unlimited tier bounds nothing: the books do.
		const servicePerMinute = TIERS[serviceTier].requestsPerMinute;
		const serviceBoundS = servicePerMinute ? (INVOICES / servicePerMinute) * 60 : 0;
		const booksBoundS = Math.round((admitted.length / spec.booksPerMinute) * 60 * 10) / 10;
		const boundS = Math.max(serviceBoundS, booksBoundS);
		const ratio = wallS === null ? null : Math.round((wallS / boundS) * 1000) / 1000;
		const register = countBy(
			(await client.dataTableRows('Invoice register')).map((row) => String(row.state)),
		);
		const result: MonthEndTemplateRun = {
			template,
			window,
			templateSha256: fileSha256(join(REPO_ROOT, 'examples', spec.file)),
			invoices: INVOICES,
			emails: EMAILS,
			booked,
			duplicateBills: ours.length - booked,
			outcomes: countBy(
				files.map((execution) =>
					execution.status === 'success'
						? (outcomeOf(execution) ?? '(no outcome saved)')
						: execution.status,
				),
			),
			failedExecutions: failed.length,
			failures: countBy(failed.map(failureOf)),
			continued: countBy(all.flatMap(continuedErrors)),
			unfinished: countBy(unfinished),
			emailExecutions: emails.length,
			fileExecutions: files.length,
			service: {
				tier: serviceTier,
				perMinute: TIERS[serviceTier].requestsPerMinute ?? 0,
				window,
				extractRequests: state.counts.extractRequests,
				rateLimited: state.counts.rateLimited,
				documents: ourDocuments.length,
				firstDocumentS: sinceFirst(documentTimes[0]),
				lastDocumentS: sinceFirst(documentTimes.at(-1)),
			},
			books: {
				perMinute: booksLimits?.perMinute ?? 0,
				inProgress: booksLimits?.inProgress ?? 0,
				delayMs: books.responseDelayMs,
				calls: requests.length,
				admitted: admitted.length,
				throttled: throttled.length,
				throttledBy: countBy(
					throttled.map((request) => `${callKind(request)}: ${request.throttled}`),
				),
				admittedBy: countBy(admitted.map(callKind)),
				attachments: books.attachments.length,
				...(quickBooks ? { vendorsCreated: quickBooks.vendors.length - vendorsBefore } : {}),
			},
			approverEmails: mail.messages().length,
			register,
			firstExecutionStartS: starts.length ? sinceFirst(Math.min(...starts)) : null,
			wallS,
			deadlineS: options.deadlineMs / 1000,
			boundS,
			serviceBoundS,
			booksBoundS,
			ratio,
			pass: booked === INVOICES && ours.length === INVOICES && ratio !== null && ratio <= 1.2,
		};
		progress(
			`month-end templates: ${spec.label}, ${window}: ${booked}/${INVOICES} booked, ${failed.length} failed, wall ${wallS ?? 'not finished'} s, bound ${boundS} s, 429s service ${result.service.rateLimited} / books ${result.books.throttled}`,
		);
		await client.deactivateWorkflow(workflowId).catch(() => undefined);
		return result;
	} finally {
		for (const close of closers.reverse()) await close().catch(() => undefined);
		await stack?.stop().catch(() => undefined);
		await stopAll();
	}
}

function fileSha256(path: string): string {
	return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
}

/** The package measured: this repository's commit, and its files that differ from it. */
function measuredTree(): {
	commit: string;
	uncommitted: string[];
	templates: Record<string, string>;
} {
	const git = (...args: string[]) =>
		execFileSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8' }).trim();
	let commit = 'unknown';
	let uncommitted: string[] = [];
	try {
		commit = git('rev-parse', 'HEAD');
		uncommitted = git('status', '--porcelain', '--', 'nodes', 'credentials', 'examples', 'sandbox')
			.split('\n')
			.filter(Boolean);
	} catch {
		// Not a git checkout.
	}
	const templates = Object.fromEntries(
		Object.values(TEMPLATES).map((spec) => [
			spec.file,
			fileSha256(join(REPO_ROOT, 'examples', spec.file)),
		]),
	);
	return { commit, uncommitted, templates };
}

/** The four runs' table, one line per run. */
export function renderMonthEndTemplates(runs: MonthEndTemplateRun[]): string {
	const header = [
		'template',
		'window',
		'booked',
		'failed executions',
		'429 service',
		'429 books',
		'wall s',
		'bound s',
		'time / bound',
		'result',
	];
	const lines = runs.map((run) => [
		TEMPLATES[run.template].label,
		run.window,
		`${run.booked}/${run.invoices}`,
		String(run.failedExecutions),
		String(run.service.rateLimited),
		String(run.books.throttled),
		run.wallS === null ? `> ${run.deadlineS} (not ended)` : run.wallS.toFixed(1),
		run.boundS.toFixed(0),
		run.ratio === null ? '—' : run.ratio.toFixed(2),
		run.pass ? 'PASS' : 'MISS',
	]);
	const widths = header.map((title, column) =>
		Math.max(title.length, ...lines.map((line) => line[column].length)),
	);
	const render = (cells: string[]) =>
		`| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
	const details = runs.flatMap((run) => {
		const name = `${TEMPLATES[run.template].label}, ${run.window}`;
		const list = (what: string, counts: Record<string, number>) =>
			Object.keys(counts).length
				? [
						`  ${what}: ${Object.entries(counts)
							.map(([text, count]) => `${count} × ${text}`)
							.join('; ')}`,
					]
				: [];
		return [
			`- ${name}: outcomes ${JSON.stringify(run.outcomes)}; ${run.emailExecutions} email execution(s), ${run.fileExecutions} file executions; service ${run.service.extractRequests} requests (${run.service.documents} documents, first ${run.service.firstDocumentS} s, last ${run.service.lastDocumentS} s); books ${run.books.calls} calls (${run.books.admitted} admitted, bound ${run.booksBoundS} s); first execution at ${run.firstExecutionStartS} s; approver emails ${run.approverEmails}`,
			...list('failed', run.failures),
			...list('continued past', run.continued),
			...list('not ended at the deadline', run.unfinished),
			...list('429 at the books', run.books.throttledBy),
		];
	});
	return [
		render(header),
		`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
		...lines.map(render),
		'',
		...details,
	].join('\n');
}

/** Every run asked for, one after another; the rows for the shared table and each run's detail. */
export async function monthEndTemplates(options: MonthEndTemplatesOptions = {}): Promise<{
	rows: ResultRow[];
	runs: MonthEndTemplateRun[];
	tree: ReturnType<typeof measuredTree>;
}> {
	const templates = options.templates ?? (['xero', 'quickbooks'] as TemplateName[]);
	const windows = options.windows ?? (['fixed', 'rolling'] as RateLimitWindow[]);
	const deadlineMs = options.deadlineMs ?? 15 * 60_000;
	const tree = measuredTree();
	// Built and packed once; the tarball copied out of the harness's tmp folders, which each run's
	// stop removes, so that all runs install the same package.
	const prepared = await prepareStack({ package: 'repo' });
	const keep = mkdtempSync(join(tmpdir(), 'bench-month-end-templates-'));
	try {
		const packed = prepared.packed && {
			...prepared.packed,
			tarball: join(keep, basename(prepared.packed.tarball)),
		};
		if (prepared.packed && packed) copyFileSync(prepared.packed.tarball, packed.tarball);
		const kept: PreparedStack = { ...prepared, packed, packages: packed ? [packed] : [] };
		const runs: MonthEndTemplateRun[] = [];
		for (const template of templates)
			for (const window of windows)
				runs.push(
					await runOnce(kept, template, window, {
						deadlineMs,
						booksDelayMs: options.booksDelayMs,
						tier: options.tier ?? 'pilot',
					}),
				);
		const rows = runs.flatMap((run): ResultRow[] => {
			const benchmark = `month-end templates (${TEMPLATES[run.template].label}, ${run.window} window; 40 invoices, ${run.service.tier})`;
			const failures = Object.entries(run.failures)
				.map(([text, count]) => `${count} × ${text}`)
				.join('; ');
			return [
				{
					benchmark,
					metric: 'invoices booked (one bill each)',
					ours: run.booked,
					baseline: run.invoices,
					baselineName: 'invoices sent',
					ratio: null,
					target: 'all booked, none twice',
					pass: run.booked === run.invoices && run.duplicateBills === 0,
					notes: `${run.failedExecutions} failed execution(s)${failures ? `: ${failures}` : ''}${Object.keys(run.unfinished).length ? `; not ended at the deadline: ${JSON.stringify(run.unfinished)}` : ''}`,
				},
				{
					benchmark,
					metric: 'wall time, first email to last execution ended, s',
					ours: run.wallS ?? `> ${run.deadlineS}`,
					baseline: run.boundS,
					baselineName: 'bound',
					ratio: run.ratio,
					target: '<= 1.2 x bound',
					pass: run.ratio !== null && run.ratio <= 1.2,
					notes: `bound = max(40 / ${run.service.perMinute} a minute = ${run.serviceBoundS} s, ${run.books.admitted} book calls / ${TEMPLATES[run.template].booksPerMinute} a minute = ${run.booksBoundS} s)`,
				},
				{
					benchmark,
					metric: '429s at the service / at the books',
					ours: run.service.rateLimited,
					baseline: run.books.throttled,
					baselineName: 'books',
					ratio: null,
					target: 'info',
					pass: null,
				},
			];
		});
		return { rows, runs, tree };
	} finally {
		rmSync(keep, { recursive: true, force: true });
	}
}
