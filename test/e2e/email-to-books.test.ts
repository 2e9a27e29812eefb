// Both email-to-books templates at the books, in a real n8n with the stand-ins, each published with
// its Email Trigger on a real IMAP server. Each invoice is its file's own execution, started as the
// email path starts it (support/eachAttachment.ts); inbox-to-books sends the emails.
// Each bill coded by its supplier's rule (docs/accounting.md#supplier-rules): a supplier without a
// row in the template's Data Table gets the Settings' account; a row gives its own; a row changed
// changes the next bill.
// One bill per invoice at the books themselves, whatever n8n remembers (docs/accounting.md#exactly-once):
// - The books store the bill and every answer is lost (504, through all of Create's tries and its
//   last try's): the execution fails at the create; retried as the editor retries
//   it, the create goes again with the same idempotency key and the books answer with the bill they
//   hold: one bill, with its original.
//   QuickBooks' vendor stored and its answers lost: *Find vendor* finds it in the same execution.
// - The same invoice through a freshly imported copy of the template (a new workflow, its memory
//   empty): the books are asked first, the invoice comes out on "Already in the books" naming the
//   bill, and no second bill is made.

import { afterAll, beforeAll, expect, it } from 'vitest';
import {
	executedNodes,
	loadExampleWorkflows,
	nodeJson,
	sandboxControl,
	withCredentialsByName,
	type Credential,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import {
	connectedOAuth2Credential,
	startQuickBooksStandIn,
	startXeroStandIn,
	withSettings,
	type QuickBooksStandIn,
	type XeroStandIn,
} from '../../local-n8n/accounting/index.ts';
import { invoicePdf } from '../../local-n8n/mail/index.ts';
import { formLink, mailAbout, openForm, submitForm } from './support/approvalForms.ts';
import { STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import {
	attachmentExecutionEnded,
	executionIds,
	outcomeOf,
	publishEachAttachmentStarter,
} from './support/eachAttachment.ts';
import { postEmail } from './support/emailOfInvoices.ts';
import { describeNeeding } from './support/requirements.ts';
import { useMailboxes } from './support/mailboxes.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const TEMPLATES = {
	xero: 'invoices-email-to-xero-with-approval.workflow.json',
	quickBooks: 'invoices-email-to-quickbooks-with-approval.workflow.json',
};

const fixture = useN8nAndSandbox();

const mailboxes = useMailboxes(fixture);
/** How many workflows have published on the mailbox: each opens it once more. */
let published = 0;
/** Each published copy's starter of its "Each attachment" executions, by the copy's id. */
const starterPaths = new Map<string, string>();

/** A small invoice (under the approval threshold: booked without approval). */
function smallInvoice(vendor: string, invoiceNo: string) {
	return {
		header: { vendor, date: '2026-11-02', invoice_no: invoiceNo },
		amounts: { subtotal: 200, tax: 38, total: 238 },
		line_items: [{ description: 'Toner', quantity: 2, unit_price: 100, amount: 200 }],
	};
}

/** An invoice above the approval threshold (1000): the approver is asked. */
function largeInvoice(vendor: string, invoiceNo: string) {
	return {
		header: { vendor, date: '2026-11-03', invoice_no: invoiceNo },
		amounts: { subtotal: 2000, tax: 380, total: 2380 },
		line_items: [{ description: 'Consulting', quantity: 1, unit_price: 2000, amount: 2000 }],
	};
}

/** A name as n8n's form page writes it. */
const asHtml = (text: string) => text.replace(/&/g, '&amp;');

/** The approver's form link of the one email about `invoiceNo` whose subject starts so. */
async function formOf(invoiceNo: string, subjectStart: string): Promise<string> {
	const [message] = await mailboxes.mail.waitForMessages(
		mailAbout(invoiceNo, subjectStart, 'manager@example.com'),
		1,
		90_000,
	);
	return formLink(message);
}

/** Imports the template as a new workflow with `settings`, publishes it and its starter; its id. */
async function importAndPublish(
	file: string,
	settings: Record<string, string>,
	books: Credential,
): Promise<string> {
	const client = fixture.stack.client;
	const template = loadExampleWorkflows().find((entry) => entry.file === file);
	if (!template) throw new Error(`examples/${file} is missing`);
	const configured = withSettings(template.workflow, {
		approval_threshold: '1000',
		from_email: 'invoices@example.test',
		ask_account_for_new_suppliers: 'false',
		...settings,
	});
	const created = await client.createWorkflow(
		withCredentialsByName(configured, [...mailboxes.credentials, books]),
	);
	await client.activateWorkflow(created.id);
	await mailboxes.imap.waitForMailboxOpened(++published);
	const starter = await publishEachAttachmentStarter(client, template.workflow, created.id);
	await client.waitForWebhook(starter.path);
	starterPaths.set(created.id, starter.path);
	return created.id;
}

/** Starts the execution of one file, the invoice's PDF; that execution once it has ended. */
async function sendAndSettle(
	workflowId: string,
	invoiceNo: string,
	data: object,
): Promise<DecodedExecution> {
	const client = fixture.stack.client;
	const before = await executionIds(client, workflowId);
	await sandboxControl(fixture.sandbox.url, 'next-extraction', { data });
	await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: [0.99] });
	await postEmail(client, starterPaths.get(workflowId)!, [
		{
			invoiceNo,
			fileName: `${invoiceNo}.pdf`,
			contentType: 'application/pdf',
			bytes: invoicePdf([`Invoice ${invoiceNo}`]),
		},
	]);
	return await attachmentExecutionEnded(client, workflowId, before, invoiceNo, 120_000);
}

