/**
 * Instants for the approval policy: ISO 8601 with an offset (or Z) is taken as written; a date
 * alone or a date-time without an offset is a wall time in the policy's time zone (an IANA name,
 * e.g. Europe/Berlin), so "2026-12-21" is that day as the team lives it. Pure.
 */
import { PolicyError } from './policyError.ts';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;
const WITH_OFFSET =
	/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

const DAY_MS = 86_400_000;

/** Minutes the zone is ahead of UTC at this instant. */
function offsetMinutes(instant: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant));
	const part = (type: string) => Number(parts.find((found) => found.type === type)?.value);
	const wall = Date.UTC(
		part('year'),
		part('month') - 1,
		part('day'),
		part('hour'),
		part('minute'),
		part('second'),
	);
	return (wall - Math.floor(instant / 1000) * 1000) / 60_000;
}

/** The instant a wall time (as UTC milliseconds of its fields) is in the zone. */
function wallTimeIn(wall: number, timeZone: string): number {
	const first = wall - offsetMinutes(wall, timeZone) * 60_000;
	return wall - offsetMinutes(first, timeZone) * 60_000;
}

function isTimeZone(timeZone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		return true;
	} catch {
		return false;
	}
}

/** Throws a PolicyError naming the setting when the zone is not one Intl knows. */
export function checkTimeZone(timeZone: string): void {
	if (!isTimeZone(timeZone))
		throw new PolicyError(
			`"${timeZone}" is not a time zone`,
			'Set Time Zone to an IANA name such as Europe/Berlin or America/New_York',
		);
}

/** Text (or a Date, or a Luxon DateTime) as an ISO 8601 string, or '' when empty. */
function isoText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (value instanceof Date) return value.toISOString();
	const toISO = (value as { toISO?: () => string }).toISO;
	if (typeof toISO === 'function') return toISO.call(value);
	return String(value).trim();
}

export interface ParsedInstant {
	/** Milliseconds since the epoch. */
	at: number;
	/** Whether it was a date alone: a whole day. */
	dateOnly: boolean;
}

/**
 * The instant `value` names, or null when it is empty; a PolicyError saying `what` is wrong when
 * it is no ISO 8601 date or date-time.
 */
export function parseInstant(value: unknown, timeZone: string, what: string): ParsedInstant | null {
	const text = isoText(value);
	if (!text) return null;
	const date = DATE_ONLY.exec(text);
	if (date) {
		const wall = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
		return { at: wallTimeIn(wall, timeZone), dateOnly: true };
	}
	const wallTime = WALL_TIME.exec(text);
	if (wallTime) {
		const [, year, month, day, hour, minute, second, millis] = wallTime;
		const wall = Date.UTC(
			Number(year),
			Number(month) - 1,
			Number(day),
			Number(hour),
			Number(minute),
			Number(second ?? 0),
			Number((millis ?? '0').padEnd(3, '0')),
		);
		return { at: wallTimeIn(wall, timeZone), dateOnly: false };
	}
	const at = WITH_OFFSET.test(text) ? Date.parse(text) : NaN;
	if (Number.isNaN(at))
		throw new PolicyError(
			`${what} ("${text}") is not a date`,
			'Write it as ISO 8601: 2026-12-21, or 2026-12-21T09:00:00+01:00',
		);
	return { at, dateOnly: false };
}

/** The first instant after the day that starts at `dayStart` (in the zone, across a DST change). */
export function nextDayStart(dayStart: number, timeZone: string): number {
	const wall = dayStart + offsetMinutes(dayStart, timeZone) * 60_000;
	return wallTimeIn(wall + DAY_MS, timeZone);
}

/** An instant as ISO 8601 in UTC. */
export function isoOf(at: number): string {
	return new Date(at).toISOString();
}
