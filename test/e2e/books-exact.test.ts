/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// "Never a wrong bill", in a real n8n: both "to the books" examples imported as a user imports them,
// active side by side, their Settings pointed at the Xero and QuickBooks stand-ins (which refuse what
// the real APIs refuse). For each problem seen before, an invoice that would have hit it: it becomes
// an exact bill (or credit note) in both books, or goes to review with the reason and nothing is
// posted. Invoices are given to the sandbox as the extracted data it returns for the next file, so
// amounts as text, missing values and currencies reach the nodes exactly as a service could send them.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
	REPO_ROOT,
	eventually,
	loadExampleWorkflows,
	nodeJson,
	sandboxControl,
	sandboxCredential,
	withCredentialsByName,
	type Credential,
	type WorkflowDefinition,
} from '../../local-n8n/index.ts';
import {
	withSettings,
	aboutTheInvoice,
	toCents,
	type QuickBooksStandIn,
	type XeroStandIn,
} from '../../local-n8n/accounting/index.ts';
import { activeBothBooks, type BothBooks } from './support/booksExamples.ts';
import { afterApproval, postFile, queueExtraction } from './support/laterInvoices.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { queuedExtractions } from './support/queuedExtractions.ts';

// Enterprise: no rate limit (the pilot tier's 10 requests a minute would make n8n wait).
const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST, tier: 'enterprise' });
let xero: XeroStandIn;
let quickBooks: QuickBooksStandIn;
let xeroCredential: Credential;
let workflows: BothBooks['examples'];

interface Invoice {
	header: Record<string, unknown>;
	amounts: Record<string, unknown>;
	line_items: Array<Record<string, unknown>>;
}

let invoiceCount = 0;
/** An invoice as the service's extracted data; each gets its own number unless one is given (the examples detect the same invoice). */
const invoice = (
	overrides: {
		header?: Record<string, unknown>;
		amounts?: Record<string, unknown>;
		line_items?: Array<Record<string, unknown>>;
	} = {},
): Invoice => ({
	header: {
		vendor: 'Acme Supplies GmbH',
		date: '2026-10-05',
		invoice_no: `INV-${++invoiceCount}`,
		currency: 'EUR',
		...overrides.header,
	},
	amounts: { subtotal: 46.5, tax: 8.84, total: 55.34, ...overrides.amounts },
	line_items: overrides.line_items ?? [
		{ description: 'Screws M4', quantity: 1250, unit_price: 0.0372, amount: 46.5 },
	],
});

const PDF = readFileSync(join(REPO_ROOT, 'examples', 'files', 'invoice-initech.pdf'));

const send = queuedExtractions(() => fixture.sandbox);

/** Sends the invoice through one example as a confident extraction of `file`; the workflow's answer. */
async function through(
	example: 'xero' | 'quickbooks',
	data: Invoice,
	file: { name: string; bytes: Buffer; type: string } = {
		name: 'invoice.json',
		bytes: Buffer.from('{}'),
		type: 'application/json',
	},
) {
	const answer = await send(
		async () => await queueExtraction(fixture.sandbox.url, data, 0.99),
		async () =>
			await postFile(
				fixture.stack.client,
				workflows[example].webhookPath,
				file.name,
				file.bytes,
				file.type,
			),
	);
	expect(answer.status, answer.text).toBe(200);
	expect(answer.items).toHaveLength(1);
	return answer.items[0];
}

/** Both examples at once, as two inboxes would (support/queuedExtractions.ts). */
async function throughBoth(data: Invoice, file?: { name: string; bytes: Buffer; type: string }) {
	const [xero, quickbooks] = await Promise.all([
		through('xero', data, file),
		through('quickbooks', data, file),
	]);
	return { xero, quickbooks };
}

const refused = (requests: Array<{ errors: string[]; method: string; path: string }>) =>
	requests
		.filter((request) => request.errors.length > 0)
		.map((request) => `${request.method} ${request.path}: ${request.errors.join('; ')}`);

