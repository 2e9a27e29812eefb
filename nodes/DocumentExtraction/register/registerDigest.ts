/**
 * The morning digest of the invoice register (docs/accounting.md#morning-digest): from the register's
 * rows, what needs a person (waiting for the approver too long, failed, received and never finished)
 * and what was booked since the last digest, with totals per currency in whole cents. Pure: the
 * rows, the time and the thresholds in, the sections and the email out.
 */
import { centsOf, fromCents } from '../bill/money.ts';
import { oneLine } from '../bill/text.ts';
import { amountText } from '../invoice/amountText.ts';
import { escapeHtml } from '../invoice/invoiceSummary.ts';

/** The register's states the digest reads (written by the email-to-books templates). */
export const REGISTER_STATES = {
	received: 'received',
	awaitingApproval: 'awaiting approval',
	booked: 'booked',
	/** Any state starting with this is a failure; its message is in `detail`. */
	failedPrefix: 'failed',
} as const;

/** One row of the Data Table Invoice register, as n8n's Data Table node returns it. */
export interface RegisterRow {
	id?: unknown;
	createdAt?: unknown;
	updatedAt?: unknown;
	register_key?: unknown;
	books?: unknown;
	file_name?: unknown;
	supplier?: unknown;
	invoice_no?: unknown;
	total?: unknown;
	currency?: unknown;
	state?: unknown;
	bill_id?: unknown;
	detail?: unknown;
	[column: string]: unknown;
}

export interface DigestSettings {
	now: Date;
	/** A row awaiting approval longer than this is listed. */
	awaitingApprovalHours: number;
	/** A row still `received` longer than this is listed. */
	unfinishedHours: number;
	/** When the last digest was made; none: the last 24 hours count as "since". */
	lastDigestAt: Date | null;
}

/** One register row as the digest lists it: the row's own texts, unescaped. */
export interface DigestEntry {
	register_key: string;
	books: string;
	supplier: string;
	invoice_no: string;
	file_name: string;
	total: string;
	currency: string;
	state: string;
	detail: string;
	bill_id: string;
	/** When the row got its state (the row's last write). */
	since: string;
	hours: number;
}

export interface CurrencyTotal {
	currency: string;
	count: number;
	total: number;
	total_text: string;
}

export interface RegisterDigest {
	/** Whether there is anything to send: something needs a person, or something was booked. */
	send: boolean;
	needs_person: boolean;
	digest_at: string;
	booked_since: string;
	counts: { awaiting_approval: number; failed: number; unfinished: number; booked: number };
	awaiting_approval: DigestEntry[];
	failed: DigestEntry[];
	unfinished: DigestEntry[];
	booked: DigestEntry[];
	/** Booked since the last digest, per currency, summed in whole cents. */
	booked_totals: CurrencyTotal[];
	/** Booked rows whose total is not an amount to the cent: listed, left out of the totals. */
	booked_without_total: number;
	subject: string;
	/** The email's plain-text part. */
	digest_text: string;
	/** The email's HTML part, every text from the register escaped. */
	digest_html: string;
}

/** The digest before its email is written. */
type DigestSections = Omit<RegisterDigest, 'subject' | 'digest_text' | 'digest_html'>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const NO_CURRENCY = '(no currency)';

/** A date column as the Data Table node gives it (ISO text or a Date); null when unreadable. */
export function timeOf(value: unknown): Date | null {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
	if (typeof value !== 'string' || value.trim() === '') return null;
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? null : date;
}

function entryOf(row: RegisterRow, since: Date, now: Date): DigestEntry {
	const text = (value: unknown) => oneLine(value);
	return {
		register_key: text(row.register_key),
		books: text(row.books),
		supplier: text(row.supplier),
		invoice_no: text(row.invoice_no),
		file_name: text(row.file_name),
		total: text(row.total),
		currency: text(row.currency).toUpperCase(),
		state: text(row.state),
		detail: text(row.detail),
		bill_id: text(row.bill_id),
		since: since.toISOString(),
		hours: Math.floor((now.getTime() - since.getTime()) / HOUR_MS),
	};
}

