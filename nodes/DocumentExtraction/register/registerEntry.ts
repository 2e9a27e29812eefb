/**
 * What the invoice register says of an invoice whose execution ends (docs/accounting.md#register-states),
 * decided from the item that reached the end, whichever way it came: the outcome of each package
 * operation that routes (Extract, Check Invoice Duplicate, Build Bill, Judge Books Answer, Next Approval
 * Step) describes itself. A register row (the look-up of the earlier file or invoice) or an empty item
 * is read with the invoice the execution is about. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldsOf } from '../jsonObject.ts';

export interface RegisterEntryInput {
	/** The item that reached the end. */
	item: IDataObject;
	/** The invoice this execution is about, where the item is not it (a look-up's row, the books' answer). */
	invoice: IDataObject;
	/** The last approval step's `approval` (Next Approval Step); empty when none ran. */
	approval: IDataObject;
	/** Judge Books Answer's item for the create; empty when no bill was created. */
	bookedBill: IDataObject;
	/** The books' name as people say it: Xero, QuickBooks. */
	books: string;
}

export interface RegisterEntry {
	state: string;
	detail: string;
	document_id: string;
	/** The file's name, as Extract read it (before an invoice is read, the only name it has). */
	file_name: string;
	supplier: string;
	invoice_no: string;
	invoice_date: string;
	total: string;
	currency: string;
	supplier_key: string;
	number_key: string;
	bill_id: string;
	duplicate_of: string;
	decision: string;
	decided_by: string;
	decided_at: string;
	escalated_to: string;
	approval_note: string;
	original_attached: boolean;
}

/** The register's `detail` column holds at most this many characters. */
const DETAIL_LENGTH = 500;

const text = (value: unknown): string =>
	value === undefined || value === null ? '' : typeof value === 'object' ? '' : String(value);

/** A row of the invoice register, as a look-up returns it. */
function isRegisterRow(item: IDataObject): boolean {
	return typeof item.register_key === 'string' && 'state' in item;
}

interface Outcome {
	state: string;
	detail: string;
	bill_id?: string;
	duplicate_of?: string;
	/** The item holding the invoice's own fields, where it is not the invoice given. */
	source?: IDataObject;
}

/** "; earlier: execution 41, booked, bill B-1": the earlier row a repeat names, if the look-up found one. */
function earlierRow(row: IDataObject): string {
	if (!text(row.register_key)) return '';
	const bill = text(row.bill_id) ? `, bill ${text(row.bill_id)}` : '';
	return `; earlier: execution ${text(row.register_key)}, ${text(row.state) || 'no state yet'}${bill}`;
}

/** What Extract or Check Invoice Duplicate said of the invoice, when it stopped there. */
function checkOutcome(item: IDataObject, earlier: IDataObject): Outcome | null {
	const repeat = { bill_id: text(earlier.bill_id), duplicate_of: text(earlier.register_key) };
	if (item.status === 'already_submitted') {
		const document = text(item.document_id) ? ` (document ${text(item.document_id)})` : '';
		return {
			state: 'already submitted',
			detail: `The same file was sent before${document}: nothing uploaded, nothing booked${earlierRow(earlier)}`,
			...repeat,
		};
	}
	if (item.possible_duplicate_of !== undefined || item.duplicate === true) {
		const of = text(item.possible_duplicate_of) || 'not known';
		return {
			state: 'possible duplicate',
			detail: `${text(item.message) || 'The same invoice was seen before'} (earlier document ${of}): not booked twice${earlierRow(earlier)}`,
			...repeat,
		};
	}
	if (item.status === 'rejected')
		return {
			state: 'rejected in review',
			detail:
				text(item.rejection_reason) ||
				text(item.review_reason) ||
				'The reviewer rejected the document',
		};
	if (item.timed_out === true)
		return {
			state: 'review not finished',
			detail:
				'No review result within the wait; the document is still with the service (Get Status on its document_id)',
		};
	if (item.skipped_because !== undefined)
		return { state: 'not an invoice', detail: text(item.skipped_because) };
	if (item.ready_to_post === false) {
		const reasons = Array.isArray(item.not_ready_because) ? item.not_ready_because : [];
		return { state: 'not ready to post', detail: reasons.map(text).join(' ') };
	}
	return null;
}

