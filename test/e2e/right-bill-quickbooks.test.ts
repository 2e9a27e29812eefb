// "Invoices from email to QuickBooks, with approval": the right bill or a person, and a register that
// tells the truth (docs/accounting.md#the-books-answers, docs/accounting.md#invoice-register), in a real
// n8n with the QuickBooks stand-in, the template published with its Email Trigger on a real IMAP
// server; each file its own execution, started as the email path starts it (support/eachAttachment.ts).
// - A voided bill of the supplier with the invoice's number, or one of the same number with another
//   total, already in QuickBooks: a person decides, the register's row says why, nothing is created.
// - QuickBooks loses every answer to the bill's create, its last try's too: the execution fails and
//   its row says `failed` with the node and the message; retried from n8n with QuickBooks healthy, the
//   same row (its register_key) ends `booked`, one bill.
// - The books unreachable at the first call for a new supplier (its accounts), in each template: the
//   execution fails and its row says `failed` with the node, the message and the invoice; another
//   file of the invoice meanwhile is a possible duplicate of that row.
// - The same file sent to the Xero template and to this one: each template's repeats (the same file,
//   another file of the same invoice) name the row of its own books.
// - A supplier's rule belongs to one QuickBooks company (`organisation`, the realm id).
// - A rule whose account QuickBooks made inactive since it was learned: QuickBooks refuses the bill,
//   the refusal is written on the rule and the supplier is asked again; the chosen account books
//   the bill, with its original, and becomes the rule.
// - Approval as the team's policy (docs/approvals.md#approval-loop), rows written in its Approval
//   policy table: two steps where the second rejects (nothing booked, the row says why); a delegate
//   inside the window decides the first step in the approver's place, the second approves, and the
//   bill's memo holds both decisions.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	eventually,
	executedNodes,
	freePort,
	log,
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
import { useMailboxes } from './support/mailboxes.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { describeNeeding } from './support/requirements.ts';

const TEMPLATES = {
	xero: 'invoices-email-to-xero-with-approval.workflow.json',
	quickBooks: 'invoices-email-to-quickbooks-with-approval.workflow.json',
};

const fixture = useN8nAndSandbox();
const mailboxes = useMailboxes(fixture);
/** How many workflows have published on the mailbox: each opens it once more. */
let published = 0;
const starterPaths = new Map<string, string>();
const workflows: string[] = [];

let quickBooks: QuickBooksStandIn;
let xero: XeroStandIn;
let quickBooksWorkflow: string;

/** A small invoice (under the approval threshold: booked without approval). */
function smallInvoice(vendor: string, invoiceNo: string, total = 238) {
	const subtotal = Math.round((total / 1.19) * 100) / 100;
	const tax = Math.round((total - subtotal) * 100) / 100;
	return {
		header: { vendor, date: '2026-11-02', invoice_no: invoiceNo },
		amounts: { subtotal, tax, total },
		line_items: [{ description: 'Toner', quantity: 1, unit_price: subtotal, amount: subtotal }],
	};
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
	workflows.push(created.id);
	await client.activateWorkflow(created.id);
	await mailboxes.imap.waitForMailboxOpened(++published);
	const starter = await publishEachAttachmentStarter(client, template.workflow, created.id);
	await client.waitForWebhook(starter.path);
	starterPaths.set(created.id, starter.path);
	return created.id;
}

const outcome = outcomeOf;

/**
 * Starts the execution of one file (a PDF of `lines`, named `fileName`); that execution once it has
 * ended. `data`: what the service extracts from it; none for a file the workflow has already sent.
 */
