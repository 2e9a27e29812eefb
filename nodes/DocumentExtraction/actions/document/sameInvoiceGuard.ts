/**
 * Same-invoice guard: an invoice this workflow already extracted, arriving again in another file
 * (a PDF and a scan of one invoice, a resent email), is recognised by its identity (vendor and
 * invoice number normalised, total as tie-breaker; see invoiceIdentity.ts). Membership lives in
 * n8n's deduplication store next to the file-content guard (scope "workflow", keys "invoice:…");
 * the earlier document_id is remembered in the workflow's static data, kept for production runs.
 */
import type { ICheckProcessedOptions, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { InvoiceIdentity } from '../../../shared/invoiceIdentity.ts';
import { describeMatch } from '../../../shared/invoiceIdentity.ts';

const SCOPE = 'workflow';
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };
const STATIC_DATA_KEY = 'documentExtractionInvoices';
const REMEMBERED_INVOICES = 1000;

export interface EarlierInvoice {
	document_id: string;
	recorded_at: string;
}

export type SameInvoiceResult = { duplicate: false } | { duplicate: true; earlier?: EarlierInvoice };

function remembered(context: IExecuteFunctions): Record<string, EarlierInvoice> {
	const staticData = context.getWorkflowStaticData('global');
	if (typeof staticData[STATIC_DATA_KEY] !== 'object' || staticData[STATIC_DATA_KEY] === null) {
		staticData[STATIC_DATA_KEY] = {};
	}
	return staticData[STATIC_DATA_KEY] as Record<string, EarlierInvoice> & IDataObject;
}

/** Records the invoice as seen (with its document) and says whether it was seen before. */
export async function claimInvoice(
	this: IExecuteFunctions,
	identity: InvoiceIdentity,
	documentId: string | null,
	now = new Date(),
): Promise<SameInvoiceResult> {
	const result = await this.helpers.checkProcessedAndRecord([identity.key], SCOPE, STORE_OPTIONS);
	const invoices = remembered(this);
	if (result.new.length === 0) return { duplicate: true, earlier: invoices[identity.key] };
	if (documentId) {
		invoices[identity.key] = { document_id: documentId, recorded_at: now.toISOString() };
		const keys = Object.keys(invoices);
		for (const oldest of keys.slice(0, Math.max(0, keys.length - REMEMBERED_INVOICES))) delete invoices[oldest];
	}
	return { duplicate: false };
}

/** The output item of a possible duplicate: this document, the earlier one, and what matched. */
export function possibleDuplicateItem(
	fields: IDataObject,
	identity: InvoiceIdentity,
	earlier: EarlierInvoice | undefined,
): IDataObject {
	const matched = describeMatch(identity);
	return {
		...fields,
		duplicate: true,
		possible_duplicate_of: earlier?.document_id ?? null,
		first_seen_at: earlier?.recorded_at ?? null,
		matched: { vendor: identity.vendor, invoice_no: identity.invoice_no, total_cents: identity.total_cents },
		message: earlier
			? `Document ${String(fields.document_id)} looks like the invoice of document ${earlier.document_id} (${matched}); check before paying it again.`
			: `Document ${String(fields.document_id)} looks like an invoice this workflow saw before (${matched}); check before paying it again.`,
	};
}
