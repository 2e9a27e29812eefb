/**
 * The amount a band is compared with: the invoice's total as an absolute amount (a credit note of
 * −1,428.00 is approved like a bill of 1,428.00), in whole cents, in the invoice's own currency or
 * converted to the band's with the rate the workflow gives (1 unit of the invoice's currency = rate
 * units of the band's), rounded half away from zero in integers: no float comparison decides a band.
 */
import { centsOf, decimalsOf, moneyText } from '../bill/money.ts';
import type { Band } from './policy.ts';
import { PolicyError } from './policyError.ts';

export interface ComparedAmount {
	cents: number;
	currency: string | null;
	/** "1,487.50 USD at 0.92" when converted. */
	conversion: string | null;
}

/** The rate as an integer and its scale (0.92 → 92 and 100), or null when it is no positive decimal. */
function exactRate(rate: unknown): { units: bigint; scale: bigint; text: string } | null {
	const written =
		typeof rate === 'number' && Number.isFinite(rate)
			? rate.toFixed(Math.min(20, decimalsOf(rate)))
			: String(rate ?? '').trim();
	const match = /^(\d+)(?:\.(\d+))?$/.exec(written);
	if (!match) return null;
	const fraction = (match[2] ?? '').replace(/0+$/, '');
	const units = BigInt(match[1] + fraction);
	if (units === 0n) return null;
	return { units, scale: 10n ** BigInt(fraction.length), text: written };
}

/** The invoice's absolute total in cents; a PolicyError when it is no amount to the cent. */
export function absoluteCents(total: unknown): number {
	const cents = centsOf(typeof total === 'string' && total.trim() ? Number(total) : total, 'Total');
	if (cents.problem !== undefined)
		throw new PolicyError(
			`${cents.problem}: the invoice's total decides the band`,
			"Map Total to the invoice's total (e.g. {{ $json.total }})",
		);
	return Math.abs(cents.cents);
}

/** The amount in the band's currency; a PolicyError saying which rate to set when one is missing. */
export function comparedAmount(
	cents: number,
	invoiceCurrency: string | null,
	band: Pick<Band, 'currency'>,
	rates: Record<string, unknown>,
): ComparedAmount {
	if (!band.currency || band.currency === invoiceCurrency)
		return { cents, currency: invoiceCurrency, conversion: null };
	if (!invoiceCurrency)
		throw new PolicyError(
			`The invoice names no currency, and the policy's bands are in ${band.currency}`,
			"Map Currency to the invoice's currency, or leave the bands' currency empty to compare in the invoice's own",
		);
	const rate = exactRate(rates[invoiceCurrency]);
	if (!rate)
		throw new PolicyError(
			`No conversion rate from ${invoiceCurrency} to ${band.currency}: the policy's bands are in ${band.currency}`,
			`Set Conversion Rates to include ${invoiceCurrency}, e.g. {"${invoiceCurrency}": 0.92} (1 ${invoiceCurrency} = 0.92 ${band.currency})`,
		);
	const scaled = BigInt(cents) * rate.units * 2n + rate.scale;
	const converted = Number(scaled / (2n * rate.scale));
	return {
		cents: converted,
		currency: band.currency,
		conversion: `${moneyText(cents)} ${invoiceCurrency} at ${rate.text}`,
	};
}
