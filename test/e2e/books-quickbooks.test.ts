// "To the books" in a real n8n, QuickBooks Online: the Invoice to QuickBooks example imported as a
// user imports it, its Settings pointed at the local QuickBooks stand-in, an n8n QuickBooks OAuth2
// credential already connected. Every body reaching the stand-in is checked there against Intuit's
// published Bill and Vendor rules (a refused body fails the test here).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
	startQuickBooksStandIn,
	type QuickBooksStandIn,
} from '../../local-n8n/accounting/index.ts';
import { activeBooksExample, STAND_IN_ACCESS_TOKEN } from './support/booksExamples.ts';
import {
	afterApproval,
	laterCopyIsPossibleDuplicate,
	expectRunPosted,
	invoiceFile,
	postInvoiceFile,
	sendToExample,
} from './support/laterInvoices.ts';
import { REVIEWS_DECIDED_BY_THE_TEST, useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import {
	CAFE_INVOICE,
	untaxedInvoice,
	WRONG_TOTAL_REASON,
	wrongTotalInvoice,
} from './support/sampleInvoices.ts';
const REALM = '9130350000000001';

const fixture = useN8nAndSandbox({ sandbox: REVIEWS_DECIDED_BY_THE_TEST, tier: 'pilot' });
let quickBooks: QuickBooksStandIn;
let path: string;
let workflowId: string;

interface QuickBooksLine {
	LineNum: number;
	Amount: number;
	Description: string;
	AccountBasedExpenseLineDetail: { AccountRef: { value: string } };
}
interface QuickBooksBill {
	VendorRef: { value: string };
	DocNumber: string;
	TxnDate?: string;
	DueDate?: string;
	Line: QuickBooksLine[];
}

const send = async (fileName: string, invoice: unknown) =>
	await sendToExample(
		fixture.stack.client,
		{ id: workflowId, webhookPath: path },
		fileName,
		invoice,
	);

/** Every request since the last call; each must have passed the stand-in's checks. */
function received() {
	const requests = quickBooks.requests.splice(0);
	for (const request of requests)
		expect(
			request.errors,
			`${request.method} ${request.path} ${JSON.stringify(request.body)}`,
		).toEqual([]);
	return requests;
}

const bills = (requests: ReturnType<typeof received>) =>
	requests
		.filter((request) => request.path.includes('/bill'))
		.map((request) => request.body as QuickBooksBill);
const cents = (amounts: number[]) =>
	amounts.reduce((sum, amount) => sum + Math.round(amount * 100), 0);

describe('Verified invoices into QuickBooks Online, in a real n8n', () => {
	beforeAll(async () => {
		quickBooks = await startQuickBooksStandIn({ accessToken: STAND_IN_ACCESS_TOKEN });
		({ id: workflowId, webhookPath: path } = await activeBooksExample(fixture, 'quickbooks', {
			quickbooks_api_url: quickBooks.url,
			quickbooks_realm_id: REALM,
			quickbooks_expense_account_id: '7',
			quickbooks_tax_account_id: '88',
		}));
		// The example's trigger (Sent by This Workflow) registers nothing (N62): review results come to
		// the workflow's own address, which Extract gives each document.
	});

	beforeEach(() => {
		quickBooks.requests.length = 0;
	});

	afterAll(async () => {
		await quickBooks?.close();
	});

	it('creates the vendor (accents, ampersand) once, and a bill with every line plus tax adding up to the total', async () => {
		const answer = await send('cafe.json', CAFE_INVOICE);
		expect(answer).toEqual([
			expect.objectContaining({
				route: 'quickbooks',
				doc_number: 'CM-7001',
				line_count: 5,
				quickbooks_total: 29.75,
				totals_match: true,
			}),
		]);
		const requests = received();
		expect(requests.map((request) => `${request.method} ${request.path.split('?')[0]}`)).toEqual([
			`GET /v3/company/${REALM}/preferences`,
			`GET /v3/company/${REALM}/query`,
			`POST /v3/company/${REALM}/vendor`,
			`POST /v3/company/${REALM}/bill`,
		]);
		expect(
			requests.every((request) => request.authorization === `Bearer ${STAND_IN_ACCESS_TOKEN}`),
		).toBe(true);
		expect(quickBooks.vendors.map((vendor) => vendor.DisplayName)).toEqual([
			'Café Müller & Söhne GmbH',
		]);
		const [bill] = bills(requests);
		expect(bill).toMatchObject({
			VendorRef: { value: quickBooks.vendors[0].Id },
			DocNumber: 'CM-7001',
			TxnDate: '2026-10-05',
			DueDate: '2026-11-04',
		});
		expect(
			bill.Line.map((line) => [
				line.Description,
				line.Amount,
				line.AccountBasedExpenseLineDetail.AccountRef.value,
			]),
		).toEqual([
			['Espresso tasting (1 × 0.1)', 0.1, '7'],
			['Milk foam (1 × 0.2)', 0.2, '7'],
			['Free sample (1 × 0)', 0, '7'],
			['Beans, 1 kg (2 × 12.35)', 24.7, '7'],
			['Tax', 4.75, '88'],
		]);
		expect(cents(bill.Line.map((line) => line.Amount))).toBe(2975);

		// The same vendor again: found by its display name, not created twice.
		await send('cafe-2.json', untaxedInvoice(CAFE_INVOICE.header.vendor, 'CM-7002'));
		const again = received();
		expect(again.map((request) => request.method)).toEqual(['GET', 'GET', 'POST']);
		const [second] = bills(again);
		expect(second.VendorRef.value).toBe(quickBooks.vendors[0].Id);
		expect(second).toMatchObject({ TxnDate: '2026-10-06', DueDate: '2026-11-05' });
		expect(cents(second.Line.map((line) => line.Amount))).toBe(30);
	});

	it('an invoice whose checks fail goes to review, and nothing reaches QuickBooks', async () => {
		const answer = await send('wrong.json', wrongTotalInvoice("O'Brien & Co", 'OB-1'));
		expect(answer).toEqual([
			expect.objectContaining({
				route: 'review',
				reason: expect.stringContaining(WRONG_TOTAL_REASON),
			}),
		]);
		expect(quickBooks.requests).toEqual([]);
	});

	it('a vendor with a quote in its name is queried correctly and created', async () => {
		const answer = await send('obrien.json', {
			header: { vendor: "O'Brien & Co", date: '2026-10-07', invoice_no: 'OB-2' },
			amounts: { subtotal: 100, tax: 0, total: 100 },
			line_items: [{ description: 'Consulting', quantity: 1, unit_price: 100, amount: 100 }],
			confidence: 0.98,
		});
		expect(answer).toEqual([expect.objectContaining({ route: 'quickbooks', totals_match: true })]);
		received();
		expect(quickBooks.vendors.map((vendor) => vendor.DisplayName)).toContain("O'Brien & Co");
	});

	describe('invoices arriving later', () => {
		const postFile = (fileName: string, invoice: unknown) =>
			postInvoiceFile(fixture.stack.client, path, fileName, invoice);
		const billNumbers = () => bills(received()).map((bill) => bill.DocNumber);

		it('the Check node has no credential: it calls no API', async () => {
			const stored = await fixture.stack.client.getWorkflow(workflowId);
			const check = stored.nodes.find((node) => node.name === 'Check for duplicate');
			expect(check?.parameters).toMatchObject({ operation: 'checkInvoiceDuplicate' });
			expect(check?.credentials).toBeUndefined();
		});

		it('an invoice billed at once, arriving again in another file through review and the trigger, is a possible duplicate: one bill', async () => {
			const [first] = await postFile(
				'globex-pdf.json',
				invoiceFile('Globex Bürobedarf AG', 'GB-2201', 58.4, 0.98),
			);
			expect(first).toMatchObject({ route: 'quickbooks', doc_number: 'GB-2201' });
			expect(billNumbers()).toEqual(['GB-2201']);

			await laterCopyIsPossibleDuplicate(
				fixture,
				{ id: workflowId, webhookPath: path },
				{
					fileName: 'globex-scan.json',
					invoice: invoiceFile('GLOBEX BUROBEDARF', 'gb 2201', 58.4, 0.7),
				},
				first.document_id,
				'same invoice number ("GB 2201") and total 58.40',
			);
			expect(billNumbers()).toEqual([]);
		});

		it('another invoice of the same vendor through the trigger is a second bill for the vendor found, not created again', async () => {
			const [pending] = await postFile(
				'globex-next.json',
				invoiceFile('Globex Bürobedarf AG', 'GB-2202', 58.4, 0.7),
			);
			const { execution } = await afterApproval(
				fixture,
				workflowId,
				pending,
				'Posted to QuickBooks',
			);
			expectRunPosted(
				execution,
				[
					'Review finished',
					'Check for duplicate',
					'Settings',
					'Read home currency',
					'Invoice with home currency',
					'Build QuickBooks bill',
					'Find vendor',
					'With vendor',
					'Vendor in another currency?',
					'Vendor found?',
					'Vendor ready',
					'Create bill in QuickBooks',
					'Bill created',
					'Prepare attachment',
					'Original to attach?',
					'Posted to QuickBooks',
				],
				{ route: 'quickbooks', doc_number: 'GB-2202' },
			);
			const [bill] = bills(quickBooks.requests);
			expect(billNumbers()).toEqual(['GB-2202']);
			const vendor = quickBooks.vendors.filter(
				(entry) => entry.DisplayName === 'Globex Bürobedarf AG',
			);
			expect(vendor).toHaveLength(1);
			expect(bill.VendorRef.value).toBe(vendor[0].Id);
		});
	});
});
