/**
 * The same invoice seen again: an invoice this workflow already saw, arriving in another file (a PDF
 * and a scan of one invoice, a resent email), is recognised by its identity (vendor and invoice
 * number normalised, total as tie-breaker; see invoiceIdentity.ts) and comes out on Possible
 * Duplicate. Extract's Detect Same Invoice and the Check Invoice Duplicate operation share it: whether
 * it was seen is claimed in n8n's deduplication store (keys "invoice:…"), the document it was is
 * remembered in the workflow's memory.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { InvoiceIdentity } from '../../invoice/invoiceIdentity.ts';
import { describeMatch } from '../../invoice/invoiceIdentity.ts';
import { claimInWorkflow } from '../../memory/claimedEntries.ts';
import { readEntry, writeEntry } from '../../memory/workflowMemory.ts';

const INVOICES_RECORD = 'documentExtractionInvoices';
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

/** Records the invoice as seen (with its document) and says whether it was seen before. */
export async function claimInvoice(
	context: IExecuteFunctions,
	identity: InvoiceIdentity,
	documentId: string | null,
	itemIndex: number,
	now = new Date(),
): Promise<SameInvoiceResult> {
	const outcome = await claimInWorkflow(context, itemIndex, identity.key, {
		message: 'Could not check whether this invoice was seen before',
		description: 'Run the execution again.',
	});
	const staticData = context.getWorkflowStaticData('global');
	if (!outcome.won) {
		return {
			duplicate: true,
			concurrent: outcome.concurrent,
			earlier: readEntry<EarlierInvoice>(staticData, INVOICES_RECORD, identity.key),
		};
	}
	if (documentId) {
		writeEntry(
			staticData,
			INVOICES_RECORD,
			identity.key,
			{ document_id: documentId, recorded_at: now.toISOString() },
			REMEMBERED_INVOICES,
		);
	}
	return { duplicate: false };
}

function duplicateMessage(
	documentId: string,
	earlier: EarlierInvoice | undefined,
	concurrent: boolean,
	matched: string,
): string {
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
		matched: {
			vendor: identity.vendor,
			invoice_no: identity.invoice_no,
			total_cents: identity.total_cents,
		},
		message: duplicateMessage(
			documentId ?? 'without an ID',
			earlier,
			concurrent,
			describeMatch(identity),
		),
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
