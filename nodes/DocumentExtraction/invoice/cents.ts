/** Money comparisons at the precision of an invoice: within one cent (plus floating-point noise). */
const CENT_TOLERANCE = 0.01 + 1e-9;

export function withinACent(a: number, b: number): boolean {
	return Math.abs(a - b) <= CENT_TOLERANCE;
}
