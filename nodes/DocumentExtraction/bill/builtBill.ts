/**
 * What a target makes of one invoice item: the request to post, or the reasons it cannot be booked;
 * and the first step every target shares (the currency and the exact invoice, checked).
 */
import type { IDataObject } from 'n8n-workflow';

import { billCurrency, type CurrencySettings } from './currency.ts';
import { exactInvoice, type BillableInvoice, type ExactInvoice } from './exactInvoice.ts';

export type BuiltBill =
	/** `attach`: the original file goes on with the item for the attachment request. */
	| { ready: true; json: IDataObject; attach: boolean }
	| { ready: false; json: IDataObject; attach?: undefined };

/** The invoice checked for any target: its identity and currency, the exact amounts, the reasons. */
export function checkedInvoice(
	invoice: BillableInvoice,
	settings: CurrencySettings,
): { base: IDataObject; exact: ExactInvoice; reasons: string[] } {
	const currency = billCurrency(invoice.currency, settings);
	const { exact, reasons } = exactInvoice(invoice);
	if (currency.reason) reasons.unshift(currency.reason);
	return {
		base: {
			document_id: invoice.document_id ?? null,
			vendor: invoice.vendor ?? null,
			invoice_no: invoice.invoice_no ?? null,
			currency: currency.code,
		},
		exact,
		reasons,
	};
}
