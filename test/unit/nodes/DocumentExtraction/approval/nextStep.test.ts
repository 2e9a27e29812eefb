/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The next approval step under a team's policy: bands and their edges, currencies, credit notes,
// overrides and their precedence, delegates in their time zone, decisions that count and those that
// change nothing, a missing approver, an empty policy; and the seed that reproduces the templates.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import type {
	Circumstances,
	DecisionSoFar,
	InvoiceForApproval,
} from '../../../../../nodes/DocumentExtraction/approval/nextStep.ts';
import { nextStep } from '../../../../../nodes/DocumentExtraction/approval/nextStep.ts';
import type { PolicyRow } from '../../../../../nodes/DocumentExtraction/approval/policy.ts';
import { PolicyError } from '../../../../../nodes/DocumentExtraction/approval/policyError.ts';

const MARIA = { name: 'Maria Manager', email: 'manager@example.com' };
const FRANK = { name: 'Frank Finance', email: 'finance-director@example.com' };
const OLIVIA = { name: 'Olivia Office', email: 'office@example.com' };
const TOM = { name: 'Tom Temp', email: 'tom@example.com' };
const CEO = { name: 'Cora CEO', email: 'ceo@example.com' };

/** The example of docs/approvals.md: three bands, three roles, three overrides, one delegate. */
const TEAM: PolicyRow[] = [
	{ kind: 'band', up_to: 1000, currency: 'EUR', steps: 'none' },
	{ kind: 'band', up_to: 10000, currency: 'EUR', steps: 'budget holder' },
	{ kind: 'band', up_to: null, currency: 'EUR', steps: 'budget holder, finance director' },
	{
		kind: 'step',
		role: 'budget holder',
		...MARIA,
		remind_after_hours: 24,
		escalate_after_hours: 48,
		escalate_to_name: FRANK.name,
		escalate_to_email: FRANK.email,
		end_after_hours: 72,
	},
	{
		kind: 'step',
		role: 'finance director',
		...FRANK,
		remind_after_hours: 24,
		escalate_after_hours: 48,
		escalate_to_name: CEO.name,
		escalate_to_email: CEO.email,
		end_after_hours: 72,
	},
	{ kind: 'step', role: 'office manager', ...OLIVIA, remind_after_hours: 8, end_after_hours: 48 },
	{ kind: 'override', new_supplier: true, steps: 'budget holder, finance director' },
	{ kind: 'override', supplier: 'Paper & Co', steps: 'office manager' },
	{ kind: 'override', cost_centre: 'IT', steps: 'finance director' },
	{
		kind: 'delegate',
		delegate_for: MARIA.email,
		...TOM,
		valid_from: '2026-12-21',
		valid_until: '2026-12-24',
	},
];

const NOW = '2026-11-02T09:00:00.000Z';
const AT: Circumstances = { now: NOW, timeZone: 'Europe/Berlin' };
const invoice = (total: number, extra: Partial<InvoiceForApproval> = {}): InvoiceForApproval => ({
	total,
	currency: 'EUR',
	supplier: 'Acme Supplies GmbH',
	...extra,
});
const next = (
	bill: InvoiceForApproval,
	decisions: DecisionSoFar[] = [],
	circumstances: Partial<Circumstances> = {},
	rows: PolicyRow[] = TEAM,
) => nextStep(rows, bill, decisions, { ...AT, ...circumstances });

/** The PolicyError `act` throws: its message and what to fix. */
function problemOf(act: () => unknown): { message: string; fix: string } {
	let caught: unknown;
	try {
		act();
	} catch (error) {
		caught = error;
	}
	expect(caught).toBeInstanceOf(PolicyError);
	const problem = caught as PolicyError;
	return { message: problem.message, fix: problem.fix };
}

