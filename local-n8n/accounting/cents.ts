// Money as whole cents, read from the decimal text of a number, so 0.1 + 0.2 is 30 cents, not
// 30.000000000000004.

/** Whole cents of a decimal amount (half a cent and more rounds away from zero). */
export function toCents(value: number | string): number {
	const text = typeof value === 'number' ? value.toFixed(10) : value.trim();
	const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
	if (!match) throw new Error(`not an amount: ${String(value)}`);
	const [, sign, whole, fraction = ''] = match;
	const padded = `${fraction}000`;
	const cents =
		Number(whole || '0') * 100 + Number(padded.slice(0, 2)) + (Number(padded[2]) >= 5 ? 1 : 0);
	return sign === '-' ? -cents : cents;
}

/** Cents back to a number with at most two decimals (exact in JSON text). */
export function fromCents(cents: number): number {
	return Number((cents / 100).toFixed(2));
}

/** How many decimals a number has as JSON writes it (1e-7 and smaller in exponent form count too). */
export function decimalPlaces(value: number): number {
	const text = String(value);
	const exponent = /e-(\d+)$/.exec(text);
	const [mantissa] = text.split('e');
	const fraction = mantissa.split('.')[1] ?? '';
	return fraction.length + (exponent ? Number(exponent[1]) : 0);
}

/** `value` × 10^places as an exact integer; `value` must have at most `places` decimals. */
export function scaled(value: number, places: number): bigint {
	if (!Number.isFinite(value) || decimalPlaces(value) > places)
		throw new Error(`${value} has more than ${places} decimals`);
	return BigInt(Math.round(value * 10 ** places));
}

/** An exact integer `numerator / 10^places` rounded to whole units, half away from zero. */
export function roundScaled(numerator: bigint, places: number): bigint {
	const divisor = 10n ** BigInt(places);
	const negative = numerator < 0n;
	const magnitude = negative ? -numerator : numerator;
	const rounded = (magnitude + divisor / 2n) / divisor;
	return negative ? -rounded : rounded;
}
