// Money as whole cents, read from the decimal text of a number, so 0.1 + 0.2 is 30 cents, not
// 30.000000000000004.

/** Whole cents of a decimal amount (half a cent and more rounds away from zero). */
export function toCents(value: number | string): number {
	const text = typeof value === 'number' ? value.toFixed(10) : value.trim();
	const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
	if (!match) throw new Error(`not an amount: ${String(value)}`);
	const [, sign, whole, fraction = ''] = match;
	const padded = `${fraction}000`;
	const cents = Number(whole || '0') * 100 + Number(padded.slice(0, 2)) + (Number(padded[2]) >= 5 ? 1 : 0);
	return sign === '-' ? -cents : cents;
}

/** Cents back to a number with at most two decimals (exact in JSON text). */
export function fromCents(cents: number): number {
	return Number((cents / 100).toFixed(2));
}
