/**
 * Target QuickBooks Online: one transaction per ready invoice, a Bill or for a negative total a
 * VendorCredit. Expense lines carry an amount only, so quantity and unit price go into the
 * description; the tax is its own line on the tax account, so the lines add up to the invoice's
 * total to the cent. What does not fit where QuickBooks has room for it is kept whole in the private
 * note. Limits: docs/accounting.md#limits. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { attachmentOf } from './attachment.ts';
import { billBuilder, readyBill } from './builtBill.ts';
import type { CurrencySettings } from './currency.ts';
import type { ExactInvoice } from './exactInvoice.ts';
import { bookedQuantity } from './lineQuantity.ts';
import { fromCents } from './money.ts';
import { addDays, oneLine, shorten } from './text.ts';

export const QUICKBOOKS_ATTACHMENT_TYPES = [
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
const DOC_NUMBER_MAX = 21;
const DISPLAY_NAME_MAX = 500;

export interface QuickBooksSettings extends CurrencySettings {
	expenseAccountId: string;
	taxAccountId: string;
	paymentTermsDays?: number;
}

const account = (value: string) => ({ value: String(value) });

export const buildQuickBooksBill = billBuilder<QuickBooksSettings>(
	({ base, exact }, invoice, settings, file) => {
		const notes: string[] = [];
		// Display names are one line without colons (QuickBooks refuses a colon, tab or line break).
		const vendorName = shorten(
			oneLine(String(invoice.vendor).replace(/:/g, ' ')),
			DISPLAY_NAME_MAX,
		);
		if (vendorName !== oneLine(invoice.vendor)) notes.push(`Vendor: ${oneLine(invoice.vendor)}`);
		const number = oneLine(invoice.invoice_no);
		if (number.length > DOC_NUMBER_MAX) notes.push(`Invoice number: ${number}`);
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
			DocNumber: number.slice(0, DOC_NUMBER_MAX),
		};
		if (notes.length > 0) transaction.PrivateNote = shorten(notes.join('\n'), PRIVATE_NOTE_MAX);
		if (exact.date) {
			transaction.TxnDate = exact.date;
			if (!exact.creditNote && settings.paymentTermsDays !== undefined)
				transaction.DueDate = addDays(exact.date, settings.paymentTermsDays);
		}
		const escaped = vendorName.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
		return readyBill(
			base,
			{
				entity: exact.creditNote ? 'vendorcredit' : 'bill',
				expected_total: fromCents(exact.total),
				vendor_name: vendorName,
				vendor_query: `select * from Vendor where DisplayName = '${escaped}'`,
				bill: transaction,
			},
			attachment,
		);
	},
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