describe('bands by amount, edges included in the lower band', () => {
	it.each([
		[999.99, 0, null],
		[1000, 0, null],
		[1000.01, 1, 'budget holder'],
		[10000, 1, 'budget holder'],
		[10000.01, 2, 'budget holder'],
	])('%s EUR: %s steps, first %s', (total, steps, role) => {
		const step = next(invoice(total));
		expect(step.steps).toBe(steps);
		expect(step.role).toBe(role);
		expect(step.status).toBe(steps ? 'waiting' : 'approved');
	});

	it('under the first band: approved, no approval needed, the note says so', () => {
		const step = next(invoice(1000));
		expect(step).toMatchObject({
			status: 'approved',
			rule: 'band up to 1000.00 EUR',
			decided_by: null,
			decided_at: NOW,
			note: `No approval needed (1000.00 EUR, band up to 1000.00 EUR): booked without approval on ${NOW}`,
		});
	});

	it('above the top band: the budget holder, then the finance director; who, which step, by when', () => {
		const step = next(invoice(25000));
		expect(step).toMatchObject({
			status: 'waiting',
			rule: 'band above the other bands EUR',
			roles: ['budget holder', 'finance director'],
			steps: 2,
			step: 1,
			approver: MARIA,
			decider: MARIA,
			for: null,
			asked_at: NOW,
			remind_at: '2026-11-03T09:00:00.000Z',
			escalate_at: '2026-11-04T09:00:00.000Z',
			escalate_to: FRANK,
			end_at: '2026-11-05T09:00:00.000Z',
			escalated: false,
			reason:
				'Maria Manager <manager@example.com> decides step 1 of 2 (budget holder) by 2026-11-05T09:00:00.000Z',
		});
	});

	it('a credit note by its absolute amount: −1,000.01 asks the budget holder like a bill', () => {
		const step = next(invoice(-1000.01, { creditNote: true }));
		expect(step).toMatchObject({ amount: '1000.01', credit_note: true, steps: 1 });
		expect(next(invoice(-1000)).status).toBe('approved');
		expect(next(invoice(-1000)).credit_note).toBe(true);
	});

	it('an amount with more than 2 decimals is no amount to the cent: an error that says what to map', () => {
		expect(problemOf(() => next(invoice(1000.005))).message).toContain('more than 2 decimals');
		expect(problemOf(() => next({ total: undefined })).fix).toContain('Map Total');
	});
});

describe('currencies', () => {
	const rates = { USD: 0.92 };

	it('converted to the bands’ home currency in whole cents, rounded half away from zero', () => {
		// 1,086.96 USD × 0.92 = 999.9952 EUR → 1,000.00: no approval; 1,086.97 → 1,000.0124 → 1,000.01.
		const under = next(invoice(1086.96, { currency: 'USD' }), [], { rates });
		expect(under).toMatchObject({
			status: 'approved',
			compared_amount: '1000.00',
			compared_currency: 'EUR',
			conversion: '1086.96 USD at 0.92',
		});
		const over = next(invoice(1086.97, { currency: 'usd' }), [], { rates });
		expect(over).toMatchObject({ status: 'waiting', compared_amount: '1000.01', steps: 1 });
	});

	it('a rate written as text is exact too; the same currency needs no rate', () => {
		const step = next(invoice(1000, { currency: 'GBP' }), [], { rates: { GBP: '1.17' } });
		expect(step).toMatchObject({ compared_amount: '1170.00', steps: 1 });
		expect(next(invoice(1000.01)).conversion).toBeNull();
	});

	it('a missing rate: an error naming the rate to set', () => {
		const problem = problemOf(() => next(invoice(500, { currency: 'USD' })));
		expect(problem.message).toBe(
			"No conversion rate from USD to EUR: the policy's bands are in EUR",
		);
		expect(problem.fix).toBe(
			'Set Conversion Rates to include USD, e.g. {"USD": 0.92} (1 USD = 0.92 EUR)',
		);
	});

	it("bands without a currency compare in the invoice's own, whatever it is", () => {
		const rows = TEAM.map((row) => (row.kind === 'band' ? { ...row, currency: '' } : row));
		const step = next(invoice(5000, { currency: 'JPY' }), [], {}, rows);
		expect(step).toMatchObject({ compared_amount: '5000.00', compared_currency: 'JPY', steps: 1 });
	});

	it('bands in two currencies and none in the invoice’s: an error, not a guess', () => {
		const rows = [...TEAM, { kind: 'band', up_to: null, currency: 'GBP', steps: 'budget holder' }];
		expect(problemOf(() => next(invoice(5000, { currency: 'USD' }), [], {}, rows)).message).toBe(
			"The policy's bands are in EUR, GBP, none in USD",
		);
		expect(next(invoice(5000, { currency: 'GBP' }), [], {}, rows).rule).toBe(
			'band above the other bands GBP',
		);
	});
});

