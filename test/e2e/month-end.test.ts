// Month-end in the email-to-books templates, in a real n8n with the stand-ins: invoices of a supplier
// without a rule, each file its own execution, all in flight at once. The approver is asked once; the
// other invoices wait for that answer and are booked to the same account; the rule is written once
// (docs/accounting.md#one-question-per-supplier). QuickBooks answers slowly: one vendor however many
// executions create it.

import { expect, it } from 'vitest';
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
	startXeroStandIn,
	withSettings,
} from '../../local-n8n/accounting/index.ts';
import { formLink, openForm, submitForm } from './support/approvalForms.ts';
import { STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import { publishEachAttachmentStarter } from './support/eachAttachment.ts';
import { postEmail, type Attachment } from './support/emailOfInvoices.ts';
import { describeNeeding } from './support/requirements.ts';
import { useMailboxes } from './support/mailboxes.ts';
import { sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { untaxedInvoice } from './support/sampleInvoices.ts';

const SUPPLIER = 'Massive Dynamic Inc';
const SUPPLIER_KEY = 'massive dynamic inc';

const fixture = useN8nAndSandbox();

function outcome(execution: DecodedExecution) {
	return (execution.raw.customData as Record<string, string> | undefined)?.outcome;
}

/** A name as n8n's form page writes it. */
const asHtml = (text: string) => text.replace(/&/g, '&amp;');

const isQuestion = (message: { subject: string }) =>
	message.subject.startsWith('Choose the account');

/** `count` invoices of the supplier, numbered `<prefix>-01` …, as JSON files. */
function invoicesOf(prefix: string, count: number): Attachment[] {
	return Array.from({ length: count }, (_, index) => {
		const invoiceNo = `${prefix}-${String(index + 1).padStart(2, '0')}`;
		return {
			fileName: `${invoiceNo}.json`,
			invoiceNo,
			bytes: Buffer.from(JSON.stringify(untaxedInvoice(SUPPLIER, invoiceNo))),
		};
	});
}

describeNeeding(['dovecot'], 'Month-end: invoices of a new supplier at once', () => {
	const mailboxes = useMailboxes(fixture);
	/** How many workflows have published on the mailbox: each opens it once more. */
	let published = 0;

	/** Publishes the template with `settings` and asking on; its id and its starter of one file's execution. */
	async function publish(file: string, settings: Record<string, string>, books: Credential) {
		const client = fixture.stack.client;
		const template = loadExampleWorkflows().find((entry) => entry.file === file)!;
		const configured = withSettings(template.workflow, {
			approval_threshold: '1000',
			from_email: 'invoices@example.test',
			ask_account_for_new_suppliers: 'true',
			...settings,
		});
		const { id } = await client.createWorkflow(
			withCredentialsByName(configured, [...mailboxes.credentials, books]),
		);
		await client.activateWorkflow(id);
		await mailboxes.imap.waitForMailboxOpened(++published);
		const starter = await publishEachAttachmentStarter(client, template.workflow, id);
		await client.waitForWebhook(starter.path);
		return { id, starterPath: starter.path };
	}

	/** Says where each execution of the workflow stopped, then fails with `error`. */
	async function failWithExecutions(workflowId: string, error: unknown): Promise<never> {
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

	/**
	 * Starts every file's execution at once, as the email's path starts them; expects one question,
	 * answers it with `account`, and returns the files' executions once they have all ended.
	 */
	async function answeredOnce(
		workflow: { id: string; starterPath: string },
		files: Attachment[],
		account: string,
		notOffered: string[] = [],
	): Promise<DecodedExecution[]> {
		const client = fixture.stack.client;
		const questionsBefore = mailboxes.mail.messages().filter(isQuestion).length;
		await Promise.all(files.map((file) => postEmail(client, workflow.starterPath, [file])));
		const [question] = await mailboxes.mail
			.waitForMessages(
				(message) => isQuestion(message) && message.subject.includes(SUPPLIER),
				questionsBefore + 1,
				120_000,
			)
			.then((found) => found.slice(questionsBefore))
			.catch(async (error) => failWithExecutions(workflow.id, error));
		// Every execution reaches the question by now: one asks, the others wait for its answer.
		await sleep(fixture.settleMs);
		expect(mailboxes.mail.messages().filter(isQuestion)).toHaveLength(questionsBefore + 1);

		const link = formLink(question);
		const page = (await openForm(client, link)).html;
		expect(page).toContain(asHtml(account));
		for (const name of notOffered) expect(page).not.toContain(`>${asHtml(name)}<`);
		expect((await submitForm(client, link, [account, 'Sam Bookkeeper'])).status).toBe(200);

		const executions = (await eventually(
			`the ${files.length} executions to end`,
			async () => {
				const summaries = await client.listExecutions(workflow.id);
				const all = await Promise.all(summaries.map((summary) => client.getExecution(summary.id)));
				return all.filter((execution) => executedNodes(execution).includes('Each attachment'));
			},
			(all) =>
				all.length === files.length &&
				all.every(
					(execution) =>
						execution.status === 'error' ||
						(execution.status === 'success' && outcome(execution) !== undefined),
				),
			180_000,
		).catch(async (error) => failWithExecutions(workflow.id, error))) as DecodedExecution[];
		expect(executions.map((execution) => [execution.status, outcome(execution)])).toEqual(
			files.map(() => ['success', 'booked']),
		);
		expect(mailboxes.mail.messages().filter(isQuestion)).toHaveLength(questionsBefore + 1);
		return executions;
	}

	it('QuickBooks answering slowly, eight invoices: one question; all eight booked to the chosen account; one rule; one vendor', async () => {
		// Three times slower than the stand-in's usual answer: creates of one vendor overlap.
		const quickBooks = await startQuickBooksStandIn({
			accessToken: STAND_IN_ACCESS_TOKEN,
			responseDelayMs: 600,
		});
		try {
			const books = await connectedOAuth2Credential(
				fixture.stack.client,
				'quickBooksOAuth2Api',
				'QuickBooks account',
				STAND_IN_ACCESS_TOKEN,
			);
			const workflow = await publish(
				'invoices-email-to-quickbooks-with-approval.workflow.json',
				{
					quickbooks_api_url: quickBooks.url,
					quickbooks_realm_id: '9130',
					quickbooks_expense_account_id: '7',
					quickbooks_tax_account_id: '8',
				},
				books,
			);
			const chosen = quickBooks.accounts.find(
				(entry) => entry.AccountType === 'Expense' && entry.Active && entry.Id !== '7',
			)!;
			// The books' own active expense accounts only: not a revenue account, not an inactive one.
			const notOffered = quickBooks.accounts
				.filter((entry) => entry.AccountType !== 'Expense' || !entry.Active)
				.map((entry) => entry.Name);
			await answeredOnce(workflow, invoicesOf('MDQ', 8), chosen.Name, notOffered);

			const bills = quickBooks.transactions.filter((bill) => bill.DocNumber?.startsWith('MDQ-'));
			expect(bills).toHaveLength(8);
			for (const bill of bills)
				expect(bill.Line?.[0]?.AccountBasedExpenseLineDetail?.AccountRef?.value).toBe(chosen.Id);
			expect(quickBooks.vendors.filter((vendor) => vendor.DisplayName === SUPPLIER)).toHaveLength(
				1,
			);
			const rules = await fixture.stack.client.dataTableRows('QuickBooks supplier rules');
			expect(rules.filter((row) => row.supplier_key === SUPPLIER_KEY)).toEqual([
				expect.objectContaining({ expense_account_id: chosen.Id, asked_until: null }),
			]);
			await fixture.stack.client.deactivateWorkflow(workflow.id);
		} finally {
			await quickBooks.close();
		}
	});

	it('Xero, three invoices and a question that never ended: one question; all three booked to the chosen account and its tax; the rule written once', async () => {
		const xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		try {
			const books = await connectedOAuth2Credential(
				fixture.stack.client,
				'xeroOAuth2Api',
				'Xero account',
				STAND_IN_ACCESS_TOKEN,
			);
			const workflow = await publish(
				'invoices-email-to-xero-with-approval.workflow.json',
				{ xero_api_url: xero.url, xero_tenant_id: 'tenant', xero_account_code: '400' },
				books,
			);
			const chosen = xero.accounts.find(
				(entry) => entry.Class === 'EXPENSE' && entry.Status === 'ACTIVE' && entry.Code !== '400',
			)!;
			// A question that never ended (its execution failed while asking): it asks again.
			await fixture.stack.client.createDataTable('Xero supplier rules', [
				{ name: 'organisation', type: 'string' },
				{ name: 'supplier_key', type: 'string' },
				{ name: 'supplier', type: 'string' },
				{ name: 'account_code', type: 'string' },
				{ name: 'tax_type', type: 'string' },
				{ name: 'asked_until', type: 'date' },
			]);
			await fixture.stack.client.insertDataTableRows('Xero supplier rules', [
				{
					organisation: 'tenant',
					supplier_key: SUPPLIER_KEY,
					supplier: SUPPLIER,
					asked_until: '2026-01-01T00:00:00.000Z',
				},
			]);
			await answeredOnce(workflow, invoicesOf('MDX', 3), chosen.Name);

			const bills = xero.documents.filter((bill) => String(bill.InvoiceNumber).startsWith('MDX-'));
			expect(bills.map((bill) => bill.LineItems?.[0])).toEqual(
				Array.from({ length: 3 }, () =>
					expect.objectContaining({ AccountCode: chosen.Code, TaxType: chosen.TaxType }),
				),
			);
			// The rule is written once, over the question that never ended.
			const rules = await fixture.stack.client.dataTableRows('Xero supplier rules');
			expect(rules.filter((row) => row.supplier_key === SUPPLIER_KEY)).toEqual([
				expect.objectContaining({ account_code: chosen.Code, asked_until: null }),
			]);
			await fixture.stack.client.deactivateWorkflow(workflow.id);
		} finally {
			await xero.close();
		}
	});
});