/** Retries a failed execution as the editor does; the retry once it has ended with its outcome saved. */
async function retriedOutcome(failedId: string): Promise<DecodedExecution> {
	const client = fixture.stack.client;
	return await client.waitForExecution(await client.retryExecution(failedId), {
		until: (execution) => execution.status === 'error' || outcome(execution) !== undefined,
	});
}

const outcome = outcomeOf;

describeNeeding(['dovecot'], 'Exactly once at the books: Xero (the template)', () => {
	let xero: XeroStandIn;
	let books: Credential;
	const workflows: string[] = [];
	const bills = (invoiceNo: string) =>
		xero.documents.filter((document) => document.InvoiceNumber === invoiceNo);
	const settings = () => ({ xero_api_url: xero.url, xero_tenant_id: 'tenant' });

	beforeAll(async () => {
		xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		books = await connectedOAuth2Credential(
			fixture.stack.client,
			'xeroOAuth2Api',
			'Xero account',
			STAND_IN_ACCESS_TOKEN,
		);
	});

	afterAll(async () => {
		for (const id of workflows)
			await fixture.stack.client.deactivateWorkflow(id).catch(() => undefined);
		await xero?.close();
	});

	it('the bill stored and its answer lost on every try: the retried execution books nothing twice and attaches the original', async () => {
		workflows.push(await importAndPublish(TEMPLATES.xero, settings(), books));
		// Create's three tries and its last try's three: the execution fails at the create itself.
		xero.loseAnswers(6);
		const failed = await sendAndSettle(
			workflows[0],
			'LOST-X-1',
			smallInvoice('Acme Ltd', 'LOST-X-1'),
		);
		expect(failed.status).toBe('error');
		expect(failed.data.resultData.lastNodeExecuted).toBe('Create bill in Xero, last try');
		expect(bills('LOST-X-1')).toHaveLength(1);
		const creates = xero.requests.filter((request) => /\/Invoices\?unitdp=4$/.test(request.path));
		expect(creates.map((request) => request.replayed ?? false)).toEqual([
			false,
			true,
			true,
			true,
			true,
			true,
		]);

		const retried = await retriedOutcome(failed.id);
		expect(retried.status).toBe('success');
		expect(outcome(retried)).toBe('booked');
		expect(bills('LOST-X-1')).toHaveLength(1);
		const [bill] = bills('LOST-X-1');
		expect(xero.attachments.filter((attachment) => attachment.ownerId === bill.id)).toHaveLength(1);
		expect(xero.history.filter((note) => note.ownerId === bill.id)).toHaveLength(1);
	});

	it('the same invoice through a freshly imported copy of the template: "Already in the books", naming the bill', async () => {
		await fixture.stack.client.deactivateWorkflow(workflows[0]);
		workflows.push(await importAndPublish(TEMPLATES.xero, settings(), books));
		const [bill] = bills('LOST-X-1');
		// Written differently, as a second scan may read it: the same supplier and number.
		const again = await sendAndSettle(
			workflows[1],
			'LOST-X-1',
			smallInvoice('Acme Ltd', 'LOST-X-1'),
		);
		expect(again.status).toBe('success');
		expect(outcome(again)).toBe('already in the books');
		const [already] = nodeJson(again, 'Outcome');
		expect(already).toMatchObject({
			state: 'already in the books',
			bill_id: bill.id,
			invoice_no: 'LOST-X-1',
		});
		expect(String(already.detail)).toContain(bill.id);
		expect(executedNodes(again)).not.toContain('Create bill in Xero');
		expect(bills('LOST-X-1')).toHaveLength(1);
	});
});

