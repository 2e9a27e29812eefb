/**
 * Target QuickBooks Online: one transaction per ready invoice, a Bill or for a negative total a
 * VendorCredit. Expense lines carry an amount only, so quantity and unit price go into the
 * description; the tax is its own line on the tax account, so the lines add up to the invoice's
 * total to the cent. What does not fit where QuickBooks has room for it is kept whole in the private
 * note. Limits: docs/accounting.md#limits. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApprovalDecision } from './approval.ts';
import { approvalNote } from './approval.ts';
import { attachmentOf } from './attachment.ts';
import { billBuilder, isUnset, readyBill } from './builtBill.ts';
import type { CurrencySettings } from './currency.ts';
import type { ExactInvoice } from './exactInvoice.ts';
import {
	idempotencyKeys,
	QUICKBOOKS_DOC_NUMBER_MAX,
	QUICKBOOKS_LOOKUP_PAGE_SIZE,
	quickBooksLiteral,
	quickBooksLookupQuery,
	vendorIdempotencyKey,
} from './booksGuard.ts';
import { bookedQuantity } from './lineQuantity.ts';
import { fromCents, moneyText } from './money.ts';
import { addDays, oneLine, shorten } from './text.ts';

const QUICKBOOKS_ATTACHMENT_TYPES = [
	'ai',
	'csv',
	'doc',
	'docx',
	'eps',
	'gif',
	'jpeg',
	'jpg',
	'ods',
	'pages',
	'pdf',
	'png',
	'rtf',
	'tif',
	'txt',
	'xls',
	'xlsx',
	'xml',
] as const;

const DESCRIPTION_MAX = 4000;
const PRIVATE_NOTE_MAX = 4000;
const DISPLAY_NAME_MAX = 500;

export interface QuickBooksSettings extends CurrencySettings {
	/** The company the bill goes to (the realm id in the URL); undefined: not checked here. */
	companyId?: string;
	expenseAccountId: string;
	/** Needed for an invoice with tax: the tax line's account. */
	taxAccountId: string;
	paymentTermsDays?: number;
	/** Recorded first in the bill's private note (QuickBooks' "Memo"). */
	approval?: ApprovalDecision;
	/** The vendor's Id when known: the lookup reads only its bills. */
	vendorId?: string;
}

/** The settings this invoice's QuickBooks bill cannot be posted without, each with what to set. */
function missingQuickBooksSettings(exact: ExactInvoice, settings: QuickBooksSettings): string[] {
	const missing: string[] = [];
	if (settings.companyId !== undefined && isUnset(settings.companyId))
		missing.push("set Company ID in Build Bill (your QuickBooks company's realm id)");
	if (isUnset(settings.expenseAccountId))
		missing.push(
			'set Expense Account ID in Build Bill (the QuickBooks account the lines are booked to)',
		);
	if (exact.tax !== 0 && isUnset(settings.taxAccountId))
		missing.push(
			`set Tax Account ID in Build Bill: this invoice has tax (${moneyText(exact.sign * exact.tax)}), booked as its own line on that account`,
		);
	return missing;
}

const account = (value: string) => ({ value: String(value) });

