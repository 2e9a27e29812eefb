import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	registerEntry,
	type RegisterEntryInput,
} from '../../../../../nodes/DocumentExtraction/register/registerEntry.ts';

const invoice: IDataObject = {
	document_id: 'doc_1',
	vendor: 'Acme <b>Inc</b>',
	invoice_no: 'INV-1001',
	invoice_date: '2026-11-02',
	total: 1190,
	currency: 'EUR',
	supplier_key: 'acme inc',
	number_key: 'inv1001',
};

const approved: IDataObject = {
	status: 'approved',
	steps: 1,
	decided_by: 'Mia Manager <manager@example.com>',
	decided_at: '2026-11-03T09:00:00.000Z',
	note: 'Approved by Mia Manager at step 1 of 1',
	escalated: false,
};

const judgedBill = (fields: IDataObject = {}): IDataObject => ({
	document_id: 'doc_1',
	vendor: 'Acme <b>Inc</b>',
	invoice_no: 'INV-1001',
	attach: true,
	verdict: 'created',
	books_bill: { id: 'bill-9', number: 'INV-1001', status: 'DRAFT' },
	...fields,
});

const entry = (item: IDataObject, given: Partial<RegisterEntryInput> = {}) =>
	registerEntry({ item, invoice, approval: {}, bookedBill: {}, books: 'Xero', ...given });

