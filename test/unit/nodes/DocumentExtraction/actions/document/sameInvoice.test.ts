/**
 * Detect Same Invoice (N13) through n8n's engine, with n8n's deduplication store interface (in
 * memory here; n8n's own in test/e2e/books.test.ts): an invoice seen before in another file leaves
 * on Possible Duplicate with the earlier document_id and what matched; other invoices stay Verified.
 */
import { describe, expect, it } from 'vitest';

import {
	extractParameters,
	NEEDS_REVIEW,
	pdfItem,
	useNodeHarness,
	VERIFIED,
} from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const detecting = () => extractParameters({ options: { detectSameInvoice: true } });
const invoice = (vendor: string, invoiceNo: string, total: number) => ({
	header: { vendor, date: '2026-10-02', invoice_no: invoiceNo },
	amounts: { subtotal: total, tax: 0, total },
	line_items: [{ description: 'Paper', quantity: 1, unit_price: total, amount: total }],
});
const verified = (documentId: string, data: unknown) => ({
	status: 200,
	body: { ...VERIFIED, document_id: documentId, extracted_json: data },
});

describe('Detect Same Invoice', () => {
	it('one invoice in two files (written differently): the second on Possible Duplicate, naming the first', async () => {
		service().on(
			'POST',
			'/v1/extract',
			verified('doc_pdf', invoice('Acme Supplies GmbH', 'INV-2026-0042', 0.3)),
			verified('doc_scan', invoice('ACME SUPPLIES', 'inv 2026/42', 0.1 + 0.2)),
			verified('doc_other', invoice('Acme Supplies GmbH', 'INV-2026-0043', 0.3)),
			verified('doc_corrected', invoice('Acme Supplies GmbH', 'INV-2026-0042', 0.31)),
		);
		const result = await harness().run({
			parameters: detecting(),
			items: [
				pdfItem(900, 1, 'a.pdf'),
				pdfItem(900, 2, 'b.png'),
				pdfItem(900, 3, 'c.pdf'),
				pdfItem(900, 4, 'd.pdf'),
			],
		});
		const outputs = result.outputs();
		expect(outputs).toHaveLength(3);
		const [verifiedItems, needsReview, possibleDuplicate] = outputs;
		expect(verifiedItems.map((item) => item.json.document_id)).toEqual([
			'doc_pdf',
			'doc_other',
			'doc_corrected',
		]);
		expect(needsReview).toEqual([]);
		expect(possibleDuplicate.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
		expect(possibleDuplicate[0].json).toMatchObject({
			document_id: 'doc_scan',
			duplicate: true,
			possible_duplicate_of: 'doc_pdf',
			matched: { vendor: 'acme supplies', invoice_no: 'INV 2026 42', total_cents: 30 },
		});
		expect(String(possibleDuplicate[0].json.message)).toContain(
			'looks like the invoice of document doc_pdf',
		);
	});

	it('off by default, and documents still in review are not matched', async () => {
		service().on(
			'POST',
			'/v1/extract',
			verified('doc_1', invoice('Acme', 'X-1', 5)),
			verified('doc_2', invoice('Acme', 'X-1', 5)),
		);
		const off = await harness().run({
			parameters: extractParameters(),
			items: [pdfItem(500, 5), pdfItem(500, 6)],
		});
		expect(off.outputs()).toHaveLength(2);
		expect(off.output(undefined, 0)).toHaveLength(2);

		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: NEEDS_REVIEW },
			{ status: 200, body: NEEDS_REVIEW },
		);
		const pending = await harness().run({
			parameters: detecting(),
			items: [pdfItem(500, 7), pdfItem(500, 8)],
		});
		expect(pending.output(undefined, 1)).toHaveLength(2);
		expect(pending.output(undefined, 2)).toEqual([]);
	});
});
