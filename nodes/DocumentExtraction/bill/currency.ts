/**
 * The currency a bill is booked in (docs/spec-decisions.md#n42): the invoice's own when it names one;
 * else the Currency setting when it is set; else none, which each target books in the organisation's
 * base (Xero) or home (QuickBooks) currency by leaving the currency out. A currency the invoice names
 * is booked only when the books take it (the Allowed Currencies setting, when set). Pure.
 */
import { oneLine } from './text.ts';

export interface CurrencySettings {
	/** Books an invoice that names no currency in this one; empty: the books' own currency. */
	currency?: string;
	/** The currencies the books take ("EUR, USD, GBP"); empty: any. */
	allowedCurrencies?: string;
}

/** `code` null: the books' own currency (the request leaves the currency out). */
export function billCurrency(
	invoiceCurrency: unknown,
	settings: CurrencySettings,
): { code: string | null; reason?: string } {
	const named = oneLine(invoiceCurrency).toUpperCase();
	const chosen = named || oneLine(settings.currency).toUpperCase();
	if (!chosen) return { code: null };
	if (!/^[A-Z]{3}$/.test(chosen)) {
		return {
			code: chosen,
			reason: named
				? `the currency "${oneLine(invoiceCurrency)}" is not a 3-letter code`
				: `the Currency setting "${oneLine(settings.currency)}" is not a 3-letter code`,
		};
	}
	const allowed = oneLine(settings.allowedCurrencies)
		.toUpperCase()
		.split(/[\s,;]+/)
		.filter(Boolean);
	// The books always take the currency the team set (their own, or the one they chose).
	if (named && allowed.length > 0 && !allowed.includes(chosen))
		return {
			code: chosen,
			reason: `the books take ${allowed.join(', ')}; this invoice is in ${chosen}`,
		};
	return { code: chosen };
}
