/**
 * What makes two extractions the same invoice, whatever file they came from: the vendor and the
 * invoice number, both normalised (case, accents, punctuation, legal-form suffixes), with the
 * total in cents as a tie-breaker. Pure functions; the store that remembers identities is elsewhere.
 */

/** Legal-form words that vary between documents of one vendor ("Acme Ltd." vs "ACME Limited"). */
const LEGAL_FORMS = new Set([
	'ab',
	'ag',
	'as',
	'bv',
	'co',
	'company',
	'corp',
	'corporation',
	'gmbh',
	'inc',
	'incorporated',
	'kg',
	'kgaa',
	'limited',
	'llc',
	'llp',
	'lp',
	'ltd',
	'nv',
	'oy',
	'plc',
	'pty',
	'sa',
	'sarl',
	'sas',
	'spa',
	'srl',
	'ug',
	'and',
]);

/** Letters without accents, lower case, `&` as "and", anything else a space. */
function plainWords(text: string): string[] {
	return text
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.replace(/ß/g, 'ss')
		.toLowerCase()
		.replace(/&/g, ' and ')
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim()
		.split(' ')
		.filter(Boolean);
}

/**
 * "Café Müller & Söhne GmbH" → "cafe muller and sohne"; "ACME Ltd." → "acme". Legal forms are
 * dropped from the end only, so a vendor called "Limited Editions" keeps its name.
 */
export function normaliseVendor(vendor: string | null | undefined): string | null {
	if (!vendor) return null;
	const words = plainWords(vendor.replace(/\b([A-Za-z])\.(?=[A-Za-z]\.)/g, '$1'));
	while (words.length > 1 && LEGAL_FORMS.has(words[words.length - 1])) words.pop();
	return words.length > 0 ? words.join(' ') : null;
}

/** "inv-2026/0042" → "INV 2026 42": case and separators vary, digit runs lose leading zeros. */
export function normaliseInvoiceNumber(invoiceNumber: string | null | undefined): string | null {
	if (!invoiceNumber) return null;
	const words = plainWords(invoiceNumber).map((word) =>
		word.replace(/^0+(?=\d)/, '').toUpperCase(),
	);
	return words.length > 0 ? words.join(' ') : null;
}

/** Whole cents of a total, from its decimal text (no floating-point drift); null when unknown. */
function totalCents(total: number | null | undefined): number | null {
	if (typeof total !== 'number' || !Number.isFinite(total)) return null;
	return Math.round(Number(total.toFixed(6)) * 100);
}

export interface InvoiceIdentity {
	vendor: string;
	invoice_no: string;
	total_cents: number | null;
	/** The key kept in the deduplication store. */
	key: string;
}

/** The identity of an invoice, or null when it has no vendor or no invoice number to match on. */
export function invoiceIdentity(invoice: {
	vendor: string | null;
	invoice_no: string | null;
	total: number | null;
}): InvoiceIdentity | null {
	const vendor = normaliseVendor(invoice.vendor);
	const number = normaliseInvoiceNumber(invoice.invoice_no);
	if (!vendor || !number) return null;
	const cents = totalCents(invoice.total);
	return {
		vendor,
		invoice_no: number,
		total_cents: cents,
		key: `invoice:${vendor}|${number}|${cents ?? '?'}`,
	};
}

/** What matched, in words a user reads on the Possible Duplicate output. */
export function describeMatch(identity: InvoiceIdentity): string {
	const total =
		identity.total_cents === null ? 'no total' : `total ${(identity.total_cents / 100).toFixed(2)}`;
	return `same vendor ("${identity.vendor}"), same invoice number ("${identity.invoice_no}") and ${total}`;
}
