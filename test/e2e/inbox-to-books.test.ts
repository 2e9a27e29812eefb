// The whole template "Invoices from email to Xero, with approval" as a person imports it, in a real
// n8n, with a real IMAP server (Dovecot) for the invoices, a real SMTP server for the approver's
// emails and the Xero stand-in for the books. One email with four invoices (one at or under the
// threshold, three above) and a logo: the small invoice is booked at once while the three wait, each
// in its own execution; the approver approves one (answering its form twice), rejects one with a
// reason and leaves the third, which is reminded, escalated and ends undecided. Exactly two bills,
// each with its own PDF attached byte for byte and the decision in its History & Notes; every
// outcome on its execution. The same email again: nothing uploaded, asked or booked twice. A vendor
// name with markup stays text in the approver's emails and form. A scan that needs a reviewer waits
// in its execution with its file and, after the verdict and the approval, is booked with it. The
// QuickBooks template: a small and an approved invoice, each bill with its original and its Memo.
// The unanswered invoice's three limits end at n8n's wait tracker's looks, two to three minutes:
// the other tests, the QuickBooks template's included, run meanwhile and its end is checked last.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	eventually,
	executedNodes,
	loadExampleWorkflows,
	nodeJson,
	registerSecret,
	sandboxControl,
	sandboxState,
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
import {
	composeMessage,
	createImapCredential,
	createSmtpCredential,
	invoicePdf,
	logoPng,
	startImapServer,
	startMailServer,
	type ImapServer,
	type MailMessage,
	type MailServer,
	type MessageAttachment,
} from '../../local-n8n/mail/index.ts';
import { answerForm, formLink, mailAbout, openForm } from './support/approvalForms.ts';
import { STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import { describeNeeding } from './support/requirements.ts';
import { sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const TEMPLATE = 'invoices-email-to-xero-with-approval.workflow.json';
const APPROVER = 'manager@example.test';
/** What the approver types in the form's "Your name": the bill says who, not only to whom it was sent. */
const NAME = 'Maria Manager';
/** The policy (here Settings' approver) names the email; the name is the one typed in the form. */
const DECIDED_BY = `${NAME} <${APPROVER}>`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ESCALATION = 'director@example.test';
/**
 * n8n's wait tracker looks for ended waits once a minute and times those ending within 70 s to the
 * millisecond: a limit of 45 s ends at its time or at the tracker's next look, whichever is later.
 * The silent path is three of them in a row: once one ends at a look, the next ends at the next look.
 */
const SILENT_PATH_MS = 10 * 60_000;

const fixture = useN8nAndSandbox();

const MARKUP_VENDOR = '<a href="https://evil.example">Pay here</a> Ltd';

/** An extracted invoice as the sandbox hands it out for the next upload. */
function invoice(vendor: string, invoiceNo: string, subtotal: number, tax: number) {
	return {
		header: { vendor, date: '2026-11-02', invoice_no: invoiceNo },
		amounts: { subtotal, tax, total: subtotal + tax },
		line_items: [
			{
				description: 'Paper A4 <80 g>',
				quantity: 10,
				unit_price: subtotal / 20,
				amount: subtotal / 2,
			},
			{ description: 'Toner', quantity: 1, unit_price: subtotal / 2, amount: subtotal / 2 },
		],
	};
}

const INVOICES = {
	small: invoice('Small Parts Ltd', 'SMALL-1', 200, 38),
	approve: invoice(MARKUP_VENDOR, 'APPROVE-1', 1250, 237.5),
	reject: invoice('Globex Corporation', 'REJECT-1', 2000, 380),
	silent: invoice('Initech LLC', 'SILENT-1', 3000, 570),
};

const PDFS: MessageAttachment[] = ['a', 'b', 'c', 'd'].map((letter) => ({
	fileName: `invoice-${letter}.pdf`,
	contentType: 'application/pdf',
	content: invoicePdf([`Scanned invoice ${letter}`, `Page 1 of 1 (${letter})`]),
}));

/** A template as its tests use it: the mailbox its Email Trigger reads, the approver's mail server, the workflow. */
interface PublishedTemplate {
	imap: ImapServer;
	mail: MailServer;
	workflowId: string;
}

let xero: XeroStandIn;
/** The Xero template, published for its describe block (the QuickBooks template's runs inside it). */
let inbox: PublishedTemplate;
/** The unanswered invoice's row in the register, as the first test finds it. */
let silentRegisterKey: unknown;

/**
 * Starts a mailbox and a mail server for `file`, imports it with `settings` and its credentials
 * (the service's, IMAP, SMTP and `books`) matched by name, and publishes it.
 */
async function publishTemplate(
	file: string,
	settings: Record<string, string>,
	books: Credential,
): Promise<PublishedTemplate> {
	const client = fixture.stack.client;
	const imap = await startImapServer();
	registerSecret(imap.password);
	fixture.secrets.push(imap.password);
	const mail = await startMailServer();
	const credentials = [
		fixture.credential,
		await createImapCredential(client, imap),
		await createSmtpCredential(client, mail),
		books,
	];
	const template = loadExampleWorkflows().find((entry) => entry.file === file);
	if (!template) throw new Error(`examples/${file} is missing`);
	// Every supplier here books to the Settings' account (the asking is email-to-books.test.ts's).
	const configured = withSettings(template.workflow, {
		ask_account_for_new_suppliers: 'false',
		...settings,
	});
	const created = await client.createWorkflow(withCredentialsByName(configured, credentials));
	await client.activateWorkflow(created.id);
	await imap.waitForMailboxOpened();
	return { imap, mail, workflowId: created.id };
}

async function stopTemplate(published: PublishedTemplate | undefined) {
	if (!published) return;
	await fixture.stack.client.deactivateWorkflow(published.workflowId).catch(() => undefined);
	await published.imap.stop();
	await published.mail.stop();
}

const email = (messageId: string) =>
	composeMessage({
		from: 'Accounts <billing@suppliers.example>',
		to: 'invoices@example.com',
		subject: 'Invoices November',
		messageId,
		text: 'Please find our invoices attached.',
		attachments: [...PDFS, { fileName: 'logo.png', contentType: 'image/png', content: logoPng() }],
	});

/** Every execution of the template (the email's and each attachment's), decoded, oldest first. */
async function executions(published: PublishedTemplate): Promise<DecodedExecution[]> {
	const client = fixture.stack.client;
	const summaries = await client.listExecutions(published.workflowId);
	const decoded = await Promise.all(summaries.map((summary) => client.getExecution(summary.id)));
	return decoded.sort((a, b) => Number(a.id) - Number(b.id));
}

/** What "Extract invoice" put out, on any of its outputs. */
function extracted(execution: DecodedExecution) {
	return [0, 1, 2, 3, 4, 5].flatMap((output) => nodeJson(execution, 'Extract invoice', { output }));
}

/** The execution that extracted `invoiceNo` (its "Extract invoice" put it on some output). */
function executionOf(all: DecodedExecution[], invoiceNo: string): DecodedExecution | undefined {
	return all.find((execution) =>
		extracted(execution).some((json) => json.invoice_no === invoiceNo),
	);
}

/**
 * The execution of `invoiceNo` once it has finished and its outcome is saved: n8n saves an execution's
 * status before its custom data, so a finished one can be read for a moment without its outcome.
 */
async function settledExecutionOf(
	published: PublishedTemplate,
	invoiceNo: string,
	timeoutMs = 60_000,
) {
	return (await eventually(
		`the execution of ${invoiceNo} to finish`,
		async () => executionOf(await executions(published), invoiceNo),
		(execution) => execution?.status === 'success' && customData(execution)?.outcome !== undefined,
		timeoutMs,
	)) as DecodedExecution;
}

function customData(execution: DecodedExecution) {
	return execution.raw.customData as Record<string, string> | undefined;
}

const billNumbered = (invoiceNo: string) =>
	xero.documents.filter((document) => document.InvoiceNumber === invoiceNo);

/** The file name whose upload became `invoiceNo`, from its execution. */
function fileOf(execution: DecodedExecution): string {
	return String(nodeJson(execution, 'Extract invoice')[0]?.file_name);
}

describeNeeding(
	['dovecot'],
	'From the inbox to Xero, each invoice approved on its own (the template, with real mail servers)',
	() => {
		beforeAll(async () => {
			xero = await startXeroStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
			inbox = await publishTemplate(
				TEMPLATE,
				{
					xero_api_url: xero.url,
					xero_tenant_id: 'tenant',
					approver_email: APPROVER,
					escalation_email: ESCALATION,
					from_email: 'invoices@example.test',
					approval_threshold: '1000',
					// Long enough for the test to answer the two it answers (45 s at least).
					answer_within_minutes: '0.75',
				},
				await connectedOAuth2Credential(
					fixture.stack.client,
					'xeroOAuth2Api',
					'Xero account',
					STAND_IN_ACCESS_TOKEN,
				),
			);
		});

		afterAll(async () => {
			await stopTemplate(inbox);
			await xero?.close();
		});

		it('four invoices in one email: the small one booked at once, one approved, one rejected with a reason, one left unanswered; two bills, each with its original and its decision', async () => {
			const client = fixture.stack.client;
			const documentsBefore = (await sandboxState(fixture.sandbox.url)).documents.length;
			for (const data of Object.values(INVOICES))
				await sandboxControl(fixture.sandbox.url, 'next-extraction', { data });
			await sandboxControl(fixture.sandbox.url, 'next-confidence', {
				confidence: [0.99, 0.99, 0.99, 0.99],
			});
			inbox.imap.deliver(email('first@suppliers.example'));

			// The small invoice is booked while the three above the threshold wait for the approver.
			const asks = await inbox.mail.waitForMessages(
				(message) =>
					message.subject.startsWith('Approve or reject: ') && message.to.includes(APPROVER),
				3,
				120_000,
			);
			const ask = (invoiceNo: string) =>
				asks.find((message) => message.subject.includes(invoiceNo)) as MailMessage;
			for (const invoiceNo of ['APPROVE-1', 'REJECT-1', 'SILENT-1'])
				expect(ask(invoiceNo)).toBeDefined();
			const small = await settledExecutionOf(inbox, 'SMALL-1');
			expect(billNumbered('SMALL-1')).toHaveLength(1);
			const waiting = (await executions(inbox)).filter(
				(execution) => execution.status === 'waiting',
			);
			expect(waiting.length).toBeGreaterThanOrEqual(3);
			expect(executedNodes(small)).not.toContain('Ask approver');
			// The register as it happens: the three invoices the approver has are "awaiting approval".
			const meanwhile = await client.dataTableRows('Invoice register');
			for (const invoiceNo of ['APPROVE-1', 'REJECT-1', 'SILENT-1'])
				expect(meanwhile.filter((row) => row.invoice_no === invoiceNo)).toEqual([
					expect.objectContaining({
						state: 'awaiting approval: step 1 of 1, approver',
						books: 'Xero',
					}),
				]);

			// One execution per attachment; the logo never uploaded.
			const all = await executions(inbox);
			const logo = all.find(
				(execution) =>
					extracted(execution).some((json) => json.file_name === 'logo.png') &&
					nodeJson(execution, 'Outcome').some((json) => json.state === 'not an invoice'),
			);
			expect(logo, 'the logo on Skipped Files').toBeDefined();
			const uploaded = (await sandboxState(fixture.sandbox.url)).documents.slice(documentsBefore);
			expect(uploaded.map((document) => document.fileName).sort()).toEqual(
				PDFS.map((file) => file.fileName),
			);

			// Supplier text stays text: the vendor's markup is shown, never a live link.
			const details = (
				await inbox.mail.waitForMessages(mailAbout('APPROVE-1', 'Invoice to approve: ', APPROVER))
			)[0];
			for (const message of [details, ask('APPROVE-1')]) {
				expect(
					message.links.some((link) => link.includes('evil.example')),
					message.subject,
				).toBe(false);
				expect(message.html, message.subject).not.toContain('<a href="https://evil.example"');
				expect(message.html, message.subject).toMatch(/(&lt;|&#60;|&#x3C;)a href=/i);
			}
			const approveLink = formLink(ask('APPROVE-1'));
			const form = await openForm(client, approveLink);
			expect(form.status).toBe(200);
			expect(form.html).not.toContain('<a href="https://evil.example"');

			// Approve, and click again at once and later: n8n takes one answer (the second, while the
			// first runs, is refused as "running already"; afterwards "No action required").
			expect((await answerForm(client, approveLink, 'Approve', '', NAME)).status).toBe(200);
			const atOnce = await answerForm(client, approveLink, 'Reject', 'changed my mind', NAME);
			expect(
				atOnce.status === 409 || atOnce.html.includes('No action required'),
				`${atOnce.status} ${atOnce.html.slice(0, 200)}`,
			).toBe(true);
			const reason = 'Toner was not ordered; ask Globex for a corrected invoice';
			expect((await openForm(client, formLink(ask('REJECT-1')))).status).toBe(200);
			expect(
				(await answerForm(client, formLink(ask('REJECT-1')), 'Reject', reason, NAME)).status,
			).toBe(200);

			const approved = await settledExecutionOf(inbox, 'APPROVE-1');
			const later = await answerForm(client, approveLink, 'Reject', 'changed my mind', NAME);
			expect(later.html).toContain('No action required');
			const rejected = await settledExecutionOf(inbox, 'REJECT-1');
			expect(billNumbered('APPROVE-1')).toHaveLength(1);
			expect(billNumbered('REJECT-1')).toEqual([]);
			expect(executedNodes(rejected)).not.toContain('Create bill in Xero');
			expect(customData(rejected)).toMatchObject({
				outcome: 'rejected',
				decision: 'rejected',
				decided_by: DECIDED_BY,
				reason: expect.stringContaining(reason),
			});
			expect(customData(approved)).toMatchObject({
				outcome: 'booked',
				decision: 'approved',
				decided_by: DECIDED_BY,
			});
			expect(customData(small)).toMatchObject({
				outcome: 'booked',
				decision: 'no approval needed',
			});

			// Each bill: its own PDF byte for byte, and the decision in its History & Notes.
			for (const [invoiceNo, execution] of [
				['SMALL-1', small],
				['APPROVE-1', approved],
			] as const) {
				const [bill] = billNumbered(invoiceNo);
				const file = PDFS.find((pdf) => pdf.fileName === fileOf(execution));
				const attached = xero.attachments.filter((attachment) => attachment.ownerId === bill.id);
				expect(
					attached.map((attachment) => attachment.fileName),
					invoiceNo,
				).toEqual([file?.fileName]);
				expect(attached[0].bytes.equals(file?.content as Buffer), invoiceNo).toBe(true);
				const notes = xero.history.filter((note) => note.ownerId === bill.id);
				expect(notes, invoiceNo).toHaveLength(1);
				expect(nodeJson(execution, 'Outcome')[0]).toMatchObject({
					state: 'booked',
					bill_id: bill.id,
					original_attached: true,
				});
			}
			const noteOf = (invoiceNo: string) =>
				xero.history.find((note) => note.ownerId === billNumbered(invoiceNo)[0].id)?.Details;
			expect(noteOf('SMALL-1')).toMatch(/^No approval needed \(238/);
			expect(noteOf('APPROVE-1')).toMatch(
				new RegExp(`^Approved by ${escapeRegExp(DECIDED_BY)} on \\d{4}-\\d{2}-\\d{2}T`),
			);
			expect(billNumbered('APPROVE-1')[0].Contact.Name).toBe(MARKUP_VENDOR);

			expect(xero.documents).toHaveLength(2);

			// The invoice register: one row per file of the email, each in its final state, the bill
			// named for the booked ones; a file that is not an invoice has its row too.
			const register = await client.dataTableRows('Invoice register');
			const rowOf = (invoiceNo: string) => register.filter((row) => row.invoice_no === invoiceNo);
			expect(rowOf('SMALL-1')).toEqual([
				expect.objectContaining({
					state: 'booked',
					books: 'Xero',
					decided_by: 'no approval needed',
					bill_id: billNumbered('SMALL-1')[0].id,
					invoice_date: INVOICES.small.header.date,
					total: String(INVOICES.small.amounts.total),
					duplicate_of: '',
				}),
			]);
			expect(rowOf('APPROVE-1')).toEqual([
				expect.objectContaining({
					state: 'booked',
					supplier: MARKUP_VENDOR,
					decided_by: DECIDED_BY,
					bill_id: billNumbered('APPROVE-1')[0].id,
				}),
			]);
			expect(rowOf('REJECT-1')).toEqual([
				expect.objectContaining({
					state: 'rejected',
					decided_by: DECIDED_BY,
					bill_id: '',
				}),
			]);
			// The unanswered invoice's row ends in the last test, once its three limits have passed.
			expect(rowOf('SILENT-1')).toHaveLength(1);
			silentRegisterKey = rowOf('SILENT-1')[0].register_key;
			expect(register.map((row) => row.file_name).sort()).toEqual(
				[...PDFS.map((pdf) => pdf.fileName), 'logo.png'].sort(),
			);
			expect(new Set(register.map((row) => row.register_key)).size).toBe(register.length);
			fixture.expectNoSecretIn(small, 'a secret in an execution');
		});

		it('the same email again: nothing uploaded, asked or booked twice', async () => {
			const documentsBefore = (await sandboxState(fixture.sandbox.url)).documents.length;
			const mailsBefore = inbox.mail.messages().length;
			const executionsBefore = (await executions(inbox)).length;
			inbox.imap.deliver(email('again@suppliers.example'));
			// The email's execution and one per attachment (four invoices and the logo).
			const all = await eventually(
				'the second email and its attachments to finish',
				async () => await executions(inbox),
				(list) =>
					list.length >= executionsBefore + 6 &&
					list.every((execution) => execution.status !== 'running' && execution.status !== 'new'),
				90_000,
			);
			const fresh = all.slice(executionsBefore);
			const sameFile = fresh
				.filter((execution) =>
					nodeJson(execution, 'Outcome').some((json) => json.state === 'already submitted'),
				)
				.flatMap(extracted);
			expect(sameFile.map((json) => json.file_name).sort()).toEqual(
				PDFS.map((file) => file.fileName),
			);
			for (const execution of fresh.filter((e) => executedNodes(e).includes('Each attachment')))
				expect(['already submitted', 'not an invoice']).toContain(customData(execution)?.outcome);
			await sleep(fixture.settleMs);
			expect((await sandboxState(fixture.sandbox.url)).documents).toHaveLength(documentsBefore);
			// Meanwhile only the unanswered invoice's reminder and escalation may come: a repeated file is
			// never extracted, so anything the second email asked would name no invoice of the first.
			expect(
				inbox.mail
					.messages()
					.slice(mailsBefore)
					.filter(
						(message) =>
							!message.subject.includes('SILENT-1') ||
							message.subject.startsWith('Approve or reject: '),
					)
					.map((message) => message.subject),
			).toEqual([]);
			expect(xero.documents).toHaveLength(2);
			// Each repeated file's row points at the earlier row, and at its bill when it had one.
			const register = await fixture.stack.client.dataTableRows('Invoice register');
			const earlier = (invoiceNo: string) =>
				register.find((row) => row.invoice_no === invoiceNo && row.state !== 'already submitted')!;
			for (const invoiceNo of ['SMALL-1', 'APPROVE-1', 'REJECT-1']) {
				const repeated = register.filter(
					(row) =>
						row.state === 'already submitted' &&
						row.content_sha256 === earlier(invoiceNo).content_sha256,
				);
				expect(repeated, invoiceNo).toEqual([
					expect.objectContaining({
						duplicate_of: earlier(invoiceNo).register_key,
						bill_id: earlier(invoiceNo).bill_id,
					}),
				]);
			}
			expect(earlier('SMALL-1').bill_id).not.toBe('');
			expect(earlier('SMALL-1').content_sha256).toMatch(/^[0-9a-f]{64}$/);
		});

		it('an invoice that needs a reviewer waits with its file; after the verdict it goes through the approval and is booked with its original', async () => {
			const client = fixture.stack.client;
			const scan: MessageAttachment = {
				fileName: 'blurry-scan.pdf',
				contentType: 'application/pdf',
				content: invoicePdf(['Blurry scan', 'Page 1 of 1 (e)']),
			};
			await sandboxControl(fixture.sandbox.url, 'next-extraction', {
				data: invoice('Umbrella Office Ltd', 'REVIEW-1', 1500, 285),
			});
			await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: 0.7 });
			inbox.imap.deliver(
				composeMessage({
					from: 'Accounts <billing@suppliers.example>',
					to: 'invoices@example.com',
					subject: 'A scanned invoice',
					messageId: 'scan@suppliers.example',
					text: 'Scanned, sorry.',
					attachments: [scan],
				}),
			);
			const inReview = await eventually(
				'the scan in review',
				async () =>
					(await sandboxState(fixture.sandbox.url)).documents.find(
						(document) => document.fileName === scan.fileName,
					),
				(document) => document?.reviewId !== undefined,
				90_000,
			);
			const waiting = await eventually(
				'its execution waiting for the review',
				async () =>
					(await executions(inbox)).find(
						(execution) =>
							execution.status === 'waiting' &&
							nodeJson(execution, 'Each attachment').some(
								(json) => json.subject === 'A scanned invoice',
							),
					),
				(execution) => execution !== undefined,
			);
			expect(executedNodes(waiting as DecodedExecution)).not.toContain('Settings');
			await sandboxControl(fixture.sandbox.url, `reviews/${inReview!.reviewId}/approve`, {});

			const [ask] = await inbox.mail.waitForMessages(
				mailAbout('REVIEW-1', 'Approve or reject: ', APPROVER),
				1,
				120_000,
			);
			// As a person does: the form's page first (n8n answers 409 until the execution waits).
			expect((await openForm(client, formLink(ask))).status).toBe(200);
			expect((await answerForm(client, formLink(ask), 'Approve', '', NAME)).status).toBe(200);
			const booked = await settledExecutionOf(inbox, 'REVIEW-1');
			expect(booked.id).toBe((waiting as DecodedExecution).id);
			const [bill] = billNumbered('REVIEW-1');
			const attached = xero.attachments.filter((attachment) => attachment.ownerId === bill.id);
			expect(attached.map((attachment) => attachment.fileName)).toEqual([scan.fileName]);
			expect(attached[0].bytes.equals(scan.content as Buffer)).toBe(true);
			expect(xero.history.find((note) => note.ownerId === bill.id)?.Details).toMatch(
				/^Approved by /,
			);
			expect(customData(booked)).toMatchObject({ outcome: 'booked', decision: 'approved' });
		});

		// The QuickBooks template runs while the Xero one waits for its unanswered invoice's limits.
		describe('From the inbox to QuickBooks, with approval (the template, beside the Xero one)', () => {
			let quickBooks: QuickBooksStandIn;
			let published: PublishedTemplate;
			const QUICKBOOKS_PDFS = PDFS.slice(0, 2).map((file) => ({
				...file,
				fileName: file.fileName.replace('invoice-', 'qb-invoice-'),
				content: Buffer.concat([file.content as Buffer, Buffer.from('% QuickBooks\n')]),
			}));

			beforeAll(async () => {
				quickBooks = await startQuickBooksStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
				published = await publishTemplate(
					'invoices-email-to-quickbooks-with-approval.workflow.json',
					{
						quickbooks_api_url: quickBooks.url,
						quickbooks_realm_id: '9130',
						quickbooks_expense_account_id: '7',
						quickbooks_tax_account_id: '8',
						approver_email: APPROVER,
						escalation_email: ESCALATION,
						from_email: 'invoices@example.test',
						approval_threshold: '1000',
						answer_within_minutes: '5',
					},
					await connectedOAuth2Credential(
						fixture.stack.client,
						'quickBooksOAuth2Api',
						'QuickBooks account',
						STAND_IN_ACCESS_TOKEN,
					),
				);
			});

			afterAll(async () => {
				await stopTemplate(published);
				await quickBooks?.close();
			});

			it('an invoice under the threshold and an approved one: two bills, each with its original and the decision in its Memo', async () => {
				const client = fixture.stack.client;
				for (const data of [
					invoice('Small Parts Ltd', 'QB-SMALL-1', 200, 38),
					invoice('Globex Corporation', 'QB-BIG-1', 1250, 237.5),
				])
					await sandboxControl(fixture.sandbox.url, 'next-extraction', { data });
				await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: [0.99, 0.99] });
				published.imap.deliver(
					composeMessage({
						from: 'Accounts <billing@suppliers.example>',
						to: 'invoices@example.com',
						subject: 'Invoices for QuickBooks',
						messageId: 'quickbooks@suppliers.example',
						text: 'Attached.',
						attachments: QUICKBOOKS_PDFS,
					}),
				);
				const [ask] = await published.mail.waitForMessages(
					mailAbout('QB-BIG-1', 'Approve or reject: ', APPROVER),
					1,
					120_000,
				);
				const small = await settledExecutionOf(published, 'QB-SMALL-1');
				expect((await openForm(client, formLink(ask))).status).toBe(200);
				expect((await answerForm(client, formLink(ask), 'Approve', 'ok', NAME)).status).toBe(200);
				const big = await settledExecutionOf(published, 'QB-BIG-1');

				expect(quickBooks.transactions.map((bill) => bill.DocNumber).sort()).toEqual([
					'QB-BIG-1',
					'QB-SMALL-1',
				]);
				for (const [invoiceNo, execution, memo] of [
					// The approval policy's words (Next approval step): the band, or who approved and when.
					['QB-SMALL-1', small, /^No approval needed \(238\b.*: booked without approval on /],
					['QB-BIG-1', big, new RegExp(`^Approved by ${escapeRegExp(DECIDED_BY)} on \\S+$`)],
				] as const) {
					const bill = quickBooks.transactions.find((entry) => entry.DocNumber === invoiceNo);
					expect(String(bill?.PrivateNote).split('\n')[0], invoiceNo).toMatch(memo);
					const file = QUICKBOOKS_PDFS.find((pdf) => pdf.fileName === fileOf(execution));
					const attached = quickBooks.attachments.filter((entry) => entry.ownerId === bill?.Id);
					expect(
						attached.map((entry) => entry.fileName),
						invoiceNo,
					).toEqual([file?.fileName]);
					expect(attached[0].bytes.equals(file?.content as Buffer), invoiceNo).toBe(true);
					expect(customData(execution)).toMatchObject({ outcome: 'booked' });
				}
			});
		});

		it(
			'the fourth, left unanswered: a reminder, then the escalation address, then no decision; nothing booked',
			async () => {
				await inbox.mail.waitForMessages(
					mailAbout('SILENT-1', 'Reminder: approve or reject: ', APPROVER),
					1,
					SILENT_PATH_MS / 2,
				);
				await inbox.mail.waitForMessages(
					mailAbout('SILENT-1', 'Escalated: approve or reject: ', ESCALATION),
					1,
					SILENT_PATH_MS / 2,
				);
				const silent = await settledExecutionOf(inbox, 'SILENT-1', SILENT_PATH_MS / 2);
				expect(executedNodes(silent)).toEqual(expect.arrayContaining(['Ask approver', 'Outcome']));
				expect(customData(silent)).toMatchObject({
					outcome: 'no decision',
					escalated_to: ESCALATION,
				});
				expect(billNumbered('SILENT-1')).toEqual([]);

				expect(xero.documents.map((document) => document.InvoiceNumber).sort()).toEqual([
					'APPROVE-1',
					'REVIEW-1',
					'SMALL-1',
				]);
				// Its row, the one the first email made, in its final state.
				const register = await fixture.stack.client.dataTableRows('Invoice register');
				expect(register.filter((row) => row.register_key === silentRegisterKey)).toEqual([
					expect.objectContaining({ invoice_no: 'SILENT-1', state: 'no decision' }),
				]);
			},
			SILENT_PATH_MS * 1.5,
		);
	},
);
