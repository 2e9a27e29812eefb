/**
 * What a target makes of one invoice item: the request to post, or the reasons it cannot be booked;
 * and the first step every target shares (the currency and the exact invoice, checked).
 */
import type { IDataObject } from 'n8n-workflow';

import type { AttachmentDecision, OriginalFile } from './attachment.ts';
import { billCurrency, type CurrencySettings } from './currency.ts';
import { exactInvoice, type BillableInvoice, type ExactInvoice } from './exactInvoice.ts';
import { supplierIdentity } from './supplierIdentity.ts';

export type BuiltBill =
	/** `attach`: the original file goes on with the item for the attachment request. */
	| { ready: true; json: IDataObject; attach: boolean }
	| { ready: false; json: IDataObject; attach?: undefined };

/** The invoice checked for any target: its identity and currency, the exact amounts, the reasons. */
export interface CheckedInvoice {
	base: IDataObject;
	exact: ExactInvoice;
	reasons: string[];
}

function checkedInvoice(invoice: BillableInvoice, settings: CurrencySettings): CheckedInvoice {
	const currency = billCurrency(invoice.currency, settings);
	const { exact, reasons } = exactInvoice(invoice);
	if (currency.reason) reasons.unshift(currency.reason);
	return {
		base: {
			document_id: invoice.document_id ?? null,
			vendor: invoice.vendor ?? null,
			invoice_no: invoice.invoice_no ?? null,
			// The supplier as the books' guards compare it (docs/accounting.md#supplier-identity).
			supplier_identity: supplierIdentity(invoice.vendor),
			currency: currency.code,
		},
		exact,
		reasons,
	};
}

/**
 * A target's builder from what only that target does: the invoice is checked first for any target,
 * then the settings this invoice needs in that target (`missingSettings`: one sentence per setting,
 * saying what to set); an invoice that cannot be booked is held with its reasons for a person.
 */
export function billBuilder<Settings extends CurrencySettings>(
	build: (
		checked: CheckedInvoice,
		invoice: BillableInvoice,
		settings: Settings,
		file?: OriginalFile,
	) => BuiltBill,
	missingSettings: (exact: ExactInvoice, settings: Settings) => string[] = () => [],
): (invoice: BillableInvoice, settings: Settings, file?: OriginalFile) => BuiltBill {
	return (invoice, settings, file) => {
		const checked = checkedInvoice(invoice, settings);
		if (checked.reasons.length === 0)
			checked.reasons.push(...missingSettings(checked.exact, settings));
		if (checked.reasons.length > 0)
			return { ready: false, json: { ...checked.base, review_reason: checked.reasons.join('; ') } };
		return build(checked, invoice, settings, file);
	};
}

/** Whether a setting is empty (unset, or only spaces). */
export function isUnset(value: unknown): boolean {
	return String(value ?? '').trim() === '';
}

/** A bill ready to post: the invoice's identity, the target's fields, and what becomes of the original. */
export function readyBill(
	base: IDataObject,
	fields: IDataObject,
	attachment: AttachmentDecision,
): BuiltBill {
	return {
		ready: true,
		attach: attachment.attach,
		json: {
			...base,
			review_reason: null,
			...fields,
			attach: attachment.attach,
			attachment_note: attachment.note,
			attachment_name: attachment.name,
		},
	};
}
