/**
 * The invoice an input item carries, in any shape the package's nodes emit: the simplified or
 * split-line output of Extract, Wait for Review and the trigger (flat `vendor`, `invoice_no`,
 * `total`), Extract's raw output (`extracted_json`) and the trigger's raw output (`data`).
 */
import type { IDataObject } from 'n8n-workflow';

import { invoiceCurrency } from './invoiceCurrency.ts';
import type { SimplifiedInvoice } from './invoiceMapping.ts';
import { asNumber, simplifyInvoice } from './invoiceMapping.ts';
import type { ReadyToPost } from './readyToPost.ts';
import { readyToPost } from './readyToPost.ts';
import { jsonObject } from '../jsonObject.ts';

export interface InvoiceFields {
	vendor: string | null;
	invoice_no: string | null;
	total: number | null;
}

export interface ItemInvoice {
	document_id: string | null;
	/** verified, rejected, needs_review, …; null when the item does not say. */
	status: string | null;
	/** null when the item holds none of the shapes above. */
	invoice: InvoiceFields | null;
}

/** What an item must hold to be read, for error messages. */
export const EXPECTED_INVOICE_FIELDS =
	'"vendor" and "invoice_no" (and "total") as the simplified output of Extract, Wait for Review or the Document Extraction Trigger gives them, or the raw output\'s "extracted_json" (Extract) or "data" (trigger)';

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

const EVENT_STATUS: Record<string, string> = {
	'document.verified': 'verified',
	'document.rejected': 'rejected',
};

function statusOf(json: IDataObject): string | null {
	return (
		text(json.status) ??
		(typeof json.event === 'string' ? (EVENT_STATUS[json.event] ?? null) : null)
	);
}

function invoiceFields(json: IDataObject): InvoiceFields | null {
	const extracted = jsonObject(json.extracted_json) ?? jsonObject(json.data);
	if (extracted && (jsonObject(extracted.header) || jsonObject(extracted.amounts))) {
		const invoice = simplifyInvoice(extracted);
		return { vendor: invoice.vendor, invoice_no: invoice.invoice_no, total: invoice.total };
	}
	if ('vendor' in json || 'invoice_no' in json) {
		const invoiceNo =
			typeof json.invoice_no === 'number' ? String(json.invoice_no) : text(json.invoice_no);
		return { vendor: text(json.vendor), invoice_no: invoiceNo, total: asNumber(json.total) };
	}
	return null;
}

export function invoiceOfItem(json: IDataObject): ItemInvoice {
	return {
		document_id: text(json.document_id),
		status: statusOf(json),
		invoice: invoiceFields(json),
	};
}

/** The extracted-data object an item holds: the raw outputs' own, or rebuilt from Simplified's flat fields. */
function extractedOfItem(json: IDataObject): IDataObject | null {
	const extracted = jsonObject(json.extracted_json) ?? jsonObject(json.data);
	if (extracted && (jsonObject(extracted.header) || jsonObject(extracted.amounts)))
		return extracted;
	if (!Array.isArray(json.line_items)) return null;
	return {
		header: { vendor: json.vendor, date: json.invoice_date, invoice_no: json.invoice_no },
		amounts: { subtotal: json.subtotal, tax: json.tax, total: json.total },
		line_items: json.line_items,
		...(json.currency !== undefined ? { currency: json.currency } : {}),
	};
}

const SPLIT_ROW_WITHOUT_VERDICT =
	'The item holds one line of an invoice without its ready_to_post verdict, so the whole invoice cannot be checked: connect the Split Line Items output of Extract or the trigger directly, or use Output "Simplified".';
const NO_WHOLE_INVOICE =
	'The item does not hold the whole invoice (its line_items), so it cannot be checked: connect the output of Extract, Wait for Review or the Document Extraction Trigger directly, or map line_items too.';

/**
 * Currency and readiness of the invoice an item carries, computed again from what the item holds (a
 * step in between may have changed it), never readier than the item already said.
 */
export function readinessOfItem(json: IDataObject): ReadyToPost & { currency: string | null } {
	const status = statusOf(json);
	const extracted = extractedOfItem(json);
	const carriedReasons = Array.isArray(json.not_ready_because)
		? json.not_ready_because.filter((reason): reason is string => typeof reason === 'string')
		: [];
	let result: ReadyToPost & { currency: string | null };
	if (extracted) {
		result = {
			currency: invoiceCurrency(extracted).currency,
			...readyToPost(status, simplifyInvoice(extracted), extracted),
		};
	} else {
		// A Split Line Items row: one line only; its document's verdict travels on every row.
		const carriedReady =
			json.ready_to_post === true && carriedReasons.length === 0 && status === 'verified';
		const splitRow = typeof json.line_count === 'number';
		result = {
			currency: invoiceCurrency({ currency: json.currency }).currency,
			ready_to_post: carriedReady,
			not_ready_because: carriedReady
				? []
				: carriedReasons.length > 0
					? carriedReasons
					: [splitRow ? SPLIT_ROW_WITHOUT_VERDICT : NO_WHOLE_INVOICE],
		};
	}
	if (json.ready_to_post === false && result.ready_to_post) {
		const reasons =
			carriedReasons.length > 0
				? carriedReasons
				: ['An earlier step marked this invoice as not ready to post.'];
		result = { ...result, ready_to_post: false, not_ready_because: reasons };
	}
	return result;
}

/** The whole invoice an item carries, as the bill builders read it (bill/); null without its lines. */
export function billableOfItem(
	json: IDataObject,
): (SimplifiedInvoice & { document_id: string | null }) | null {
	const extracted = extractedOfItem(json);
	if (!extracted) return null;
	return {
		...simplifyInvoice(extracted),
		currency: invoiceCurrency(extracted).currency,
		document_id: text(json.document_id),
	};
}
