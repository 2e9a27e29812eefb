/**
 * An invoice item (Simplified output of Extract, the trigger, Wait for Review or Check Invoice
 * Duplicate) in whole cents, checked to the cent: the lines add up to the subtotal, subtotal plus tax
 * is the total. A negative total is a credit note, its amounts booked with the sign turned. Whatever
 * keeps it from being booked exactly is a reason, in a sentence a person can act on. Pure.
 */
import { centsOf, moneyText } from './money.ts';
import { invoiceNumberIdentity } from './supplierIdentity.ts';
import { oneLine } from './text.ts';

export interface InvoiceLine {
	description?: unknown;
	quantity?: unknown;
	unit_price?: unknown;
	amount?: unknown;
}

export interface BillableInvoice {
	document_id?: unknown;
	vendor?: unknown;
	invoice_no?: unknown;
	invoice_date?: unknown;
	currency?: unknown;
	subtotal?: unknown;
	tax?: unknown;
	total?: unknown;
	line_items?: unknown;
}

export interface ExactLine {
	number: number;
	description: string;
	quantity: unknown;
	unitPrice: unknown;
	/** The line amount in cents, sign turned for a credit note. */
	cents: number;
}

export interface ExactInvoice {
	creditNote: boolean;
	/** -1 for a credit note: multiply the invoice's amounts by it. */
	sign: 1 | -1;
	lines: ExactLine[];
	subtotal: number;
	tax: number;
	total: number;
	date?: string;
}

export function exactInvoice(invoice: BillableInvoice): {
	exact: ExactInvoice;
	reasons: string[];
} {
	const reasons: string[] = [];
	const read = (amount: unknown, what: string): number => {
		const result = centsOf(amount, what);
		if (result.problem !== undefined) reasons.push(result.problem);
		return result.cents ?? 0;
	};
	const total = read(invoice.total, 'the total');
	const sign = total < 0 ? -1 : 1;
	const items = Array.isArray(invoice.line_items) ? (invoice.line_items as InvoiceLine[]) : [];
	const lines = items.map((line, index) => ({
		number: index + 1,
		description: String(line?.description ?? ''),
		quantity: line?.quantity,
		unitPrice: line?.unit_price,
		cents: sign * read(line?.amount, `the amount of line ${index + 1}`),
	}));
	const subtotal = sign * read(invoice.subtotal, 'the subtotal');
	const tax = sign * read(invoice.tax ?? 0, 'the tax');
	const lineSum = lines.reduce((sum, line) => sum + line.cents, 0);
	if (lines.length === 0) reasons.push('the invoice has no lines');
	if (reasons.length === 0 && lineSum !== subtotal)
		reasons.push(
			`the lines add up to ${moneyText(sign * lineSum)}, the subtotal is ${moneyText(sign * subtotal)}`,
		);
	if (reasons.length === 0 && subtotal + tax !== sign * total)
		reasons.push(
			`the subtotal ${moneyText(sign * subtotal)} plus tax ${moneyText(sign * tax)} is not the total ${moneyText(total)}`,
		);
	if (!oneLine(invoice.vendor)) reasons.push('no vendor name');
	if (!oneLine(invoice.invoice_no)) reasons.push('no invoice number');
	// A number that is no number would give every such invoice of the supplier one identity.
	else if (invoiceNumberIdentity(invoice.invoice_no) === null)
		reasons.push(
			`the invoice number (${JSON.stringify(oneLine(invoice.invoice_no))}) has no letter or digit: a person books it with the number the supplier uses`,
		);
	const date = invoice.invoice_date ? String(invoice.invoice_date) : undefined;
	if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date))
		reasons.push(`the date "${date}" is not YYYY-MM-DD`);
	return {
		exact: { creditNote: total < 0, sign, lines, subtotal, tax, total: sign * total, date },
		reasons,
	};
}