describe('overrides and their precedence: supplier, then new supplier, then cost centre, then the band', () => {
	it('one supplier always the office manager, whatever the amount (its name compared loosely)', () => {
		const step = next(invoice(50000, { supplier: '  paper  & CO ' }));
		expect(step).toMatchObject({
			rule: 'override for supplier Paper & Co',
			steps: 1,
			role: 'office manager',
			decider: OLIVIA,
			escalate_at: null,
			escalate_to: null,
		});
	});

	it('a new supplier always two steps, even under the first band', () => {
		const step = next(invoice(12, { newSupplier: true }));
		expect(step).toMatchObject({ rule: 'override for a new supplier', steps: 2, step: 1 });
	});

	it('a cost centre: its rule instead of the band', () => {
		expect(next(invoice(500, { costCentre: 'it' }))).toMatchObject({
			rule: 'override for cost centre IT',
			role: 'finance director',
		});
	});

	it('supplier beats new supplier beats cost centre', () => {
		expect(
			next(invoice(500, { supplier: 'Paper & Co', newSupplier: true, costCentre: 'IT' })).rule,
		).toBe('override for supplier Paper & Co');
		expect(next(invoice(500, { newSupplier: true, costCentre: 'IT' })).rule).toBe(
			'override for a new supplier',
		);
	});

	it('an override naming two things, or none: an error naming the row', () => {
		const rows = [...TEAM, { kind: 'override', supplier: 'X', cost_centre: 'Y', steps: 'none' }];
		expect(problemOf(() => next(invoice(5), [], {}, rows)).message).toBe(
			'Row 11 must name exactly one of supplier, cost_centre or new_supplier (it names 2)',
		);
	});
});

describe('delegates between two dates, in the policy’s time zone', () => {
	// Europe/Berlin is UTC+1 in December: the 21st starts at 2026-12-20T23:00Z, the 25th at 2026-12-24T23:00Z.
	it.each([
		['2026-12-20T22:59:59.999Z', MARIA, null],
		['2026-12-20T23:00:00.000Z', TOM, MARIA],
		['2026-12-21T00:00:00+01:00', TOM, MARIA],
		['2026-12-24T23:59:59.999+01:00', TOM, MARIA],
		['2026-12-24T23:00:00.000Z', MARIA, null],
		['2026-12-25T00:00:00+01:00', MARIA, null],
	])('at %s the decider is %o, standing in for %o', (now, decider, standsFor) => {
		const step = next(invoice(5000), [], { now });
		expect(step.decider).toEqual(decider);
		expect(step.for).toEqual(standsFor);
		expect(step.approver).toEqual(MARIA);
	});

	it("the same dates in another zone move the window: New York's 21st starts at 05:00Z", () => {
		const at = (now: string) => next(invoice(5000), [], { now, timeZone: 'America/New_York' });
		expect(at('2026-12-21T04:59:59Z').decider).toEqual(MARIA);
		expect(at('2026-12-21T05:00:00Z').decider).toEqual(TOM);
	});

	it('a window with times and offsets: from included, until excluded', () => {
		const rows = TEAM.map((row) =>
			row.kind === 'delegate'
				? { ...row, valid_from: '2026-12-21T09:00:00+01:00', valid_until: '2026-12-21T17:00+01:00' }
				: row,
		);
		const at = (now: string) => next(invoice(5000), [], { now }, rows).decider;
		expect(at('2026-12-21T07:59:59Z')).toEqual(MARIA);
		expect(at('2026-12-21T08:00:00Z')).toEqual(TOM);
		expect(at('2026-12-21T15:59:59Z')).toEqual(TOM);
		expect(at('2026-12-21T16:00:00Z')).toEqual(MARIA);
	});

	it("the delegate's decision counts for the approver, and the record says so; outside the window it changes nothing", () => {
		const decided = next(
			invoice(5000),
			[
				{
					by: 'Tom Temp <TOM@example.com>',
					step: 1,
					decision: 'Approve',
					at: '2026-12-22T10:00:00Z',
				},
			],
			{ now: '2026-12-22T10:05:00Z', startedAt: '2026-12-22T08:00:00Z' },
		);
		expect(decided).toMatchObject({
			status: 'approved',
			decided_by: 'Tom Temp <tom@example.com> for Maria Manager <manager@example.com>',
			note: 'Approved by Tom Temp <tom@example.com> for Maria Manager <manager@example.com> on 2026-12-22T10:00:00.000Z',
		});
		expect(decided.decisions[0]).toMatchObject({ by: TOM, for: MARIA, as: 'delegate' });
		const early = next(
			invoice(5000),
			[{ by: TOM.email, step: 1, decision: 'Approve', at: '2026-12-20T10:00:00Z' }],
			{ now: '2026-12-20T10:05:00Z', startedAt: '2026-12-20T08:00:00Z' },
		);
		expect(early.status).toBe('waiting');
		expect(early.ignored).toEqual([
			{
				by: TOM.email,
				step: 1,
				decision: 'Approve',
				at: '2026-12-20T10:00:00.000Z',
				why: 'tom@example.com is not the approver of step 1 (Maria Manager <manager@example.com>), nor their delegate then, nor its escalation after 2026-12-22T08:00:00.000Z',
			},
		]);
	});

	it('two delegates for the same approver at once: an error naming both rows', () => {
		const rows = [...TEAM, { ...TEAM[9], email: 'sam@example.com' }];
		expect(problemOf(() => next(invoice(5000), [], { now: '2026-12-22T10:00:00Z' }, rows))).toEqual(
			{
				message:
					'Row 10 and Row 11 both stand in for manager@example.com on 2026-12-22T10:00:00.000Z',
				fix: 'Shorten one of the delegate windows (valid_from, valid_until) so they do not overlap',
			},
		);
	});

	it('a delegate row without dates, or with a date that is none: an error saying what to write', () => {
		const without = TEAM.map((row) =>
			row.kind === 'delegate' ? { ...row, valid_until: null } : row,
		);
		expect(problemOf(() => next(invoice(5), [], {}, without)).message).toBe(
			'Row 10 has no valid_until',
		);
		const wrong = TEAM.map((row) =>
			row.kind === 'delegate' ? { ...row, valid_from: '21.12.2026' } : row,
		);
		expect(problemOf(() => next(invoice(5), [], {}, wrong)).fix).toContain('ISO 8601');
	});
});