describe('Never a wrong bill: both examples in a real n8n against the Xero and QuickBooks stand-ins', () => {
	beforeAll(async () => {
		// Books kept in pounds: an invoice naming no currency must become a GBP bill, not the EUR of
		// a default.
		({
			xero,
			quickBooks,
			examples: workflows,
		} = await activeBothBooks(
			fixture,
			{ xero: { baseCurrency: 'GBP' }, quickBooks: { homeCurrency: 'GBP' } },
			{ quickbooks_tax_account_id: '88' },
		));
		xeroCredential = workflows.xero.credential;
		// The example's trigger (Sent by This Workflow) registers nothing (N62): review results come to
		// the workflow's own address, which Extract gives each document.
	});

	beforeEach(() => {
		xero.requests.length = 0;
		quickBooks.requests.length = 0;
	});

	afterAll(async () => {
		await xero?.close();
		await quickBooks?.close();
	});

	it('unknown is never ready: no lines, a line amount that could not be read, amounts as text → review with the reason, nothing posted', async () => {
		const cases: Invoice[] = [
			invoice({ line_items: [], amounts: { subtotal: 1500, tax: 0, total: 1500 } }),
			invoice({
				line_items: [
					{ description: 'Consulting', quantity: 10, unit_price: 125, amount: 1250 },
					{ description: 'Travel', quantity: 1, unit_price: 250, amount: null },
				],
				amounts: { subtotal: 1500, tax: 0, total: 1500 },
			}),
			invoice({
				line_items: [
					{ description: 'Licence', quantity: 1, unit_price: '1,234.56', amount: '1,234.56' },
				],
				amounts: { subtotal: '1,234.56', tax: '234.57', total: '1,469.13' },
			}),
		];
		for (const data of cases) {
			const { xero: toXero, quickbooks: toQuickBooks } = await throughBoth(data);
			// Held by the package (Extract's Hold Invoices Not Ready to Post) with its sentences.
			for (const answer of [toXero, toQuickBooks]) {
				expect(answer).toMatchObject({
					route: 'review',
					reason: expect.stringMatching(/original invoice/),
				});
			}
		}
		expect(xero.requests).toEqual([]);
		expect(quickBooks.requests).toEqual([]);
	});

	it("books the invoice's currency (Xero CurrencyCode; QuickBooks CurrencyRef and a vendor in it), the books' own currency (GBP) when it names none, and sends a currency the books do not take to review", async () => {
		const usd = await throughBoth(
			invoice({ header: { vendor: 'Dollar Parts Inc', invoice_no: 'USD-1', currency: 'USD' } }),
		);
		expect(usd.xero).toMatchObject({ route: 'xero', currency: 'USD', totals_match: true });
		expect(usd.quickbooks).toMatchObject({
			route: 'quickbooks',
			currency: 'USD',
			totals_match: true,
		});
		expect(xero.documents.at(-1)).toMatchObject({ CurrencyCode: 'USD', Total: 55.34 });
		expect(
			quickBooks.vendors.find((vendor) => vendor.DisplayName === 'Dollar Parts Inc')?.CurrencyRef,
		).toEqual({ value: 'USD' });
		expect(quickBooks.transactions.at(-1)).toMatchObject({
			CurrencyRef: { value: 'USD' },
			TotalAmt: 55.34,
		});

		const none = await throughBoth(
			invoice({ header: { vendor: 'Pound Parts Ltd', invoice_no: 'GBP-1', currency: null } }),
		);
		expect([none.xero.currency, none.quickbooks.currency]).toEqual(['GBP', 'GBP']);
		expect(xero.documents.at(-1)).toMatchObject({ CurrencyCode: 'GBP', Total: 55.34 });
		expect(
			quickBooks.vendors.find((vendor) => vendor.DisplayName === 'Pound Parts Ltd')?.CurrencyRef,
		).toEqual({ value: 'GBP' });
		// The vendor now exists in pounds: the next invoice naming none is its second bill, not a review.
		const again = await through(
			'quickbooks',
			invoice({ header: { vendor: 'Pound Parts Ltd', invoice_no: 'GBP-2', currency: null } }),
		);
		expect(again).toMatchObject({ route: 'quickbooks', currency: 'GBP', totals_match: true });
		const euro = await throughBoth(
			invoice({ header: { vendor: 'Euro Teile GmbH', invoice_no: 'EUR-1', currency: 'EUR' } }),
		);
		expect([euro.xero.currency, euro.quickbooks.currency]).toEqual(['EUR', 'EUR']);

		xero.requests.length = 0;
		quickBooks.requests.length = 0;
		const chf = await throughBoth(
			invoice({ header: { vendor: 'Franken AG', invoice_no: 'CHF-1', currency: 'CHF' } }),
		);
		for (const answer of [chf.xero, chf.quickbooks])
			expect(answer).toMatchObject({
				route: 'review',
				currency: 'CHF',
				reason: 'the books take EUR, USD, GBP; this invoice is in CHF',
			});
		expect(xero.requests).toEqual([]);
		expect(aboutTheInvoice(quickBooks.requests)).toEqual([]);
	});

	it('a QuickBooks vendor that exists in another currency: review with the reason, no bill', async () => {
		await through(
			'quickbooks',
			invoice({ header: { vendor: 'Two Currency Trading', invoice_no: 'TC-1', currency: 'EUR' } }),
		);
		const answer = await through(
			'quickbooks',
			invoice({ header: { vendor: 'Two Currency Trading', invoice_no: 'TC-2', currency: 'USD' } }),
		);
		expect(answer).toMatchObject({
			route: 'review',
			reason: expect.stringContaining('exists in QuickBooks in EUR, this invoice is in USD'),
		});
		expect(
			quickBooks.transactions.filter((transaction) => transaction.DocNumber === 'TC-2'),
		).toEqual([]);
	});

	it('a service invoice whose lines carry only amounts is booked exactly in both, not held for review', async () => {
		const { xero: toXero, quickbooks: toQuickBooks } = await throughBoth(
			invoice({
				header: { vendor: 'Northwind Consulting Ltd', invoice_no: 'NW-9', currency: null },
				amounts: { subtotal: 2650, tax: 530, total: 3180 },
				line_items: [
					{ description: 'Consulting, September', amount: 2400 },
					{ description: 'Travel', quantity: 2, amount: 250 },
				],
			}),
		);
		expect(toXero).toMatchObject({ route: 'xero', xero_total: 3180, totals_match: true });
		expect(toQuickBooks).toMatchObject({
			route: 'quickbooks',
			quickbooks_total: 3180,
			totals_match: true,
		});
		expect(
			xero.documents
				.at(-1)!
				.LineItems.map((line) => [
					line.Description,
					line.Quantity,
					line.UnitAmount,
					line.LineAmount,
				]),
		).toEqual([
			['Consulting, September', 1, 2400, 2400],
			['Travel', 2, 125, 250],
		]);
		expect(refused(xero.requests)).toEqual([]);
		expect(refused(quickBooks.requests)).toEqual([]);
	});

	it('1,250 × 0.0372 reaches Xero with unitdp=4 and its 4-decimal unit price; both books total the invoice to the cent, tax included', async () => {
		const { xero: toXero, quickbooks: toQuickBooks } = await throughBoth(
			invoice({ header: { invoice_no: 'UNITDP-1' } }),
		);
		expect(toXero).toMatchObject({ route: 'xero', xero_total: 55.34, totals_match: true });
		expect(toQuickBooks).toMatchObject({
			route: 'quickbooks',
			quickbooks_total: 55.34,
			totals_match: true,
		});
		const posted = xero.requests.find((request) =>
			request.path.startsWith('/api.xro/2.0/Invoices'),
		);
		expect(posted?.path).toBe('/api.xro/2.0/Invoices?unitdp=4');
		expect(xero.documents.at(-1)?.LineItems).toEqual([
			expect.objectContaining({
				Quantity: 1250,
				UnitAmount: 0.0372,
				LineAmount: 46.5,
				TaxAmount: 8.84,
			}),
		]);
		expect(refused(xero.requests)).toEqual([]);
		expect(refused(quickBooks.requests)).toEqual([]);
	});

	it("the APIs' limits: a 4,500-character description, a vendor name with a line break, a 30-character invoice number are shortened or made one line, never refused", async () => {
		const description = `Annual maintenance: ${'all sites, '.repeat(408)}`.slice(0, 4500);
		const long = invoice({
			header: { vendor: 'Hooli\nSüd  GmbH', invoice_no: 'HS-2026-10-000000000000000042' },
			amounts: { subtotal: 100, tax: 0, total: 100 },
			line_items: [{ description, quantity: 1, unit_price: 100, amount: 100 }],
		});
		const { xero: toXero, quickbooks: toQuickBooks } = await throughBoth(long);
		expect(toXero).toMatchObject({ route: 'xero', totals_match: true });
		expect(toQuickBooks).toMatchObject({
			route: 'quickbooks',
			totals_match: true,
			doc_number: 'HS-2026-10-0000000000',
		});
		await through('xero', invoice({ header: { vendor: 'Hooli Süd GmbH', invoice_no: 'HS-2' } }));
		expect(
			xero.contacts
				.filter((contact) => contact.Name.startsWith('Hooli'))
				.map((contact) => contact.Name),
		).toEqual(['Hooli Süd GmbH']);
		const [xeroLine] = xero.documents.find(
			(document) => document.InvoiceNumber === 'HS-2026-10-000000000000000042',
		)!.LineItems;
		expect(xeroLine.Description).toHaveLength(4000);
		const bill = quickBooks.transactions.at(-1)!;
		expect(bill.Line[0].Description).toHaveLength(4000);
		expect(bill.PrivateNote).toContain('Invoice number: HS-2026-10-000000000000000042');
		expect(quickBooks.vendors.at(-1)?.DisplayName).toBe('Hooli Süd GmbH');
		expect(refused(xero.requests)).toEqual([]);
		expect(refused(quickBooks.requests)).toEqual([]);
	});

	it('a supplier credit note (negative total) becomes a Xero ACCPAYCREDIT and a QuickBooks VendorCredit, never a bill', async () => {
		const credit = invoice({
			header: { vendor: 'Returns GmbH', invoice_no: 'CN-77' },
			amounts: { subtotal: -25, tax: -4.75, total: -29.75 },
			line_items: [{ description: 'Returned toner', quantity: 2, unit_price: -12.5, amount: -25 }],
		});
		const { xero: toXero, quickbooks: toQuickBooks } = await throughBoth(credit);
		expect(toXero).toMatchObject({
			route: 'xero',
			xero_type: 'ACCPAYCREDIT',
			invoice_number: 'CN-77',
			xero_total: 29.75,
			totals_match: true,
		});
		expect(toQuickBooks).toMatchObject({
			route: 'quickbooks',
			quickbooks_entity: 'VendorCredit',
			quickbooks_total: 29.75,
			totals_match: true,
		});
		expect(xero.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /api.xro/2.0/CreditNotes?unitdp=4',
		]);
		expect(quickBooks.transactions.at(-1)).toMatchObject({
			entity: 'VendorCredit',
			DocNumber: 'CN-77',
		});
		expect(
			xero.documents.some(
				(document) => document.Type === 'ACCPAY' && document.CreditNoteNumber === 'CN-77',
			),
		).toBe(false);
	});

	it('the original PDF is attached to the Xero bill and to the QuickBooks bill, byte for byte', async () => {
		const file = { name: 'invoice-initech.pdf', bytes: PDF, type: 'application/pdf' };
		const { xero: toXero, quickbooks: toQuickBooks } = await throughBoth(
			invoice({ header: { vendor: 'Initech LLC', invoice_no: 'IT-PDF-1' } }),
			file,
		);
		expect(toXero).toMatchObject({ route: 'xero', original_attached: true, attachment_note: null });
		expect(toQuickBooks).toMatchObject({
			route: 'quickbooks',
			original_attached: true,
			attachment_note: null,
		});
		const bill = xero.documents.find((document) => document.InvoiceNumber === 'IT-PDF-1')!;
		expect(
			xero.attachments
				.filter((attachment) => attachment.ownerId === bill.id)
				.map((attachment) => [
					attachment.fileName,
					attachment.contentType,
					attachment.bytes.equals(PDF),
				]),
		).toEqual([['invoice-initech.pdf', 'application/pdf', true]]);
		const quickBooksBill = quickBooks.transactions.find(
			(transaction) => transaction.DocNumber === 'IT-PDF-1',
		)!;
		expect(
			quickBooks.attachments
				.filter((attachment) => attachment.ownerId === quickBooksBill.Id)
				.map((attachment) => [
					attachment.ownerType,
					attachment.fileName,
					attachment.bytes.equals(PDF),
				]),
		).toEqual([['Bill', 'invoice-initech.pdf', true]]);
		// A JSON invoice file is a type neither API takes: the bill is posted and the answer says so.
		const json = await throughBoth(
			invoice({ header: { vendor: 'Initech LLC', invoice_no: 'IT-JSON-1' } }),
		);
		expect(json.xero).toMatchObject({
			route: 'xero',
			original_attached: false,
			attachment_note: 'Xero does not take .json attachments: the original file is not attached',
		});
		expect(json.quickbooks).toMatchObject({ route: 'quickbooks', original_attached: false });
	});

	it('an invoice approved later comes back through the trigger without its file: posted exactly, and it says the original must be attached by hand', async () => {
		/** The invoice, extracted below the confidence that passes, from a PDF sent to the example; approved, through its trigger. */
		const approvedLater = async (example: 'xero' | 'quickbooks', postedNode: string) => {
			await queueExtraction(
				fixture.sandbox.url,
				invoice({ header: { vendor: 'Later Supplies Ltd', invoice_no: 'LATE-1' } }),
				0.6,
			);
			const pending = await postFile(
				fixture.stack.client,
				workflows[example].webhookPath,
				'late.pdf',
				PDF,
				'application/pdf',
			);
			return await afterApproval(fixture, workflows[example].id, pending.items[0], postedNode);
		};
		// Each example's trigger runs for the documents its own intake sent (docs/spec-decisions.md#n40).
		const { execution: toXero } = await approvedLater('xero', 'Posted to Xero');
		expect(nodeJson(toXero, 'Posted to Xero')).toEqual([
			expect.objectContaining({
				totals_match: true,
				original_attached: false,
				attachment_note: expect.stringContaining('attach it to the bill by hand'),
			}),
		]);
		const { documentId: quickBooksDocumentId, execution: toQuickBooks } = await approvedLater(
			'quickbooks',
			'Posted to QuickBooks',
		);
		expect(nodeJson(toQuickBooks, 'Posted to QuickBooks')).toEqual([
			expect.objectContaining({ totals_match: true, original_attached: false }),
		]);
		const bill = quickBooks.transactions.find((transaction) => transaction.DocNumber === 'LATE-1')!;
		expect(bill.PrivateNote).toContain(
			`attach it to the bill by hand (Document Extraction document ${quickBooksDocumentId})`,
		);
		expect(toCents(bill.TotalAmt)).toBe(5534);
	});

	it('with Extract switched to Wait for Review (as docs/accounting.md recommends where the original must be attached), the file is attached after the review', async () => {
		// The Xero example as a user changes it: Extract waits for the review, Check for duplicate
		// follows its Verified output, no trigger. Another sandbox account, so its approval reaches only
		// this execution.
		const { credential: waiting } = await sandboxCredential(
			fixture.stack.client,
			fixture.sandbox,
			'growth',
			'Document Extraction (waiting)',
		);
		const example = loadExampleWorkflows().find(
			({ file }) => file === 'invoice-to-xero.workflow.json',
		)!.workflow;
		const nodes = example.nodes
			.filter((node) => node.name !== 'Review finished')
			.map((node) => {
				if (node.name === 'Receive invoice')
					return {
						...node,
						parameters: {
							...node.parameters,
							path: 'invoice-to-xero-waiting',
							responseMode: 'onReceived',
						},
						webhookId: 'a1c0ffee-0000-4000-8000-000000000001',
					};
				if (node.name === 'Extract invoice') {
					return {
						...node,
						parameters: { ...node.parameters, waitForReview: true, reviewTimeout: 10, options: {} },
						credentials: { documentExtractionApi: { id: waiting.id, name: waiting.name } },
					};
				}
				return node;
			});
		const connections = { ...example.connections } as Record<
			string,
			{ main: Array<Array<{ node: string; type: string; index: number }>> }
		>;
		delete connections['Review finished'];
		// With Wait for Review: Verified | Rejected | Timed Out | Not Ready to Post.
		const to = (node: string) => [{ node, type: 'main', index: 0 }];
		connections['Extract invoice'] = {
			main: [
				to('Check for duplicate'),
				to('Review: waiting for a reviewer'),
				to('Review: waiting for a reviewer'),
				to('Review: not ready to post'),
			],
		};
		const variant = withSettings(
			{
				...example,
				name: 'Invoice to Xero, Wait for Review',
				nodes,
				connections,
			} as WorkflowDefinition,
			{ xero_api_url: xero.url, xero_tenant_id: 'tenant' },
		);
		const created = await fixture.stack.client.createWorkflow(
			withCredentialsByName(variant, [waiting, xeroCredential]),
		);
		await fixture.stack.client.activateWorkflow(created.id);
		await fixture.stack.client.waitForWebhook('invoice-to-xero-waiting');

		await queueExtraction(
			fixture.sandbox.url,
			invoice({ header: { vendor: 'Waiting Supplies Ltd', invoice_no: 'WAIT-1' } }),
			0.6,
		);
		expect(
			(
				await postFile(
					fixture.stack.client,
					'invoice-to-xero-waiting',
					'waiting.pdf',
					PDF,
					'application/pdf',
				)
			).status,
		).toBe(200);
		const started = (await eventually(
			'the execution the file started',
			async () => (await fixture.stack.client.listExecutions(created.id))[0],
			(execution) => execution !== undefined,
		))!;
		await fixture.stack.client.waitForExecution(started.id, {
			until: (execution) => execution.status === 'waiting',
		});
		const document = await eventually(
			'the document uploaded with the resume URL',
			async () =>
				(await fixture.sandboxState()).documents.find((entry) =>
					entry.webhookUrl?.includes(`/webhook-waiting/${started.id}`),
				),
			(entry) => entry !== undefined,
		);
		expect(xero.documents.some((entry) => entry.InvoiceNumber === 'WAIT-1')).toBe(false);
		await sandboxControl(fixture.sandbox.url, `reviews/${document!.reviewId}/approve`, {});
		const resumed = await fixture.stack.client.waitForExecution(started.id);
		expect(nodeJson(resumed, 'Posted to Xero')).toEqual([
			expect.objectContaining({
				totals_match: true,
				original_attached: true,
				attachment_note: null,
			}),
		]);
		const bill = xero.documents.find((entry) => entry.InvoiceNumber === 'WAIT-1')!;
		expect(
			xero.attachments
				.filter((attachment) => attachment.ownerId === bill.id)
				.map((attachment) => [attachment.fileName, attachment.bytes.equals(PDF)]),
		).toEqual([['waiting.pdf', true]]);
	});
});
