/**
 * The same invoice seen again: an invoice this workflow already saw, arriving in another file (a PDF
 * and a scan of one invoice, a resent email), is recognised by its identity (vendor and invoice
 * number normalised, total as tie-breaker; see invoiceIdentity.ts) and comes out on Possible
 * Duplicate. Extract's Detect Same Invoice and the Check Invoice Duplicate operation share it: a run
 * claims the identities and document ids of all its invoices at once (memory/claims.ts,
 * docs/memory.md), so whichever node saw an invoice first, the other catches it.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { InvoiceIdentity } from '../../invoice/invoiceIdentity.ts';
import { describeMatch } from '../../invoice/invoiceIdentity.ts';
import { claimKeys } from '../../memory/claims.ts';

/** One verified invoice of a run: its identity and the document it came in. */
export interface SeenInvoice {
	identity: InvoiceIdentity;
	documentId: string | null;
}

/** Who saw the invoice first: an earlier run, another execution right now, or this run. */
export type FirstSeen =
	| { by: 'earlierRun'; sameDocument: boolean }
	| { by: 'concurrentRun' }
	| { by: 'thisRun'; documentId: string | null; sameDocument: boolean };

/** An invoice seen before, and who saw it first. */
export interface Sighting {
	identity: InvoiceIdentity;
	first: FirstSeen;
}

function documentKey(documentId: string): string {
	return `document:${documentId}`;
}

/** The keys one invoice is remembered by: its identity, and its document when it has one. */
export function invoiceKeys({ identity, documentId }: SeenInvoice): string[] {
	return documentId ? [identity.key, documentKey(documentId)] : [identity.key];
}

/**
 * Claims every invoice of the run at once and says, for each (same order), who saw it first;
 * undefined: this one. Within the run the first in input order is the one seen first.
 */
export async function firstSightings(
	context: IExecuteFunctions,
	invoices: SeenInvoice[],
): Promise<Array<FirstSeen | undefined>> {
	const keys = invoices.flatMap(invoiceKeys);
	const claimed = await claimKeys(context, keys, {
		message: 'Could not check whether these invoices were seen before',
		description: 'Run the execution again.',
		ifKept:
			'A retry may send these invoices to Possible Duplicate as already checked by this workflow: check there that they were not paid, then post them.',
	});
	const firstInRun = new Map<string, string | null>();
	return invoices.map(({ identity, documentId }): FirstSeen | undefined => {
		const sameDocument = documentId !== null && claimed.already.has(documentKey(documentId));
		if (claimed.concurrent.has(identity.key)) return { by: 'concurrentRun' };
		if (claimed.already.has(identity.key)) return { by: 'earlierRun', sameDocument };
		if (firstInRun.has(identity.key)) {
			const first = firstInRun.get(identity.key) ?? null;
			return { by: 'thisRun', documentId: first, sameDocument: first === documentId };
		}
		firstInRun.set(identity.key, documentId);
		return undefined;
	});
}

function duplicateMessage(documentId: string, first: FirstSeen, matched: string): string {
	const sameDocument = first.by !== 'concurrentRun' && first.sameDocument;
	if (sameDocument) {
		return `Document ${documentId} was already checked by this workflow (a repeated delivery, a retried execution, or a second check of one document); it is not passed on as new twice. If its first run did not post it, post it by hand.`;
	}
	if (first.by === 'thisRun' && first.documentId) {
		return `Document ${documentId} looks like the invoice of document ${first.documentId} in this run (${matched}); check before paying it again.`;
	}
	if (first.by === 'concurrentRun') {
		return `Document ${documentId} looks like an invoice another execution of this workflow checked at the same moment (${matched}); check before paying it again.`;
	}
	return `Document ${documentId} looks like an invoice this workflow saw before (${matched}); check before paying it again.`;
}

/** The fields a possible duplicate gets: the earlier document when known, what matched, what to do. */
export function possibleDuplicateFields(
	documentId: string | null,
	identity: InvoiceIdentity,
	first: FirstSeen,
): IDataObject {
	return {
		duplicate: true,
		possible_duplicate_of:
			first.by === 'thisRun'
				? first.documentId
				: first.by === 'earlierRun' && first.sameDocument
					? documentId
					: null,
		same_document: first.by !== 'concurrentRun' && first.sameDocument,
		matched: {
			vendor: identity.vendor,
			invoice_no: identity.invoice_no,
			total_cents: identity.total_cents,
		},
		message: duplicateMessage(documentId ?? 'without an ID', first, describeMatch(identity)),
	};
}
