import { describe, expect, it } from 'vitest';

import {
	asNumber,
	documentFields,
	invoiceOutput,
	simplifyInvoice,
} from '../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import {
	ALL_CHECKS_PASSED,
	EXTRACTED,
	EXTRACTED_SIMPLIFIED,
	NO_CHECKS_COMPUTED,
	NO_INVOICE,
} from '../../../harness/invoices.ts';

describe('asNumber', () => {
	it.each([
		[12.5, 12.5],
		[0, 0],
		[-3, -3],
		['12.50', 12.5],
		[' 7 ', 7],
		['0', 0],
	])('%j -> %j', (value, expected) => {
		expect(asNumber(value)).toBe(expected);
	});

	it.each<[unknown]>([
		[''],
		['  '],
		['12,50'],
		['abc'],
		[Number.NaN],
		[Infinity],
		[null],
		[undefined],
		[true],
		[{}],
	])('%j -> null', (value) => {
		expect(asNumber(value)).toBeNull();
	});

	it.each([
		['0.0372', 0.0372],
		['-12.5', -12.5],
		['1250', 1250],
		['1250.000', 1250],
		['0.372', 0.372],
		['12.5000', 12.5],
	])('plain decimal text %j -> %j', (value, expected) => {
		expect(asNumber(value)).toBe(expected);
	});

	// Text that could mean another number, or is no plain decimal: null, never a different number or 0.
	it.each([
		['1,234.56'],
		['1.234,56'],
		['1 234,56'],
		['1.250'],
		['-1.250'],
		['999.999'],
		['€ 12.50'],
		['12.50 EUR'],
		['1e3'],
		['0x10'],
		['+5'],
		['Infinity'],
		['.5'],
		['5.'],
	])('ambiguous or not plain %j -> null', (value) => {
		expect(asNumber(value)).toBeNull();
	});
});

/** The line items as simplifyInvoice maps them from the extracted `line_items`. */
const mapLineItems = (lines: unknown) => simplifyInvoice({ line_items: lines }).line_items;

describe('the line items', () => {
	it('keeps the spec fields, numbers as numbers, missing ones as null', () => {
		expect(
			mapLineItems([
				{ description: 'A', quantity: '2', unit_price: 1.5, amount: 3, extra: 'x' },
				{},
			]),
		).toEqual([
			{ description: 'A', quantity: 2, unit_price: 1.5, amount: 3 },
			{ description: null, quantity: null, unit_price: null, amount: null },
		]);
	});

	it('anything but an array is no lines; a non-object line is all null', () => {
		expect(mapLineItems(undefined)).toEqual([]);
		expect(mapLineItems({ 0: { amount: 1 } })).toEqual([]);
		expect(mapLineItems(['x', null, 5])).toEqual([
			{ description: null, quantity: null, unit_price: null, amount: null },
			{ description: null, quantity: null, unit_price: null, amount: null },
			{ description: null, quantity: null, unit_price: null, amount: null },
		]);
	});

	it('a numeric description becomes text', () => {
		expect(mapLineItems([{ description: 42 }])[0].description).toBe('42');
	});
});

describe('the checks', () => {
	/** The checks of EXTRACTED with `amounts` changed and `lines` as its line items. */
	const checksOf = (
		amounts: { subtotal?: number | null; tax?: number | null; total?: number | null } = {},
		lines: unknown = EXTRACTED.line_items,
	) => simplifyInvoice({ amounts: { ...EXTRACTED.amounts, ...amounts }, line_items: lines }).checks;

	it('all consistent: every check true', () => {
		expect(checksOf()).toEqual(ALL_CHECKS_PASSED);
	});

	it('tolerates a difference of one cent and floating-point noise, not two cents', () => {
		expect(checksOf({ total: 297.51 }).subtotal_plus_tax_equals_total).toBe(true);
		expect(checksOf({ total: 297.49 }).subtotal_plus_tax_equals_total).toBe(true);
		expect(checksOf({ total: 297.52 }).subtotal_plus_tax_equals_total).toBe(false);
		expect(
			checksOf({ subtotal: 0.1, tax: 0.2, total: 0.3 }, []).subtotal_plus_tax_equals_total,
		).toBe(true);
	});

	it('a wrong total fails its check and all_passed', () => {
		const checks = checksOf({ total: 300 });
		expect(checks.subtotal_plus_tax_equals_total).toBe(false);
		expect(checks.line_items_sum_equals_subtotal).toBe(true);
		expect(checks.all_passed).toBe(false);
	});

	it('lines that do not add up to the subtotal', () => {
		const checks = checksOf({ subtotal: 260, total: 307.5 });
		expect(checks.line_items_sum_equals_subtotal).toBe(false);
		expect(checks.subtotal_plus_tax_equals_total).toBe(true);
		expect(checks.all_passed).toBe(false);
	});

	it('a line whose quantity x unit price is not its amount', () => {
		const lines = [
			{ quantity: 10, unit_price: 5, amount: 50 },
			{ quantity: 3, unit_price: 100, amount: 200 },
		];
		expect(checksOf({}, lines).line_amounts_match).toBe(false);
	});

	it('checks that cannot be computed are null, and do not count', () => {
		expect(checksOf({ tax: null })).toEqual({
			subtotal_plus_tax_equals_total: null,
			line_items_sum_equals_subtotal: true,
			line_amounts_match: true,
			all_passed: true,
		});
		// A line without an amount: the sum cannot be checked.
		const checks = checksOf({}, [{ quantity: 1, unit_price: 250 }, { amount: 0 }]);
		expect(checks.line_items_sum_equals_subtotal).toBeNull();
		// Only complete lines are compared; here none is complete.
		expect(checks.line_amounts_match).toBeNull();
		expect(checks.all_passed).toBe(true);
	});

	it('no lines and no amounts: nothing to check, all_passed is null (not true)', () => {
		expect(checksOf({ subtotal: null, tax: null, total: null }, [])).toEqual(NO_CHECKS_COMPUTED);
	});

	it('zero amounts are values, not missing', () => {
		const checks = checksOf({ subtotal: 0, tax: 0, total: 0 }, [
			{ quantity: 0, unit_price: 9, amount: 0 },
		]);
		expect(checks).toEqual(ALL_CHECKS_PASSED);
	});
});

