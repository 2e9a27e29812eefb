/**
 * Text a message can show as it is (an approval email, a Slack or Teams message): a one-line summary
 * of the invoice, as plain text and as HTML, and its lines as a small Markdown and HTML table. Built
 * only from the invoice's own fields: no document id, review id or anything else a person need not
 * see. Supplier text stays text in each (docs/spec-decisions.md#n43). Pure.
 */
import { oneLine } from '../bill/text.ts';
import { amountText, quantityText } from './amountText.ts';
import type { LineItem, SimplifiedInvoice } from './invoiceMapping.ts';

export interface InvoiceSummary {
	/**
	 * "Acme Supplies GmbH, INV-0042, 2026-11-02, EUR 1,487.50, 3 lines", plain text (a subject line, a
	 * plain-text body); null without invoice data.
	 */
	summary: string | null;
	/** The summary for an HTML body (an email, n8n's Send and Wait message or form), every text escaped. */
	summary_html: string | null;
	/** Description, quantity, unit price and amount per line; null when the invoice has no lines. */
	lines_markdown: string | null;
	/** The same table in HTML, every text escaped; null when the invoice has no lines. */
	lines_html: string | null;
}

/** A table cell longer than this is cut with "…": the whole text stays in line_items. */
const MAX_DESCRIPTION_LENGTH = 80;

/** One line: a description with line breaks or tabs would break a table row. */
function shortened(text: string): string {
	const line = oneLine(text);
	return line.length > MAX_DESCRIPTION_LENGTH
		? `${line.slice(0, MAX_DESCRIPTION_LENGTH - 1).trimEnd()}…`
		: line;
}

function hasInvoiceData(invoice: SimplifiedInvoice): boolean {
	return (
		[invoice.vendor, invoice.invoice_no, invoice.invoice_date, invoice.total].some(
			(value) => value !== null,
		) || invoice.line_items.length > 0
	);
}

function summaryOf(invoice: SimplifiedInvoice): string {
	const total =
		invoice.total === null
			? 'total unknown'
			: [invoice.currency, amountText(invoice.total)].filter((part) => part !== null).join(' ');
	const count = invoice.line_items.length;
	return [
		invoice.vendor === null ? 'vendor unknown' : oneLine(invoice.vendor),
		invoice.invoice_no === null ? 'no invoice number' : oneLine(invoice.invoice_no),
		invoice.invoice_date === null ? 'no date' : oneLine(invoice.invoice_date),
		total,
		`${count} ${count === 1 ? 'line' : 'lines'}`,
	].join(', ');
}

interface LineCells {
	description: string;
	quantity: string;
	unitPrice: string;
	amount: string;
}

function cellsOf(line: LineItem): LineCells {
	return {
		description: line.description === null ? '' : shortened(line.description),
		quantity: line.quantity === null ? '' : quantityText(line.quantity),
		unitPrice: line.unit_price === null ? '' : amountText(line.unit_price),
		amount: line.amount === null ? '' : amountText(line.amount),
	};
}

/**
 * Supplier text as text in a Markdown cell: a backslash before what Markdown reads as markup (a pipe
 * ends the cell, brackets make a link, stars and underscores emphasis), and a character reference
 * for what would start HTML or an entity, which Markdown renderers and HTML both show as the
 * character.
 */
function markdownCell(text: string): string {
	return text.replace(/[\\`*_[\]|~]/g, '\\$&').replace(/[&<>]/g, characterReference);
}

function markdownTable(lines: LineCells[]): string {
	return [
		'| Description | Quantity | Unit price | Amount |',
		'|---|--:|--:|--:|',
		...lines.map(
			(line) =>
				`| ${[line.description, line.quantity, line.unitPrice, line.amount].map(markdownCell).join(' | ')} |`,
		),
	].join('\n');
}

/**
 * A numeric character reference: every HTML renderer shows it as the character, and n8n's Send and
 * Wait message (n8n-nodes-base 2.41.1, getSendAndWaitConfig) turns the named ones it knows (&lt; &gt; &amp;
 * &quot; &#39;) back into characters before it puts the message into its email, so a named
 * reference would become live markup there again.
 */
function characterReference(character: string): string {
	return `&#x${character.codePointAt(0)!.toString(16).toUpperCase()};`;
}

/** Supplier text as text in HTML (in an element or an attribute). */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, characterReference);
}

/** Attributes rather than CSS: email clients keep them (many drop style sheets). */
const TABLE_OPEN =
	'<table border="1" cellpadding="4" cellspacing="0" style="border-collapse:collapse">';

function htmlTable(lines: LineCells[]): string {
	const header =
		'<tr><th align="left">Description</th><th align="right">Quantity</th>' +
		'<th align="right">Unit price</th><th align="right">Amount</th></tr>';
	const rows = lines.map(
		(line) =>
			`<tr><td>${escapeHtml(line.description)}</td>` +
			[line.quantity, line.unitPrice, line.amount]
				.map((text) => `<td align="right">${escapeHtml(text)}</td>`)
				.join('') +
			'</tr>',
	);
	return `${TABLE_OPEN}<thead>${header}</thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The summary and line tables of one invoice (Simplified output, docs/spec-decisions.md#n43). */
export function invoiceSummary(invoice: SimplifiedInvoice): InvoiceSummary {
	if (!hasInvoiceData(invoice))
		return { summary: null, summary_html: null, lines_markdown: null, lines_html: null };
	const lines = invoice.line_items.map(cellsOf);
	const summary = summaryOf(invoice);
	return {
		summary,
		summary_html: escapeHtml(summary),
		lines_markdown: lines.length > 0 ? markdownTable(lines) : null,
		lines_html: lines.length > 0 ? htmlTable(lines) : null,
	};
}
