/**
 * The approval decision a bill carries for its auditor: who decided and when, or that the invoice was
 * at or under the approval threshold. Each target puts it where its books show it (Xero: a History &
 * Notes entry; QuickBooks: the bill's private note, "Memo"). Pure.
 */
import { oneLine } from './text.ts';

export interface ApprovalDecision {
	/** The sentence to record; empty: made from `decidedBy` and `decidedAt`. */
	note?: string;
	/** Who approved (an email address, a name), or e.g. "under the threshold". */
	decidedBy?: string;
	/** When, as the workflow had it (an ISO date-time). */
	decidedAt?: string;
}

/** The decision as one line for the books, or null when the bill carries none. */
export function approvalNote(approval: ApprovalDecision | undefined): string | null {
	const note = oneLine(approval?.note);
	if (note) return note;
	const by = oneLine(approval?.decidedBy);
	const at = oneLine(approval?.decidedAt);
	if (!by) return at ? `Approved on ${at}` : null;
	return `Approved by ${by}${at ? ` on ${at}` : ''}`;
}
