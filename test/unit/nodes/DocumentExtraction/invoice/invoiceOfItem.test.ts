import { describe, expect, it } from 'vitest';

import {
	invoiceOfItem,
	readinessOfItem,
} from '../../../../../nodes/DocumentExtraction/invoice/invoiceOfItem.ts';
import { EXTRACTED } from '../../../harness/invoices.ts';

const data = {
	header: { vendor: 'Acme GmbH', invoice_no: 'A-1', date: '2026-10-02' },
	amounts: { subtotal: 10, tax: 1.9, total: 11.9 },
};

describe('invoiceOfItem: the invoice in every shape the nodes emit', () => {
	it.each([
		[
			'simplified (Extract, Wait for Review, trigger)',
			{
				document_id: 'doc_1',
				status: 'verified',
				vendor: 'Acme GmbH',
				invoice_no: 'A-1',
				total: 11.9,
				checks: {},
			},
		],
		[
			'split line items (one row)',
			{
				document_id: 'doc_1',
				status: 'verified',
				vendor: 'Acme GmbH',
				invoice_no: 'A-1',
				total: 11.9,
				line_number: 2,
				line_count: 3,
			},
		],
		[
			"Extract's raw answer",
			{ success: true, document_id: 'doc_1', status: 'verified', extracted_json: data },
		],
		[
			"the trigger's raw payload",
			{ event: 'document.verified', document_id: 'doc_1', data, confidence: { final: 1 } },
		],
	])('%s', (_shape, json) => {
		expect(invoiceOfItem(json)).toEqual({
			document_id: 'doc_1',
			status: 'verified',
			invoice: { vendor: 'Acme GmbH', invoice_no: 'A-1', total: 11.9 },
		});
	});

	it('reads numeric text and numbers as they come, and missing fields as null', () => {
		expect(invoiceOfItem({ vendor: 'Acme', invoice_no: 4711, total: '12.50' }).invoice).toEqual({
			vendor: 'Acme',
			invoice_no: '4711',
			total: 12.5,
		});
		expect(invoiceOfItem({ invoice_no: 'A-1' })).toEqual({
			document_id: null,
			status: null,
			invoice: { vendor: null, invoice_no: 'A-1', total: null },
		});
		expect(invoiceOfItem({ vendor: '  ', invoice_no: null }).invoice).toEqual({
			vendor: null,
			invoice_no: null,
			total: null,
		});
	});

	it('a rejection event says rejected; an item without any invoice shape has no invoice', () => {
		expect(invoiceOfItem({ event: 'document.rejected', document_id: 'doc_2', data: null })).toEqual(
			{ document_id: 'doc_2', status: 'rejected', invoice: null },
		);
		expect(
			invoiceOfItem({ document_id: 'doc_3', status: 'needs_review', extracted_json: null }),
		).toEqual({ document_id: 'doc_3', status: 'needs_review', invoice: null });
		expect(invoiceOfItem({ name: 'something else', data: { rows: [] } }).invoice).toBeNull();
	});
});

describe('readinessOfItem (Check Invoice Duplicate passes items through with a verdict computed again)', () => {
	const extracted = { ...EXTRACTED, header: { ...EXTRACTED.header, currency: 'EUR' } };
	const simplified = {
		document_id: 'doc_1',
		status: 'verified',
		vendor: 'Acme Supplies GmbH',
		invoice_date: '2024-03-15',
		invoice_no: 'INV-2024-0042',
		currency: 'EUR',
		subtotal: 250,
		tax: 47.5,
		total: 297.5,
		line_items: EXTRACTED.line_items,
	};

	it('Simplified, Extract Raw and trigger Raw: ready, with the currency', () => {
		for (const json of [
			simplified,
			{ document_id: 'doc_1', status: 'verified', extracted_json: extracted },
			{ event: 'document.verified', data: extracted },
		]) {
			expect(readinessOfItem(json)).toEqual({
				currency: 'EUR',
				ready_to_post: true,
				not_ready_because: [],
			});
		}
	});

	it('a Simplified item changed on the way (total edited): computed again, not ready', () => {
		const result = readinessOfItem({
			...simplified,
			total: 120,
			ready_to_post: true,
			not_ready_because: [],
		});
		expect(result.ready_to_post).toBe(false);
		expect(result.not_ready_because).toEqual([
			expect.stringMatching(/does not equal the total 120/),
		]);
	});

	it('never readier than the item said', () => {
		expect(
			readinessOfItem({
				...simplified,
				ready_to_post: false,
				not_ready_because: ['Held by hand.'],
			}),
		).toEqual({
			currency: 'EUR',
			ready_to_post: false,
			not_ready_because: ['Held by hand.'],
		});
	});

	it('marked not ready without a reason: still not ready, and says an earlier step held it', () => {
		expect(readinessOfItem({ ...simplified, ready_to_post: false }).not_ready_because).toEqual([
			'An earlier step marked this invoice as not ready to post.',
		]);
	});

	it('a Split Line Items row: its verdict is kept; without one it is not ready', () => {
		const row = {
			document_id: 'doc_1',
			status: 'verified',
			vendor: 'Acme',
			invoice_no: 'INV-1',
			total: 119,
			line_number: 1,
			line_count: 1,
			currency: 'EUR',
		};
		expect(readinessOfItem({ ...row, ready_to_post: true, not_ready_because: [] })).toEqual({
			currency: 'EUR',
			ready_to_post: true,
			not_ready_because: [],
		});
		expect(
			readinessOfItem({
				...row,
				ready_to_post: false,
				not_ready_because: ['Line 1: the amount is missing.'],
			}).not_ready_because,
		).toEqual(['Line 1: the amount is missing.']);
		expect(readinessOfItem(row).not_ready_because).toEqual([
			expect.stringMatching(/one line of an invoice without its ready_to_post verdict/),
		]);
	});

	it('flat fields without line_items: not ready, says what to connect', () => {
		const result = readinessOfItem({
			status: 'verified',
			vendor: 'Acme',
			invoice_no: 'INV-1',
			total: 119,
			ready_to_post: true,
			not_ready_because: [],
		});
		expect(result.ready_to_post).toBe(true);
		const bare = readinessOfItem({
			status: 'verified',
			vendor: 'Acme',
			invoice_no: 'INV-1',
			total: 119,
		});
		expect(bare).toEqual({
			currency: null,
			ready_to_post: false,
			not_ready_because: [expect.stringMatching(/does not hold the whole invoice/)],
		});
	});
});