describe('decisions so far', () => {
	const approve = (by: string, step: number, at: string): DecisionSoFar => ({
		by,
		step,
		decision: 'Approve',
		at,
	});

	it('step 1 approved: step 2 is asked from that moment, of the finance director', () => {
		const step = next(invoice(25000), [approve(MARIA.email, 1, '2026-11-02T10:00:00Z')], {
			now: '2026-11-02T10:01:00Z',
			startedAt: NOW,
		});
		expect(step).toMatchObject({
			status: 'waiting',
			step: 2,
			role: 'finance director',
			decider: FRANK,
			asked_at: '2026-11-02T10:00:00.000Z',
			end_at: '2026-11-05T10:00:00.000Z',
		});
	});

	it('both steps approved: approved, the note names both in order', () => {
		const step = next(
			invoice(25000),
			[
				approve(FRANK.email, 2, '2026-11-02T11:00:00Z'),
				approve(MARIA.email, 1, '2026-11-02T10:00:00Z'),
			],
			{ now: '2026-11-02T12:00:00Z', startedAt: NOW },
		);
		expect(step).toMatchObject({
			status: 'approved',
			decided_by: 'Frank Finance <finance-director@example.com>',
			decided_at: '2026-11-02T11:00:00.000Z',
			note: 'Approved by Maria Manager <manager@example.com> on 2026-11-02T10:00:00.000Z; then Approved by Frank Finance <finance-director@example.com> on 2026-11-02T11:00:00.000Z',
		});
		expect(step.ignored).toEqual([]);
	});

	it('a rejection at any step ends it, with its reason; later decisions change nothing', () => {
		const step = next(
			invoice(25000),
			[
				approve(MARIA.email, 1, '2026-11-02T10:00:00Z'),
				{
					by: FRANK.email,
					step: 2,
					decision: 'Reject',
					at: '2026-11-02T11:00:00Z',
					reason: 'Not ordered',
				},
				approve(FRANK.email, 2, '2026-11-02T12:00:00Z'),
			],
			{ now: '2026-11-02T13:00:00Z', startedAt: NOW },
		);
		expect(step).toMatchObject({
			status: 'rejected',
			reason:
				'Rejected at step 2 of 2 (finance director) by Frank Finance <finance-director@example.com> on 2026-11-02T11:00:00.000Z: Not ordered',
		});
		expect(step.ignored.map((ignored) => ignored.why)).toEqual([
			'the invoice was already rejected',
		]);
	});

	it('someone who is not the approver: nothing changes, and the output says why', () => {
		const step = next(invoice(5000), [approve('intern@example.com', 1, '2026-11-02T09:30:00Z')]);
		expect(step.status).toBe('waiting');
		expect(step.decisions).toEqual([]);
		expect(step.ignored[0].why).toMatch(/^intern@example.com is not the approver of step 1/);
	});

	it('no approval asked twice: a second approval of a step, or by the same person, changes nothing', () => {
		const step = next(
			invoice(25000),
			[
				approve(MARIA.email, 1, '2026-11-02T10:00:00Z'),
				approve(MARIA.email, 1, '2026-11-02T10:05:00Z'),
			],
			{ now: '2026-11-02T10:10:00Z', startedAt: NOW },
		);
		expect(step).toMatchObject({ status: 'waiting', step: 2 });
		expect(step.ignored.map((ignored) => ignored.why)).toEqual([
			'manager@example.com already approved step 1 on 2026-11-02T10:00:00.000Z: no approval is asked twice',
		]);
	});

	it('a step whose approver already approved an earlier step counts as approved: nobody is asked twice', () => {
		const rows = TEAM.map((row) => (row.role === 'finance director' ? { ...row, ...MARIA } : row));
		const step = next(
			invoice(25000),
			[approve(MARIA.email, 1, '2026-11-02T10:00:00Z')],
			{
				now: '2026-11-02T10:10:00Z',
			},
			rows,
		);
		expect(step.status).toBe('approved');
		expect(step.decisions.map((decision) => [decision.step, decision.as])).toEqual([
			[1, 'approver'],
			[2, 'earlier step'],
		]);
	});

	it('a step not asked yet, or one the policy does not have: nothing changes', () => {
		const step = next(invoice(5000), [approve(FRANK.email, 2, '2026-11-02T09:30:00Z')]);
		expect(step.ignored[0].why).toBe('the policy asks 1 step, there is no step 2');
		const later = next(invoice(25000), [approve(FRANK.email, 2, '2026-11-02T09:30:00Z')]);
		expect(later.ignored[0].why).toBe('step 2 is not asked yet (step 1 is)');
	});

	it('the escalation address decides once the step has escalated, not before', () => {
		const early = next(invoice(5000), [approve(FRANK.email, 1, '2026-11-03T09:00:00Z')], {
			now: '2026-11-03T10:00:00Z',
			startedAt: NOW,
		});
		expect(early.status).toBe('waiting');
		const escalated = next(invoice(5000), [], { now: '2026-11-04T09:00:00Z', startedAt: NOW });
		expect(escalated).toMatchObject({ escalated: true, decider: FRANK, for: MARIA });
		const decided = next(invoice(5000), [approve(FRANK.email, 1, '2026-11-04T09:00:00Z')], {
			now: '2026-11-04T10:00:00Z',
			startedAt: NOW,
		});
		expect(decided).toMatchObject({
			status: 'approved',
			decided_by:
				'Frank Finance <finance-director@example.com> for Maria Manager <manager@example.com>',
		});
	});

	it('past the end with no decision: no decision, nothing booked; a late answer changes nothing', () => {
		const step = next(invoice(5000), [approve(MARIA.email, 1, '2026-11-05T09:00:01Z')], {
			now: '2026-11-05T09:00:01Z',
			startedAt: NOW,
		});
		expect(step).toMatchObject({
			status: 'no_decision',
			reason:
				'Nobody decided step 1 of 1 (budget holder) by 2026-11-05T09:00:00.000Z: not Maria Manager <manager@example.com>, not Frank Finance <finance-director@example.com>. Nothing is booked.',
		});
		expect(step.ignored[0].why).toBe('it came after step 1 ended on 2026-11-05T09:00:00.000Z');
	});

	it('a decision that is neither approve nor reject, or has no time: an error saying what to map', () => {
		expect(
			problemOf(() => next(invoice(5000), [{ by: MARIA.email, decision: 'maybe', at: NOW }])),
		).toEqual({
			message: 'Decision 1: "maybe" is neither approve nor reject',
			fix: "Map each decision's decision to Approve or Reject",
		});
		expect(
			problemOf(() => next(invoice(5000), [{ by: MARIA.email, decision: 'Approve' }])).message,
		).toBe('Decision 1 has no at (when it was made)');
	});
});

