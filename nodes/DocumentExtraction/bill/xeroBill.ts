/**
 * Target Xero: one document per ready invoice, a bill (ACCPAY, POST /Invoices) or for a negative
 * total a supplier credit note (ACCPAYCREDIT, POST /CreditNotes), to be sent with `unitdp=4`. A line
 * keeps its quantity and unit price only when Xero, recomputing quantity × unit price, gets the line
 * amount to the cent; otherwise it is 1 × the amount with the quantity and price in the description.
 * The tax is spread over the lines by largest remainder. Limits: docs/accounting.md#limits. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApprovalDecision } from './approval.ts';
import { approvalNote } from './approval.ts';
import { attachmentOf } from './attachment.ts';
import { billBuilder, isUnset, readyBill } from './builtBill.ts';
import type { CurrencySettings } from './currency.ts';
import type { ExactInvoice } from './exactInvoice.ts';
import { idempotencyKeys, xeroLookupWhere } from './booksGuard.ts';
import { bookedQuantity } from './lineQuantity.ts';
import { fromCents, spreadTax } from './money.ts';
import { addDays, oneLine, shorten } from './text.ts';

const XERO_ATTACHMENT_TYPES = [
	'7z',
	'bmp',
	'csv',
	'doc',
	'docx',
	'eml',
	'gif',
	'jpeg',
	'jpg',
	'keynote',
	'msg',
	'numbers',
	'odf',
	'ods',
	'odt',
	'pages',
	'pdf',
	'png',
	'ppt',
	'pptx',
	'rar',
	'rtf',
	'tif',
	'tiff',
	'txt',
	'xls',
	'xlsx',
	'zip',
] as const;

const DESCRIPTION_MAX = 4000;
const NAME_MAX = 255;
const NUMBER_MAX = 255;
/** A History & Notes entry ("Details", developer.xero.com/documentation/api/history-and-notes). */
const HISTORY_NOTE_MAX = 250;

export interface XeroSettings extends CurrencySettings {
	/** The organisation the bill goes to (the xero-tenant-id header); undefined: not checked here. */
	tenantId?: string;
	accountCode: string;
	/** Empty: Xero's default tax type of the account. */
	taxType?: string;
	/** DRAFT, SUBMITTED or AUTHORISED. */
	status: string;
	/** Due date = invoice date + this many days; undefined: none. */
	paymentTermsDays?: number;
	/** Recorded on the bill as a History & Notes entry. */
	approval?: ApprovalDecision;
}

/** The settings a Xero bill cannot be posted without, each with what to set. */
function missingXeroSettings(_exact: ExactInvoice, settings: XeroSettings): string[] {
	const missing: string[] = [];
	if (settings.tenantId !== undefined && isUnset(settings.tenantId))
		missing.push("set Tenant ID in Build Bill (your Xero organisation's tenant id)");
	if (isUnset(settings.accountCode))
		missing.push(
			'set Account Code in Build Bill (the Xero expense account the lines are booked to)',
		);
	return missing;
}

export const buildXeroBill = billBuilder<XeroSettings>(
	({ base, exact }, invoice, settings, file) => {
		const lines = xeroLines(exact, settings);
		const taxShares = spreadTax(
			exact.tax,
			exact.lines.map((line) => line.cents),
		);
		const withTax = exact.tax !== 0;
		const contactName = shorten(oneLine(invoice.vendor), NAME_MAX);
		const document: IDataObject = {
			Type: exact.creditNote ? 'ACCPAYCREDIT' : 'ACCPAY',
			Contact: { Name: contactName },
			// Left out, Xero books the organisation's base currency.
			...(base.currency ? { CurrencyCode: base.currency } : {}),
			LineAmountTypes: withTax ? 'Exclusive' : 'NoTax',
			Status: String(settings.status),
			LineItems: lines.map((line, index) => ({
				...line,
				...(withTax ? { TaxAmount: fromCents(taxShares[index]) } : {}),
				...(settings.taxType ? { TaxType: String(settings.taxType) } : {}),
			})),
		};
		const number = shorten(oneLine(invoice.invoice_no), NUMBER_MAX);
		if (exact.creditNote) document.CreditNoteNumber = number;
		else document.InvoiceNumber = number;
		// Xero dates a document without a Date itself; DueDate follows the payment terms (bills only).
		if (exact.date) document.Date = exact.date;
		if (!exact.creditNote && exact.date && settings.paymentTermsDays !== undefined)
			document.DueDate = addDays(exact.date, settings.paymentTermsDays);

		const attachment = attachmentOf(file, XERO_ATTACHMENT_TYPES, 'Xero');
		const endpoint = exact.creditNote ? 'CreditNotes' : 'Invoices';
		const note = approvalNote(settings.approval);
		return readyBill(
			base,
			{
				...(settings.tenantId !== undefined ? { tenant_id: String(settings.tenantId).trim() } : {}),
				endpoint,
				expected: {
					subtotal: fromCents(exact.subtotal),
					tax: fromCents(exact.tax),
					total: fromCents(exact.total),
				},
				xero_request: { [endpoint]: [document] },
				// Sent as Idempotency-Key on the create, the attachment and the note: a retry writes nothing twice.
				idempotency_keys: idempotencyKeys(
					'xero',
					{
						organisation: settings.tenantId,
						vendor: contactName,
						invoice_no: number,
						creditNote: exact.creditNote,
					},
					['bill', 'attachment', 'history'],
				),
				lookup_where: xeroLookupWhere(exact.creditNote, contactName, number),
				approval_note: note,
				// PUT /{endpoint}/{id}/History once the bill exists: Xero shows it under History & Notes.
				xero_history: note
					? { HistoryRecords: [{ Details: shorten(note, HISTORY_NOTE_MAX) }] }
					: null,
			},
			attachment,
		);
	},
	missingXeroSettings,
);

/** Each line as Xero books it: quantity × unit price when Xero gets the line amount from it, else 1 × the amount. */
function xeroLines(exact: ExactInvoice, settings: XeroSettings) {
	return exact.lines.map((line) => {
		const unitPrice = typeof line.unitPrice === 'number' ? exact.sign * line.unitPrice : null;
		const booked = bookedQuantity(line.quantity, unitPrice, line.cents);
		const detail = booked.printed ? ` (${booked.printed})` : '';
		return {
			Description: shorten(
				`${line.description.trim() || '(no description)'}${detail}`,
				DESCRIPTION_MAX,
			),
			Quantity: booked.quantity ?? 1,
			UnitAmount: booked.unitPrice ?? fromCents(line.cents),
			AccountCode: String(settings.accountCode),
			LineAmount: fromCents(line.cents),
		};
	});
}
