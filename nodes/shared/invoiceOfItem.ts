/**
 * The invoice an input item carries, in any shape the package's nodes emit: the simplified or
 * split-line output of Extract, Wait for Review and the trigger (flat `vendor`, `invoice_no`,
 * `total`), Extract's raw output (`extracted_json`) and the trigger's raw output (`data`).
 */
import type { IDataObject } from 'n8n-workflow';

import { asNumber, simplifyInvoice } from './invoiceMapping.ts';

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

function asObject(value: unknown): IDataObject | null {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : null;
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

const EVENT_STATUS: Record<string, string> = { 'document.verified': 'verified', 'document.rejected': 'rejected' };

function statusOf(json: IDataObject): string | null {
	return text(json.status) ?? (typeof json.event === 'string' ? (EVENT_STATUS[json.event] ?? null) : null);
}

function invoiceFields(json: IDataObject): InvoiceFields | null {
	const extracted = asObject(json.extracted_json) ?? asObject(json.data);
	if (extracted && (asObject(extracted.header) || asObject(extracted.amounts))) {
		const invoice = simplifyInvoice(extracted);
		return { vendor: invoice.vendor, invoice_no: invoice.invoice_no, total: invoice.total };
	}
	if ('vendor' in json || 'invoice_no' in json) {
		const invoiceNo = typeof json.invoice_no === 'number' ? String(json.invoice_no) : text(json.invoice_no);
		return { vendor: text(json.vendor), invoice_no: invoiceNo, total: asNumber(json.total) };
	}
	return null;
}

/** The item's document, its status and its invoice. */
export function invoiceOfItem(json: IDataObject): ItemInvoice {
	return { document_id: text(json.document_id), status: statusOf(json), invoice: invoiceFields(json) };
}