describe('registerEntry: the register row of an invoice whose execution ends', () => {
	it("books: the created bill, who approved it and the note; the books' answer after it is not the invoice", () => {
		const booked = entry(
			{ Invoices: [{ InvoiceID: 'bill-9' }] },
			{ bookedBill: judgedBill(), approval: approved },
		);
		expect(booked).toMatchObject({
			state: 'booked',
			detail: '',
			bill_id: 'bill-9',
			document_id: 'doc_1',
			supplier: 'Acme <b>Inc</b>',
			invoice_no: 'INV-1001',
			total: '1190',
			currency: 'EUR',
			invoice_date: '2026-11-02',
			decision: 'approved',
			decided_by: 'Mia Manager <manager@example.com>',
			approval_note: 'Approved by Mia Manager at step 1 of 1',
			original_attached: true,
		});
		const unapproved = entry(
			{},
			{ bookedBill: judgedBill(), approval: { status: 'approved', steps: 0 } },
		);
		expect(unapproved).toMatchObject({
			decision: 'no approval needed',
			decided_by: 'no approval needed',
		});
	});

	it('books, and says so when attaching the original failed or was not done', () => {
		const failed = entry(
			{ error: { message: '413 - too large' } },
			{ bookedBill: judgedBill(), approval: approved },
		);
		expect(failed).toMatchObject({
			state: 'booked',
			detail: 'attaching the original failed: 413 - too large',
			original_attached: false,
		});
		const skipped = entry(
			{},
			{
				bookedBill: judgedBill({ attach: false, attachment_note: 'the original is a .heic file' }),
			},
		);
		expect(skipped).toMatchObject({
			detail: 'the original is a .heic file',
			original_attached: false,
		});
	});

	it("names the bill already in the books, in the books' own name", () => {
		const already = entry(
			{
				...judgedBill({ verdict: 'alreadyBooked' }),
				books_bill: { id: '145', number: 'INV-1001', status: 'Open' },
			},
			{ books: 'QuickBooks', approval: approved },
		);
		expect(already).toMatchObject({
			state: 'already in the books',
			detail:
				"QuickBooks already has this supplier's bill INV-1001 (id 145, status Open): nothing booked again",
			bill_id: '145',
			decision: '',
			decided_by: '',
		});
	});

	it('a person decides, with the reason, for either judge and for a refused account', () => {
		for (const verdict of ['personDecides', 'accountRefused'])
			expect(
				entry(
					judgedBill({
						verdict,
						review_reason: 'The bill INV-1001 in Xero is VOIDED',
						books_bill: null,
					}),
				),
			).toMatchObject({
				state: 'a person decides',
				detail: 'The bill INV-1001 in Xero is VOIDED',
				bill_id: '',
			});
	});

	it("rejected or no decision: the approval's reason and who decided, the escalation named", () => {
		const rejected = entry({
			...invoice,
			approval: {
				...approved,
				status: 'rejected',
				reason: 'rejected at step 2 of 2: not budgeted',
			},
		});
		expect(rejected).toMatchObject({
			state: 'rejected',
			detail: 'rejected at step 2 of 2: not budgeted',
			decision: 'rejected',
			decided_by: 'Mia Manager <manager@example.com>',
			decided_at: '2026-11-03T09:00:00.000Z',
			escalated_to: '',
		});
		const none = entry({
			...invoice,
			approval: {
				status: 'no_decision',
				reason: 'no decision',
				escalated: true,
				escalate_to: { email: 'fd@example.com' },
			},
		});
		expect(none).toMatchObject({
			state: 'no decision',
			decision: 'no decision',
			escalated_to: 'fd@example.com',
		});
	});

	it("Extract's and the check's stops, each with its reason", () => {
		expect(entry({ ...invoice, status: 'rejected', rejection_reason: 'Not ours' })).toMatchObject({
			state: 'rejected in review',
			detail: 'Not ours',
		});
		expect(entry({ document_id: 'doc_2', timed_out: true })).toMatchObject({
			state: 'review not finished',
			document_id: 'doc_2',
			supplier: 'Acme <b>Inc</b>',
		});
		expect(entry({ skipped_because: 'logo.png is an image under 1 KB' })).toMatchObject({
			state: 'not an invoice',
			detail: 'logo.png is an image under 1 KB',
		});
		expect(
			entry({ ...invoice, ready_to_post: false, not_ready_because: ['No total.', 'No date.'] }),
		).toMatchObject({ state: 'not ready to post', detail: 'No total. No date.' });
		expect(entry({ ...invoice, review_reason: 'EUR is not allowed' })).toMatchObject({
			state: 'cannot be booked',
			detail: 'EUR is not allowed',
		});
	});

	it("a look-up's earlier row: the invoice says which repeat it is, the row is named", () => {
		const earlier = { register_key: '41', state: 'booked', bill_id: 'bill-1', supplier: 'Acme' };
		const sameFile = entry(earlier, {
			invoice: {
				...invoice,
				document_id: null,
				status: 'already_submitted',
				duplicate: true,
				file_name: 'INV-1001.pdf',
			},
		});
		expect(sameFile).toMatchObject({
			state: 'already submitted',
			detail:
				'The same file was sent before: nothing uploaded, nothing booked; earlier: execution 41, booked, bill bill-1',
			duplicate_of: '41',
			bill_id: 'bill-1',
			supplier: 'Acme <b>Inc</b>',
			file_name: 'INV-1001.pdf',
		});
		const sameInvoice = entry(
			{},
			{
				invoice: {
					...invoice,
					duplicate: true,
					possible_duplicate_of: 'doc_0',
					message: 'Acme INV-1001 1190.00 was seen before',
				},
			},
		);
		expect(sameInvoice).toMatchObject({
			state: 'possible duplicate',
			detail: 'Acme INV-1001 1190.00 was seen before (earlier document doc_0): not booked twice',
			duplicate_of: '',
		});
	});

	it("a template's own outcome is kept; an item nobody can read goes to a person, never to booked", () => {
		expect(
			entry({ ...invoice, outcome: 'vendor in another currency', reason: 'the vendor is in USD' }),
		).toMatchObject({ state: 'vendor in another currency', detail: 'the vendor is in USD' });
		expect(entry({ something: 'else' }, { approval: approved })).toMatchObject({
			state: 'a person decides',
			detail: expect.stringContaining('open the execution'),
			decision: '',
		});
	});

	it('keeps the detail within the register column', () => {
		const long = entry({ ...invoice, skipped_because: 'x'.repeat(900) });
		expect(long.detail).toHaveLength(500);
	});
});
