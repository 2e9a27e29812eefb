/**
 * The extracted invoice the tests share (as the service returns it, and as the sandbox reads it from
 * a JSON file), and the simplified fields and checks of an output item as the tests expect them
 * (invoice/invoiceMapping.ts). No n8n here: the sandbox tests use it too.
 */

export const EXTRACTED = {
	header: { vendor: 'Acme Supplies GmbH', date: '2024-03-15', invoice_no: 'INV-2024-0042' },
	amounts: { subtotal: 250, tax: 47.5, total: 297.5 },
	line_items: [
		{ description: 'Paper A4, 500 sheets', quantity: 10, unit_price: 5, amount: 50 },
		{ description: 'Toner cartridge', quantity: 2, unit_price: 75, amount: 150 },
		{ description: 'Delivery', quantity: 1, unit_price: 50, amount: 50 },
	],
};

/** Every check passed. */
export const ALL_CHECKS_PASSED = {
	subtotal_plus_tax_equals_total: true,
	line_items_sum_equals_subtotal: true,
	line_amounts_match: true,
	all_passed: true,
};

/** No check could be computed (no invoice, or nothing to compare). */
export const NO_CHECKS_COMPUTED = {
	subtotal_plus_tax_equals_total: null,
	line_items_sum_equals_subtotal: null,
	line_amounts_match: null,
	all_passed: null,
};

/** The simplified invoice of a document without one (not extracted, or not an invoice). */
export const NO_INVOICE = {
	vendor: null,
	invoice_date: null,
	invoice_no: null,
	currency: null,
	subtotal: null,
	tax: null,
	total: null,
	line_items: [],
	checks: NO_CHECKS_COMPUTED,
};

/** The simplified fields of EXTRACTED. */
export const EXTRACTED_SIMPLIFIED = {
	vendor: 'Acme Supplies GmbH',
	invoice_date: '2024-03-15',
	invoice_no: 'INV-2024-0042',
	currency: null,
	subtotal: 250,
	tax: 47.5,
	total: 297.5,
	line_items: EXTRACTED.line_items,
	checks: ALL_CHECKS_PASSED,
};
