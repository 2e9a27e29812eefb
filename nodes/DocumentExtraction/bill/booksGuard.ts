/**
 * What keeps an invoice to one bill in the books, whatever n8n remembers (docs/accounting.md#exactly-once):
 * keys that make each write idempotent at the books (Xero's Idempotency-Key header, QuickBooks'
 * requestid), the same for a re-scan or a second document of one invoice; and the question that asks
 * the books whether the supplier already has a bill with that number. Pure.
 */
import { createHash } from 'crypto';

import { invoiceNumberIdentity, supplierIdentity } from './supplierIdentity.ts';

/** QuickBooks takes a requestid of at most 50 characters, Xero an Idempotency-Key of at most 128. */
export const IDEMPOTENCY_KEY_MAX = 50;

/**
 * One key per write of one invoice's bill: `de-<32 hex>-<write>`. The hash is of the target, the
 * organisation (Xero tenant id, QuickBooks realm id), the kind (bill or credit note), the supplier and
 * the whole number as the guards compare them (supplierIdentity.ts), so a second extraction of the
 * same invoice writes with the same keys and two legal entities, two numbers or two organisations
 * never share one.
 */
export function idempotencyKeys<Write extends string>(
	target: 'xero' | 'quickBooks',
	invoice: { organisation?: unknown; vendor?: unknown; invoice_no?: unknown; creditNote: boolean },
	writes: readonly Write[],
): Record<Write, string> {
	// JSON keeps the parts apart whatever characters a name or number holds.
	const identity = JSON.stringify([
		target,
		String(invoice.organisation ?? '').trim(),
		invoice.creditNote ? 'credit' : 'bill',
		supplierIdentity(invoice.vendor) ?? '',
		invoiceNumberIdentity(invoice.invoice_no) ?? '',
	]);
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

/** QuickBooks keeps 21 characters of a DocNumber. */
export const QUICKBOOKS_DOC_NUMBER_MAX = 21;

/** Rows per page of the lookup: QuickBooks' largest MAXRESULTS. */
export const QUICKBOOKS_LOOKUP_PAGE_SIZE = 1000;

export interface QuickBooksLookup {
	creditNote: boolean;
	/** The invoice's whole number; the query asks by the 21 characters QuickBooks keeps of it. */
	docNumber: string;
	/** The vendor's Id (VendorRef) when known: only its bills are read. */
	vendorId?: string;
	/** 1 for the first page. */
	page?: number;
}

/**
 * QuickBooks' query for one page of the bills (or vendor credits) with this number: by DocNumber,
 * which holds 21 characters, so a longer number is asked by its first 21 and judged whole on the
 * answer (booksAnswer.ts); by VendorRef when the vendor is known; STARTPOSITION and MAXRESULTS page
 * through every match (QuickBooks answers at most 1000 rows a query).
 */
export function quickBooksLookupQuery(lookup: QuickBooksLookup): string {
	const page = Math.max(1, Math.floor(lookup.page ?? 1));
	const conditions = [
		`DocNumber = ${quickBooksLiteral(lookup.docNumber.slice(0, QUICKBOOKS_DOC_NUMBER_MAX))}`,
		...(lookup.vendorId ? [`VendorRef = ${quickBooksLiteral(lookup.vendorId)}`] : []),
	];
	const start = (page - 1) * QUICKBOOKS_LOOKUP_PAGE_SIZE + 1;
	return `select * from ${lookup.creditNote ? 'VendorCredit' : 'Bill'} where ${conditions.join(' and ')} STARTPOSITION ${start} MAXRESULTS ${QUICKBOOKS_LOOKUP_PAGE_SIZE}`;
}