describeNeeding(['dovecot'], 'Bills coded per supplier: Xero (the template)', () => {
	let xero: XeroStandIn;
	let workflowId: string;
	const lineOf = (invoiceNo: string) =>
		xero.documents.find((document) => document.InvoiceNumber === invoiceNo)?.LineItems?.[0];

	beforeAll(async () => {
		xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		const books = await connectedOAuth2Credential(
			fixture.stack.client,
			'xeroOAuth2Api',
			'Xero account',
			STAND_IN_ACCESS_TOKEN,
		);
		workflowId = await importAndPublish(
			TEMPLATES.xero,
			{ xero_api_url: xero.url, xero_tenant_id: 'tenant', xero_account_code: '400' },
			books,
		);
	});

	afterAll(async () => {
		await fixture.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
		await xero?.close();
	});

	it("no row: the Settings' account; a row for the supplier however the invoice writes its case and spaces: its account and tax; another organisation's row: not used; the row changed: the next bill follows", async () => {
		const client = fixture.stack.client;
		const vendor = 'Umbrella Office Ltd.';
		const first = await sendAndSettle(workflowId, 'RULE-X-1', smallInvoice(vendor, 'RULE-X-1'));
		expect(outcome(first)).toBe('booked');
		expect(lineOf('RULE-X-1')).toMatchObject({ AccountCode: '400' });
		expect(nodeJson(first, 'Same invoice?')[0].supplier_key).toBe('umbrella office ltd.');

		// The table the template made on its first invoice; the bookkeeper adds the supplier's row,
		// and a newer row of another company for the same supplier is there too.
		await client.insertDataTableRows('Xero supplier rules', [
			{
				organisation: 'tenant',
				supplier_key: 'umbrella office ltd.',
				supplier: vendor,
				account_code: '429',
				tax_type: 'INPUT2',
			},
			{
				organisation: 'another-tenant',
				supplier_key: 'umbrella office ltd.',
				supplier: vendor,
				account_code: '300',
				tax_type: 'NONE',
			},
		]);
		await sendAndSettle(workflowId, 'RULE-X-2', smallInvoice('UMBRELLA  OFFICE LTD.', 'RULE-X-2'));
		expect(lineOf('RULE-X-2')).toMatchObject({ AccountCode: '429', TaxType: 'INPUT2' });

		await client.updateDataTableRows(
			'Xero supplier rules',
			{ column: 'account_code', value: '429' },
			{ account_code: '300' },
		);
		await sendAndSettle(workflowId, 'RULE-X-3', smallInvoice(vendor, 'RULE-X-3'));
		expect(lineOf('RULE-X-3')).toMatchObject({ AccountCode: '300', TaxType: 'INPUT2' });
		// Another supplier still gets the Settings' account.
		await sendAndSettle(workflowId, 'RULE-X-4', smallInvoice('Stark Industries', 'RULE-X-4'));
		expect(lineOf('RULE-X-4')).toMatchObject({ AccountCode: '400' });
	});
});

