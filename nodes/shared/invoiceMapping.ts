/**
 * One mapping from the service's extracted-data object (extracted_json in responses, data in webhook
 * payloads) to flat, ready-to-map n8n fields. Used by the action node and the trigger alike.
 * Rules: numbers stay numbers, zero stays zero, a missing field is null (never dropped).
 */
import type { IDataObject } from 'n8n-workflow';

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
	subtotal: number | null;
	tax: number | null;
	total: number | null;
	line_items: LineItem[];
	checks: InvoiceChecks;
}

const CENT_TOLERANCE = 0.01 + 1e-9;

function asObject(value: unknown): IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : {};
}

function asText(value: unknown): string | null {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return null;
}

/** Numbers stay numbers; numeric strings ("12.50") become numbers; anything else is null. */
export function asNumber(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value === 'string' && value.trim() !== '') {
		const parsed = Number(value.trim());
		return Number.isFinite(parsed) ? parsed : null;
	}
	return null;
}

function withinACent(a: number, b: number): boolean {
	return Math.abs(a - b) <= CENT_TOLERANCE;
}

export function mapLineItems(value: unknown): LineItem[] {
	if (!Array.isArray(value)) return [];
	return value.map((entry) => {
		const line = asObject(entry);
		return {
			description: asText(line.description),
			quantity: asNumber(line.quantity),
			unit_price: asNumber(line.unit_price),
			amount: asNumber(line.amount),
		};
	});
}

export function invoiceChecks(invoice: Omit<SimplifiedInvoice, 'checks'>): InvoiceChecks {
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

	const computableLines = lines.filter(
		(line) => line.quantity !== null && line.unit_price !== null && line.amount !== null,
	);
	const lineAmounts =
		computableLines.length > 0
			? computableLines.every((line) =>
					withinACent((line.quantity as number) * (line.unit_price as number), line.amount as number),
				)
			: null;

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
	const data = asObject(extracted);
	const header = asObject(data.header);
	const amounts = asObject(data.amounts);
	const invoice = {
		vendor: asText(header.vendor),
		invoice_date: asText(header.date),
		invoice_no: asText(header.invoice_no),
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
	if (mode === 'raw') return [raw];
	const invoice = simplifyInvoice(extracted);
	if (mode === 'simplified') return [{ ...fields, ...invoice }];

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
	}));
}
