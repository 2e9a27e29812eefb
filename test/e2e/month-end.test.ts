// Month-end in the QuickBooks email-to-books template, in a real n8n with the stand-in: one email of
// eight invoices from a supplier without a rule, each file its own execution, all in flight at once,
// with QuickBooks answering slowly. The approver is asked once; the other seven wait for that answer
// and are booked to the same account; the rule is written once; one vendor is made at QuickBooks
// however many executions create it (docs/accounting.md#one-question-per-supplier).

import { afterAll, beforeAll, expect, it } from 'vitest';
import {
	eventually,
	executedNodes,
	loadExampleWorkflows,
	log,
	withCredentialsByName,
	type Credential,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import {
	connectedOAuth2Credential,
	startQuickBooksStandIn,
	withSettings,
	type QuickBooksStandIn,
} from '../../local-n8n/accounting/index.ts';
import {
	createImapCredential,
	createSmtpCredential,
	startImapServer,
	startMailServer,
	type ImapServer,
	type MailServer,
} from '../../local-n8n/mail/index.ts';
import { formLink, openForm, submitForm } from './support/approvalForms.ts';
import { STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import { publishEachAttachmentStarter } from './support/eachAttachment.ts';
import { postEmail, type Attachment } from './support/emailOfInvoices.ts';
import { describeNeeding } from './support/requirements.ts';
import { sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { untaxedInvoice } from './support/sampleInvoices.ts';

const TEMPLATE = 'invoices-email-to-quickbooks-with-approval.workflow.json';
const SUPPLIER = 'Massive Dynamic Inc';
const INVOICES = 8;

const fixture = useN8nAndSandbox();
let workflowId: string;

function outcome(execution: DecodedExecution) {
	return (execution.raw.customData as Record<string, string> | undefined)?.outcome;
}

/** Says where each execution of the template stopped, then fails with `error`. */
async function failWithExecutions(error: unknown): Promise<never> {
	const client = fixture.stack.client;
	for (const summary of await client.listExecutions(workflowId)) {
		const execution = await client.getExecution(summary.id);
		const result = execution.data.resultData as {
			lastNodeExecuted?: string;
			error?: { message?: string };
		};
		log(
			'month-end',
			`execution ${summary.id}: ${execution.status} at "${result.lastNodeExecuted}": ${result.error?.message ?? ''}`,
		);
	}
	throw error;
}

const isQuestion = (message: { subject: string }) =>
	message.subject.startsWith('Choose the account');

describeNeeding(['dovecot'], 'Month-end: eight invoices of a new supplier at once', () => {
	let imap: ImapServer;
	let mail: MailServer;
	let quickBooks: QuickBooksStandIn;
	let starterPath: string;

	beforeAll(async () => {
		imap = await startImapServer();
		fixture.secrets.push(imap.password);
		mail = await startMailServer();
		// Three times slower than the stand-in's usual answer: creates of one vendor overlap.
		quickBooks = await startQuickBooksStandIn({
			accessToken: STAND_IN_ACCESS_TOKEN,
			responseDelayMs: 600,
		});
		const client = fixture.stack.client;
		const credentials: Credential[] = [
			fixture.credential,
			await createImapCredential(client, imap),
			await createSmtpCredential(client, mail),
			await connectedOAuth2Credential(
				client,
				'quickBooksOAuth2Api',
				'QuickBooks account',
				STAND_IN_ACCESS_TOKEN,
			),
		];
		const template = loadExampleWorkflows().find((entry) => entry.file === TEMPLATE)!;
		const configured = withSettings(template.workflow, {
			approval_threshold: '1000',
			from_email: 'invoices@example.test',
			quickbooks_api_url: quickBooks.url,
			quickbooks_realm_id: '9130',
			quickbooks_expense_account_id: '7',
			quickbooks_tax_account_id: '8',
			ask_account_for_new_suppliers: 'true',
		});
		const created = await client.createWorkflow(withCredentialsByName(configured, credentials));
		workflowId = created.id;
		await client.activateWorkflow(workflowId);
		await imap.waitForMailboxOpened(1);
		const starter = await publishEachAttachmentStarter(client, template.workflow, workflowId);
		await client.waitForWebhook(starter.path);
		starterPath = starter.path;
	});

	afterAll(async () => {
		await fixture.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
		await quickBooks?.close();
		await imap?.stop();
		await mail?.stop();
	});

	it('one question; its answer books all eight to the chosen account; one rule; one vendor', async () => {
		const client = fixture.stack.client;
		const files: Attachment[] = Array.from({ length: INVOICES }, (_, index) => {
			const invoiceNo = `MD-${String(index + 1).padStart(2, '0')}`;
			return {
				fileName: `${invoiceNo}.json`,
				invoiceNo,
				bytes: Buffer.from(JSON.stringify(untaxedInvoice(SUPPLIER, invoiceNo))),
			};
		});
		const chosen = quickBooks.accounts.find(
			(entry) => entry.AccountType === 'Expense' && entry.Active && entry.Id !== '7',
		)!;

		// Each file its own execution, all started at once, as the email's path starts them.
		await Promise.all(files.map((file) => postEmail(client, starterPath, [file])));
		const [question] = await mail
			.waitForMessages(isQuestion, 1, 120_000)
			.catch(async (error) => failWithExecutions(error));
		// Every execution reaches the question by now: one asks, the others wait for its answer.
		await sleep(fixture.settleMs);
		expect(mail.messages().filter(isQuestion)).toHaveLength(1);

		const link = formLink(question);
		expect((await openForm(client, link)).html).toContain(chosen.Name);
		expect((await submitForm(client, link, [chosen.Name, 'Sam Bookkeeper'])).status).toBe(200);

		const executions = (await eventually(
			`the ${INVOICES} executions to end`,
			async () => {
				const summaries = await client.listExecutions(workflowId);
				return await Promise.all(summaries.map((summary) => client.getExecution(summary.id)));
			},
			(all) =>
				all.filter((execution) => executedNodes(execution).includes('Each attachment')).length ===
					INVOICES &&
				all.every(
					(execution) =>
						execution.status === 'error' ||
						(execution.status === 'success' && outcome(execution) !== undefined),
				),
			180_000,
		).catch(async (error) => failWithExecutions(error))) as DecodedExecution[];
		const perFile = executions.filter((execution) =>
			executedNodes(execution).includes('Each attachment'),
		);
		expect(perFile.map((execution) => [execution.status, outcome(execution)])).toEqual(
			Array.from({ length: INVOICES }, () => ['success', 'booked']),
		);
		expect(mail.messages().filter(isQuestion)).toHaveLength(1);

		const bills = quickBooks.transactions.filter((bill) => bill.DocNumber?.startsWith('MD-'));
		expect(bills).toHaveLength(INVOICES);
		for (const bill of bills)
			expect(bill.Line?.[0]?.AccountBasedExpenseLineDetail?.AccountRef?.value).toBe(chosen.Id);
		expect(quickBooks.vendors.filter((vendor) => vendor.DisplayName === SUPPLIER)).toHaveLength(1);
		const rules = (await client.dataTableRows('QuickBooks supplier rules')).filter(
			(row) => row.supplier_key === 'massive dynamic',
		);
		expect(rules).toEqual([expect.objectContaining({ expense_account_id: chosen.Id })]);
	});
});