/** The total as cents, from the register's decimal text; undefined when it is no amount to the cent. */
function centsOfTotal(total: string): number | undefined {
	if (!/^-?\d+(\.\d+)?$/.test(total)) return undefined;
	return centsOf(Number(total), 'total').cents;
}

function totalsPerCurrency(entries: DigestEntry[]): {
	totals: CurrencyTotal[];
	withoutTotal: number;
} {
	const sums = new Map<string, { count: number; cents: number }>();
	let withoutTotal = 0;
	for (const entry of entries) {
		const cents = centsOfTotal(entry.total);
		if (cents === undefined) {
			withoutTotal++;
			continue;
		}
		const currency = entry.currency || NO_CURRENCY;
		const sum = sums.get(currency) ?? { count: 0, cents: 0 };
		sums.set(currency, { count: sum.count + 1, cents: sum.cents + cents });
	}
	const totals = [...sums.entries()]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([currency, { count, cents }]) => ({
			currency,
			count,
			total: fromCents(cents),
			total_text: amountText(fromCents(cents)),
		}));
	return { totals, withoutTotal };
}

const byOldest = (a: DigestEntry, b: DigestEntry) => a.since.localeCompare(b.since);

/** "Acme Ltd, INV-7, EUR 1,487.50" (or the file's name when nothing was read yet). */
function describe(entry: DigestEntry): string {
	const amount = centsOfTotal(entry.total);
	const parts = [
		entry.supplier,
		entry.invoice_no,
		amount === undefined
			? entry.total
			: `${entry.currency} ${amountText(fromCents(amount))}`.trim(),
	].filter((part) => part !== '');
	const what = parts.length > 0 ? parts.join(', ') : entry.file_name || '(nothing read yet)';
	return entry.books ? `${what} (${entry.books})` : what;
}

interface Section {
	title: string;
	entries: DigestEntry[];
	line: (entry: DigestEntry) => string;
}

/** " (step 2 of 2, finance director)" from a policy step's state; "" for plain "awaiting approval". */
function stepOf(state: string): string {
	const step = state.slice(REGISTER_STATES.awaitingApproval.length).replace(/^:\s*/, '').trim();
	return step ? ` (${step})` : '';
}

function sectionsOf(digest: DigestSections): Section[] {
	return [
		{
			title: 'Awaiting approval',
			entries: digest.awaiting_approval,
			line: (entry) =>
				`${describe(entry)}: waiting ${entry.hours} h${stepOf(entry.state)}${entry.detail ? `, ${entry.detail}` : ''}`,
		},
		{
			title: 'Failed',
			entries: digest.failed,
			line: (entry) =>
				`${describe(entry)}: ${entry.state}${entry.detail ? `: ${entry.detail}` : ''}`,
		},
		{
			title: 'Received, not finished',
			entries: digest.unfinished,
			line: (entry) => `${describe(entry)}: received ${entry.hours} h ago`,
		},
		{
			title: `Booked since ${digest.booked_since}`,
			entries: digest.booked,
			line: (entry) => `${describe(entry)}${entry.bill_id ? `: bill ${entry.bill_id}` : ''}`,
		},
	];
}

function totalsLine(totals: CurrencyTotal[]): string {
	return totals.map((total) => `${total.currency} ${total.total_text} (${total.count})`).join(', ');
}

function textOf(digest: DigestSections): string {
	const blocks = sectionsOf(digest)
		.filter((section) => section.entries.length > 0)
		.map((section) => {
			const lines = section.entries.map((entry) => `- ${section.line(entry)}`);
			return [`${section.title} (${section.entries.length})`, ...lines].join('\n');
		});
	if (digest.booked_totals.length > 0)
		blocks.push(`Booked in total: ${totalsLine(digest.booked_totals)}`);
	return `${blocks.join('\n\n')}\n`;
}

