/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// The right bill or a person, in a real n8n with the Xero stand-in: the Xero template routes on the
// package's judgement of the books' answers (Judge Books Answer) and its invoice register tells the
// truth (docs/accounting.md#the-books-answers, docs/accounting.md#invoice-register).
// - Two suppliers whose names once normalised alike ("Acme Inc", "ACME GmbH") with one number: two
//   bills, each its own contact.
// - A voided bill of the supplier with the number: a person decides, the row says why, nothing made.
// - A create answered with another invoice's bill (an idempotency key the books already knew): a
//   person decides, the row names the bill Xero answered with.
// - Xero failing on every try: the row says `failed` with the node and the message; retried from
//   n8n with Xero healthy again, the same row (same register_key) ends `booked`, one bill.
// - A rule whose account Xero archived since it was learned: Xero refuses the bill, the refusal is
//   written on the rule and the approver is asked the account again; the chosen account books the
//   bill and becomes the rule. Refused again in the same execution: a person decides.
// One n8n, one published copy of the template, one stand-in behind a front that can fail.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { idempotencyKeys } from '../../nodes/DocumentExtraction/bill/booksGuard.ts';
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

const TEMPLATE = 'invoices-email-to-xero-with-approval.workflow.json';
const TENANT = 'tenant';

const fixture = useN8nAndSandbox();
const mailboxes = useMailboxes(fixture);

/** A small invoice (under the approval threshold: booked without approval). */
function smallInvoice(vendor: string, invoiceNo: string, quantity = 2) {
	const subtotal = quantity * 100;
	const tax = quantity * 19;
	return {
		header: { vendor, date: '2026-11-02', invoice_no: invoiceNo },
		amounts: { subtotal, tax, total: subtotal + tax },
		line_items: [{ description: 'Toner', quantity, unit_price: 100, amount: subtotal }],
	};
}

const outcome = outcomeOf;

/**
 * Xero as the template reaches it: the stand-in, or, while `down`, a 503 to every call (a Xero
 * outage, not a 429: nothing to wait out).
 */