describe('a policy that cannot decide: an error, never an invoice booked without its approval', () => {
	it('a step whose approver is missing: an error naming the role and the row to add', () => {
		const rows = TEAM.filter((row) => row.role !== 'finance director');
		expect(problemOf(() => next(invoice(25000), [], {}, rows))).toEqual({
			message:
				'Step 2 of 2 ("finance director", from the band above the other bands EUR) has no approver',
			fix: "Add a row with kind step, role finance director, and the approver's name and email",
		});
		const noEmail = TEAM.map((row) => (row.role === 'budget holder' ? { ...row, email: '' } : row));
		expect(problemOf(() => next(invoice(5000), [], {}, noEmail)).message).toBe(
			'Step 1 of 1 ("budget holder", from the band up to 10000.00 EUR) has no approver (Row 4 has no email)',
		);
	});

	it('an empty policy (or one without bands): an error saying which rows to add', () => {
		for (const rows of [[], TEAM.filter((row) => row.kind !== 'band')]) {
			const problem = problemOf(() => next(invoice(5), [], {}, rows));
			expect(problem.message).toBe(
				'The Approval policy has no band rows, so no invoice can be approved',
			);
			expect(problem.fix).toContain('Add at least one row with kind band');
		}
	});

	it('no band covers the amount: an error, not a pass', () => {
		const rows = TEAM.filter((row) => !(row.kind === 'band' && row.up_to === null));
		expect(problemOf(() => next(invoice(25000), [], {}, rows)).message).toBe(
			'No band covers 25000.00 EUR: the highest goes up to 10000.00',
		);
	});

	it('a kind the table does not know, or steps left empty: an error naming the row', () => {
		expect(problemOf(() => next(invoice(5), [], {}, [{ kind: 'bnad' }])).message).toBe(
			'Row 1: kind "bnad" is not one of band, step, override, delegate',
		);
		expect(problemOf(() => next(invoice(5), [], {}, [{ kind: 'band', id: 7 }])).fix).toContain(
			'or none',
		);
	});
});