/** Every text from the register escaped: supplier names, numbers and reasons come from documents. */
function htmlOf(digest: DigestSections): string {
	const blocks = sectionsOf(digest)
		.filter((section) => section.entries.length > 0)
		.map(
			(section) =>
				`<h3>${escapeHtml(section.title)} (${section.entries.length})</h3><ul>` +
				section.entries.map((entry) => `<li>${escapeHtml(section.line(entry))}</li>`).join('') +
				'</ul>',
		);
	if (digest.booked_totals.length > 0)
		blocks.push(`<p><b>Booked in total:</b> ${escapeHtml(totalsLine(digest.booked_totals))}</p>`);
	return blocks.join('\n');
}

function subjectOf(digest: DigestSections): string {
	const { counts } = digest;
	const parts = [
		counts.awaiting_approval > 0 ? `${counts.awaiting_approval} awaiting approval` : '',
		counts.failed > 0 ? `${counts.failed} failed` : '',
		counts.unfinished > 0 ? `${counts.unfinished} not finished` : '',
		counts.booked > 0 ? `${counts.booked} booked` : '',
	].filter((part) => part !== '');
	return `Invoice register: ${parts.join(', ') || 'nothing new'}`;
}

/**
 * What the digest lists: rows awaiting approval or still received for longer than their threshold
 * (strictly: exactly the threshold is not yet listed), every failed row, and rows booked after the
 * last digest and no later than now. A row's time is its last write (`updatedAt`), when it got its
 * state.
 */
export function registerDigest(rows: RegisterRow[], settings: DigestSettings): RegisterDigest {
	const { now } = settings;
	const since = settings.lastDigestAt ?? new Date(now.getTime() - DAY_MS);
	const older = (time: Date, hours: number) => now.getTime() - time.getTime() > hours * HOUR_MS;
	const sections = {
		awaiting_approval: [] as DigestEntry[],
		failed: [] as DigestEntry[],
		unfinished: [] as DigestEntry[],
		booked: [] as DigestEntry[],
	};
	for (const row of rows) {
		const time = timeOf(row.updatedAt) ?? timeOf(row.createdAt);
		if (!time) continue;
		const state = oneLine(row.state).toLowerCase();
		const entry = () => entryOf(row, time, now);
		// "awaiting approval", or a policy's step: "awaiting approval: step 2 of 2, finance director".
		if (state.startsWith(REGISTER_STATES.awaitingApproval)) {
			if (older(time, settings.awaitingApprovalHours)) sections.awaiting_approval.push(entry());
		} else if (state.startsWith(REGISTER_STATES.failedPrefix)) {
			sections.failed.push(entry());
		} else if (state === REGISTER_STATES.received) {
			if (older(time, settings.unfinishedHours)) sections.unfinished.push(entry());
		} else if (state === REGISTER_STATES.booked) {
			if (time > since && time <= now) sections.booked.push(entry());
		}
	}
	for (const entries of Object.values(sections)) entries.sort(byOldest);
	const { totals, withoutTotal } = totalsPerCurrency(sections.booked);
	const counts = {
		awaiting_approval: sections.awaiting_approval.length,
		failed: sections.failed.length,
		unfinished: sections.unfinished.length,
		booked: sections.booked.length,
	};
	const needsPerson = counts.awaiting_approval + counts.failed + counts.unfinished > 0;
	const digest = {
		send: needsPerson || counts.booked > 0,
		needs_person: needsPerson,
		digest_at: now.toISOString(),
		booked_since: since.toISOString(),
		counts,
		...sections,
		booked_totals: totals,
		booked_without_total: withoutTotal,
	};
	return {
		...digest,
		subject: subjectOf(digest),
		digest_text: textOf(digest),
		digest_html: htmlOf(digest),
	};
}
