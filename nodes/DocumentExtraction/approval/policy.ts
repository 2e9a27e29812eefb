/**
 * The Approval policy as a team keeps it in one n8n Data Table (docs/approvals.md#approval-policy):
 * one row per band, step, override or delegate, told apart by the `kind` column, every column flat
 * (string, number, boolean, date). This module reads the rows into the rules nextStep.ts applies;
 * a row that cannot be read is a PolicyError naming the row and the column to fix. Pure.
 */
import { centsOf, moneyText } from '../bill/money.ts';
import { nextDayStart, parseInstant } from './instant.ts';
import { PolicyError } from './policyError.ts';

/** The table's columns, as the team sees them in n8n's Data tables page. */
export const POLICY_COLUMNS = {
	kind: 'string',
	up_to: 'number',
	currency: 'string',
	steps: 'string',
	supplier: 'string',
	cost_centre: 'string',
	new_supplier: 'boolean',
	role: 'string',
	name: 'string',
	email: 'string',
	remind_after_hours: 'number',
	escalate_after_hours: 'number',
	escalate_to_name: 'string',
	escalate_to_email: 'string',
	end_after_hours: 'number',
	delegate_for: 'string',
	valid_from: 'date',
	valid_until: 'date',
	note: 'string',
} as const;

export type PolicyRow = Partial<Record<keyof typeof POLICY_COLUMNS | 'id', unknown>>;

export interface Person {
	name: string | null;
	email: string;
}

/** Amounts up to `upToCents` (included); null: every amount above the other bands. */
export interface Band {
	label: string;
	upToCents: number | null;
	/** The currency of `up_to`; null: the invoice's own. */
	currency: string | null;
	roles: string[];
}

export interface StepRule {
	role: string;
	row: string;
	approver: Person | null;
	remindAfterMs: number | null;
	escalateAfterMs: number | null;
	escalateTo: Person | null;
	endAfterMs: number | null;
}

export type OverrideMatch = 'supplier' | 'cost_centre' | 'new_supplier';

export interface Override {
	label: string;
	match: OverrideMatch;
	/** The supplier or cost centre as compared (normalized); '' for new_supplier. */
	value: string;
	roles: string[];
}

export interface Delegation {
	label: string;
	forEmail: string;
	delegate: Person;
	from: number;
	/** The first instant no longer covered. */
	until: number;
}

export interface Policy {
	bands: Band[];
	steps: Map<string, StepRule>;
	overrides: Override[];
	delegates: Delegation[];
}

const KINDS = ['band', 'step', 'override', 'delegate'] as const;

/** Text as compared: trimmed, spaces collapsed, lower case. */
export function keyOf(value: unknown): string {
	return text(value).replace(/\s+/g, ' ').toLowerCase();
}

function text(value: unknown): string {
	return value === null || value === undefined ? '' : String(value).trim();
}

/** An email address alone, from "Name <address>" or the address. */
export function emailOf(value: unknown): string {
	const written = text(value);
	return (/<([^<>]+)>\s*$/.exec(written)?.[1] ?? written).trim().toLowerCase();
}

function person(name: unknown, email: unknown): Person | null {
	const address = emailOf(email);
	return address ? { name: text(name) || null, email: address } : null;
}

/** The roles a band or an override names, in order, each once; none: no approval. */
function rolesOf(row: PolicyRow, label: string): string[] {
	const written = text(row.steps);
	if (!written)
		throw new PolicyError(
			`${label} has no steps`,
			'Fill its steps column: the roles that approve, in order, separated by commas (e.g. budget holder, finance director), or none',
		);
	if (keyOf(written) === 'none') return [];
	return [...new Set(written.split(',').map(keyOf).filter(Boolean))];
}

function hoursOf(row: PolicyRow, column: keyof PolicyRow, label: string): number | null {
	const value = row[column];
	if (value === null || value === undefined || value === '') return null;
	const hours = Number(value);
	if (!Number.isFinite(hours) || hours < 0)
		throw new PolicyError(
			`${label}: ${column} (${text(value)}) is not a number of hours`,
			`Set ${column} to a number of hours (e.g. 24), or leave it empty`,
		);
	return Math.round(hours * 3_600_000);
}

function bandOf(row: PolicyRow, label: string): Band {
	const currency = text(row.currency).toUpperCase() || null;
	let upToCents: number | null = null;
	if (row.up_to !== null && row.up_to !== undefined && row.up_to !== '') {
		const cents = centsOf(Number(row.up_to), `${label}: up_to`);
		if (cents.problem !== undefined)
			throw new PolicyError(cents.problem, 'Set up_to to an amount with at most 2 decimals');
		upToCents = cents.cents;
	}
	const range = upToCents === null ? 'above the other bands' : `up to ${moneyText(upToCents)}`;
	return {
		label: `band ${range}${currency ? ` ${currency}` : ''}`,
		upToCents,
		currency,
		roles: rolesOf(row, label),
	};
}

