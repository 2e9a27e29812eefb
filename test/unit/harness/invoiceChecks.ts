/** The invoice fields and `checks` of an output item, as the tests expect them (invoice/invoiceMapping.ts). */

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
