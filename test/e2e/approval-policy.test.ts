// Approval as the team's policy, in a real n8n with the Xero stand-in: the Xero template reads its
// Approval policy Data Table as each invoice arrives and loops through Next approval step, one form
// at a time (docs/approvals.md#approval-loop).
// - One invoice per band: none (booked at once), one step (the budget holder), two steps (then the
//   finance director); every decision on the bill.
// - Two steps where the second rejects: nothing booked, the register says rejected at step 2.
// - An override by supplier: that supplier's invoice goes to the office manager.
// - The policy edited between two invoices: the next one follows the new row.
// - A delegate whose window begins while the approver's form waits: the delegate gets the invoice and
//   decides; the approver's own earlier link, used after, changes nothing.
// One n8n, one published copy of the template, one stand-in.

import { afterAll, beforeAll, expect, it } from 'vitest';
import {
	eventually,
	executedNodes,
	loadExampleWorkflows,
	sandboxControl,
	withCredentialsByName,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import {
	connectedOAuth2Credential,
	startXeroStandIn,
	withSettings,
	type XeroStandIn,
} from '../../local-n8n/accounting/index.ts';
import { invoicePdf } from '../../local-n8n/mail/index.ts';
import { answerForm, formLink, mailAbout, openForm } from './support/approvalForms.ts';
import { STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import { publishEachAttachmentStarter } from './support/eachAttachment.ts';
import { postEmail } from './support/emailOfInvoices.ts';
import { describeNeeding } from './support/requirements.ts';
import { useMailboxes } from './support/mailboxes.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const TEMPLATE = 'invoices-email-to-xero-with-approval.workflow.json';
const BUDGET_HOLDER = 'manager@example.com';
const FINANCE_DIRECTOR = 'finance-director@example.com';
const OFFICE_MANAGER = 'office@example.com';
const DELEGATE = 'tom@example.com';

const fixture = useN8nAndSandbox();
const mailboxes = useMailboxes(fixture);

function invoice(vendor: string, invoiceNo: string, net: number) {
	return {
		header: { vendor, date: '2026-11-02', invoice_no: invoiceNo },
		amounts: { subtotal: net, tax: 0, total: net },
		line_items: [{ description: 'Services', quantity: 1, unit_price: net, amount: net }],
	};
}

function outcome(execution: DecodedExecution) {
	return (execution.raw.customData as Record<string, string> | undefined)?.outcome;
}

/** The policy of docs/approvals.md's example, as rows (every value text, as the REST API takes them). */
const POLICY: Array<Record<string, string>> = [
	{ kind: 'band', up_to: '1000', steps: 'none' },
	{ kind: 'band', up_to: '10000', steps: 'budget holder' },
	{ kind: 'band', steps: 'budget holder, finance director' },
	{ kind: 'step', role: 'budget holder', name: 'Maria Manager', email: BUDGET_HOLDER },
	{ kind: 'step', role: 'finance director', name: 'Frank Finance', email: FINANCE_DIRECTOR },
	{ kind: 'step', role: 'office manager', name: 'Olivia Office', email: OFFICE_MANAGER },
	{ kind: 'override', supplier: 'Paper & Co', steps: 'office manager' },
];

describeNeeding(['dovecot'], 'Approval as the policy: Xero (the template)', () => {
	let xero: XeroStandIn;
	let workflowId: string;
	let starterPath: string;
	const bills = (invoiceNo: string) =>
		xero.documents.filter((document) => document.InvoiceNumber === invoiceNo);
	const rowOf = async (invoiceNo: string) =>
		(await fixture.stack.client.dataTableRows('Invoice register')).find(
			(row) => row.invoice_no === invoiceNo,
		);

	/** Sends the invoice's PDF; a promise of its execution once it has ended. */
	async function send(data: ReturnType<typeof invoice>): Promise<() => Promise<DecodedExecution>> {
		const client = fixture.stack.client;
		const invoiceNo = data.header.invoice_no;
		const before = new Set((await client.listExecutions(workflowId)).map((summary) => summary.id));
		await sandboxControl(fixture.sandbox.url, 'next-extraction', { data });
		await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: [0.99] });
		await postEmail(client, starterPath, [
			{
				invoiceNo,
				fileName: `${invoiceNo}.pdf`,
				contentType: 'application/pdf',
				bytes: invoicePdf([`Invoice ${invoiceNo}`, data.header.vendor]),
			},
		]);
		return async () =>
			(await eventually(
				`the execution of ${invoiceNo} to end`,
				async () => {
					const summaries = await client.listExecutions(workflowId);
					const fresh = summaries.filter((summary) => !before.has(summary.id));
					const decoded = await Promise.all(
						fresh.map((summary) => client.getExecution(summary.id)),
					);
					return decoded.find((execution) => executedNodes(execution).includes('Each attachment'));
				},
				(execution) =>
					execution !== undefined &&
					(execution.status === 'error' ||
						(execution.status === 'success' && outcome(execution) !== undefined)),
				240_000,
			)) as DecodedExecution;
	}

	/** The form link of the one email about `invoiceNo` to `to` whose subject starts so. */
	async function formTo(invoiceNo: string, to: string, subjectStart = 'Approve or reject') {
		const [message] = await mailboxes.mail.waitForMessages(
			mailAbout(invoiceNo, subjectStart, to),
			1,
			180_000,
		);
		return formLink(message);
	}

	async function decide(invoiceNo: string, to: string, decision: 'Approve' | 'Reject') {
		const link = await formTo(invoiceNo, to);
		// As a person does: the form's page first (n8n answers 409 until the execution waits).
		expect((await openForm(fixture.stack.client, link)).status).toBe(200);
		const answered = await answerForm(
			fixture.stack.client,
			link,
			decision,
			`${decision} by ${to}`,
			to,
		);
		expect(answered.status, `${to} on ${invoiceNo}`).toBe(200);
		return link;
	}

	const asked = (invoiceNo: string) =>
		mailboxes.mail
			.messages()
			.filter(
				(message) => message.subject.includes(invoiceNo) && message.subject.includes('pprove'),
			)
			.map((message) => message.to.join(','));

	beforeAll(async () => {
		const client = fixture.stack.client;
		xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		const books = await connectedOAuth2Credential(
			client,
			'xeroOAuth2Api',
			'Xero account',
			STAND_IN_ACCESS_TOKEN,
		);
		const template = loadExampleWorkflows().find((entry) => entry.file === TEMPLATE)!.workflow;
		const configured = withSettings(template, {
			approval_threshold: '1000',
			from_email: 'invoices@example.test',
			ask_account_for_new_suppliers: 'false',
			xero_api_url: xero.url,
			xero_tenant_id: 'tenant',
		});
		workflowId = (
			await client.createWorkflow(
				withCredentialsByName(configured, [...mailboxes.credentials, books]),
			)
		).id;
		await client.activateWorkflow(workflowId);
		await mailboxes.imap.waitForMailboxOpened(1);
		const starter = await publishEachAttachmentStarter(client, template, workflowId);
		await client.waitForWebhook(starter.path);
		starterPath = starter.path;
		// The table as the template makes it on its first invoice; the team fills it in.
		const first = await send(invoice('Initial Supplies Ltd', 'FIRST-1', 100));
		expect(outcome(await first())).toBe('booked');
		await client.insertDataTableRows('Approval policy', POLICY);
	});

	afterAll(async () => {
		if (workflowId)
			await fixture.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
		await xero?.close();
	});

	it('one invoice per band: none booked at once, one step, two steps; every decision on the bill', async () => {
		const none = await send(invoice('Band Supplies Ltd', 'BAND-0', 800));
		expect(outcome(await none())).toBe('booked');
		expect(asked('BAND-0')).toEqual([]);

		const one = await send(invoice('Band Supplies Ltd', 'BAND-1', 5000));
		await decide('BAND-1', BUDGET_HOLDER, 'Approve');
		expect(outcome(await one())).toBe('booked');
		expect(asked('BAND-1').every((to) => to.includes(BUDGET_HOLDER))).toBe(true);

		const two = await send(invoice('Band Supplies Ltd', 'BAND-2', 20000));
		await decide('BAND-2', BUDGET_HOLDER, 'Approve');
		await decide('BAND-2', FINANCE_DIRECTOR, 'Approve');
		expect(outcome(await two())).toBe('booked');
		const [bill] = bills('BAND-2');
		const note = xero.history.find((entry) => entry.ownerId === bill.id)?.Details ?? '';
		expect(note).toContain(BUDGET_HOLDER);
		expect(note).toContain(FINANCE_DIRECTOR);
		expect(bills('BAND-0')).toHaveLength(1);
		expect(bills('BAND-1')).toHaveLength(1);
	});

	it('two steps, the second rejects: nothing booked, the register says rejected at step 2', async () => {
		const settled = await send(invoice('Band Supplies Ltd', 'REJ-2', 20000));
		await decide('REJ-2', BUDGET_HOLDER, 'Approve');
		await decide('REJ-2', FINANCE_DIRECTOR, 'Reject');
		expect(outcome(await settled())).toBe('rejected');
		expect(bills('REJ-2')).toEqual([]);
		const row = await rowOf('REJ-2');
		expect(row).toMatchObject({ state: 'rejected' });
		expect(String(row?.detail)).toMatch(/step 2 of 2/);
		// Each step's approver got the invoice with its file, the second one too.
		for (const to of [BUDGET_HOLDER, FINANCE_DIRECTOR]) {
			const sent = mailboxes.mail
				.messages()
				.filter(
					(message) =>
						message.subject.startsWith('Invoice to approve') &&
						message.subject.includes('REJ-2') &&
						message.to.some((address) => address.includes(to)),
				);
			expect(
				sent.map((message) => message.attachments),
				to,
			).toEqual([['REJ-2.pdf']]);
		}
	});

	it('an override by supplier: Paper & Co goes to the office manager, whatever its amount', async () => {
		const settled = await send(invoice('Paper & Co', 'PAPER-1', 300));
		await decide('PAPER-1', OFFICE_MANAGER, 'Approve');
		expect(outcome(await settled())).toBe('booked');
		expect(asked('PAPER-1').every((to) => to.includes(OFFICE_MANAGER))).toBe(true);
	});

	it('the policy edited between two invoices: the next one follows it', async () => {
		await fixture.stack.client.updateDataTableRows(
			'Approval policy',
			{ column: 'steps', value: 'none' },
			{ up_to: '100' },
		);
		const settled = await send(invoice('Band Supplies Ltd', 'EDIT-1', 800));
		await decide('EDIT-1', BUDGET_HOLDER, 'Approve');
		expect(outcome(await settled())).toBe('booked');
	});

	it("a delegate's window begins while the approver's form waits: the delegate decides; the approver's earlier link changes nothing", async () => {
		const client = fixture.stack.client;
		const from = new Date(Date.now() + 40_000).toISOString();
		await client.updateDataTableRows(
			'Approval policy',
			{ column: 'role', value: 'budget holder' },
			{ remind_after_hours: String(1 / 60) },
		);
		await client.insertDataTableRows('Approval policy', [
			{
				kind: 'delegate',
				name: 'Tom Temp',
				email: DELEGATE,
				delegate_for: BUDGET_HOLDER,
				valid_from: from,
				valid_until: new Date(Date.now() + 86_400_000).toISOString(),
			},
		]);
		const settled = await send(invoice('Band Supplies Ltd', 'AWAY-1', 5000));
		const approversLink = await formTo('AWAY-1', BUDGET_HOLDER);
		await decide('AWAY-1', DELEGATE, 'Approve');
		const execution = await settled();
		expect(outcome(execution)).toBe('booked');
		expect(bills('AWAY-1')).toHaveLength(1);
		const row = await rowOf('AWAY-1');
		expect(String(row?.decided_by)).toContain(DELEGATE);

		await answerForm(client, approversLink, 'Reject', 'too late', BUDGET_HOLDER);
		expect(bills('AWAY-1')).toHaveLength(1);
		expect(await rowOf('AWAY-1')).toMatchObject({ state: 'booked' });
	});
});
