// Xero busy, in a real n8n with the stand-ins: invoices of a supplier with a rule, each file its own
// execution, all at once, against a Xero that keeps low limits, so that it answers 429 (Retry-After)
// to some calls, more often and for longer than Retry On Fail's three tries 3 s apart. A 429 means
// Xero did nothing: the template waits as Xero asks (Wait as Xero asks) and calls again, for each of
// its calls (Find, Create, Attach, Record). Every invoice is booked once, with its original and the
// note of its decision; no execution fails.

import { expect, it } from 'vitest';
import {
	eventually,
	executedNodes,
	loadExampleWorkflows,
	log,
	nodeJson,
	sandboxControl,
	withCredentialsByName,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import {
	connectedOAuth2Credential,
	startXeroStandIn,
	withSettings,
} from '../../local-n8n/accounting/index.ts';
import { invoicePdf } from '../../local-n8n/mail/index.ts';
import { STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import { publishEachAttachmentStarter } from './support/eachAttachment.ts';
import { postEmail } from './support/emailOfInvoices.ts';
import { describeNeeding } from './support/requirements.ts';
import { useMailboxes } from './support/mailboxes.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const SUPPLIER = 'Busy Books Ltd';
const SUPPLIER_KEY = 'busy books ltd';
const INVOICES = ['BB-01', 'BB-02', 'BB-03', 'BB-04'];
/** The stand-in's minute passes this many times faster: its window frees in 15 s, the test stays short. */
const FAST_MINUTE = 4;

const fixture = useN8nAndSandbox();

function outcome(execution: DecodedExecution) {
	return (execution.raw.customData as Record<string, string> | undefined)?.outcome;
}

/** A small invoice (under the approval threshold: booked without approval). */
function smallInvoice(invoiceNo: string) {
	return {
		header: { vendor: SUPPLIER, date: '2026-11-30', invoice_no: invoiceNo },
		amounts: { subtotal: 200, tax: 38, total: 238 },
		line_items: [{ description: 'Toner', quantity: 2, unit_price: 100, amount: 200 }],
	};
}

describeNeeding(['dovecot'], 'Xero busy: its 429s waited out', () => {
	const mailboxes = useMailboxes(fixture);

	it('four invoices at once, Xero at 10 calls a minute and 2 in progress: every one booked once, with its original and its note; no execution failed', async () => {
		const start = Date.now();
		// 16 calls for 10 a minute: the last ones are refused for longer than Retry On Fail tries.
		const xero = await startXeroStandIn({
			accessToken: STAND_IN_ACCESS_TOKEN,
			limits: { perMinute: 10, inProgress: 2 },
			now: () => start + (Date.now() - start) * FAST_MINUTE,
		});
		const client = fixture.stack.client;
		try {
			const books = await connectedOAuth2Credential(
				client,
				'xeroOAuth2Api',
				'Xero account',
				STAND_IN_ACCESS_TOKEN,
			);
			const template = loadExampleWorkflows().find(
				(entry) => entry.file === 'invoices-email-to-xero-with-approval.workflow.json',
			)!;
			const chosen = xero.accounts.find(
				(entry) => entry.Class === 'EXPENSE' && entry.Status === 'ACTIVE' && entry.Code !== '400',
			)!;
			// The supplier's rule first: no question is asked, every invoice goes straight to Xero.
			await client.createDataTable('Xero supplier rules', [
				{ name: 'organisation', type: 'string' },
				{ name: 'supplier_key', type: 'string' },
				{ name: 'supplier', type: 'string' },
				{ name: 'account_code', type: 'string' },
				{ name: 'tax_type', type: 'string' },
				{ name: 'asked_until', type: 'date' },
			]);
			await client.insertDataTableRows('Xero supplier rules', [
				{
					organisation: 'tenant',
					supplier_key: SUPPLIER_KEY,
					supplier: SUPPLIER,
					account_code: chosen.Code,
					tax_type: chosen.TaxType,
				},
			]);
			const configured = withSettings(template.workflow, {
				approval_threshold: '1000',
				from_email: 'invoices@example.test',
				ask_account_for_new_suppliers: 'true',
				xero_api_url: xero.url,
				xero_tenant_id: 'tenant',
				xero_account_code: '400',
			});
			const { id } = await client.createWorkflow(
				withCredentialsByName(configured, [...mailboxes.credentials, books]),
			);
			await client.activateWorkflow(id);
			await mailboxes.imap.waitForMailboxOpened(1);
			const starter = await publishEachAttachmentStarter(client, template.workflow, id);
			await client.waitForWebhook(starter.path);

			// Each upload takes the next queued extraction: four distinct invoices, read with confidence.
			for (const invoiceNo of INVOICES) {
				await sandboxControl(fixture.sandbox.url, 'next-extraction', {
					data: smallInvoice(invoiceNo),
				});
				await sandboxControl(fixture.sandbox.url, 'next-confidence', { confidence: [0.99] });
			}
			xero.requests.length = 0;
			await Promise.all(
				INVOICES.map((invoiceNo) =>
					postEmail(client, starter.path, [
						{
							invoiceNo,
							fileName: `${invoiceNo}.pdf`,
							contentType: 'application/pdf',
							bytes: invoicePdf([`Invoice ${invoiceNo}`, SUPPLIER]),
						},
					]),
				),
			);

			const executions = (await eventually(
				`the ${INVOICES.length} executions to end`,
				async () => {
					const summaries = await client.listExecutions(id);
					const all = await Promise.all(
						summaries.map((summary) => client.getExecution(summary.id)),
					);
					return all.filter((execution) => executedNodes(execution).includes('Each attachment'));
				},
				(all) =>
					all.length === INVOICES.length &&
					all.every(
						(execution) =>
							execution.status === 'error' ||
							(execution.status === 'success' && outcome(execution) !== undefined),
					),
				240_000,
			)) as DecodedExecution[];
			const throttled = xero.requests.filter((request) => request.throttled);
			log(
				'books-busy',
				`${xero.requests.length} calls to Xero, ${throttled.length} answered 429 (${throttled.map((request) => `${request.method} ${request.path.split('/').slice(3).join('/')}: ${request.throttled}`).join('; ')}); ${Math.round((Date.now() - start) / 1000)} s`,
			);
			for (const execution of executions) {
				const result = execution.data.resultData as {
					lastNodeExecuted?: string;
					error?: { message?: string };
				};
				const runs = execution.data.resultData?.runData ?? {};
				const rounds = (name: string) => runs[name]?.length ?? 0;
				log(
					'books-busy',
					`execution ${execution.id}: ${execution.status}, ${outcome(execution)}, at "${result.lastNodeExecuted}" ${result.error?.message ?? ''}; waited ${rounds('Wait as Xero asks')} times; Find ${rounds('Find bill in Xero')}, Create ${rounds('Create bill in Xero')}, Attach ${rounds('Attach original in Xero')}, Record ${rounds('Record decision in Xero')} runs`,
				);
				for (const output of [1, 2, 3, 4]) {
					const refusal = nodeJson(execution, 'Xero refused', { output })[0];
					if (refusal)
						log('books-busy', `not waited out: ${JSON.stringify(refusal).slice(0, 1500)}`);
				}
			}

			expect(throttled.length).toBeGreaterThan(0);
			expect(executions.map((execution) => [execution.status, outcome(execution)])).toEqual(
				INVOICES.map(() => ['success', 'booked']),
			);
			for (const invoiceNo of INVOICES) {
				const bills = xero.documents.filter((bill) => bill.InvoiceNumber === invoiceNo);
				expect(bills, invoiceNo).toHaveLength(1);
				const billId = bills[0].id;
				expect(
					xero.attachments.filter((attachment) => attachment.ownerId === billId),
					`${invoiceNo}: its original`,
				).toHaveLength(1);
				expect(
					xero.history.filter((note) => note.ownerId === billId),
					`${invoiceNo}: its note`,
				).toHaveLength(1);
			}
			await client.deactivateWorkflow(id);
		} finally {
			await xero.close();
		}
	});
});
