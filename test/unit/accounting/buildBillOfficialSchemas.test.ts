// Build Bill's bodies, the approval decision included, against the books' official descriptions
// (../shared/reference/): Xero's Accounting API OpenAPI (Invoices, CreditNotes, HistoryRecords) and
// Intuit's QuickBooks Online XSD (every key a Bill or VendorCredit element). Generated invoices, as
// the targets' own tests use them; each validator is first shown to refuse a wrong body.
import { describe, expect, it } from 'vitest';

import { buildQuickBooksBill } from '../../../nodes/DocumentExtraction/bill/quickBooksBill.ts';
import { buildXeroBill } from '../../../nodes/DocumentExtraction/bill/xeroBill.ts';
import { quickBooksExampleSettings, xeroExampleSettings } from './exampleSettings.ts';
import { generateInvoiceItems } from './generatedInvoices.ts';
import { hasReference, unknownQuickBooksKeys, xeroSchemaValidator } from './officialSchemas.ts';

const APPROVAL = {
	decidedBy: 'Manager <manager@example.test>',
	decidedAt: '2026-11-02T09:30:00.000Z',
};
const ready = () =>
	generateInvoiceItems(20261127, 80).filter(({ item }) => item.ready_to_post === true);

describe.skipIf(!hasReference)("Build Bill's bodies against the books' official schemas", () => {
	it("Xero: bills and credit notes valid against Xero's OpenAPI, the decision a valid History & Notes entry", () => {
		const validators = {
			Invoices: xeroSchemaValidator('Invoices'),
			CreditNotes: xeroSchemaValidator('CreditNotes'),
		};
		const history = xeroSchemaValidator('HistoryRecords');
		expect(validators.Invoices({ Invoices: [{ Type: 'BILL' }] })).toBe(false);
		expect(history({ HistoryRecords: [{ Details: 7 }] })).toBe(false);

		const endpoints = new Set<string>();
		for (const { invoice, item } of ready()) {
			const built = buildXeroBill(item, {
				...xeroExampleSettings(),
				tenantId: 'tenant-1',
				approval: APPROVAL,
			});
			if (!built.ready) continue;
			const endpoint = built.json.endpoint as 'Invoices' | 'CreditNotes';
			endpoints.add(endpoint);
			const validate = validators[endpoint];
			expect(
				validate(built.json.xero_request),
				`${invoice.name}: ${JSON.stringify(validate.errors)}`,
			).toBe(true);
			expect(history(built.json.xero_history), JSON.stringify(history.errors)).toBe(true);
			expect(built.json.xero_history).toEqual({
				HistoryRecords: [
					{
						Details: 'Approved by Manager <manager@example.test> on 2026-11-02T09:30:00.000Z',
					},
				],
			});
		}
		expect([...endpoints].sort()).toEqual(['CreditNotes', 'Invoices']);
		// Compiling Xero's OpenAPI description takes about 5 s on a busy 2-core machine.
	}, 30_000);

	it("QuickBooks: every key of a Bill or VendorCredit is an element of Intuit's schema, the decision in PrivateNote", () => {
		expect(unknownQuickBooksKeys({ ApprovalNote: 'x', Line: [{ Amout: 1 }] }, 'Bill')).toEqual([
			'Bill.ApprovalNote',
			'Line.Amout',
		]);
		const types = new Set<string>();
		for (const { invoice, item } of ready()) {
			const built = buildQuickBooksBill(item, {
				...quickBooksExampleSettings(),
				companyId: '4620816365',
				approval: { note: 'Under the approval threshold of 1,000.00: no approval needed' },
			});
			if (!built.ready) continue;
			const type = built.json.entity === 'bill' ? 'Bill' : 'VendorCredit';
			types.add(type);
			const body: Record<string, unknown> = {
				...(built.json.bill as Record<string, unknown>),
				VendorRef: { value: '56' },
			};
			expect(unknownQuickBooksKeys(body, type), invoice.name).toEqual([]);
			expect(String(body.PrivateNote).split('\n')[0]).toBe(
				'Under the approval threshold of 1,000.00: no approval needed',
			);
		}
		expect([...types].sort()).toEqual(['Bill', 'VendorCredit']);
	});
});