/** The rows of a CSV file (no quoted commas). */
function csvRows(text: string): PolicyRow[] {
	const [header, ...lines] = text.trim().split('\n');
	const columns = header.split(',');
	return lines.map((line) => {
		const cells = line.split(',');
		return Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? '']));
	});
}

describe('the seed: the templates’ behaviour today as policy rows', () => {
	const root = join(__dirname, '..', '..', '..', '..', '..');
	const seed = csvRows(readFileSync(join(root, 'examples', 'approval-policy.csv'), 'utf8'));
	const settings = (template: string) => {
		const workflow = JSON.parse(readFileSync(join(root, 'examples', template), 'utf8')) as {
			nodes: Array<{
				name: string;
				parameters: { assignments?: { assignments: Array<{ name: string; value: string }> } };
			}>;
		};
		const node = workflow.nodes.find((found) => found.name === 'Settings');
		return Object.fromEntries(
			(node?.parameters.assignments?.assignments ?? []).map((field) => [field.name, field.value]),
		);
	};

	it.each([
		'invoices-email-to-xero-with-approval.workflow.json',
		'invoices-email-to-quickbooks-with-approval.workflow.json',
	])(
		'%s: one threshold, one approver, a reminder, escalation to a second address, then no decision',
		(template) => {
			const today = settings(template);
			const threshold = Number(today.approval_threshold);
			const hours = Number(today.answer_within_minutes) / 60;
			const at = (hoursAfter: number) =>
				new Date(Date.parse(NOW) + hoursAfter * 3_600_000).toISOString();
			const seedNext = (total: number, now = NOW, decisions: DecisionSoFar[] = []) =>
				nextStep(seed, { total, currency: 'USD' }, decisions, {
					now,
					startedAt: NOW,
					timeZone: 'UTC',
				});

			expect(seedNext(threshold).status).toBe('approved');
			expect(seedNext(-threshold).status).toBe('approved');
			const asked = seedNext(threshold + 0.01);
			expect(asked).toMatchObject({
				status: 'waiting',
				steps: 1,
				decider: { email: today.approver_email },
				remind_at: at(hours),
				escalate_at: at(2 * hours),
				escalate_to: { email: today.escalation_email },
				end_at: at(3 * hours),
			});
			expect(seedNext(-(threshold + 0.01)).steps).toBe(1);
			expect(seedNext(threshold + 0.01, at(2 * hours)).decider).toMatchObject({
				email: today.escalation_email,
			});
			expect(seedNext(threshold + 0.01, at(3 * hours)).status).toBe('no_decision');
			const escalatedDecision = {
				by: today.escalation_email,
				decision: 'Approve',
				at: at(2 * hours),
			};
			expect(seedNext(threshold + 0.01, at(2 * hours), [escalatedDecision]).status).toBe(
				'approved',
			);
		},
	);
});
