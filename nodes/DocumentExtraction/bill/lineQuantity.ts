/**
 * A line's quantity and unit price as the books take them (at most 4 decimals, unitdp=4): kept when
 * quantity × unit price gives the line amount to the cent; the one that is missing derived from the
 * other and the amount only when that is exact at 4 decimals; otherwise the line is booked as 1 × its
 * amount and what the invoice printed is kept for the description (docs/spec-decisions.md#n42). Pure.
 */
import { decimalsOf, lineCentsOf } from './money.ts';

export type BookedQuantity =
	| { quantity: number; unitPrice: number; printed?: undefined }
	| { quantity?: undefined; unitPrice?: undefined; printed: string };

const SCALE = 10_000n;

const usable = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value) && decimalsOf(value) <= 4;

/** `cents` / `factor` at 4 decimals, or null when it does not divide exactly. */
function exactQuotient(cents: number, factor: number): number | null {
	const numerator = BigInt(cents) * 100n * SCALE;
	const denominator = BigInt(Math.round(factor * 1e4));
	if (numerator % denominator !== 0n) return null;
	return Number(numerator / denominator) / 1e4;
}

function printedText(quantity: unknown, unitPrice: unknown): string {
	const hasQuantity = typeof quantity === 'number';
	const hasPrice = typeof unitPrice === 'number';
	if (hasQuantity && hasPrice) return `${quantity} × ${unitPrice}`;
	if (hasQuantity) return `quantity ${quantity}`;
	if (hasPrice) return `unit price ${unitPrice}`;
	return '';
}

/** `unitPrice` already carries the bill's sign; `cents` is the line amount in cents. */
export function bookedQuantity(
	quantity: unknown,
	unitPrice: unknown,
	cents: number,
): BookedQuantity {
	let chosen: { quantity: number; unitPrice: number } | null = null;
	// A zero quantity says nothing the books can keep; a zero price is a free line (1 × 0).
	if (usable(quantity) && quantity !== 0 && usable(unitPrice)) chosen = { quantity, unitPrice };
	else if (usable(quantity) && quantity !== 0 && unitPrice == null) {
		const derived = exactQuotient(cents, quantity);
		if (derived !== null && derived !== 0) chosen = { quantity, unitPrice: derived };
	} else if (usable(unitPrice) && unitPrice !== 0 && quantity == null) {
		const derived = exactQuotient(cents, unitPrice);
		if (derived !== null && derived !== 0) chosen = { quantity: derived, unitPrice };
	}
	if (chosen && lineCentsOf(chosen.quantity, chosen.unitPrice) === cents) return chosen;
	return { printed: printedText(quantity, unitPrice) };
}
