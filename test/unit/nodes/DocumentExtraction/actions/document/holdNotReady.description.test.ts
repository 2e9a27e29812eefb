/**
 * Hold Invoices Not Ready to Post (N18) through n8n's engine: the outputs n8n evaluates per node
 * version (on by default from 1.1, off in 1), where each invoice goes, pairing, and Continue On Fail.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../../../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import {
	extractParameters,
	pdfItem,
	serviceError,
	useNodeHarness,
	VERIFIED,
} from '../../../../harness/fixtures.ts';
import { outputNames } from '../../../../harness/savedActionNode.ts';

const { harness, service } = useNodeHarness();

const COMPLETE = {
	header: { vendor: 'Acme Supplies GmbH', date: '2026-03-15', invoice_no: 'INV-1' },
	amounts: { subtotal: 1500, tax: 285, total: 1785 },
	line_items: [{ description: 'Consulting', quantity: 12, unit_price: 125, amount: 1500 }],
};
const NO_LINES = {
	...COMPLETE,
	header: { ...COMPLETE.header, invoice_no: 'INV-2' },
	line_items: [],
};
const TEXT_AMOUNT = {
	...COMPLETE,
	header: { ...COMPLETE.header, invoice_no: 'INV-3' },
	line_items: [{ description: 'Consulting', quantity: 12, unit_price: 125, amount: '1,500.00' }],
};

const verifiedAnswers = (...invoices: IDataObject[]) =>
	invoices.map((extracted, index) => ({
		status: 200,
		body: { ...VERIFIED, document_id: `doc_${index}`, extracted_json: extracted },
	}));
const files = (count: number) =>
	Array.from({ length: count }, (_, index) => pdfItem(900, 40 + index));
const route = (items: Array<{ json: IDataObject; pairedItem?: unknown }>) =>
	items.map((item) => [item.json.document_id, item.json.ready_to_post, item.pairedItem]);

describe('the node versions', () => {
	it('1.3 is the default version for new nodes (held as from 1.1); 1, 1.1 and 1.2 stay loadable', () => {
		const description = new DocumentExtraction().description;
		expect(description.version).toEqual([1, 1.1, 1.2, 1.3]);
		expect(description.defaultVersion).toBe(1.3);
	});

	it.each([
		[
			1.1,
			{ operation: 'checkInvoiceDuplicate' },
			['New Invoice', 'Possible Duplicate', 'Not Ready to Post'],
		],
		[1, { operation: 'checkInvoiceDuplicate' }, ['New Invoice', 'Possible Duplicate']],
		[
			1,
			{ operation: 'checkInvoiceDuplicate', holdNotReady: true },
			['New Invoice', 'Possible Duplicate', 'Not Ready to Post'],
		],
		[
			1.1,
			{ operation: 'checkInvoiceDuplicate', holdNotReady: false },
			['New Invoice', 'Possible Duplicate'],
		],
		[1.1, { operation: 'extract' }, ['Verified', 'Needs Review']],
		[
			1.1,
			{ operation: 'extract', waitForReview: true },
			['Verified', 'Rejected', 'Timed Out', 'Not Ready to Post'],
		],
		[1, { operation: 'extract', waitForReview: true }, ['Verified', 'Rejected', 'Timed Out']],
		[
			1.1,
			{ operation: 'extract', waitForReview: true, options: { skipDuplicates: true } },
			['Verified', 'Rejected', 'Timed Out', 'Already Submitted', 'Not Ready to Post'],
		],
		[1.1, { operation: 'getStatus' }, ['main']],
		[1.3, { operation: 'checkInvoiceDuplicate' }, ['New Invoice', 'Same Invoice', 'Not Ready']],
		[
			1.3,
			{ operation: 'extract', waitForReview: true },
			['Verified', 'Rejected', 'Timed Out', 'Not Ready'],
		],
		[
			1.3,
			{ operation: 'extract', waitForReview: true, options: { skipDuplicates: true } },
			['Verified', 'Rejected', 'Timed Out', 'Not Ready', 'Same File'],
		],
	])(
		'version %s, %j: %j (the new output comes last, so no connection moves)',
		(typeVersion, parameters, expected) => {
			expect(
				outputNames(harness().nodeTypes, { resource: 'document', ...parameters }, typeVersion),
			).toEqual(expected);
		},
	);
});

describe('Extract, version 1.1 (held by default)', () => {
	it('a complete verified invoice goes to Verified; verified ones not ready go to Needs Review with their reasons; pairing kept', async () => {
		service().on('POST', '/v1/extract', ...verifiedAnswers(COMPLETE, NO_LINES, TEXT_AMOUNT));
		const result = await harness().run({
			parameters: extractParameters(),
			items: files(3),
			typeVersion: 1.1,
		});
		const [verified, needsReview] = result.outputs();
		expect(route(verified)).toEqual([['doc_0', true, { item: 0 }]]);
		expect(route(needsReview)).toEqual([
			['doc_1', false, { item: 1 }],
			['doc_2', false, { item: 2 }],
		]);
		expect(needsReview[0].json).toMatchObject({
			status: 'verified',
			not_ready_because: [expect.stringMatching(/no line items/)],
		});
		expect(needsReview[1].json.not_ready_because).toEqual([
			expect.stringMatching(
				/^Line 1: the amount could not be read as an exact number \("1,500\.00"\)/,
			),
		]);
	});

	it('Split Line Items: every row of a held invoice is held', async () => {
		service().on(
			'POST',
			'/v1/extract',
			...verifiedAnswers({
				...TEXT_AMOUNT,
				line_items: [...TEXT_AMOUNT.line_items, COMPLETE.line_items[0]],
			}),
		);
		const result = await harness().run({
			parameters: extractParameters({ outputMode: 'splitLineItems' }),
			items: files(1),
			typeVersion: 1.1,
		});
		const [verified, needsReview] = result.outputs();
		expect(verified).toEqual([]);
		expect(needsReview.map((item) => [item.json.line_number, item.json.ready_to_post])).toEqual([
			[1, false],
			[2, false],
		]);
	});

	it('turned off: the not-ready invoice is on Verified, saying it is not ready', async () => {
		service().on('POST', '/v1/extract', ...verifiedAnswers(NO_LINES));
		const result = await harness().run({
			parameters: extractParameters({ holdNotReady: false }),
			items: files(1),
			typeVersion: 1.1,
		});
		expect(route(result.outputs()[0])).toEqual([['doc_0', false, { item: 0 }]]);
	});

	it('Continue On Fail: a failed item goes to Needs Review, paired, not ready; never Verified', async () => {
		service().on('POST', '/v1/extract', verifiedAnswers(COMPLETE)[0], {
			status: 503,
			body: serviceError('unavailable', 'Down'),
		});
		const result = await harness().run({
			parameters: extractParameters(),
			items: files(2),
			typeVersion: 1.1,
			continueOnFail: true,
		});
		const [verified, needsReview] = result.outputs();
		expect(route(verified)).toEqual([['doc_0', true, { item: 0 }]]);
		expect(
			needsReview.map((item) => [item.json.ready_to_post, item.pairedItem, typeof item.json.error]),
		).toEqual([[false, { item: 1 }, 'string']]);
	});
});

describe('Extract, version 1 (as before unless turned on)', () => {
	it('by default a verified invoice not ready to post still goes to Verified (saved workflows keep their behaviour)', async () => {
		service().on('POST', '/v1/extract', ...verifiedAnswers(NO_LINES));
		const result = await harness().run({ parameters: extractParameters(), items: files(1) });
		expect(route(result.outputs()[0])).toEqual([['doc_0', false, { item: 0 }]]);
	});

	it('turned on: held on Needs Review', async () => {
		service().on('POST', '/v1/extract', ...verifiedAnswers(COMPLETE, NO_LINES));
		const result = await harness().run({
			parameters: extractParameters({ holdNotReady: true }),
			items: files(2),
		});
		const [verified, needsReview] = result.outputs();
		expect(route(verified)).toEqual([['doc_0', true, { item: 0 }]]);
		expect(route(needsReview)).toEqual([['doc_1', false, { item: 1 }]]);
	});
});

describe('Check Invoice Duplicate, version 1.1', () => {
	const verifiedItem = (documentId: string, extracted: IDataObject) => ({
		json: { event: 'document.verified', document_id: documentId, data: extracted },
	});
	const checking = { resource: 'document', operation: 'checkInvoiceDuplicate' };

	it('New Invoice (ready) | Possible Duplicate (whatever its readiness) | Not Ready to Post, each paired', async () => {
		const result = await harness().run({
			parameters: checking,
			typeVersion: 1.1,
			items: [
				verifiedItem('doc_a', COMPLETE),
				verifiedItem('doc_b', NO_LINES),
				verifiedItem('doc_c', {
					...COMPLETE,
					header: { vendor: null, date: '2026-03-15', invoice_no: null },
				}),
				verifiedItem('doc_d', {
					...NO_LINES,
					line_items: [{ description: 'x', quantity: 1, unit_price: 1500 }],
				}),
			],
		});
		const [fresh, duplicates, notReady] = result.outputs();
		expect(route(fresh)).toEqual([['doc_a', true, { item: 0 }]]);
		expect(route(notReady)).toEqual([
			['doc_b', false, { item: 1 }],
			['doc_c', false, { item: 2 }],
		]);
		expect(notReady[1].json.not_ready_because).toEqual([
			expect.stringMatching(/vendor is missing/),
			expect.stringMatching(/invoice number is missing/),
		]);
		// Same vendor, number and total as doc_b: a duplicate stays a duplicate, ready or not.
		expect(route(duplicates)).toEqual([['doc_d', false, { item: 3 }]]);
	});

	it('Continue On Fail: a failed item on Possible Duplicate, paired and not ready; nothing on New Invoice', async () => {
		const result = await harness().run({
			parameters: checking,
			typeVersion: 1.1,
			continueOnFail: true,
			items: [{ json: { document_id: 'doc_r', status: 'rejected', vendor: 'A', invoice_no: '1' } }],
		});
		const [fresh, duplicates, notReady] = result.outputs();
		expect(fresh).toEqual([]);
		expect(notReady).toEqual([]);
		expect(duplicates.map((item) => [item.json.ready_to_post, item.pairedItem])).toEqual([
			[false, { item: 0 }],
		]);
	});
});
