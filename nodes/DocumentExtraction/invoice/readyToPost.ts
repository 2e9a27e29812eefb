/**
 * Ready to post (docs/spec-decisions.md#n15): whether an invoice can go into the books without a
 * person looking at it, and if not, why. Unknown is never ready: a check that could not be computed,
 * a missing or unreadable value, or a document that is not verified each keep the invoice back, with
 * one sentence per reason saying what is wrong and what a person should do.
 */
import type { IDataObject } from 'n8n-workflow';

import { invoiceCurrency } from './invoiceCurrency.ts';
import type { LineItem, SimplifiedInvoice } from './invoiceMapping.ts';
import { lineAmountMatches } from '../bill/money.ts';
import { fieldsOf, isPresent, jsonObject } from '../jsonObject.ts';

export interface ReadyToPost {
	ready_to_post: boolean;
	/** One sentence per reason; empty exactly when ready_to_post is true. */
	not_ready_because: string[];
}

/** The mapped invoice; its currency is judged from the extracted data (invoiceCurrency.ts). */
type InvoiceForReadiness = Omit<SimplifiedInvoice, 'currency'>;

/** The contract's date format, and a day that exists. */
function isInvoiceDate(value: string): boolean {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
	if (!match) return false;
	const [year, month, day] = match.slice(1).map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

/** "Line 3", "Lines 2, 5 and 7", "Lines 1, 2, … and 30 more". */
function lineList(numbers: number[]): string {
	if (numbers.length === 1) return `Line ${numbers[0]}`;
	const shown = numbers.slice(0, 10);
	const rest = numbers.length - shown.length;
	if (rest > 0) return `Lines ${shown.join(', ')} and ${rest} more`;
	return `Lines ${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const LINE_LABELS = { quantity: 'quantity', unit_price: 'unit price', amount: 'amount' } as const;

function notVerifiedReason(status: string | null): string {
	if (status === 'rejected')
		return 'The document was rejected in review: do not post it; check the original file with the supplier.';
	if (status === null)
		return 'The item does not say that the document is verified: post only invoices from the Verified output of Extract, Wait for Review or the Document Extraction Trigger.';
	return `The document is not verified (status "${status}"): wait for the review result (Wait for Review or the Document Extraction Trigger) before posting it.`;
}

function headerReasons(invoice: InvoiceForReadiness): string[] {
	const reasons: string[] = [];
	if (!isPresent(invoice.vendor))
		reasons.push('The vendor is missing: enter it from the original invoice before posting.');
	if (!isPresent(invoice.invoice_no))
		reasons.push(
			'The invoice number is missing: enter it from the original invoice before posting.',
		);
	if (!isPresent(invoice.invoice_date)) {
		reasons.push('The invoice date is missing: enter it from the original invoice before posting.');
	} else if (!isInvoiceDate(invoice.invoice_date as string)) {
		reasons.push(
			`The invoice date ${JSON.stringify(invoice.invoice_date)} is not a date of the form YYYY-MM-DD: enter it from the original invoice (day and month may be swapped).`,
		);
	}
	return reasons;
}

function amountReasons(invoice: InvoiceForReadiness, rawAmounts: IDataObject): string[] {
	const reasons: string[] = [];
	for (const field of ['subtotal', 'tax', 'total'] as const) {
		if (invoice[field] !== null) continue;
		const sent = rawAmounts[field];
		reasons.push(
			isPresent(sent)
				? `The ${field} ${JSON.stringify(sent)} could not be read as an exact number: enter it from the original invoice.`
				: `The ${field} is missing: enter it from the original invoice (a missing tax is 0 only if the invoice says so).`,
		);
	}
	return reasons;
}

function lineReasons(lines: LineItem[], rawLines: unknown[]): string[] {
	if (lines.length === 0) {
		return [
			'The invoice has no line items: enter its lines from the original invoice, so that they can be checked against the total.',
		];
	}
	const reasons: string[] = [];
	for (const field of ['quantity', 'unit_price', 'amount'] as const) {
		const missing: number[] = [];
		const unreadable: Array<{ number: number; sent: unknown }> = [];
		lines.forEach((line, index) => {
			if (line[field] !== null) return;
			const sent = jsonObject(rawLines[index])?.[field];
			if (isPresent(sent)) unreadable.push({ number: index + 1, sent });
			else missing.push(index + 1);
		});
		// A line with its amount books exactly as 1 × the amount (docs/spec-decisions.md#n42): only a
		// missing amount keeps the invoice back.
		if (missing.length > 0 && field === 'amount') {
			reasons.push(
				`${lineList(missing)}: the ${LINE_LABELS[field]} is missing; enter it from the original invoice.`,
			);
		}
		if (unreadable.length > 0) {
			const values = unreadable
				.slice(0, 3)
				.map(({ sent }) => JSON.stringify(sent))
				.join(', ');
			reasons.push(
				`${lineList(unreadable.map(({ number }) => number))}: the ${LINE_LABELS[field]} could not be read as an exact number (${values}${unreadable.length > 3 ? ', …' : ''}); enter it from the original invoice.`,
			);
		}
	}
	return reasons;
}

function checkReasons(invoice: InvoiceForReadiness): string[] {
	const { checks, subtotal, tax, total, line_items: lines } = invoice;
	const reasons: string[] = [];
	if (checks.subtotal_plus_tax_equals_total === false) {
		reasons.push(
			`Subtotal ${subtotal} + tax ${tax} does not equal the total ${total}: check the amounts against the original invoice.`,
		);
	}
	if (checks.line_items_sum_equals_subtotal === false) {
		const sum = lines.reduce((total, line) => total + (line.amount ?? 0), 0);
		reasons.push(
			`The line amounts add up to ${Math.round(sum * 100) / 100}, not to the subtotal ${subtotal}: a line may be missing or misread; check against the original invoice.`,
		);
	}
	if (checks.line_amounts_match === false) {
		const wrong = lines.flatMap((line, index) =>
			lineAmountMatches(line) === false ? [index + 1] : [],
		);
		reasons.push(
			`${lineList(wrong)}: quantity × unit price does not equal the line amount; check against the original invoice (a discount may be missing).`,
		);
	}
	return reasons;
}

/**
 * Readiness of one document's invoice. `status` is the document's status as the output item says it;
 * `invoice` is the mapped invoice (its checks computed), `extracted` the service's extracted-data
 * object it came from (null or absent when the service sent none), read only to tell a missing value
 * from one that was sent but could not be read.
 */
export function readyToPost(
	status: string | null,
	invoice: InvoiceForReadiness,
	extracted: unknown,
): ReadyToPost {
	const data = jsonObject(extracted);
	const reasons: string[] = [];
	if (status !== 'verified') reasons.push(notVerifiedReason(status));
	if (data === undefined) {
		if (status === 'verified')
			reasons.push(
				'The service sent no invoice data for this document: enter the invoice from the original file.',
			);
		return { ready_to_post: false, not_ready_because: reasons };
	}

	reasons.push(...headerReasons(invoice));
	reasons.push(...amountReasons(invoice, fieldsOf(data.amounts)));
	reasons.push(
		...lineReasons(invoice.line_items, Array.isArray(data.line_items) ? data.line_items : []),
	);
	reasons.push(...checkReasons(invoice));
	const currencyProblem = invoiceCurrency(data).problem;
	if (currencyProblem) reasons.push(currencyProblem);

	// Every check must be true. A check that could not be computed is explained by a missing value
	// above; should none be, it still holds the invoice back.
	// Lines that all carry only their amount leave nothing to multiply: that check has nothing to say.
	const amountsOnly =
		invoice.line_items.length > 0 &&
		invoice.line_items.every(
			(line) => line.amount !== null && (line.quantity === null || line.unit_price === null),
		);
	const uncomputed = Object.entries(invoice.checks).filter(
		([name, value]) =>
			name !== 'all_passed' && value === null && !(name === 'line_amounts_match' && amountsOnly),
	);
	if (uncomputed.length > 0 && reasons.length === 0) {
		reasons.push(
			`The check${uncomputed.length > 1 ? 's' : ''} ${uncomputed.map(([name]) => name).join(', ')} could not be computed: check the amounts against the original invoice.`,
		);
	}
	return { ready_to_post: reasons.length === 0, not_ready_because: reasons };
}
