/**
 * Same-invoice guard: an invoice this workflow already saw, arriving again in another file (a PDF
 * and a scan of one invoice, a resent email), is recognised by its identity (vendor and invoice
 * number normalised, total as tie-breaker; see invoiceIdentity.ts). Extract's Detect Same Invoice
 * and the Check Invoice Duplicate operation share it: membership lives in n8n's deduplication store
 * next to the file-content guard (scope "workflow", keys "invoice:…"), claimed and confirmed as the
 * content is (docs/spec-decisions.md#n12); the earlier document_id is remembered in the workflow's static data, kept for
 * production runs.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { InvoiceIdentity } from '../../../shared/invoiceIdentity.ts';
import { describeMatch } from '../../../shared/invoiceIdentity.ts';
import { claimEntry, MAX_ROUNDS, nodeStore, nodeTiming } from './duplicateGuard.ts';

const STATIC_DATA_KEY = 'documentExtractionInvoices';
const REMEMBERED_INVOICES = 1000;

export interface EarlierInvoice {
	document_id: string;
	recorded_at: string;
}

export type SameInvoiceResult =
	| { duplicate: false }
	| {
			duplicate: true;
			/** Another execution of this workflow claimed the invoice while this one was claiming. */
			concurrent: boolean;
			earlier?: EarlierInvoice;
	  };

/** Reads without writing (see duplicateGuard.ts: touching static data makes n8n save this execution's copy). */
function rememberedInvoice(context: IExecuteFunctions, key: string): EarlierInvoice | undefined {
	const remembered = context.getWorkflowStaticData('global')[STATIC_DATA_KEY] as Record<string, EarlierInvoice> | undefined;
	return typeof remembered === 'object' && remembered !== null ? remembered[key] : undefined;
}

function rememberInvoice(context: IExecuteFunctions, key: string, documentId: string, now: Date): void {
	const staticData = context.getWorkflowStaticData('global');
	if (typeof staticData[STATIC_DATA_KEY] !== 'object' || staticData[STATIC_DATA_KEY] === null) {
		staticData[STATIC_DATA_KEY] = {};
	}
	const invoices = staticData[STATIC_DATA_KEY] as Record<string, EarlierInvoice> & IDataObject;
	invoices[key] = { document_id: documentId, recorded_at: now.toISOString() };
	const keys = Object.keys(invoices);
	for (const oldest of keys.slice(0, Math.max(0, keys.length - REMEMBERED_INVOICES))) delete invoices[oldest];
}

/** Records the invoice as seen (with its document) and says whether it was seen before. */
export async function claimInvoice(
	this: IExecuteFunctions,
	identity: InvoiceIdentity,
	documentId: string | null,
	itemIndex: number,
	now = new Date(),
): Promise<SameInvoiceResult> {
	const outcome = await claimEntry(nodeStore(this, itemIndex), identity.key, `claim:${identity.key}`, nodeTiming);
	if ('unsettled' in outcome) {
		throw new NodeOperationError(this.getNode(), 'Could not check whether this invoice was seen before', {
			itemIndex,
			description: `n8n's deduplication store kept changing under concurrent executions for ${MAX_ROUNDS} rounds. Run the execution again.`,
		});
	}
	if (!outcome.won) return { duplicate: true, concurrent: outcome.concurrent, earlier: rememberedInvoice(this, identity.key) };
	if (documentId) rememberInvoice(this, identity.key, documentId, now);
	return { duplicate: false };
}

function duplicateMessage(documentId: string, earlier: EarlierInvoice | undefined, concurrent: boolean, matched: string): string {
	if (earlier?.document_id === documentId) {
		return `Document ${documentId} was already checked by this workflow on ${earlier.recorded_at} (a repeated delivery, a retried execution, or a second check of one document); it is not passed on as new twice. If its first run did not post it, post it by hand.`;
	}
	if (earlier) {
		return `Document ${documentId} looks like the invoice of document ${earlier.document_id} (${matched}); check before paying it again.`;
	}
	if (concurrent) {
		return `Document ${documentId} looks like an invoice another execution of this workflow checked at the same moment (${matched}); check before paying it again.`;
	}
	return `Document ${documentId} looks like an invoice this workflow saw before (${matched}); check before paying it again.`;
}

/** The fields a possible duplicate gets: the earlier document, what matched, and what to do. */
export function possibleDuplicateFields(
	documentId: string | null,
	identity: InvoiceIdentity,
	claim: { concurrent: boolean; earlier?: EarlierInvoice },
): IDataObject {
	const { earlier, concurrent } = claim;
	return {
		duplicate: true,
		possible_duplicate_of: earlier?.document_id ?? null,
		same_document: documentId !== null && earlier?.document_id === documentId,
		first_seen_at: earlier?.recorded_at ?? null,
		matched: { vendor: identity.vendor, invoice_no: identity.invoice_no, total_cents: identity.total_cents },
		message: duplicateMessage(documentId ?? 'without an ID', earlier, concurrent, describeMatch(identity)),
	};
}

/** Extract's output item of a possible duplicate: this document's fields and the duplicate fields. */
export function possibleDuplicateItem(
	fields: IDataObject,
	identity: InvoiceIdentity,
	claim: { concurrent: boolean; earlier?: EarlierInvoice },
): IDataObject {
	const documentId = typeof fields.document_id === 'string' ? fields.document_id : null;
	return { ...fields, ...possibleDuplicateFields(documentId, identity, claim) };
}