describe('simplifyInvoice', () => {
	it('flattens the extracted-data object', () => {
		expect(simplifyInvoice(EXTRACTED)).toEqual(EXTRACTED_SIMPLIFIED);
	});

	it.each([null, undefined, 'text', [], { header: 'x', amounts: [1] }])(
		'%j: every field null, no lines',
		(value) => {
			expect(simplifyInvoice(value)).toEqual(NO_INVOICE);
		},
	);

	it('numeric strings become numbers; a numeric invoice number stays as text', () => {
		const simplified = simplifyInvoice({
			header: { invoice_no: 1042 },
			amounts: { subtotal: '10.00', tax: '1.9', total: '11.90' },
		});
		expect(simplified).toMatchObject({ invoice_no: '1042', subtotal: 10, tax: 1.9, total: 11.9 });
		expect(simplified.checks.subtotal_plus_tax_equals_total).toBe(true);
	});
});

describe('documentFields and invoiceOutput', () => {
	const response = {
		success: true,
		status: 'verified',
		confidence: '0.97',
		document_id: 'doc_1',
		verified_by: 'ai_auto',
		extracted_json: EXTRACTED,
	};

	it("document fields under the service's names, null when absent", () => {
		expect(documentFields(response)).toEqual({
			document_id: 'doc_1',
			status: 'verified',
			confidence: 0.97,
			verified_by: 'ai_auto',
			review_id: null,
		});
		expect(documentFields({})).toEqual({
			document_id: null,
			status: null,
			confidence: null,
			verified_by: null,
			review_id: null,
		});
	});

	it('raw: the response as it came, with currency and readiness beside it', () => {
		const [item] = invoiceOutput('raw', response, documentFields(response), EXTRACTED);
		expect(item).toEqual({
			...response,
			currency: null,
			ready_to_post: true,
			not_ready_because: [],
		});
	});

	it('simplified: one item, document fields first, then the invoice, then its text for a message', () => {
		const items = invoiceOutput('simplified', response, documentFields(response), EXTRACTED);
		expect(items).toHaveLength(1);
		expect(Object.keys(items[0])).toEqual([
			'document_id',
			'status',
			'confidence',
			'verified_by',
			'review_id',
			'vendor',
			'invoice_date',
			'invoice_no',
			'currency',
			'subtotal',
			'tax',
			'total',
			'line_items',
			'checks',
			'ready_to_post',
			'not_ready_because',
			'summary',
			'summary_html',
			'lines_markdown',
			'lines_html',
		]);
	});

	it('split: one item per line with numbering; none -> one item with null line fields', () => {
		const items = invoiceOutput('splitLineItems', response, documentFields(response), EXTRACTED);
		expect(
			items.map((item) => [
				item.line_number,
				item.line_count,
				item.description,
				item.amount,
				item.vendor,
			]),
		).toEqual([
			[1, 3, 'Paper A4, 500 sheets', 50, 'Acme Supplies GmbH'],
			[2, 3, 'Toner cartridge', 150, 'Acme Supplies GmbH'],
			[3, 3, 'Delivery', 50, 'Acme Supplies GmbH'],
		]);
		expect(items[0]).not.toHaveProperty('line_items');

		const empty = invoiceOutput('splitLineItems', response, documentFields(response), null);
		expect(empty).toHaveLength(1);
		expect(empty[0]).toMatchObject({
			document_id: 'doc_1',
			line_number: null,
			line_count: 0,
			description: null,
			amount: null,
		});
	});
});