function outcomeOf(
	item: IDataObject,
	approval: IDataObject,
	{ invoice, bookedBill, books }: RegisterEntryInput,
): Outcome {
	if (typeof item.outcome === 'string')
		return { state: item.outcome, detail: text(item.reason), source: item };
	const found = fieldsOf(item.books_bill);
	switch (item.verdict) {
		case 'alreadyBooked':
			return {
				state: 'already in the books',
				detail: `${books} already has this supplier's bill ${text(found.number)} (id ${text(found.id)}, status ${text(found.status)}): nothing booked again`,
				bill_id: text(found.id),
				source: item,
			};
		case 'personDecides':
		case 'accountRefused':
		case 'booksRefused':
			return {
				state: 'a person decides',
				detail: text(item.review_reason),
				bill_id: text(found.id),
				source: item,
			};
		case 'created':
			return booked(item, {});
	}
	if (bookedBill.verdict === 'created') return booked(bookedBill, item);
	if (approval.status === 'rejected' || approval.status === 'no_decision')
		return {
			state: approval.status === 'rejected' ? 'rejected' : 'no decision',
			detail: text(approval.reason),
		};
	const checked = checkOutcome(item, {});
	if (checked) return { ...checked, source: item };
	if (typeof item.review_reason === 'string')
		return { state: 'cannot be booked', detail: item.review_reason, source: item };
	// A look-up's row or nothing: the invoice says why the execution stopped; the row is the earlier one.
	const earlier = isRegisterRow(item) ? item : {};
	return (
		checkOutcome(invoice, earlier) ?? {
			state: 'a person decides',
			detail:
				'The register could not tell how this invoice ended: open the execution to see where it stopped',
		}
	);
}

/** A bill the books created; the item after it is the books' answer to attaching the original. */
function booked(bill: IDataObject, attachAnswer: IDataObject): Outcome {
	const failure = attachAnswer.error;
	const failed =
		failure === undefined
			? ''
			: `attaching the original failed: ${text(fieldsOf(failure).message) || text(failure) || JSON.stringify(failure)}`;
	return {
		state: 'booked',
		detail: text(bill.attachment_note) || failed,
		bill_id: text(fieldsOf(bill.books_bill).id),
		source: bill,
	};
}

/** The register row's fields for the invoice whose execution ends with `input.item`. */
export function registerEntry(input: RegisterEntryInput): RegisterEntry {
	const { item } = input;
	// The approval on the item (the loop's end) is the newest; else the last step the template names.
	const approval = Object.keys(fieldsOf(item.approval)).length
		? fieldsOf(item.approval)
		: input.approval;
	const outcome = outcomeOf(item, approval, input);
	const own = outcome.source ?? {};
	const field = (name: string) => text(own[name]) || text(input.invoice[name]);
	const given =
		outcome.state === 'booked' || outcome.state === 'rejected' || outcome.state === 'no decision';
	const decidedBy = given ? text(approval.decided_by) : '';
	return {
		state: outcome.state,
		detail: outcome.detail.slice(0, DETAIL_LENGTH),
		document_id: field('document_id'),
		file_name: field('file_name'),
		supplier: field('vendor'),
		invoice_no: field('invoice_no'),
		invoice_date: field('invoice_date'),
		total: field('total'),
		currency: field('currency'),
		supplier_key: field('supplier_key'),
		number_key: field('number_key'),
		bill_id: outcome.bill_id ?? '',
		duplicate_of: outcome.duplicate_of ?? '',
		decision: decisionOf(outcome.state, approval),
		decided_by: decidedBy || (outcome.state === 'booked' ? 'no approval needed' : ''),
		decided_at: given ? text(approval.decided_at) : '',
		escalated_to:
			given && approval.escalated === true ? text(fieldsOf(approval.escalate_to).email) : '',
		approval_note: outcome.state === 'booked' ? text(approval.note) : '',
		original_attached:
			outcome.state === 'booked' && input.bookedBill.attach === true && item.error === undefined,
	};
}

function decisionOf(state: string, approval: IDataObject): string {
	if (state === 'rejected' || state === 'no decision') return state;
	if (state !== 'booked') return '';
	return Number(approval.steps) > 0 ? 'approved' : 'no approval needed';
}

/** n8n keeps at most 255 characters of an execution's custom data value. */
const CUSTOM_DATA_LENGTH = 255;

/** How the execution list shows an invoice's end: its custom data (filterable under Executions). */
export function executionRecord(entry: RegisterEntry): Record<string, string> {
	const record: Record<string, string> = {
		outcome: entry.state,
		// The file's name where nothing was read from it (a repeated file, a logo).
		invoice: [entry.supplier, entry.invoice_no].filter(Boolean).join(' ') || entry.file_name,
		document_id: entry.document_id,
		decision: entry.decision,
		decided_by: entry.decided_by,
		decided_at: entry.decided_at,
		escalated_to: entry.escalated_to,
		reason: entry.detail,
	};
	return Object.fromEntries(
		Object.entries(record).map(([key, value]) => [key, value.slice(0, CUSTOM_DATA_LENGTH)]),
	);
}
