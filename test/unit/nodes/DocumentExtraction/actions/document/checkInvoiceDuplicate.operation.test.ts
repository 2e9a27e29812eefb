/**
 * Check Invoice Duplicate through n8n's engine, with n8n's deduplication store interface (in memory
 * here; n8n's own in test/e2e/books-later.test.ts): the same identity and store as Extract's Detect
 * Same Invoice, so an invoice is caught whichever of the two saw it first; items in every shape the
 * nodes emit; what cannot be checked, and what fails.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	failedItemOutput,
	nodeOutputCount,
} from '../../../../../../nodes/DocumentExtraction/actions/document/extractOutputs.ts';
import {
	extractParameters,
	pdfItem,
	useNodeHarness,
	VERIFIED,
} from '../../../../harness/fixtures.ts';
import { outputNames } from '../../../../harness/savedActionNode.ts';

const { harness, service } = useNodeHarness();

const checking = { resource: 'document', operation: 'checkInvoiceDuplicate' };
const invoice = (vendor: string | null, invoiceNo: string | null, total: number) => ({
	header: { vendor, date: '2026-10-02', invoice_no: invoiceNo },
	amounts: { subtotal: total, tax: 0, total },
	line_items: [{ description: 'Paper', quantity: 1, unit_price: total, amount: total }],
});
/** The trigger's simplified output for a verified review. */
const reviewed = (
	documentId: string,
	vendor: string | null,
	invoiceNo: string | null,
	total: number,
): IDataObject => ({
	event: 'document.verified',
	document_id: documentId,
	status: 'verified',
	verified_by: 'human_reviewer',
	vendor,
	invoice_no: invoiceNo,
	total,
});
const check = async (items: IDataObject[], settings: { continueOnFail?: boolean } = {}) =>
	await harness().run({
		parameters: checking,
		items: items.map((json) => ({ json })),
		...settings,
	});
const ids = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.document_id);

describe('Check Invoice Duplicate: outputs', () => {
	it('New Invoice and Possible Duplicate, as n8n evaluates the outputs expression; a failed item goes to Possible Duplicate', () => {
		const parameters: INodeParameters = { ...checking };
		expect(outputNames(harness().nodeTypes, parameters)).toEqual([
			'New Invoice',
			'Possible Duplicate',
		]);
		const rule = { ...checking, waitForReview: false, skipDuplicates: false };
		expect(nodeOutputCount(rule)).toBe(2);
		expect(failedItemOutput(rule)).toBe(1);
	});
});

