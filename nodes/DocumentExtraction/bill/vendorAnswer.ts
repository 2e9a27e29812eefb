/**
 * What QuickBooks' answer about a bill's vendor means (docs/accounting.md#currency), from the vendor
 * query or the vendor create: `found` (its Id, which the bill and the judgements name), `missing`
 * (create it), or for a person when the vendor exists in another currency (a QuickBooks vendor has
 * one, and its bills are in it) or QuickBooks refused the question. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { booksRefusal } from './booksAnswer.ts';
import { fieldsOf } from '../jsonObject.ts';
import { oneLine, text } from './text.ts';

export type VendorVerdict = 'found' | 'missing' | 'personDecides';

export interface VendorJudgement {
	verdict: VendorVerdict;
	/** The vendor's QuickBooks Id (found); null otherwise. */
	vendor_id: string | null;
	/** Why a person decides; null otherwise. */
	review_reason: string | null;
}

/**
 * `bill`: Build Bill's item (its vendor_name and currency); `answer`: QuickBooks' answer;
 * `createAsked`: this execution already asked QuickBooks to create the vendor. A vendor still missing
 * then goes to a person: QuickBooks refuses a name an inactive vendor holds, which its query does not
 * find, so creating again would loop for ever.
 */
export function judgeVendor(
	bill: IDataObject,
	answer: unknown,
	createAsked = false,
): VendorJudgement {
	const refusal = booksRefusal(answer);
	if (refusal !== null)
		return {
			verdict: 'personDecides',
			vendor_id: null,
			review_reason: `QuickBooks refused the vendor's lookup: ${refusal}`,
		};
	const body = fieldsOf(answer);
	const rows = fieldsOf(body.QueryResponse).Vendor;
	const vendor = fieldsOf(body.Vendor ?? (Array.isArray(rows) ? rows[0] : undefined));
	const name = oneLine(bill.vendor_name);
	if (!text(vendor.Id))
		return createAsked
			? {
					verdict: 'personDecides',
					vendor_id: null,
					review_reason: `QuickBooks refused to create the vendor "${name}" and finds no active vendor with that name: an inactive vendor may hold it (make it active, or rename one of them)`,
				}
			: { verdict: 'missing', vendor_id: null, review_reason: null };
	const currency = text(bill.currency);
	const theirs = text(fieldsOf(vendor.CurrencyRef).value);
	if (theirs !== currency)
		return {
			verdict: 'personDecides',
			vendor_id: null,
			review_reason: `the vendor "${name}" exists in QuickBooks in ${theirs || 'no currency'}, this invoice is in ${currency}: a QuickBooks vendor has one currency (create a vendor for ${currency} and post it by hand, or correct the invoice)`,
		};
	return { verdict: 'found', vendor_id: text(vendor.Id), review_reason: null };
}
