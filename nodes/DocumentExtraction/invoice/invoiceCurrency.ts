/**
 * The invoice's currency (docs/spec-decisions.md#n14). The contract has no currency field; when the
 * service sends one anyway it is kept, read from these keys of the extracted-data object only.
 */
import { fieldsOf, isPresent } from '../jsonObject.ts';

export interface InvoiceCurrency {
	/** Three upper-case letters, or null when none was sent or what was sent cannot be trusted. */
	currency: string | null;
	/** Why a currency that was sent is not used (then the invoice is not ready to post); null otherwise. */
	problem: string | null;
}

const THREE_LETTERS = /^[A-Za-z]{3}$/;

/**
 * A currency code as sent ("EUR", " eur ") becomes "EUR". A symbol ("€", "$"), a name or anything
 * else is not guessed at ("$" is the dollar of many countries): no currency, and a problem.
 */
export function invoiceCurrency(extracted: unknown): InvoiceCurrency {
	const data = fieldsOf(extracted);
	// The extracted-data object itself, its header, its amounts.
	const sources = [data.currency, fieldsOf(data.header).currency, fieldsOf(data.amounts).currency];
	const sent = sources.filter(isPresent);
	if (sent.length === 0) return { currency: null, problem: null };

	const unreadable = sent.find(
		(value) => typeof value !== 'string' || !THREE_LETTERS.test(value.trim()),
	);
	if (unreadable !== undefined) {
		return {
			currency: null,
			problem: `The currency ${JSON.stringify(unreadable)} is not a three-letter code such as EUR or USD: set the invoice's currency by hand from the original.`,
		};
	}
	const codes = [...new Set(sent.map((value) => (value as string).trim().toUpperCase()))];
	if (codes.length > 1) {
		return {
			currency: null,
			problem: `The invoice names more than one currency (${codes.join(', ')}): check the original and set the right one by hand.`,
		};
	}
	return { currency: codes[0], problem: null };
}
