// The invoice register in queue mode (Postgres, Redis, two workers, two webhook processes): the
// "Invoices from email to Xero, with approval" template with a real IMAP server and the Xero stand-in.
// The email's execution runs on a worker, and each attachment's execution (Execute Workflow, not
// waiting) in that worker process; its row in the Data Table is written there as the file moves, and the same email again, whose executions land on any worker, finds the earlier rows:
// every repeated file's row names the earlier row and its bill (docs/accounting.md#invoice-register).
// A file whose execution fails on a worker: the template's own error workflow, which n8n queues for
// the failed execution, writes its row as failed.

import { afterAll, beforeAll, expect, it } from 'vitest';
import {
	eventually,
	executedNodes,
	sandboxControl,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import { type XeroStandIn } from '../../local-n8n/accounting/index.ts';
import { composeMessage, invoicePdf, type ImapServer } from '../../local-n8n/mail/index.ts';
import {
	publishXeroTemplate,
	type PublishedXeroTemplate,
} from './support/publishedXeroTemplate.ts';
import { useQueueFixture, workersThatRan, type QueueFixture } from './support/queueFixture.ts';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';

const INVOICES = ['QREG-1', 'QREG-2', 'QREG-3'];

let fixture: QueueFixture;
let published: PublishedXeroTemplate | undefined;
let imap: ImapServer;
let xero: XeroStandIn;
let workflowId: string;

function smallInvoice(vendor: string, invoiceNo: string) {
	return {
		header: { vendor, date: '2026-11-04', invoice_no: invoiceNo },
		amounts: { subtotal: 100, tax: 19, total: 119 },
		line_items: [{ description: 'Paper', quantity: 1, unit_price: 100, amount: 100 }],
	};
}

const email = (messageId: string, invoices = INVOICES) =>
	composeMessage({
		from: 'Accounts <billing@suppliers.example>',
		to: 'invoices@example.com',
		subject: 'Invoices for November',
		messageId,
		text: 'Attached.',
		attachments: invoices.map((invoiceNo) => ({
			fileName: `${invoiceNo}.pdf`,
			contentType: 'application/pdf',
			content: invoicePdf([`Invoice ${invoiceNo}`]),
		})),
	});

/**
 * The attachments' executions since `before`, once `count` have ended: by default succeeded with
 * their outcome saved.
 */
async function attachmentRuns(
	before: Set<string>,
	count: number,
	ended = (run: DecodedExecution) =>
		run.status === 'success' &&
		(run.raw.customData as Record<string, string> | undefined)?.outcome !== undefined,
): Promise<DecodedExecution[]> {
	const client = fixture.stack.client;
	return await eventually(
		`${count} attachment executions to end`,
		async () => {
			const fresh = (await client.listExecutions(workflowId)).filter(
				(summary) => !before.has(summary.id),
			);
			const decoded = await Promise.all(fresh.map((summary) => client.getExecution(summary.id)));
			return decoded.filter((execution) => executedNodes(execution).includes('Each attachment'));
		},
		(runs) => runs.length >= count && runs.every(ended),
		180_000,
	);
}

/** The workers whose logs say they ran the email's execution since `before` (main runs none). */
async function emailWorkers(before: Set<string>): Promise<string[]> {
	const client = fixture.stack.client;
	const fresh = (await client.listExecutions(workflowId)).filter(
		(summary) => !before.has(summary.id),
	);
	const decoded = await Promise.all(fresh.map((summary) => client.getExecution(summary.id)));
	const emails = decoded.filter((execution) =>
		executedNodes(execution).includes('Email Trigger (IMAP)'),
	);
	expect(emails).toHaveLength(1);
	return workersThatRan(fixture.stack, emails[0].id);
}

describeNeeding(
	[...QUEUE_MODE_REQUIREMENTS, 'dovecot'],
	'The invoice register in queue mode (the template, on the workers)',
	() => {
		useQueueFixture({}, (started) => (fixture = started));

		beforeAll(async () => {
			const client = fixture.stack.client;
			published = await publishXeroTemplate(client, fixture.account.credential);
			({ imap, xero, workflowId } = published);
		});

		afterAll(async () => {
			await fixture?.stack.client.deactivateWorkflow(workflowId).catch(() => undefined);
			await published?.stop();
		});

		it('every file a row written on the workers; the same email again: each repeat names the earlier row and its bill', async () => {
			const client = fixture.stack.client;
			for (const invoiceNo of INVOICES)
				await sandboxControl(fixture.sandbox.url, 'next-extraction', {
					data: smallInvoice(`Supplier of ${invoiceNo}`, invoiceNo),
				});
			await sandboxControl(fixture.sandbox.url, 'next-confidence', {
				confidence: INVOICES.map(() => 0.99),
			});
			const before = new Set(
				(await client.listExecutions(workflowId)).map((summary) => summary.id),
			);
			imap.deliver(email('qreg-first@suppliers.example'));
			const first = await attachmentRuns(before, INVOICES.length);
			expect(await emailWorkers(before)).toHaveLength(1);

			const register = await client.dataTableRows('Invoice register');
			const rowOf = (invoiceNo: string) => register.filter((row) => row.invoice_no === invoiceNo);
			for (const invoiceNo of INVOICES) {
				const bill = xero.documents.filter((document) => document.InvoiceNumber === invoiceNo);
				expect(bill, invoiceNo).toHaveLength(1);
				expect(rowOf(invoiceNo), invoiceNo).toEqual([
					expect.objectContaining({
						state: 'booked',
						books: 'Xero',
						bill_id: bill[0].id,
						total: '119',
						duplicate_of: '',
					}),
				]);
				expect(first.map((run) => run.id)).toContain(rowOf(invoiceNo)[0].register_key);
			}
			// Which file gets which answer is the sandbox's order; every file has its row.
			expect(register.map((row) => row.file_name).sort()).toEqual(
				INVOICES.map((invoiceNo) => `${invoiceNo}.pdf`),
			);

			const seen = new Set((await client.listExecutions(workflowId)).map((summary) => summary.id));
			imap.deliver(email('qreg-again@suppliers.example'));
			const again = await attachmentRuns(seen, INVOICES.length);
			expect(await emailWorkers(seen)).toHaveLength(1);
			const after = await client.dataTableRows('Invoice register');
			for (const invoiceNo of INVOICES) {
				const earlier = rowOf(invoiceNo)[0];
				const repeats = after.filter(
					(row) =>
						row.state === 'already submitted' && row.content_sha256 === earlier.content_sha256,
				);
				expect(repeats, invoiceNo).toEqual([
					expect.objectContaining({
						duplicate_of: earlier.register_key,
						bill_id: earlier.bill_id,
						file_name: earlier.file_name,
					}),
				]);
				expect(again.map((run) => run.id)).toContain(repeats[0].register_key);
			}
			expect(xero.documents).toHaveLength(INVOICES.length);
		});

		it('a file whose execution fails on a worker: its row says failed, written by the error execution n8n queues for it', async () => {
			const client = fixture.stack.client;
			await sandboxControl(fixture.sandbox.url, 'next-extraction', {
				data: smallInvoice('Lostwell Paper Ltd', 'QFAIL-1'),
			});
			await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: [0.99] });
			const before = new Set(
				(await client.listExecutions(workflowId)).map((summary) => summary.id),
			);
			// Create's three tries and its last try's three: the execution fails at the last try.
			xero.loseAnswers(6);
			imap.deliver(email('qreg-fail@suppliers.example', ['QFAIL-1']));
			const [failed] = await attachmentRuns(before, 1, (run) => run.status === 'error');
			expect(failed.data.resultData.lastNodeExecuted).toBe('Create bill in Xero, last try');
			const row = await eventually(
				'the row of QFAIL-1 to say failed',
				async () =>
					(await client.dataTableRows('Invoice register')).find(
						(each) => each.invoice_no === 'QFAIL-1',
					),
				(each) => each?.state === 'failed',
				60_000,
			);
			expect(row).toMatchObject({
				register_key: failed.id,
				file_name: 'QFAIL-1.pdf',
				supplier: 'Lostwell Paper Ltd',
			});
			expect(String(row?.detail)).toMatch(/^Create bill in Xero, last try: /);
		});
	},
);