async function startXeroFront(
	target: () => string,
): Promise<{ url: string; down: boolean; close(): Promise<void> }> {
	const front = {
		url: '',
		down: false,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
	const server: Server = createServer((req, res) => {
		void (async () => {
			const chunks: Buffer[] = [];
			for await (const chunk of req) chunks.push(chunk as Buffer);
			if (front.down) {
				res.writeHead(503, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({ Title: 'Service Unavailable', Status: 503, Detail: 'Xero is down' }),
				);
				return;
			}
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(req.headers))
				if (typeof value === 'string' && name !== 'host' && name !== 'content-length')
					headers[name] = value;
			const answer = await fetch(`${target()}${req.url ?? '/'}`, {
				method: req.method,
				headers,
				body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
			});
			res.writeHead(answer.status, {
				'content-type': answer.headers.get('content-type') ?? 'application/json',
			});
			res.end(Buffer.from(await answer.arrayBuffer()));
		})().catch((error: unknown) => {
			res.writeHead(502, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ Message: String(error) }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return front;
}

describeNeeding(['dovecot'], 'The right bill or a person: Xero (the template)', () => {
	let xero: XeroStandIn;
	let front: Awaited<ReturnType<typeof startXeroFront>>;
	let workflowId: string;
	let starterPath: string;
	const bills = (invoiceNo: string) =>
		xero.documents.filter((document) => document.InvoiceNumber === invoiceNo);
	const rowsOf = async (invoiceNo: string) =>
		(await fixture.stack.client.dataTableRows('Invoice register')).filter(
			(row) => row.invoice_no === invoiceNo,
		);

	/** A bill put in Xero as a person (or another workflow) did, optionally under an idempotency key. */
	async function billInXero(
		vendor: string,
		invoiceNo: string,
		options: { status?: string; idempotencyKey?: string } = {},
	): Promise<string> {
		const response = await fetch(`${xero.url}/api.xro/2.0/Invoices?unitdp=4`, {
			method: 'PUT',
			headers: {
				authorization: `Bearer ${STAND_IN_ACCESS_TOKEN}`,
				'xero-tenant-id': TENANT,
				'content-type': 'application/json',
				...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
			},
			body: JSON.stringify({
				Invoices: [
					{
						Type: 'ACCPAY',
						Contact: { Name: vendor },
						InvoiceNumber: invoiceNo,
						Date: '2026-11-02',
						...(options.status ? { Status: options.status } : {}),
						LineItems: [
							{
								Description: 'Toner',
								Quantity: 2,
								UnitAmount: 100,
								LineAmount: 200,
								TaxAmount: 38,
								AccountCode: '400',
							},
						],
					},
				],
			}),
		});
		const body = (await response.json()) as { Invoices: Array<{ InvoiceID: string }> };
		expect(response.status).toBe(200);
		return body.Invoices[0].InvoiceID;
	}

	/** Starts the execution of one file, the invoice's PDF; that execution once it has ended. */
	async function sendAndSettle(
		invoiceNo: string,
		data: ReturnType<typeof smallInvoice>,
	): Promise<DecodedExecution> {
		const client = fixture.stack.client;
		const before = await executionIds(client, workflowId);
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
		return await attachmentExecutionEnded(client, workflowId, before, invoiceNo, 180_000);
	}

	beforeAll(async () => {
		const client = fixture.stack.client;
		xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		front = await startXeroFront(() => xero.url);
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
			xero_api_url: front.url,
			xero_tenant_id: TENANT,
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
	});

	afterAll(async () => {
		if (workflowId)
			await fixture.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
		await front?.close();
		await xero?.close();
	});

	// Same invoice? compares names loosely (a re-scan may drop "Inc"), with the total: two legal
	// entities' invoices of one number and another total pass it, and the books tell them apart.
	it('"Acme Inc" and "ACME GmbH", one invoice number: two bills, each its own contact', async () => {
		const first = await sendAndSettle('1001', smallInvoice('Acme Inc', '1001'));
		const second = await sendAndSettle('1001', smallInvoice('ACME GmbH', '1001', 3));
		expect([outcome(first), outcome(second)]).toEqual(['booked', 'booked']);
		expect(
			bills('1001')
				.map((bill) => bill.Contact.Name)
				.sort(),
		).toEqual(['ACME GmbH', 'Acme Inc']);
		expect(new Set(bills('1001').map((bill) => bill.Contact.ContactID)).size).toBe(2);
		const rows = await rowsOf('1001');
		expect(rows.map((row) => row.state)).toEqual(['booked', 'booked']);
		expect(rows.map((row) => row.bill_id).sort()).toEqual(
			bills('1001')
				.map((bill) => bill.id)
				.sort(),
		);
	});

	it('a voided bill of the supplier with the number: a person decides, the row says why, nothing booked', async () => {
		const voided = await billInXero('Globex Ltd', 'VOID-1', { status: 'VOIDED' });
		const execution = await sendAndSettle('VOID-1', smallInvoice('Globex Ltd', 'VOID-1'));
		expect(execution.status).toBe('success');
		expect(outcome(execution)).toBe('a person decides');
		expect(executedNodes(execution)).not.toContain('Create bill in Xero');
		expect(bills('VOID-1')).toHaveLength(1);
		const [row] = await rowsOf('VOID-1');
		expect(row).toMatchObject({
			state: 'a person decides',
			bill_id: voided,
			file_name: 'VOID-1.pdf',
		});
		expect(String(row.detail)).toContain('voided');
	});

	it("a create answered with another invoice's bill: a person decides, the row names the bill Xero answered with", async () => {
		// An earlier bill made under the key this invoice's create sends: Xero answers with it.
		const key = idempotencyKeys(
			'xero',
			{ organisation: TENANT, vendor: 'Initech Ltd', invoice_no: 'CLASH-2', creditNote: false },
			['bill'],
		).bill;
		const other = await billInXero('Initech Ltd', 'CLASH-1', { idempotencyKey: key });
		const execution = await sendAndSettle('CLASH-2', smallInvoice('Initech Ltd', 'CLASH-2'));
		expect(execution.status).toBe('success');
		expect(outcome(execution)).toBe('a person decides');
		expect(executedNodes(execution)).not.toContain('Attach original in Xero');
		expect(bills('CLASH-2')).toHaveLength(0);
		expect(xero.attachments.filter((attachment) => attachment.ownerId === other)).toHaveLength(0);
		const [row] = await rowsOf('CLASH-2');
		expect(row).toMatchObject({ state: 'a person decides', bill_id: other });
		expect(String(row.detail)).toContain('CLASH-1');
	});

	it('Xero failing on every try: the row says failed with the message; retried with Xero back, the same row ends booked with one bill', async () => {
		const client = fixture.stack.client;
		front.down = true;
		const failed = await sendAndSettle('DOWN-1', smallInvoice('Hooli Ltd', 'DOWN-1'));
		front.down = false;
		expect(failed.status).toBe('error');
		expect(failed.data.resultData.lastNodeExecuted).toBe('Find bill in Xero, last try');
		// Written by the workflow's own error execution, once the failed one has ended.
		const [row] = await eventually(
			'the row of DOWN-1 to say failed',
			async () => await rowsOf('DOWN-1'),
			(rows) => rows[0]?.state === 'failed',
		);
		expect(row).toMatchObject({ file_name: 'DOWN-1.pdf', supplier: 'Hooli Ltd' });
		expect(String(row.detail)).toMatch(/^Find bill in Xero, last try: .*\(503\)/);
		const key = row.register_key;

		const retried = await client.waitForExecution(await client.retryExecution(failed.id), {
			until: (execution) => execution.status === 'error' || outcome(execution) !== undefined,
		});
		expect(retried.status).toBe('success');
		expect(outcome(retried)).toBe('booked');
		expect(bills('DOWN-1')).toHaveLength(1);
		expect(await rowsOf('DOWN-1')).toEqual([
			expect.objectContaining({
				register_key: key,
				state: 'booked',
				bill_id: bills('DOWN-1')[0].id,
				file_name: 'DOWN-1.pdf',
			}),
		]);
	});

	/** A rule of `supplier` learned when Entertainment (420) was active: Xero has archived it since. */
	async function ruleWithArchivedAccount(supplierKey: string, supplier: string): Promise<void> {
		const client = fixture.stack.client;
		// The rules table as the template makes it on its first invoice, if no invoice has yet.
		if (!(await client.dataTableExists('Xero supplier rules'))) {
			const template = loadExampleWorkflows().find((entry) => entry.file === TEMPLATE)!;
			const made = template.workflow.nodes.find((node) => node.name === 'Supplier rules')!;
			const columns = (made.parameters as { columns: { column: never[] } }).columns.column;
			await client.createDataTable('Xero supplier rules', columns);
		}
		await client.insertDataTableRows('Xero supplier rules', [
			{ organisation: TENANT, supplier_key: supplierKey, supplier, account_code: '420' },
		]);
		expect(xero.accounts.find((account) => account.Code === '420')?.Status).toBe('ARCHIVED');
	}

	const rulesOf = async (supplierKey: string) =>
		(await fixture.stack.client.dataTableRows('Xero supplier rules')).filter(
			(row) => row.supplier_key === supplierKey,
		);

	/** The "Choose the account" email about `invoiceNo`, before its execution ends. */
	async function askedAgain(invoiceNo: string, settled: Promise<DecodedExecution>) {
		const asked = mailboxes.mail.waitForMessages(
			mailAbout(invoiceNo, 'Choose the account', 'manager@example.com'),
			1,
			240_000,
		);
		asked.catch(() => undefined);
		const first = await Promise.race([asked, settled]);
		expect(Array.isArray(first), 'the execution ended without asking the account again').toBe(true);
		const [question] = await asked;
		const link = formLink(question);
		const form = await openForm(fixture.stack.client, link);
		expect(form.status).toBe(200);
		expect(form.html).toContain('Cleaning');
		expect(form.html).not.toContain('Entertainment');
		return link;
	}

	it('a rule whose account Xero archived since: the approver is asked again, the chosen account books the bill and becomes the rule, the refusal stays on the rule', async () => {
		await ruleWithArchivedAccount('refusewell ltd', 'Refusewell Ltd');
		const settled = sendAndSettle('REFUSE-1', smallInvoice('Refusewell Ltd', 'REFUSE-1'));
		const link = await askedAgain('REFUSE-1', settled);
		expect(
			(await submitForm(fixture.stack.client, link, ['Cleaning', 'Ada Accountant'])).status,
		).toBe(200);

		const execution = await settled;
		expect(execution.status).toBe('success');
		expect(outcome(execution)).toBe('booked');
		const [bill] = bills('REFUSE-1');
		expect(bills('REFUSE-1')).toHaveLength(1);
		expect(bill.LineItems.map((line) => (line as { AccountCode?: string }).AccountCode)).toEqual([
			'408',
		]);
		// The original goes on the bill booked after the refusal too.
		expect(xero.attachments.filter((attachment) => attachment.ownerId === bill.id)).toHaveLength(1);
		expect(await rowsOf('REFUSE-1')).toEqual([
			expect.objectContaining({ state: 'booked', bill_id: bill.id, file_name: 'REFUSE-1.pdf' }),
		]);
		expect(await rulesOf('refusewell ltd')).toEqual([
			expect.objectContaining({
				organisation: TENANT,
				account_code: '408',
				refused: expect.stringMatching(/Xero refused the account 420: .*archived/),
			}),
		]);
	});

	it('the account chosen after a refusal refused too: a person decides, the row says why, nothing booked', async () => {
		await ruleWithArchivedAccount('twicewell ltd', 'Twicewell Ltd');
		const settled = sendAndSettle('REFUSE-2', smallInvoice('Twicewell Ltd', 'REFUSE-2'));
		const link = await askedAgain('REFUSE-2', settled);
		// Archived between the form and the answer.
		const cleaning = xero.accounts.find((account) => account.Code === '408')!;
		cleaning.Status = 'ARCHIVED';
		try {
			expect(
				(await submitForm(fixture.stack.client, link, ['Cleaning', 'Ada Accountant'])).status,
			).toBe(200);
			const execution = await settled;
			expect(execution.status).toBe('success');
			expect(outcome(execution)).toBe('a person decides');
		} finally {
			cleaning.Status = 'ACTIVE';
		}
		expect(bills('REFUSE-2')).toHaveLength(0);
		const [row] = await rowsOf('REFUSE-2');
		expect(row).toMatchObject({ state: 'a person decides', file_name: 'REFUSE-2.pdf' });
		expect(String(row.detail)).toMatch(/Xero refused the account 408: .*archived/);
	});
});