describeNeeding(['dovecot'], 'Exactly once at the books: QuickBooks (the template)', () => {
	let quickBooks: QuickBooksStandIn;
	let books: Credential;
	const workflows: string[] = [];
	const bills = (invoiceNo: string) =>
		quickBooks.transactions.filter((bill) => bill.DocNumber === invoiceNo);
	const settings = () => ({
		quickbooks_api_url: quickBooks.url,
		quickbooks_realm_id: '9130',
		quickbooks_expense_account_id: '7',
		quickbooks_tax_account_id: '8',
	});

	beforeAll(async () => {
		quickBooks = await startQuickBooksStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		books = await connectedOAuth2Credential(
			fixture.stack.client,
			'quickBooksOAuth2Api',
			'QuickBooks account',
			STAND_IN_ACCESS_TOKEN,
		);
	});

	afterAll(async () => {
		for (const id of workflows)
			await fixture.stack.client.deactivateWorkflow(id).catch(() => undefined);
		await quickBooks?.close();
	});

	it("the vendor stored and its create's every answer lost: found again, booked in the same execution; a bill's answer lost: the retried execution makes one bill with its original", async () => {
		workflows.push(await importAndPublish(TEMPLATES.quickBooks, settings(), books));
		quickBooks.loseAnswers(3);
		const first = await sendAndSettle(
			workflows[0],
			'LOST-Q-1',
			smallInvoice('Initech LLC', 'LOST-Q-1'),
		);
		// Create vendor's three tries stored one vendor and lost every answer: it is looked up again.
		expect(first.status).toBe('success');
		expect(outcome(first)).toBe('booked');
		expect(first.data.resultData.runData['Find vendor']).toHaveLength(2);
		expect(quickBooks.vendors.map((vendor) => vendor.DisplayName)).toEqual(['Initech LLC']);
		expect(bills('LOST-Q-1')).toHaveLength(1);

		// The bill's own answer lost on every try, its last try's too: the execution fails; retried,
		// still one bill.
		quickBooks.loseAnswers(6);
		const second = await sendAndSettle(
			workflows[0],
			'LOST-Q-2',
			smallInvoice('Initech LLC', 'LOST-Q-2'),
		);
		expect(second.status).toBe('error');
		expect(second.data.resultData.lastNodeExecuted).toBe('Create bill in QuickBooks, last try');
		expect(bills('LOST-Q-2')).toHaveLength(1);
		const again = await retriedOutcome(second.id);
		expect(again.status).toBe('success');
		expect(outcome(again)).toBe('booked');
		expect(quickBooks.vendors).toHaveLength(1);
		expect(bills('LOST-Q-2')).toHaveLength(1);
		const [bill] = bills('LOST-Q-2');
		expect(
			quickBooks.attachments.filter((attachment) => attachment.ownerId === bill.Id),
		).toHaveLength(1);
	});

	it('the same invoice through a freshly imported copy of the template: "Already in the books", naming the bill', async () => {
		await fixture.stack.client.deactivateWorkflow(workflows[0]);
		workflows.push(await importAndPublish(TEMPLATES.quickBooks, settings(), books));
		const [bill] = bills('LOST-Q-1');
		const again = await sendAndSettle(
			workflows[1],
			'LOST-Q-1',
			smallInvoice('Initech LLC', 'LOST-Q-1'),
		);
		expect(again.status).toBe('success');
		expect(outcome(again)).toBe('already in the books');
		expect(nodeJson(again, 'Outcome')[0]).toMatchObject({
			state: 'already in the books',
			bill_id: bill.Id,
		});
		expect(executedNodes(again)).not.toContain('Create bill in QuickBooks');
		expect(bills('LOST-Q-1')).toHaveLength(1);
	});

	it("coded per supplier: the Settings' expense account without a row, the row's with one", async () => {
		const account = (invoiceNo: string) =>
			bills(invoiceNo)[0]?.Line?.[0]?.AccountBasedExpenseLineDetail?.AccountRef?.value;
		await sendAndSettle(workflows[1], 'RULE-Q-1', smallInvoice('Hooli Cloud Services', 'RULE-Q-1'));
		expect(account('RULE-Q-1')).toBe('7');
		await fixture.stack.client.insertDataTableRows('QuickBooks supplier rules', [
			{ organisation: '9130', supplier_key: 'hooli cloud services', expense_account_id: '12' },
		]);
		await sendAndSettle(workflows[1], 'RULE-Q-2', smallInvoice('Hooli Cloud Services', 'RULE-Q-2'));
		expect(account('RULE-Q-2')).toBe('12');
	});
});