describe('Check Invoice Duplicate: the same store as Detect Same Invoice', () => {
	it('an invoice Extract verified at once, arriving again through review in another file, is a possible duplicate (what matched, no earlier id: none is kept)', async () => {
		service().on('POST', '/v1/extract', {
			status: 200,
			body: {
				...VERIFIED,
				document_id: 'doc_pdf',
				extracted_json: invoice('Acme Supplies GmbH', 'INV-2026-0042', 0.3),
			},
		});
		const extracted = await harness().run({
			parameters: extractParameters({ options: { detectSameInvoice: true } }),
			items: [pdfItem(900, 31)],
		});
		expect(ids(extracted.output(undefined, 0))).toEqual(['doc_pdf']);

		const result = await check([
			reviewed('doc_scan', 'ACME SUPPLIES', 'inv 2026/42', 0.1 + 0.2),
			reviewed('doc_other', 'Acme Supplies GmbH', 'INV-2026-0043', 0.3),
		]);
		const [fresh, duplicates] = result.outputs();
		expect(ids(fresh)).toEqual(['doc_other']);
		expect(fresh[0].pairedItem).toEqual({ item: 1 });
		expect(duplicates.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(duplicates[0].json).toMatchObject({
			event: 'document.verified',
			document_id: 'doc_scan',
			verified_by: 'human_reviewer',
			duplicate: true,
			possible_duplicate_of: null,
			same_document: false,
			matched: { vendor: 'acme supplies', invoice_no: 'INV 2026 42', total_cents: 30 },
		});
		expect(String(duplicates[0].json.message)).toContain(
			'looks like an invoice this workflow saw before',
		);
	});

	it('and the other way round: an invoice checked after review is a possible duplicate when Extract sees it later', async () => {
		const first = await check([reviewed('doc_reviewed', 'Initech Ltd.', 'IT-12', 95.2)]);
		expect(ids(first.output(undefined, 0))).toEqual(['doc_reviewed']);

		service().on('POST', '/v1/extract', {
			status: 200,
			body: {
				...VERIFIED,
				document_id: 'doc_later',
				extracted_json: invoice('Initech Limited', 'it-0012', 95.2),
			},
		});
		const extracted = await harness().run({
			parameters: extractParameters({ options: { detectSameInvoice: true } }),
			items: [pdfItem(900, 32)],
		});
		expect(extracted.output(undefined, 2).map((item) => item.json)).toEqual([
			expect.objectContaining({ document_id: 'doc_later', duplicate: true, same_document: false }),
		]);
		expect(extracted.output(undefined, 0)).toEqual([]);
	});

	it('claims the whole run at once like the content guard: the invoice and its document stay in the store, one settle wait per run with anything new', async () => {
		await check([reviewed('doc_1', 'Hooli', 'H-1', 10), reviewed('doc_2', 'Globex', 'G-7', 20)]);
		const stored = [...harness().deduplicator.contexts.values()].flat();
		// A manual run's keys (the harness runs as the editor does).
		expect(stored.sort()).toEqual([
			'test:document:doc_1',
			'test:document:doc_2',
			'test:invoice:globex|G 7|2000',
			'test:invoice:hooli|H 1|1000',
		]);
		const settles = () => harness().waits.filter((ms) => ms >= 1000);
		expect(settles()).toHaveLength(1);
		// The same document again: everything known, nothing to confirm.
		await check([reviewed('doc_1', 'Hooli', 'H-1', 10)]);
		expect(settles()).toHaveLength(1);
	});
});

describe('Check Invoice Duplicate: item shapes and documents seen again', () => {
	it("reads the raw payload of the trigger and Extract's raw answer", async () => {
		const result = await check([
			{
				event: 'document.verified',
				document_id: 'doc_raw_1',
				data: invoice('Globex Corporation', 'GX-9', 120),
			},
			{
				success: true,
				status: 'verified',
				document_id: 'doc_raw_2',
				extracted_json: invoice('GLOBEX CORP.', 'gx 9', 120),
			},
		]);
		expect(ids(result.output(undefined, 0))).toEqual(['doc_raw_1']);
		expect(result.output(undefined, 1)[0].json).toMatchObject({
			document_id: 'doc_raw_2',
			possible_duplicate_of: 'doc_raw_1',
		});
		expect(result.output(undefined, 1)[0].json.extracted_json).toEqual(
			invoice('GLOBEX CORP.', 'gx 9', 120),
		);
	});

	it('the lines of one document (Split Line Items) take one route together; the same document again later is not passed on as new twice', async () => {
		const line = (number: number) => ({
			...reviewed('doc_split', 'Umbrella Ltd', 'U-1', 30),
			line_number: number,
			line_count: 3,
		});
		const first = await check([line(1), line(2), line(3)]);
		expect(
			first.output(undefined, 0).map((item) => [item.json.line_number, item.pairedItem]),
		).toEqual([
			[1, { item: 0 }],
			[2, { item: 1 }],
			[3, { item: 2 }],
		]);
		expect(first.output(undefined, 1)).toEqual([]);

		const again = await check([line(1), line(2), line(3)]);
		expect(again.output(undefined, 0)).toEqual([]);
		const repeated = again.output(undefined, 1);
		expect(repeated).toHaveLength(3);
		expect(repeated[0].json).toMatchObject({
			document_id: 'doc_split',
			possible_duplicate_of: 'doc_split',
			same_document: true,
		});
		expect(String(repeated[0].json.message)).toContain('was already checked by this workflow');
	});

	it('an invoice without vendor or number goes to New Invoice with the reason it was not checked, and is not recorded', async () => {
		const result = await check([
			reviewed('doc_a', null, 'N-1', 5),
			reviewed('doc_b', 'Acme', '', 5),
			reviewed('doc_c', '—', null, 5),
		]);
		const fresh = result.output(undefined, 0);
		expect(fresh.map((item) => item.json.duplicate_check_skipped)).toEqual([
			'Not checked for duplicates: the invoice has no vendor to match on. Check it by hand before paying it.',
			'Not checked for duplicates: the invoice has no invoice number to match on. Check it by hand before paying it.',
			'Not checked for duplicates: the invoice has no vendor and no invoice number to match on. Check it by hand before paying it.',
		]);
		expect([...harness().deduplicator.contexts.values()].flat()).toEqual([]);
		const again = await check([reviewed('doc_a2', null, 'N-1', 5)]);
		expect(ids(again.output(undefined, 0))).toEqual(['doc_a2']);
	});
});

describe('Check Invoice Duplicate: the supplier key and the number key', () => {
	it('every item carries the supplier identity (legal forms kept) and the number as a re-scan reads it', async () => {
		const first = await check([
			reviewed('doc_k1', 'ACME Ltd.', 'K-1', 5),
			reviewed('doc_k2', '  Café Müller  &  Söhne GmbH', 'K-2', 7),
			reviewed('doc_k3', null, 'K-3', 9),
			reviewed('doc_k5', 'ACME GmbH', 'K-1', 6),
		]);
		expect(first.output(undefined, 0).map((item) => item.json.supplier_key)).toEqual([
			'acme ltd.',
			'café müller & söhne gmbh',
			null,
			'acme gmbh',
		]);
		expect(first.output(undefined, 0).map((item) => item.json.number_key)).toEqual([
			'K 1',
			'K 2',
			'K 3',
			'K 1',
		]);
		// The same invoice again, its number read another way: a possible duplicate, the same number key.
		const again = await check([reviewed('doc_k4', 'ACME Ltd.', 'k 0001', 5)]);
		expect(again.output(undefined, 1).map((item) => item.json.supplier_key)).toEqual(['acme ltd.']);
		expect(again.output(undefined, 1).map((item) => item.json.number_key)).toEqual(['K 1']);
	});
});

describe('Check Invoice Duplicate: errors', () => {
	it('an item without invoice data stops the node and names the fields it expects', async () => {
		const result = await check([{ document_id: 'doc_x', note: 'no invoice here' }]);
		expect(result.error()?.message).toBe('Input item 0 has no invoice data to check');
		expect(result.error()?.description).toContain('"vendor" and "invoice_no"');
		expect(result.error()?.description).toContain('"extracted_json"');
	});

	it('a rejected or pending document is refused: only verified invoices are checked', async () => {
		const result = await check([
			{
				event: 'document.rejected',
				document_id: 'doc_rej',
				status: 'rejected',
				vendor: null,
				invoice_no: null,
			},
		]);
		expect(result.error()?.message).toBe(
			'Document doc_rej is "rejected", not verified: only verified invoices are checked',
		);
		expect(result.error()?.description).toContain('Document Verified');
	});

	it('with Continue On Fail a failed item goes to Possible Duplicate (never New Invoice), paired with its input', async () => {
		const result = await check([{ nothing: true }, reviewed('doc_ok', 'Acme', 'A-7', 1)], {
			continueOnFail: true,
		});
		expect(ids(result.output(undefined, 0))).toEqual(['doc_ok']);
		expect(result.output(undefined, 1).map((item) => [item.json.error, item.pairedItem])).toEqual([
			['Input item 0 has no invoice data to check', { item: 0 }],
		]);
	});
});

describe('Check Invoice Duplicate: a failed run leaves nothing claimed, so its retry outputs the invoice', () => {
	const invoices = [reviewed('doc_1', 'Hooli', 'H-1', 10), reviewed('doc_2', 'Globex', 'G-7', 20)];

	it("n8n's store failing once on the confirming write (a pool timeout): the node fails, the retry outputs both on New Invoice", async () => {
		const store = harness().deduplicator;
		const record = store.checkProcessedAndRecord.bind(store);
		let calls = 0;
		store.checkProcessedAndRecord = async (...call: Parameters<typeof record>) => {
			if (++calls === 2) throw new Error('timeout exceeded when trying to connect');
			return await record(...call);
		};
		let failed: Awaited<ReturnType<typeof check>>;
		try {
			failed = await check(invoices);
		} finally {
			store.checkProcessedAndRecord = record;
		}
		expect([...store.contexts.values()].flat()).toEqual([]);
		const retried = await check(invoices);
		expect(ids(retried.output(undefined, 0))).toEqual(['doc_1', 'doc_2']);
		expect(retried.output(undefined, 1)).toEqual([]);
		expect(failed.error()?.message).toBe('Could not check whether these invoices were seen before');
		expect(failed.error()?.description).toContain('timeout exceeded when trying to connect');
	});

	it('a parameter failing on a later item (an expression) fails the node with nothing claimed: the retry with the fixed workflow outputs both on New Invoice', async () => {
		const failed = await harness().run({
			parameters: {
				...checking,
				holdNotReady: '={{ $json.document_id === "doc_2" ? $("Nowhere").item.json.x : false }}',
			},
			items: invoices.map((json) => ({ json })),
		});
		expect(failed.error()?.message).toBe("Referenced node doesn't exist");
		expect([...harness().deduplicator.contexts.values()].flat()).toEqual([]);
		const retried = await check(invoices);
		expect(ids(retried.output(undefined, 0))).toEqual(['doc_1', 'doc_2']);
	});
});

describe('Check Invoice Duplicate: ready_to_post on both outputs (N15)', () => {
	it('New Invoice and Possible Duplicate items carry currency, ready_to_post and not_ready_because, computed from the item', async () => {
		const whole = (documentId: string, extracted: IDataObject) => ({
			event: 'document.verified',
			document_id: documentId,
			data: extracted,
		});
		const complete = { ...invoice('Umbrella Ltd', 'U-1', 50), currency: 'eur' };
		const noLines = { ...invoice('Umbrella Ltd', 'U-2', 60), line_items: [] };
		const result = await check([
			whole('doc_a', complete),
			whole('doc_b', noLines),
			whole('doc_c', complete),
		]);
		const [fresh, duplicates] = result.outputs();
		expect(
			fresh.map((item) => [
				item.json.document_id,
				item.json.currency,
				item.json.ready_to_post,
				item.json.not_ready_because,
			]),
		).toEqual([
			['doc_a', 'EUR', true, []],
			['doc_b', null, false, [expect.stringMatching(/no line items/)]],
		]);
		expect(
			duplicates.map((item) => [
				item.json.document_id,
				item.json.currency,
				item.json.ready_to_post,
			]),
		).toEqual([['doc_c', 'EUR', true]]);
	});
});
