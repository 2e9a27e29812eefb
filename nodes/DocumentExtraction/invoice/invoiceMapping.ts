/**
 * One mapping from the service's extracted-data object (extracted_json in responses, data in webhook
 * payloads) to flat, ready-to-map n8n fields. Used by the action node and the trigger alike.
 * Rules: numbers stay numbers, zero stays zero, a missing field is null (never dropped), an amount
 * sent as text becomes a number only when it cannot mean another number (docs/spec-decisions.md#n16).
 * Every item also says whether the invoice is ready to post (readyToPost.ts); Simplified items carry a
 * summary and line tables a message can show (invoiceSummary.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { invoiceCurrency } from './invoiceCurrency.ts';
import { invoiceSummary } from './invoiceSummary.ts';
import { readyToPost } from './readyToPost.ts';
import { lineAmountMatches, withinACent } from '../bill/money.ts';
import { fieldsOf } from '../jsonObject.ts';

export type OutputMode = 'simplified' | 'splitLineItems' | 'raw';

export interface LineItem {
	description: string | null;
	quantity: number | null;
	unit_price: number | null;
	amount: number | null;
}

export interface InvoiceChecks {
	/** subtotal + tax = total (within a cent). */
	subtotal_plus_tax_equals_total: boolean | null;
	/** The line amounts add up to the subtotal (within a cent). */
	line_items_sum_equals_subtotal: boolean | null;
	/** quantity x unit price = amount on every line (within a cent). */
	line_amounts_match: boolean | null;
	/** Every check that could be computed passed; null when none could be. */
	all_passed: boolean | null;
}

export interface SimplifiedInvoice {
	vendor: string | null;
	invoice_date: string | null;
	invoice_no: string | null;
	/** Three upper-case letters when the service sent a currency (docs/spec-decisions.md#n14), else null. */
	currency: string | null;
	subtotal: number | null;
	tax: number | null;
	total: number | null;
	line_items: LineItem[];
	checks: InvoiceChecks;
}

function asText(value: unknown): string | null {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return null;
}

/** Digits with at most a decimal point: "12.50", "-3", "0.0372". No sign "+", exponent, hex or grouping. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;
/** "1.250" is 1.25 in English and 1250 in German: a dot followed by exactly three digits after 1-3 digits. */
const GROUPING_LOOKALIKE = /^-?[1-9]\d{0,2}\.\d{3}$/;

/**
 * Numbers stay numbers; text becomes a number only when it is a plain decimal that cannot be read
 * another way ("12.50" → 12.5). Text with a thousands or decimal comma ("1,234.56", "1.234,56", "12,50"),
 * a dot that may group thousands ("1.250"), a currency sign, or anything else is null: never a number
 * that differs from the invoice, never 0 (docs/spec-decisions.md#n16).
 */
export function asNumber(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value !== 'string') return null;
	const text = value.trim();
	if (!PLAIN_DECIMAL.test(text) || GROUPING_LOOKALIKE.test(text)) return null;
	const parsed = Number(text);
	return Number.isFinite(parsed) ? parsed : null;
}

function mapLineItems(value: unknown): LineItem[] {
	if (!Array.isArray(value)) return [];
	return value.map((entry) => {
		const line = fieldsOf(entry);
		return {
			description: asText(line.description),
			quantity: asNumber(line.quantity),
			unit_price: asNumber(line.unit_price),
			amount: asNumber(line.amount),
		};
	});
}

function invoiceChecks(invoice: Omit<SimplifiedInvoice, 'checks' | 'currency'>): InvoiceChecks {
	const { subtotal, tax, total, line_items: lines } = invoice;

	const subtotalPlusTax =
		subtotal !== null && tax !== null && total !== null ? withinACent(subtotal + tax, total) : null;

	const amounts = lines.map((line) => line.amount);
	const lineSum =
		subtotal !== null && lines.length > 0 && amounts.every((amount) => amount !== null)
			? withinACent(
					(amounts as number[]).reduce((sum, amount) => sum + amount, 0),
					subtotal,
				)
			: null;

	const lineMatches = lines.map(lineAmountMatches).filter((match) => match !== null);
	const lineAmounts = lineMatches.length > 0 ? lineMatches.every(Boolean) : null;

	const computed = [subtotalPlusTax, lineSum, lineAmounts].filter((check) => check !== null);
	return {
		subtotal_plus_tax_equals_total: subtotalPlusTax,
		line_items_sum_equals_subtotal: lineSum,
		line_amounts_match: lineAmounts,
		all_passed: computed.length === 0 ? null : computed.every(Boolean),
	};
}

/** The extracted-data object as flat fields. Accepts anything: missing parts become null. */
export function simplifyInvoice(extracted: unknown): SimplifiedInvoice {
	const data = fieldsOf(extracted);
	const header = fieldsOf(data.header);
	const amounts = fieldsOf(data.amounts);
	const invoice = {
		vendor: asText(header.vendor),
		invoice_date: asText(header.date),
		invoice_no: asText(header.invoice_no),
		currency: invoiceCurrency(data).currency,
		subtotal: asNumber(amounts.subtotal),
		tax: asNumber(amounts.tax),
		total: asNumber(amounts.total),
		line_items: mapLineItems(data.line_items),
	};
	return { ...invoice, checks: invoiceChecks(invoice) };
}

/** Document fields shared by every output: the service's own names, null when absent. */
export function documentFields(response: IDataObject): IDataObject {
	return {
		document_id: asText(response.document_id),
		status: asText(response.status),
		confidence: asNumber(response.confidence),
		verified_by: asText(response.verified_by),
		review_id: asText(response.review_id),
	};
}

/**
 * Output items for one document. `extracted` is the extracted-data object when there is one
 * (null while a document waits for review: the invoice fields are then null).
 */
export function invoiceOutput(
	mode: OutputMode,
	raw: IDataObject,
	fields: IDataObject,
	extracted: unknown,
): IDataObject[] {
	const invoice = simplifyInvoice(extracted);
	const status = typeof fields.status === 'string' ? fields.status : null;
	const readiness = readyToPost(status, invoice, extracted);
	// Raw: the service's answer as it came, with the three fields a flow routes on beside it (docs/spec-decisions.md#n17).
	if (mode === 'raw') return [{ ...raw, currency: invoice.currency, ...readiness }];
	// Simplified alone carries the text a message shows: one item is one message (docs/spec-decisions.md#n43).
	if (mode === 'simplified')
		return [{ ...fields, ...invoice, ...readiness, ...invoiceSummary(invoice) }];

	// Split line items: one item per line, with the header and document fields on each. A document
	// without lines still yields one item, so nothing silently disappears from the flow.
	const { line_items: lines, ...header } = invoice;
	const rows: Array<LineItem | null> = lines.length > 0 ? lines : [null];
	return rows.map((line, index) => ({
		...fields,
		...header,
		line_number: line === null ? null : index + 1,
		line_count: lines.length,
		description: line?.description ?? null,
		quantity: line?.quantity ?? null,
		unit_price: line?.unit_price ?? null,
		amount: line?.amount ?? null,
		...readiness,
	}));
}
