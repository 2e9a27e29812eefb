// Target QuickBooks Online (bill/quickBooksBill.ts) on 240 generated invoices: every one the package's
// gate lets through becomes the same transaction the Invoice to QuickBooks example's Code node builds,
// except that an invoice naming no currency is left to the company's home currency (N42); posted to
// the QuickBooks stand-in, its lines add up to the invoice's total to the cent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
	buildQuickBooksBill,
	type QuickBooksSettings,
} from '../../../../../nodes/DocumentExtraction/bill/quickBooksBill.ts';
import {
	startQuickBooksStandIn,
	toCents,
	type QuickBooksStandIn,
} from '../../../../../local-n8n/accounting/index.ts';
import { exampleCode, exampleSettings, runCodeNode } from '../../../accounting/codeNode.ts';
import { generateInvoices, simplified } from '../../../accounting/generatedInvoices.ts';

const EXAMPLE = 'invoice-to-quickbooks.workflow.json';
const example = exampleSettings(EXAMPLE);
const settings: QuickBooksSettings = {
	expenseAccountId: example.quickbooks_expense_account_id,
	taxAccountId: example.quickbooks_tax_account_id,
	paymentTermsDays: Number(example.payment_terms_days),
	allowedCurrencies: example.allowed_currencies,
};
/** The stand-in company's home currency (what QuickBooks books when the request names none). */
const HOME = 'EUR';

let quickBooks: QuickBooksStandIn;
beforeAll(async () => {
	quickBooks = await startQuickBooksStandIn({ accessToken: 'token' });
});
afterAll(async () => await quickBooks.close());

async function call(path: string, body: unknown) {
	const response = await fetch(`${quickBooks.url}/v3/company/1${path}`, {
		method: 'POST',
		headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as Record<string, Record<string, unknown>>;
	expect(response.status, JSON.stringify(answer)).toBe(200);
	return answer;
}

describe('Target QuickBooks', () => {
	it("generated invoices: the example's transaction, the home currency when none is named, lines adding up to the total", async () => {
		const code = exampleCode(EXAMPLE, 'Build QuickBooks bill');
		let posted = 0;
		for (const invoice of generateInvoices(20261126, 240)) {
			const item = simplified(invoice.data);
			if (item.ready_to_post !== true) continue;
			const built = buildQuickBooksBill(item, settings);
			if (!built.ready) {
				expect(invoice.expect, `${invoice.name}: ${String(built.json.review_reason)}`).toBe('stop');
				expect(built.json.bill).toBeUndefined();
				continue;
			}
			const [fromExample] = runCodeNode(code, [item], example);
			const bill = built.json.bill as Record<string, unknown>;
			const exampleBill = { ...(fromExample.json.bill as Record<string, unknown>) };
			// The trigger path's note names "this execution"; the node's names "the item".
			delete exampleBill.PrivateNote;
			const { PrivateNote: _note, ...billWithoutNote } = bill;
			void _note;
			if (invoice.currency === null) {
				expect(bill.CurrencyRef, invoice.name).toBeUndefined();
				expect({ ...billWithoutNote, CurrencyRef: { value: example.default_currency } }).toEqual(
					exampleBill,
				);
			} else {
				expect(billWithoutNote, invoice.name).toEqual(exampleBill);
			}
			const currency = invoice.currency ?? HOME;
			const vendor = (
				await call('/vendor', {
					DisplayName: `${built.json.vendor_name} ${posted}`,
					CurrencyRef: { value: currency },
				})
			).Vendor;
			const entity = String(built.json.entity);
			const answer = await call(`/${entity}`, { ...bill, VendorRef: { value: String(vendor.Id) } });
			const transaction = entity === 'bill' ? answer.Bill : answer.VendorCredit;
			expect(toCents(transaction.TotalAmt as number), invoice.name).toBe(invoice.cents!.total);
			posted++;
		}
		expect(posted).toBeGreaterThan(150);
	});

	it('the tax is its own line; an amount-only line keeps its description', () => {
		const built = buildQuickBooksBill(
			{
				vendor: 'Northwind: Consulting',
				invoice_no: 'NW-9',
				subtotal: 2400,
				tax: 480,
				total: 2880,
				line_items: [{ description: 'Consulting, September', amount: 2400 }],
			},
			settings,
			{ fileName: 'nw-9.pdf' },
		);
		expect(built).toMatchObject({ ready: true, attach: true });
		expect(built.json.vendor_name).toBe('Northwind Consulting');
		const bill = built.json.bill as {
			Line: Array<{ Amount: number; Description: string }>;
			PrivateNote?: string;
			CurrencyRef?: unknown;
		};
		expect(bill.Line.map((line) => [line.Description, line.Amount])).toEqual([
			['Consulting, September', 2400],
			['Tax', 480],
		]);
		expect(bill.CurrencyRef).toBeUndefined();
		expect(bill.PrivateNote).toBe('Vendor: Northwind: Consulting');
	});
});
