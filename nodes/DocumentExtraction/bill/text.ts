/** Text and dates as the books take them. Pure. */

/** A value as text: nothing (undefined, null) is empty. */
export function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value);
}

/** One line: trimmed, whitespace runs as single spaces. */
export function oneLine(text: unknown): string {
	return String(text ?? '')
		.replace(/\s+/g, ' ')
		.trim();
}

/** At most `max` characters, an ellipsis marking a cut. */
export function shorten(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A YYYY-MM-DD date `days` later. */
export function addDays(isoDate: string, days: number): string {
	const date = new Date(`${isoDate}T00:00:00Z`);
	date.setUTCDate(date.getUTCDate() + days);
	return date.toISOString().slice(0, 10);
}
