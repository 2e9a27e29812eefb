// Bill Account through n8n's engine: the invoice out on Bill with the account decided, and on New
// Rule too when the chosen account becomes the supplier's rule; the original put on as data.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { itemWithFile, pdfBytes, useNodeHarness } from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const INVOICE = { vendor: 'Acme Inc', invoice_no: 'INV-7', approval: { status: 'approved' } };
const ACCOUNTS = { QueryResponse: { Account: [{ Id: '7', Name: 'Office Supplies' }] } };

async function run(
	parameters: IDataObject,
	answer: IDataObject = { data: { Account: 'Office Supplies' } },
) {
	return harness().run({
		parameters: {
			resource: 'document',
			operation: 'billAccount',
			books: 'quickBooks',
			invoice: JSON.stringify(INVOICE),
			accounts: JSON.stringify(ACCOUNTS),
			chosen: '={{ $json.data?.Account }}',
			defaultAccount: '1',
			originalFile: '={{ $binary.data }}',
			...parameters,
		},
		items: [{ ...itemWithFile(pdfBytes(1000), 'INV-7.pdf'), json: answer }],
		typeVersion: 1.3,
	});
}

describe('Bill Account', () => {
	it('puts a learned account on Bill and on New Rule, the invoice and its file, paired', async () => {
		const result = await run({});
		const [[bill], [rule]] = result.outputs();
		expect(bill.json).toEqual({ ...INVOICE, bill_expense_account_id: '7', learned_rule: true });
		expect(bill.binary?.data).toMatchObject({ fileName: 'INV-7.pdf', mimeType: 'application/pdf' });
		expect(bill.pairedItem).toEqual({ item: 0 });
		expect(rule.json).toEqual(bill.json);
		expect(service().requests).toEqual([]);
	});

	it("a supplier's rule: Bill only; Xero's code and tax type", async () => {
		const result = await run({
			books: 'xero',
			rule: JSON.stringify({ account_code: '420', tax_type: 'INPUT' }),
		});
		const [[bill], rule] = result.outputs();
		expect(bill.json).toMatchObject({
			bill_account_code: '420',
			bill_tax_type: 'INPUT',
			learned_rule: false,
		});
		expect(rule).toEqual([]);
	});

	it('says what to set when Supplier Rule is not JSON', async () => {
		const result = await run({ rule: '{oops' });
		expect(result.error()?.message).toContain(
			"Supplier Rule is not JSON: set it to an expression such as {{ $('Supplier rule').first().json }}",
		);
	});
});