function stepOf(row: PolicyRow, label: string): StepRule {
	const role = keyOf(row.role);
	if (!role)
		throw new PolicyError(
			`${label} has no role`,
			'Fill its role column with the name the bands and overrides use in steps',
		);
	const rule: StepRule = {
		role,
		row: label,
		approver: person(row.name, row.email),
		remindAfterMs: hoursOf(row, 'remind_after_hours', label),
		escalateAfterMs: hoursOf(row, 'escalate_after_hours', label),
		escalateTo: person(row.escalate_to_name, row.escalate_to_email),
		endAfterMs: hoursOf(row, 'end_after_hours', label),
	};
	if (rule.escalateAfterMs !== null && !rule.escalateTo)
		throw new PolicyError(
			`${label} (${role}) escalates after ${text(row.escalate_after_hours)} hours to nobody`,
			'Fill escalate_to_email, or empty escalate_after_hours',
		);
	return rule;
}

function overrideOf(row: PolicyRow, label: string): Override {
	const supplier = keyOf(row.supplier);
	const costCentre = keyOf(row.cost_centre);
	const newSupplier = row.new_supplier === true || keyOf(row.new_supplier) === 'true';
	const matches = [supplier, costCentre, newSupplier].filter(Boolean).length;
	if (matches !== 1)
		throw new PolicyError(
			`${label} must name exactly one of supplier, cost_centre or new_supplier (it names ${matches})`,
			'Fill one of supplier, cost_centre or new_supplier (true) on the row; make one row per rule',
		);
	const roles = rolesOf(row, label);
	if (supplier)
		return {
			label: `override for supplier ${text(row.supplier)}`,
			match: 'supplier',
			value: supplier,
			roles,
		};
	if (costCentre)
		return {
			label: `override for cost centre ${text(row.cost_centre)}`,
			match: 'cost_centre',
			value: costCentre,
			roles,
		};
	return { label: 'override for a new supplier', match: 'new_supplier', value: '', roles };
}

function delegateOf(row: PolicyRow, label: string, timeZone: string): Delegation {
	const forEmail = emailOf(row.delegate_for);
	const delegate = person(row.name, row.email);
	if (!forEmail || !delegate)
		throw new PolicyError(
			`${label} needs delegate_for (the approver's email) and email (the delegate's)`,
			'Fill delegate_for and email on the row',
		);
	const from = parseInstant(row.valid_from, timeZone, `${label}: valid_from`);
	const until = parseInstant(row.valid_until, timeZone, `${label}: valid_until`);
	if (!from || !until)
		throw new PolicyError(
			`${label} has no ${from ? 'valid_until' : 'valid_from'}`,
			'Fill valid_from and valid_until: a delegate decides only between two dates',
		);
	// A date alone covers its whole day: the window ends when the next day starts.
	const end = until.dateOnly ? nextDayStart(until.at, timeZone) : until.at;
	if (end <= from.at)
		throw new PolicyError(`${label} ends before it starts`, 'Set valid_until after valid_from');
	return { label, forEmail, delegate, from: from.at, until: end };
}

/** The rows of the Approval policy table as rules; a PolicyError for the first row that cannot be read. */
export function policyOf(rows: readonly PolicyRow[], timeZone: string): Policy {
	const policy: Policy = { bands: [], steps: new Map(), overrides: [], delegates: [] };
	rows.forEach((row, index) => {
		const label = `Row ${text(row.id) || index + 1}`;
		const kind = keyOf(row.kind) as (typeof KINDS)[number];
		if (kind === 'band') policy.bands.push(bandOf(row, label));
		else if (kind === 'override') policy.overrides.push(overrideOf(row, label));
		else if (kind === 'delegate') policy.delegates.push(delegateOf(row, label, timeZone));
		else if (kind === 'step') {
			const step = stepOf(row, label);
			if (policy.steps.has(step.role))
				throw new PolicyError(
					`${label}: the role "${step.role}" has a step row already (${policy.steps.get(step.role)?.row})`,
					'Keep one step row per role; a second approver for a time is a delegate row',
				);
			policy.steps.set(step.role, step);
		} else
			throw new PolicyError(
				`${label}: kind "${text(row.kind)}" is not one of ${KINDS.join(', ')}`,
				`Set kind to ${KINDS.join(', ')}`,
			);
	});
	return policy;
}
