import { describe, expect, it } from 'vitest';

import { invoiceOfItem } from '../../../nodes/shared/invoiceOfItem.ts';

const data = { header: { vendor: 'Acme GmbH', invoice_no: 'A-1', date: '2026-10-02' }, amounts: { subtotal: 10, tax: 1.9, total: 11.9 } };

describe('invoiceOfItem: the invoice in every shape the nodes emit', () => {
	it.each([
		['simplified (Extract, Wait for Review, trigger)', { document_id: 'doc_1', status: 'verified', vendor: 'Acme GmbH', invoice_no: 'A-1', total: 11.9, checks: {} }],
		['split line items (one row)', { document_id: 'doc_1', status: 'verified', vendor: 'Acme GmbH', invoice_no: 'A-1', total: 11.9, line_number: 2, line_count: 3 }],
		["Extract's raw answer", { success: true, document_id: 'doc_1', status: 'verified', extracted_json: data }],
		["the trigger's raw payload", { event: 'document.verified', document_id: 'doc_1', data, confidence: { final: 1 } }],
	])('%s', (_shape, json) => {
		expect(invoiceOfItem(json)).toEqual({ document_id: 'doc_1', status: 'verified', invoice: { vendor: 'Acme GmbH', invoice_no: 'A-1', total: 11.9 } });
	});

	it('reads numeric text and numbers as they come, and missing fields as null', () => {
		expect(invoiceOfItem({ vendor: 'Acme', invoice_no: 4711, total: '12.50' }).invoice).toEqual({ vendor: 'Acme', invoice_no: '4711', total: 12.5 });
		expect(invoiceOfItem({ invoice_no: 'A-1' })).toEqual({ document_id: null, status: null, invoice: { vendor: null, invoice_no: 'A-1', total: null } });
		expect(invoiceOfItem({ vendor: '  ', invoice_no: null }).invoice).toEqual({ vendor: null, invoice_no: null, total: null });
	});

	it('a rejection event says rejected; an item without any invoice shape has no invoice', () => {
		expect(invoiceOfItem({ event: 'document.rejected', document_id: 'doc_2', data: null })).toEqual({ document_id: 'doc_2', status: 'rejected', invoice: null });
		expect(invoiceOfItem({ document_id: 'doc_3', status: 'needs_review', extracted_json: null })).toEqual({ document_id: 'doc_3', status: 'needs_review', invoice: null });
		expect(invoiceOfItem({ name: 'something else', data: { rows: [] } }).invoice).toBeNull();
	});
});
