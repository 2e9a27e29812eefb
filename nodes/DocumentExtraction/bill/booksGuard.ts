/**
 * What keeps an invoice to one bill in the books, whatever n8n remembers (docs/accounting.md#exactly-once):
 * keys that make each write idempotent at the books (Xero's Idempotency-Key header, QuickBooks'
 * requestid), the same for a re-scan or a second document of one invoice; and the question that asks
 * the books whether the supplier already has a bill with that number. Pure.
 */
import { createHash } from 'crypto';

import { normaliseInvoiceNumber, normaliseVendor } from '../invoice/invoiceIdentity.ts';

/** QuickBooks takes a requestid of at most 50 characters, Xero an Idempotency-Key of at most 128. */
export const IDEMPOTENCY_KEY_MAX = 50;

/**
 * One key per write of one invoice's bill: `de-<32 hex>-<write>`. The hash is of the target, the kind
 * (bill or credit note) and the invoice's identity (vendor and number, normalised as the duplicate
 * check does), so a second extraction of the same invoice writes with the same keys.
 */
export function idempotencyKeys<Write extends string>(
	target: 'xero' | 'quickBooks',
	invoice: { vendor?: unknown; invoice_no?: unknown; creditNote: boolean },
	writes: readonly Write[],
): Record<Write, string> {
	const identity = [
		target,
		invoice.creditNote ? 'credit' : 'bill',
		normaliseVendor(String(invoice.vendor ?? '')) ?? '',
		normaliseInvoiceNumber(String(invoice.invoice_no ?? '')) ?? '',
	].join('|');
	const hash = createHash('sha256').update(identity).digest('hex').slice(0, 32);
	return Object.fromEntries(writes.map((write) => [write, `de-${hash}-${write}`])) as Record<
		Write,
		string
	>;
}

/**
 * The requestid of a QuickBooks vendor create: `de-<32 hex>-vendor`, one per company, display name
 * and currency, not per invoice, so every execution creating one new vendor at once sends the same
 * key and QuickBooks answers all of them with the one vendor it made (instead of 6240 "Duplicate Name
 * Exists Error" to all but the first). The display name is the identity because QuickBooks itself
 * allows one vendor per DisplayName, compared trimmed and case-insensitively; legal forms are kept,
 * so "Acme Inc" and "ACME GmbH" stay two vendors. The currency is part of it because a vendor has
 * one: a create in another currency must not be answered with a vendor its bill cannot use.
 * Without a company (undefined or empty) the key is per name and currency only.
 */
export function vendorIdempotencyKey(vendor: {
	company?: string;
	displayName: string;
	currency?: string | null;
}): string {
	// JSON keeps the parts apart whatever characters a name or company holds.
	const identity = JSON.stringify([
		'quickBooks',
		'vendor',
		String(vendor.company ?? '').trim(),
		vendor.displayName.trim().toLowerCase(),
		String(vendor.currency ?? '')
			.trim()
			.toUpperCase(),
	]);
	return `de-${createHash('sha256').update(identity).digest('hex').slice(0, 32)}-vendor`;
}

/** A string literal in Xero's `where` filter: double quotes, backslash escapes. */
function xeroLiteral(text: string): string {
	return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Xero's `where` for the supplier's bill (or credit note) with this number, as Build Bill names them:
 * any status, so a voided or deleted one is named too and a person decides.
 */
export function xeroLookupWhere(
	creditNote: boolean,
	contactName: string,
	documentNumber: string,
): string {
	return creditNote
		? `Type=="ACCPAYCREDIT" AND Contact.Name==${xeroLiteral(contactName)} AND CreditNoteNumber==${xeroLiteral(documentNumber)}`
		: `Type=="ACCPAY" AND Contact.Name==${xeroLiteral(contactName)} AND InvoiceNumber==${xeroLiteral(documentNumber)}`;
}

/** A string literal in QuickBooks' query language: single quotes, backslash escapes. */
export function quickBooksLiteral(text: string): string {
	return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * QuickBooks' query for bills (or vendor credits) with this number; the query language cannot filter
 * on the vendor's name, so the template keeps those whose VendorRef names the vendor.
 */
export function quickBooksLookupQuery(creditNote: boolean, documentNumber: string): string {
	return `select * from ${creditNote ? 'VendorCredit' : 'Bill'} where DocNumber = ${quickBooksLiteral(documentNumber)}`;
}