async function sendAndSettle(
	workflowId: string,
	file: { fileName: string; lines: string[] },
	data?: object,
): Promise<DecodedExecution> {
	const client = fixture.stack.client;
	const before = await executionIds(client, workflowId);
	if (data) {
		await sandboxControl(fixture.sandbox.url, 'next-extraction', { data });
		await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: [0.99] });
	}
	await postEmail(client, starterPaths.get(workflowId)!, [
		{
			fileName: file.fileName,
			invoiceNo: file.fileName,
			contentType: 'application/pdf',
			bytes: invoicePdf(file.lines),
		},
	]);
	return await attachmentExecutionEnded(client, workflowId, before, file.fileName, 180_000);
}

const register = async () => await fixture.stack.client.dataTableRows('Invoice register');
const bills = (invoiceNo: string) =>
	quickBooks.transactions.filter((bill) => bill.DocNumber === invoiceNo);

/** A vendor QuickBooks already has, as a person made it. */
function vendorInQuickBooks(name: string): string {
	const id = String(900 + quickBooks.vendors.length);
	quickBooks.vendors.push({ Id: id, DisplayName: name, CurrencyRef: { value: 'EUR' } });
	return id;
}

describeNeeding(['dovecot'], 'The right bill or a person: QuickBooks (the template)', () => {
	beforeAll(async () => {
		const client = fixture.stack.client;
		quickBooks = await startQuickBooksStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		const quickBooksAccount = await connectedOAuth2Credential(
			client,
			'quickBooksOAuth2Api',
			'QuickBooks account',
			STAND_IN_ACCESS_TOKEN,
		);
		quickBooksWorkflow = await importAndPublish(
			TEMPLATES.quickBooks,
			{
				quickbooks_api_url: quickBooks.url,
				quickbooks_realm_id: '9130',
				quickbooks_expense_account_id: '7',
				quickbooks_tax_account_id: '8',
			},
			quickBooksAccount,
		);
	});

	afterAll(async () => {
		for (const id of workflows)
			await fixture.stack.client.deactivateWorkflow(id).catch(() => undefined);
		await quickBooks?.close();
		await xero?.close();
	});

	it('a voided bill of the supplier with the number, or one with another total, in QuickBooks: a person decides, the register says why, nothing created', async () => {
		const vendor = 'Voidwell Supplies Ltd';
		const vendorId = vendorInQuickBooks(vendor);
		const existing = (id: string, docNumber: string, total: number, note: string) => ({
			entity: 'Bill' as const,
			Id: id,
			VendorRef: { value: vendorId, name: vendor },
			CurrencyRef: { value: 'EUR' },
			DocNumber: docNumber,
			TxnDate: '2026-11-02',
			Line: [],
			TotalAmt: total,
			PrivateNote: note,
		});
		quickBooks.transactions.push(
			existing('950', 'VOID-Q-1', 0, 'Voided - bill 950'),
			existing('951', 'OTHER-Q-1', 999, 'Entered by hand'),
		);

		const voided = await sendAndSettle(
			quickBooksWorkflow,
			{ fileName: 'VOID-Q-1.pdf', lines: ['Invoice VOID-Q-1'] },
			smallInvoice(vendor, 'VOID-Q-1'),
		);
		const otherTotal = await sendAndSettle(
			quickBooksWorkflow,
			{ fileName: 'OTHER-Q-1.pdf', lines: ['Invoice OTHER-Q-1'] },
			smallInvoice(vendor, 'OTHER-Q-1'),
		);
		for (const execution of [voided, otherTotal]) {
			expect(execution.status).toBe('success');
			expect(outcome(execution)).toBe('a person decides');
			expect(executedNodes(execution)).not.toContain('Create bill in QuickBooks');
		}
		expect(bills('VOID-Q-1')).toHaveLength(1);
		expect(bills('OTHER-Q-1')).toHaveLength(1);

		const rows = await register();
		const rowOf = (invoiceNo: string) => rows.filter((row) => row.invoice_no === invoiceNo);
		expect(rowOf('VOID-Q-1')).toEqual([
			expect.objectContaining({
				books: 'QuickBooks',
				state: 'a person decides',
				file_name: 'VOID-Q-1.pdf',
				bill_id: '950',
				detail: expect.stringMatching(/voided/i),
			}),
		]);
		expect(rowOf('OTHER-Q-1')).toEqual([
			expect.objectContaining({
				state: 'a person decides',
				bill_id: '951',
				detail: expect.stringMatching(/total is 999\.00/),
			}),
		]);
	});

	it('QuickBooks loses every answer to the bill: the row says failed with the message; retried with QuickBooks healthy, the same row ends booked, one bill', async () => {
		const client = fixture.stack.client;
		vendorInQuickBooks('Lostwell Parts Ltd');
		// Create's three tries and its last try's three.
		quickBooks.loseAnswers(6);
		const failed = await sendAndSettle(
			quickBooksWorkflow,
			{ fileName: 'FAIL-Q-1.pdf', lines: ['Invoice FAIL-Q-1'] },
			smallInvoice('Lostwell Parts Ltd', 'FAIL-Q-1'),
		);
		expect(failed.status).toBe('error');
		expect(failed.data.resultData.lastNodeExecuted).toBe('Create bill in QuickBooks, last try');
		// Written by the workflow's own error execution, once the failed one has ended.
		const whileFailed = await eventually(
			'the row of FAIL-Q-1 to say failed',
			async () => (await register()).filter((row) => row.invoice_no === 'FAIL-Q-1'),
			(rows) => rows[0]?.state === 'failed',
		);
		expect(whileFailed).toEqual([
			expect.objectContaining({
				register_key: failed.id,
				books: 'QuickBooks',
				supplier: 'Lostwell Parts Ltd',
				file_name: 'FAIL-Q-1.pdf',
				detail: expect.stringMatching(/^Create bill in QuickBooks, last try: .*504/),
			}),
		]);

		const retried = await client.waitForExecution(await client.retryExecution(failed.id), {
			until: (execution) => execution.status === 'error' || outcome(execution) !== undefined,
			timeoutMs: 180_000,
		});
		expect(retried.status).toBe('success');
		expect(outcome(retried)).toBe('booked');
		expect(bills('FAIL-Q-1')).toHaveLength(1);
		const rows = (await register()).filter((row) => row.invoice_no === 'FAIL-Q-1');
		expect(rows).toEqual([
			expect.objectContaining({
				register_key: failed.id,
				state: 'booked',
				bill_id: bills('FAIL-Q-1')[0].Id,
				file_name: 'FAIL-Q-1.pdf',
			}),
		]);
	});

	it('the books unreachable before the bill (a new supplier, the accounts to choose from): in each template the row says failed, naming the node and the message', async () => {
		const client = fixture.stack.client;
		// A port nothing listens on: the books the copies cannot reach.
		const unreachable = `http://127.0.0.1:${await freePort()}`;
		const copies: Array<{
			file: string;
			node: string;
			settings: Record<string, string>;
			credential: Credential;
		}> = [
			{
				file: TEMPLATES.quickBooks,
				node: 'Accounts in QuickBooks',
				settings: { quickbooks_api_url: unreachable, quickbooks_realm_id: '9130' },
				credential: await connectedOAuth2Credential(
					client,
					'quickBooksOAuth2Api',
					'QuickBooks account',
					STAND_IN_ACCESS_TOKEN,
				),
			},
			{
				file: TEMPLATES.xero,
				node: 'Accounts in Xero',
				settings: { xero_api_url: unreachable, xero_tenant_id: 'tenant' },
				credential: await connectedOAuth2Credential(
					client,
					'xeroOAuth2Api',
					'Xero account',
					STAND_IN_ACCESS_TOKEN,
				),
			},
		];
		for (const { file, node, settings, credential } of copies) {
			const workflowId = await importAndPublish(
				file,
				{ ...settings, ask_account_for_new_suppliers: 'true' },
				credential,
			);
			const invoiceNo = `DOWN-${node.split(' ').pop()}`;
			const failed = await sendAndSettle(
				workflowId,
				{ fileName: `${invoiceNo}.pdf`, lines: [`Invoice ${invoiceNo}`] },
				smallInvoice('Newcomer Tools Ltd', invoiceNo),
			);
			expect(failed.status).toBe('error');
			expect(failed.data.resultData.lastNodeExecuted).toBe(node);
			const row = await eventually(
				`the row of ${invoiceNo} to say failed`,
				async () => (await register()).find((each) => each.register_key === failed.id),
				(each) => each?.state === 'failed',
				60_000,
			);
			// The invoice was read before the books were called: the failed row names it.
			expect(row).toMatchObject({
				file_name: `${invoiceNo}.pdf`,
				supplier: 'Newcomer Tools Ltd',
				invoice_no: invoiceNo,
			});
			expect(String(row?.detail)).toMatch(new RegExp(`^${node}: .*refused`, 'i'));
			log('register', `${invoiceNo}: ${String(row?.detail)}`);
			// Another file of the same invoice while the first waits for its retry: named by its row.
			const copy = await sendAndSettle(
				workflowId,
				{ fileName: `${invoiceNo}-scan.pdf`, lines: [`Invoice ${invoiceNo}`, 'scanned again'] },
				smallInvoice('Newcomer Tools Ltd', invoiceNo),
			);
			expect(outcome(copy)).toBe('possible duplicate');
			expect(nodeJson(copy, 'Outcome')[0]).toMatchObject({ duplicate_of: failed.id });
		}
	});

	it("the same file to the Xero template and to this one: each template's repeat names its own books' row", async () => {
		const xeroWorkflow = await importAndPublish(
			TEMPLATES.xero,
			{ xero_api_url: xero.url, xero_tenant_id: 'tenant' },
			await connectedOAuth2Credential(
				fixture.stack.client,
				'xeroOAuth2Api',
				'Xero account',
				STAND_IN_ACCESS_TOKEN,
			),
		);
		const vendor = 'Twinbooks Trading Ltd';
		const file = { fileName: 'BOTH-1.pdf', lines: ['Invoice BOTH-1'] };
		// Xero first: its row is the oldest of this file and of this invoice.
		const toXero = await sendAndSettle(xeroWorkflow, file, smallInvoice(vendor, 'BOTH-1'));
		expect(outcome(toXero)).toBe('booked');
		const toQuickBooks = await sendAndSettle(
			quickBooksWorkflow,
			file,
			smallInvoice(vendor, 'BOTH-1'),
		);
		expect(outcome(toQuickBooks)).toBe('booked');
		const [bill] = bills('BOTH-1');

		// Another file of the same invoice, then the same file again, to the QuickBooks template.
		const copy = await sendAndSettle(
			quickBooksWorkflow,
			{ fileName: 'BOTH-1-scan.pdf', lines: ['Invoice BOTH-1', 'scanned again'] },
			smallInvoice(vendor, 'BOTH-1'),
		);
		expect(outcome(copy)).toBe('possible duplicate');
		const again = await sendAndSettle(quickBooksWorkflow, file);
		expect(outcome(again)).toBe('already submitted');
		expect(nodeJson(again, 'Outcome')[0]).toMatchObject({
			state: 'already submitted',
			duplicate_of: toQuickBooks.id,
			bill_id: bill.Id,
		});
		const keys = [toXero.id, toQuickBooks.id, copy.id, again.id];
		const rows = (await register()).filter((row) => keys.includes(String(row.register_key)));
		const keyOf = (state: string, books: string) =>
			rows.find((row) => row.state === state && row.books === books);
		expect(keyOf('booked', 'Xero')).toMatchObject({ register_key: toXero.id });
		expect(keyOf('booked', 'QuickBooks')).toMatchObject({
			register_key: toQuickBooks.id,
			bill_id: bill.Id,
		});
		expect(keyOf('possible duplicate', 'QuickBooks')).toMatchObject({
			register_key: copy.id,
			duplicate_of: toQuickBooks.id,
			bill_id: bill.Id,
		});
		expect(rows.filter((row) => row.state === 'already submitted')).toEqual([
			expect.objectContaining({
				books: 'QuickBooks',
				register_key: again.id,
				duplicate_of: toQuickBooks.id,
				bill_id: bill.Id,
			}),
		]);
	});

	it("a supplier's rule is its QuickBooks company's: another company's row does not code this bill", async () => {
		const account = (invoiceNo: string) =>
			bills(invoiceNo)[0]?.Line?.[0]?.AccountBasedExpenseLineDetail?.AccountRef?.value;
		// The rules table the template made; the other company's row is the newest.
		await fixture.stack.client.insertDataTableRows('QuickBooks supplier rules', [
			{ organisation: '9130', supplier_key: 'orgwise ltd', expense_account_id: '12' },
			{ organisation: 'another-company', supplier_key: 'orgwise ltd', expense_account_id: '99' },
		]);
		vendorInQuickBooks('Orgwise Ltd');
		const booked = await sendAndSettle(
			quickBooksWorkflow,
			{ fileName: 'ORG-Q-1.pdf', lines: ['Invoice ORG-Q-1'] },
			smallInvoice('Orgwise Ltd', 'ORG-Q-1'),
		);
		expect(outcome(booked)).toBe('booked');
		expect(account('ORG-Q-1')).toBe('12');
	});

	it('a rule whose account QuickBooks made inactive since: the supplier is asked again, the chosen account books the bill and becomes the rule, the refusal stays on the rule', async () => {
		const client = fixture.stack.client;
		const rules = async () =>
			(await client.dataTableRows('QuickBooks supplier rules')).filter(
				(row) => row.supplier_key === 'refusewell ltd',
			);
		// The rules table as the template makes it on its first invoice, if no invoice has yet.
		if (!(await client.dataTableExists('QuickBooks supplier rules'))) {
			const template = loadExampleWorkflows().find((entry) => entry.file === TEMPLATES.quickBooks)!;
			const made = template.workflow.nodes.find((node) => node.name === 'Supplier rules')!;
			const columns = (made.parameters as { columns: { column: never[] } }).columns.column;
			await client.createDataTable('QuickBooks supplier rules', columns);
		}
		// The rule was learned when Advertising (10) was active; it has been made inactive since.
		await client.insertDataTableRows('QuickBooks supplier rules', [
			{
				organisation: '9130',
				supplier_key: 'refusewell ltd',
				supplier: 'Refusewell Ltd',
				expense_account_id: '10',
			},
		]);
		vendorInQuickBooks('Refusewell Ltd');
		const advertising = quickBooks.accounts.find((account) => account.Id === '10')!;
		advertising.Active = false;
		try {
			const settled = sendAndSettle(
				quickBooksWorkflow,
				{ fileName: 'REFUSE-Q-1.pdf', lines: ['Invoice REFUSE-Q-1'] },
				smallInvoice('Refusewell Ltd', 'REFUSE-Q-1'),
			);
			const asked = mailboxes.mail.waitForMessages(
				mailAbout('REFUSE-Q-1', 'Choose the account', 'manager@example.com'),
				1,
				240_000,
			);
			asked.catch(() => undefined);
			// Before the supplier is asked, the execution must not have ended (failed, or booked elsewhere).
			const first = await Promise.race([asked, settled]);
			expect(Array.isArray(first), 'the execution ended without asking the account again').toBe(
				true,
			);
			const [question] = await asked;
			const link = formLink(question);
			const form = await openForm(client, link);
			expect(form.status).toBe(200);
			expect(form.html).toContain('Supplies');
			expect(form.html).not.toContain('Advertising');
			expect((await submitForm(client, link, ['Supplies', 'Ada Accountant'])).status).toBe(200);

			const execution = await settled;
			expect(execution.status).toBe('success');
			expect(outcome(execution)).toBe('booked');
			const [bill] = bills('REFUSE-Q-1');
			expect(bills('REFUSE-Q-1')).toHaveLength(1);
			expect(bill.Line?.[0]?.AccountBasedExpenseLineDetail?.AccountRef?.value).toBe('19');
			// Booked after the question like any bill: with its original.
			expect(
				quickBooks.attachments
					.filter((attachment) => attachment.ownerId === bill.Id)
					.map((attachment) => attachment.fileName),
			).toEqual(['REFUSE-Q-1.pdf']);
			const [row] = (await register()).filter((entry) => entry.invoice_no === 'REFUSE-Q-1');
			expect(row).toMatchObject({ state: 'booked', bill_id: bill.Id });
			expect(await rules()).toEqual([
				expect.objectContaining({
					organisation: '9130',
					expense_account_id: '19',
					refused: expect.stringMatching(/QuickBooks refused the account 10: .*inactive/),
				}),
			]);
		} finally {
			advertising.Active = true;
		}
	});

	describe('approval as the policy says', () => {
		const BUDGET = 'budget@example.test';
		const DIRECTOR = 'director@example.test';
		const DELEGATE = 'delegate@example.test';
		const day = 24 * 3_600_000;

		/** The form link of the one email about `invoiceNo` to `to` whose subject starts so. */
		async function formTo(invoiceNo: string, to: string): Promise<string> {
			const [message] = await mailboxes.mail.waitForMessages(
				mailAbout(invoiceNo, 'Approve or reject', to),
				1,
				120_000,
			);
			return formLink(message);
		}

		async function answer(link: string, decision: 'Approve' | 'Reject', reason: string) {
			expect((await openForm(fixture.stack.client, link)).status).toBe(200);
			expect(
				(await submitForm(fixture.stack.client, link, [decision, reason, 'As the policy asks']))
					.status,
			).toBe(200);
		}

		beforeAll(async () => {
			// The table the template made, empty until now: above 1,000, two steps.
			const rows = [
				{ kind: 'band', up_to: 1000, steps: 'none' },
				{ kind: 'band', steps: 'budget holder, finance director' },
				{ kind: 'step', role: 'budget holder', name: 'Bea Budget', email: BUDGET },
				{ kind: 'step', role: 'finance director', name: 'Dora Director', email: DIRECTOR },
			];
			await fixture.stack.client.insertDataTableRows(
				'Approval policy',
				rows as unknown as Array<Record<string, string>>,
			);
		});

		it('two steps, the second rejects: nothing booked, the row says who and why', async () => {
			vendorInQuickBooks('Stepwise Consulting Ltd');
			const settled = sendAndSettle(
				quickBooksWorkflow,
				{ fileName: 'STEPS-Q-1.pdf', lines: ['Invoice STEPS-Q-1'] },
				smallInvoice('Stepwise Consulting Ltd', 'STEPS-Q-1', 2380),
			);
			await answer(await formTo('STEPS-Q-1', BUDGET), 'Approve', '');
			const second = await formTo('STEPS-Q-1', DIRECTOR);
			const [waiting] = (await register()).filter((row) => row.invoice_no === 'STEPS-Q-1');
			expect(waiting).toMatchObject({
				state: 'awaiting approval: step 2 of 2, finance director',
				file_name: 'STEPS-Q-1.pdf',
			});
			await answer(second, 'Reject', 'Not in this year’s budget');
			const execution = await settled;
			expect(outcome(execution)).toBe('rejected');
			expect(bills('STEPS-Q-1')).toEqual([]);
			// Each step's approver got the invoice with its file.
			for (const to of [BUDGET, DIRECTOR]) {
				const [sent] = mailboxes.mail
					.messages()
					.filter(mailAbout('STEPS-Q-1', 'Invoice to approve', to));
				expect(sent?.attachments, to).toEqual(['STEPS-Q-1.pdf']);
				expect(sent?.html, to).toContain('Stepwise Consulting Ltd');
			}
			const [row] = (await register()).filter((entry) => entry.invoice_no === 'STEPS-Q-1');
			expect(row).toMatchObject({
				state: 'rejected',
				decided_by: expect.stringContaining(DIRECTOR),
				detail: expect.stringContaining('Not in this year’s budget'),
			});
		});

		it("a second step nobody answers is reminded, not approved by the first step's answer", async () => {
			// Send and Wait passes its input on when its wait ends unanswered: the first step's answer
			// must not come back as the second step's decision.
			const QUICK = 'quick-director@example.test';
			await fixture.stack.client.insertDataTableRows('Approval policy', [
				{
					kind: 'step',
					role: 'quick director',
					name: 'Quinn Quick',
					email: QUICK,
					remind_after_hours: 40 / 3600,
				},
				{
					kind: 'override',
					supplier: 'Reminder Works Ltd',
					steps: 'budget holder, quick director',
				},
			] as unknown as Array<Record<string, string>>);
			vendorInQuickBooks('Reminder Works Ltd');
			const settled = sendAndSettle(
				quickBooksWorkflow,
				{ fileName: 'REMIND-Q-1.pdf', lines: ['Invoice REMIND-Q-1'] },
				smallInvoice('Reminder Works Ltd', 'REMIND-Q-1', 2380),
			);
			await answer(await formTo('REMIND-Q-1', BUDGET), 'Approve', '');
			await formTo('REMIND-Q-1', QUICK);
			const [reminder] = await mailboxes.mail.waitForMessages(
				mailAbout('REMIND-Q-1', 'Reminder: Approve or reject', QUICK),
				1,
				180_000,
			);
			expect(bills('REMIND-Q-1')).toEqual([]);
			const [waiting] = (await register()).filter((row) => row.invoice_no === 'REMIND-Q-1');
			expect(waiting.state).toBe('awaiting approval: step 2 of 2, quick director');
			await answer(formLink(reminder), 'Approve', 'Checked');
			const execution = await settled;
			expect(outcome(execution)).toBe('booked');
			const [bill] = bills('REMIND-Q-1');
			expect(String(bill.PrivateNote)).toContain(QUICK);
		});

		it('a delegate inside the window decides the first step for the approver; the memo holds every decision', async () => {
			await fixture.stack.client.insertDataTableRows('Approval policy', [
				{
					kind: 'delegate',
					name: 'Dan Delegate',
					email: DELEGATE,
					delegate_for: BUDGET,
					valid_from: new Date(Date.now() - day).toISOString(),
					valid_until: new Date(Date.now() + day).toISOString(),
				},
			]);
			vendorInQuickBooks('Covered Supplies Ltd');
			const settled = sendAndSettle(
				quickBooksWorkflow,
				{ fileName: 'COVER-Q-1.pdf', lines: ['Invoice COVER-Q-1'] },
				smallInvoice('Covered Supplies Ltd', 'COVER-Q-1', 2380),
			);
			await answer(await formTo('COVER-Q-1', DELEGATE), 'Approve', 'Covering for Bea');
			await answer(await formTo('COVER-Q-1', DIRECTOR), 'Approve', '');
			const execution = await settled;
			expect(outcome(execution)).toBe('booked');
			// The approver herself was not asked: her delegate was, inside the window.
			expect(
				mailboxes.mail.messages().filter(mailAbout('COVER-Q-1', 'Approve or reject', BUDGET)),
			).toEqual([]);
			const [bill] = bills('COVER-Q-1');
			expect(bill.PrivateNote).toContain(DELEGATE);
			expect(bill.PrivateNote).toContain(BUDGET);
			expect(bill.PrivateNote).toContain(DIRECTOR);
			const [row] = (await register()).filter((entry) => entry.invoice_no === 'COVER-Q-1');
			expect(row).toMatchObject({ state: 'booked', bill_id: bill.Id });
		});
	});
});
