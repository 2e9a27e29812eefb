/**
 * Money to the cent. For the books, whole cents (integers) taken from the decimal text of each
 * number: no floating-point sum ever decides a cent. For the invoice's own checks (does subtotal +
 * tax make the total?), the extracted numbers compared within a cent. Pure: unit- and
 * property-tested without n8n.
 */
import type { LineItem } from '../invoice/invoiceMapping.ts';

/** How many decimals the number has as written (1.5e-7 has 8). */
export function decimalsOf(value: number): number {
	const [mantissa, exponent] = String(value).split('e');
	return (mantissa.split('.')[1] ?? '').length + (exponent ? Math.max(0, -Number(exponent)) : 0);
}

/**
 * The amount in cents, or a problem: not a number, or more than 2 decimals (it cannot be booked to
 * the cent).
 */
export function centsOf(
	amount: unknown,
	what: string,
): { cents: number; problem?: undefined } | { cents?: undefined; problem: string } {
	if (typeof amount !== 'number' || !Number.isFinite(amount))
		return { problem: `${what} is not a number` };
	if (decimalsOf(amount) > 2) return { problem: `${what} (${amount}) has more than 2 decimals` };
	return { cents: Math.round(amount * 100) };
}

/** Cents as the number the APIs take (2 decimals). */
export function fromCents(cents: number): number {
	return Number((cents / 100).toFixed(2));
}

/** Cents as text for a person ("1487.50"). */
export function moneyText(cents: number): string {
	return (cents / 100).toFixed(2);
}

/**
 * quantity × unit price in cents, rounded half away from zero (as the books round a line), exactly:
 * both have at most 4 decimals, so the product is an integer in 10^-8 units.
 */
export function lineCentsOf(quantity: number, unitPrice: number): number {
	const product = BigInt(Math.round(quantity * 1e4)) * BigInt(Math.round(unitPrice * 1e4));
	const negative = product < 0n;
	const magnitude = negative ? -product : product;
	const rounded = Number((magnitude + 500_000n) / 1_000_000n);
	return negative ? -rounded : rounded;
}

/**
 * The tax spread over the lines in proportion to their amounts, each share whole cents, the shares
 * adding up to the tax exactly (largest remainder: the cents left over go to the lines with the
 * largest fractions; ties to the earlier line).
 */
export function spreadTax(taxCents: number, lineCents: number[]): number[] {
	const subtotal = BigInt(lineCents.reduce((sum, value) => sum + value, 0));
	if (subtotal === 0n) return lineCents.map((_, index) => (index === 0 ? taxCents : 0));
	const shares = lineCents.map((value, index) => {
		const exact = BigInt(taxCents) * BigInt(value);
		let share = exact / subtotal;
		if (exact % subtotal !== 0n && exact < 0n !== subtotal < 0n) share -= 1n; // floor
		return { index, cents: share, remainder: exact - share * subtotal };
	});
	let left = BigInt(taxCents) - shares.reduce((sum, share) => sum + share.cents, 0n);
	const byRemainder = [...shares].sort((a, b) => {
		const diff = subtotal > 0n ? b.remainder - a.remainder : a.remainder - b.remainder;
		return diff === 0n ? a.index - b.index : diff > 0n ? 1 : -1;
	});
	for (const share of byRemainder) {
		if (left <= 0n) break;
		share.cents += 1n;
		left -= 1n;
	}
	return shares.map((share) => Number(share.cents));
}

/** One cent, plus floating-point noise: what an invoice's own arithmetic may be off by. */
const CENT_TOLERANCE = 0.01 + 1e-9;

/** Whether two amounts as extracted (floating point) agree at the precision of an invoice. */
export function withinACent(a: number, b: number): boolean {
	return Math.abs(a - b) <= CENT_TOLERANCE;
}

/** Whether quantity × unit price gives the line's amount (within a cent); null when one is missing. */
export function lineAmountMatches(line: LineItem): boolean | null {
	if (line.quantity === null || line.unit_price === null || line.amount === null) return null;
	return withinACent(line.quantity * line.unit_price, line.amount);
}
