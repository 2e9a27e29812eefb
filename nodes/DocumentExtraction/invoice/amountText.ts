/**
 * Numbers of an invoice as text for a person ("1,487.50"): the invoice's own digits, never rounded
 * away and never showing binary floating-point noise. Pure.
 */
import { decimalsOf } from '../bill/money.ts';

/**
 * The number in plain decimal notation as the invoice wrote it. A value that only differs from a
 * short decimal by floating-point noise (0.1 + 0.2 = 0.30000000000000004) is read as that decimal:
 * 15 significant digits are more than any invoice prints.
 */
function plainDecimal(value: number): string {
	const cleaned = Number(value.toPrecision(15));
	// toFixed writes large numbers with an exponent; such a number is no invoice amount anyway.
	if (Math.abs(cleaned) >= 1e21) return String(cleaned);
	return cleaned.toFixed(Math.min(decimalsOf(cleaned), 100));
}

/** "1487.5" → "1,487.5": thousands separated by commas, the decimals untouched. */
function groupThousands(decimal: string): string {
	const negative = decimal.startsWith('-');
	const [whole, fraction] = (negative ? decimal.slice(1) : decimal).split('.');
	const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
	return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/**
 * A money amount: at least 2 decimals ("1,487.50"), more only when the invoice has more ("0.0372"
 * as a unit price), so a person approves exactly what the invoice says.
 */
export function amountText(value: number): string {
	const decimal = plainDecimal(value);
	const [whole, fraction = ''] = decimal.split('.');
	return groupThousands(`${whole}.${fraction.padEnd(2, '0')}`);
}

/** A quantity: its own decimals only ("50", "2.5", "1,000"). */
export function quantityText(value: number): string {
	return groupThousands(plainDecimal(value));
}