export const buildQuickBooksBill = billBuilder<QuickBooksSettings>(
	({ base, exact }, invoice, settings, file) => {
		const note = approvalNote(settings.approval);
		// The decision first: QuickBooks shows the private note as the bill's Memo.
		const notes: string[] = note ? [note] : [];
		// Display names are one line without colons (QuickBooks refuses a colon, tab or line break).
		const vendorName = shorten(
			oneLine(String(invoice.vendor).replace(/:/g, ' ')),
			DISPLAY_NAME_MAX,
		);
		if (vendorName !== oneLine(invoice.vendor)) notes.push(`Vendor: ${oneLine(invoice.vendor)}`);
		const number = oneLine(invoice.invoice_no);
		if (number.length > QUICKBOOKS_DOC_NUMBER_MAX) notes.push(`Invoice number: ${number}`);
		const lines = quickBooksLines(exact, settings, notes);
		const attachment = attachmentOf(file, QUICKBOOKS_ATTACHMENT_TYPES, 'QuickBooks');
		if (!attachment.attach)
			notes.push(
				`Original not attached: ${attachment.note} (Document Extraction document ${String(invoice.document_id)}).`,
			);

		const transaction: IDataObject = {
			// Left out, QuickBooks books the company's home currency.
			...(base.currency ? { CurrencyRef: { value: base.currency } } : {}),
			Line: lines.map((line, index) => ({ LineNum: index + 1, ...line })),
			DocNumber: number.slice(0, QUICKBOOKS_DOC_NUMBER_MAX),
		};
		if (notes.length > 0) transaction.PrivateNote = shorten(notes.join('\n'), PRIVATE_NOTE_MAX);
		if (exact.date) {
			transaction.TxnDate = exact.date;
			if (!exact.creditNote && settings.paymentTermsDays !== undefined)
				transaction.DueDate = addDays(exact.date, settings.paymentTermsDays);
		}
		return readyBill(
			base,
			{
				...(settings.companyId !== undefined
					? { company_id: String(settings.companyId).trim() }
					: {}),
				entity: exact.creditNote ? 'vendorcredit' : 'bill',
				expected_total: fromCents(exact.total),
				vendor_name: vendorName,
				vendor_query: `select * from Vendor where DisplayName = ${quickBooksLiteral(vendorName)}`,
				bill: transaction,
				// Sent as requestid on each write: a retry writes nothing twice. The vendor's is per
				// vendor, so executions creating one new vendor at once converge on one.
				idempotency_keys: {
					vendor: vendorIdempotencyKey({
						company: settings.companyId,
						displayName: vendorName,
						currency: base.currency as string | null,
					}),
					...idempotencyKeys(
						'quickBooks',
						{
							organisation: settings.companyId,
							vendor: vendorName,
							invoice_no: number,
							creditNote: exact.creditNote,
						},
						['bill', 'attachment'],
					),
				},
				// The first page, filtered by the vendor when Vendor ID is set; lookup_page_size rows a page.
				lookup_query: quickBooksLookupQuery({
					creditNote: exact.creditNote,
					docNumber: number,
					vendorId: settings.vendorId || undefined,
				}),
				lookup_page_size: QUICKBOOKS_LOOKUP_PAGE_SIZE,
				approval_note: note,
			},
			attachment,
		);
	},
	missingQuickBooksSettings,
);

/** The expense lines, and the tax as its own line on the tax account; over-long text noted in `notes`. */
function quickBooksLines(
	exact: ExactInvoice,
	settings: QuickBooksSettings,
	notes: string[],
): IDataObject[] {
	const lines: IDataObject[] = exact.lines.map((line) => {
		const unitPrice = typeof line.unitPrice === 'number' ? exact.sign * line.unitPrice : null;
		const booked = bookedQuantity(line.quantity, unitPrice, line.cents);
		const printed = booked.printed ?? `${booked.quantity} × ${booked.unitPrice}`;
		const detail = printed ? ` (${printed})` : '';
		const description = `${line.description.trim() || '(no description)'}${detail}`;
		if (description.length > DESCRIPTION_MAX) notes.push(`Line ${line.number}: ${description}`);
		return {
			DetailType: 'AccountBasedExpenseLineDetail',
			Amount: fromCents(line.cents),
			Description: shorten(description, DESCRIPTION_MAX),
			AccountBasedExpenseLineDetail: { AccountRef: account(settings.expenseAccountId) },
		};
	});
	if (exact.tax !== 0) {
		lines.push({
			DetailType: 'AccountBasedExpenseLineDetail',
			Amount: fromCents(exact.tax),
			Description: 'Tax',
			AccountBasedExpenseLineDetail: { AccountRef: account(settings.taxAccountId) },
		});
	}
	return lines;
}
