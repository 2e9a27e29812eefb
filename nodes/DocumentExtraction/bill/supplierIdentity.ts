/**
 * Who a supplier and which invoice number a bill is, as the books' guards compare them
 * (docs/accounting.md#supplier-identity): one definition for the idempotency keys, the lookup's
 * judgement, the supplier rules and the invoice register. Two legal entities are two suppliers
 * unless a person says otherwise, so legal forms, "&" and "and" stay: "Acme Inc" and "ACME GmbH",
 * "Smith & Co" and "Smith" are four suppliers. Only what cannot tell two entities apart is folded:
 * Unicode composition, runs of whitespace and case (QuickBooks allows one vendor per display name,
 * compared without regard to case). Pure.
 */

/** One line, composed (NFC), lower case: "  ACME  Inc " → "acme inc". Empty: null. */
export function supplierIdentity(name: unknown): string | null {
	const identity = String(name ?? '')
		.normalize('NFC')
		.replace(/\s+/g, ' ')
		.trim()
		.toLowerCase();
	return identity === '' ? null : identity;
}

/**
 * The whole invoice number as the guards compare it: one line, composed, upper case ("inv-0042 " →
 * "INV-0042"); separators and leading zeros stay, so "INV-42" and "INV-0042" are two numbers. A
 * number without any letter or digit ("#", "/") is no number: null, and the invoice cannot be booked.
 */
export function invoiceNumberIdentity(invoiceNumber: unknown): string | null {
	const identity = String(invoiceNumber ?? '')
		.normalize('NFC')
		.replace(/\s+/g, ' ')
		.trim()
		.toUpperCase();
	return /[\p{L}\p{N}]/u.test(identity) ? identity : null;
}