describeNeeding(['dovecot'], 'An account learned from the approver: Xero (the template)', () => {
	let xero: XeroStandIn;
	let workflowId: string;
	const lineOf = (invoiceNo: string) =>
		xero.documents.find((document) => document.InvoiceNumber === invoiceNo)?.LineItems?.[0];
	const account = (code: string) => xero.accounts.find((entry) => entry.Code === code)!;

	beforeAll(async () => {
		xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		const books = await connectedOAuth2Credential(
			fixture.stack.client,
			'xeroOAuth2Api',
			'Xero account',
			STAND_IN_ACCESS_TOKEN,
		);
		workflowId = await importAndPublish(
			TEMPLATES.xero,
			{
				xero_api_url: xero.url,
				xero_tenant_id: 'tenant',
				xero_account_code: '400',
				ask_account_for_new_suppliers: 'true',
			},
			books,
		);
	});

	afterAll(async () => {
		await fixture.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
		await xero?.close();
	});

	it("a new supplier above the threshold: the approval form offers Xero's expense accounts by name; the choice books it and becomes the rule; the next invoice books there without asking", async () => {
		const client = fixture.stack.client;
		// A name with an ampersand: shown escaped, sent back as the browser decodes it.
		const chosen = account('412');
		const settled = sendAndSettle(
			workflowId,
			'LEARN-X-1',
			largeInvoice('Wayne Enterprises', 'LEARN-X-1'),
		);
		const link = await formOf('LEARN-X-1', 'Approve or reject');
		const page = await openForm(client, link);
		expect(page.status).toBe(200);
		expect(page.html).toContain(asHtml(chosen.Name));
		// Only active expense accounts: not a revenue account, not an archived one.
		for (const other of xero.accounts.filter(
			(entry) => entry.Class !== 'EXPENSE' || entry.Status !== 'ACTIVE',
		))
			expect(page.html).not.toContain(`>${asHtml(other.Name)}<`);
		expect(
			(await submitForm(client, link, ['Approve', '', 'Dana Approver', chosen.Name])).status,
		).toBe(200);
		expect(outcome(await settled)).toBe('booked');
		expect(lineOf('LEARN-X-1')).toMatchObject({ AccountCode: '412', TaxType: chosen.TaxType });
		expect(await client.dataTableRows('Xero supplier rules')).toContainEqual(
			expect.objectContaining({
				organisation: 'tenant',
				supplier_key: 'wayne enterprises',
				supplier: 'Wayne Enterprises',
				account_code: '412',
				tax_type: chosen.TaxType,
			}),
		);

		const next = await sendAndSettle(
			workflowId,
			'LEARN-X-2',
			smallInvoice('Wayne Enterprises', 'LEARN-X-2'),
		);
		expect(outcome(next)).toBe('booked');
		expect(executedNodes(next)).not.toContain('Ask for the account');
		expect(executedNodes(next)).not.toContain('Accounts in Xero');
		expect(lineOf('LEARN-X-2')).toMatchObject({ AccountCode: '412', TaxType: chosen.TaxType });
	});
});

describeNeeding(
	['dovecot'],
	'An account learned from the approver: QuickBooks (the template)',
	() => {
		let quickBooks: QuickBooksStandIn;
		let workflowId: string;
		const accountOf = (invoiceNo: string) =>
			quickBooks.transactions.find((bill) => bill.DocNumber === invoiceNo)?.Line?.[0]
				?.AccountBasedExpenseLineDetail?.AccountRef?.value;

		beforeAll(async () => {
			quickBooks = await startQuickBooksStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
			const books = await connectedOAuth2Credential(
				fixture.stack.client,
				'quickBooksOAuth2Api',
				'QuickBooks account',
				STAND_IN_ACCESS_TOKEN,
			);
			workflowId = await importAndPublish(
				TEMPLATES.quickBooks,
				{
					quickbooks_api_url: quickBooks.url,
					quickbooks_realm_id: '9130',
					quickbooks_expense_account_id: '7',
					quickbooks_tax_account_id: '8',
					ask_account_for_new_suppliers: 'true',
				},
				books,
			);
		});

		afterAll(async () => {
			await fixture.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
			await quickBooks?.close();
		});

		it("a new supplier above the threshold: the approval form offers QuickBooks' expense accounts by name; the choice books it and becomes the rule, asked once; the next invoice books there without asking", async () => {
			const client = fixture.stack.client;
			const settled = sendAndSettle(
				workflowId,
				'LEARN-Q-1',
				largeInvoice('Gotham Paper Co', 'LEARN-Q-1'),
			);
			const link = await formOf('LEARN-Q-1', 'Approve or reject');
			const page = await openForm(client, link);
			expect(page.status).toBe(200);
			expect(page.html).toContain('Supplies');
			// Only active expense accounts: not an income account, not an inactive one.
			for (const other of quickBooks.accounts.filter(
				(entry) => entry.AccountType !== 'Expense' || entry.Active === false,
			))
				expect(page.html).not.toContain(`>${asHtml(other.Name)}<`);
			expect(
				(await submitForm(client, link, ['Approve', '', 'Dana Approver', 'Supplies'])).status,
			).toBe(200);
			// The account was chosen in the approval form: the approver is not asked for it again.
			const askedAgain = mailboxes.mail.waitForMessages(
				mailAbout('LEARN-Q-1', 'Choose the account', 'manager@example.com'),
				1,
				240_000,
			);
			askedAgain.catch(() => undefined);
			const first = await Promise.race([settled, askedAgain]);
			expect(Array.isArray(first), 'the approver was asked for the account a second time').toBe(
				false,
			);
			const execution = await settled;
			expect(outcome(execution)).toBe('booked');
			expect(executedNodes(execution)).not.toContain('Ask for the account');
			expect(accountOf('LEARN-Q-1')).toBe('19');
			expect(await client.dataTableRows('QuickBooks supplier rules')).toContainEqual(
				expect.objectContaining({
					organisation: '9130',
					supplier_key: 'gotham paper co',
					expense_account_id: '19',
				}),
			);

			const next = await sendAndSettle(
				workflowId,
				'LEARN-Q-2',
				smallInvoice('Gotham Paper Co', 'LEARN-Q-2'),
			);
			expect(outcome(next)).toBe('booked');
			expect(executedNodes(next)).not.toContain('Ask for the account');
			expect(executedNodes(next)).not.toContain('Accounts in QuickBooks');
			expect(accountOf('LEARN-Q-2')).toBe('19');
		});
	},
);
