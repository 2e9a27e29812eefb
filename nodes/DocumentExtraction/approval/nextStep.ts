/**
 * Who decides an invoice next under the team's Approval policy (docs/approvals.md#approval-policy),
 * from the policy's rows, the invoice, the decisions so far and the time now: the approver or the
 * delegate standing in for them now, which step of how many, by when (reminder, escalation, end);
 * or that the invoice is approved or rejected, and why. A rejection at any step ends it; a decision
 * by someone who is neither the step's approver, nor their delegate at that moment, nor (after the
 * escalation time) the escalation address changes nothing and is listed with the reason; a step
 * once approved is never asked again, nor is a person who approved an earlier step. Pure.
 */
import { approvalNote } from '../bill/approval.ts';
import { moneyText } from '../bill/money.ts';
import { absoluteCents } from './comparedAmount.ts';
import { isoOf, parseInstant } from './instant.ts';
import type { Person, Policy, PolicyRow, StepRule } from './policy.ts';
import { emailOf, keyOf, policyOf } from './policy.ts';
import { PolicyError } from './policyError.ts';
import { requiredSteps } from './steps.ts';

export interface InvoiceForApproval {
	total: unknown;
	currency?: unknown;
	supplier?: unknown;
	costCentre?: unknown;
	newSupplier?: boolean;
	creditNote?: boolean;
}

/** One decision as the workflow recorded it (e.g. from the Send and Wait form's answer). */
export interface DecisionSoFar {
	/** Who decided: an email, or "Name <email>". */
	by?: unknown;
	/** The approver a delegate decided for (informative: the policy says whom a delegate covers). */
	for?: unknown;
	/** The step decided (1 is the first); empty: the step asked at that moment. */
	step?: unknown;
	/** Approve or Reject. */
	decision?: unknown;
	at?: unknown;
	reason?: unknown;
}

export interface Circumstances {
	now: unknown;
	/** When the first step was asked; empty: now. */
	startedAt?: unknown;
	timeZone: string;
	/** 1 unit of the invoice's currency = rate units of the bands' currency. */
	rates?: Record<string, unknown>;
}

export type ApprovalStatus = 'waiting' | 'approved' | 'rejected' | 'no_decision';

export interface RecordedDecision {
	step: number;
	role: string;
	decision: 'approved' | 'rejected';
	by: Person;
	/** The approver the decider stood in for (a delegate, the escalation address). */
	for: Person | null;
	as: 'approver' | 'delegate' | 'escalation' | 'earlier step';
	at: string;
	reason: string | null;
}

export interface IgnoredDecision {
	by: string;
	step: number | null;
	decision: string;
	at: string;
	why: string;
}

export interface NextStep {
	status: ApprovalStatus;
	reason: string;
	amount: string;
	currency: string | null;
	credit_note: boolean;
	compared_amount: string;
	compared_currency: string | null;
	conversion: string | null;
	rule: string;
	roles: string[];
	steps: number;
	step: number | null;
	role: string | null;
	approver: Person | null;
	/** Who decides now: the approver, their delegate, or the escalation address once escalated. */
	decider: Person | null;
	/** The approver the decider stands in for. */
	for: Person | null;
	asked_at: string | null;
	remind_at: string | null;
	escalate_at: string | null;
	escalate_to: Person | null;
	end_at: string | null;
	escalated: boolean;
	decisions: RecordedDecision[];
	ignored: IgnoredDecision[];
	decided_by: string | null;
	decided_at: string | null;
	/** The sentence for Build Bill's Approval → Note. */
	note: string | null;
}

const APPROVE = new Set(['approve', 'approved', 'yes']);
const REJECT = new Set(['reject', 'rejected', 'no']);

export function personText(person: Person): string {
	return person.name ? `${person.name} <${person.email}>` : person.email;
}

/** The instant of a step's moments after `askedAt`, or null where the step has none. */
function momentsOf(step: StepRule, askedAt: number) {
	const after = (ms: number | null) => (ms === null ? null : askedAt + ms);
	return {
		remind: after(step.remindAfterMs),
		escalate: after(step.escalateAfterMs),
		end: after(step.endAfterMs),
	};
}

/** The delegate standing in for `email` at `at`; a PolicyError when two rows do. */
function delegateAt(policy: Policy, email: string, at: number): Person | null {
	const covering = policy.delegates.filter(
		(delegation) => delegation.forEmail === email && delegation.from <= at && at < delegation.until,
	);
	if (covering.length > 1)
		throw new PolicyError(
			`${covering.map((found) => found.label).join(' and ')} both stand in for ${email} on ${isoOf(at)}`,
			'Shorten one of the delegate windows (valid_from, valid_until) so they do not overlap',
		);
	return covering[0]?.delegate ?? null;
}

interface Decider {
	person: Person;
	for: Person | null;
	as: RecordedDecision['as'];
}

/** In what capacity `email` may decide the step at `at`, or null: then the decision changes nothing. */
function capacityOf(
	policy: Policy,
	step: StepRule,
	askedAt: number,
	email: string,
	at: number,
): Decider | null {
	const approver = step.approver as Person;
	if (email === approver.email) return { person: approver, for: null, as: 'approver' };
	const delegate = delegateAt(policy, approver.email, at);
	if (delegate?.email === email) return { person: delegate, for: approver, as: 'delegate' };
	const escalate = momentsOf(step, askedAt).escalate;
	if (step.escalateTo?.email === email && escalate !== null && at >= escalate)
		return { person: step.escalateTo, for: approver, as: 'escalation' };
	return null;
}

/** Who is asked now: the escalation address once escalated, else the approver's delegate now, else the approver. */
function deciderNow(policy: Policy, step: StepRule, askedAt: number, now: number): Decider {
	const approver = step.approver as Person;
	const escalate = momentsOf(step, askedAt).escalate;
	if (step.escalateTo && escalate !== null && now >= escalate)
		return { person: step.escalateTo, for: approver, as: 'escalation' };
	const delegate = delegateAt(policy, approver.email, now);
	return delegate
		? { person: delegate, for: approver, as: 'delegate' }
		: { person: approver, for: null, as: 'approver' };
}

interface ParsedDecision {
	by: string;
	/** The name written with the email ("Maria Manager <…>"), used where the policy names none. */
	name: string | null;
	step: number | null;
	decision: 'approved' | 'rejected';
	written: string;
	at: number;
	reason: string | null;
}

function parseDecisions(decisions: readonly DecisionSoFar[], timeZone: string): ParsedDecision[] {
	const parsed = decisions.map((decision, index) => {
		const label = `Decision ${index + 1}`;
		const written = String(decision.decision ?? '').trim();
		const kind = keyOf(written);
		if (!APPROVE.has(kind) && !REJECT.has(kind))
			throw new PolicyError(
				`${label}: "${written}" is neither approve nor reject`,
				"Map each decision's decision to Approve or Reject",
			);
		const by = emailOf(decision.by);
		const at = parseInstant(decision.at, timeZone, `${label}: at`);
		if (!by || !at)
			throw new PolicyError(
				`${label} has no ${by ? 'at (when it was made)' : 'by (who made it)'}`,
				"Give each decision by (the decider's email) and at (ISO 8601, e.g. the form's respondedAt)",
			);
		const step = Number(decision.step);
		const name = /^(.*?)\s*<[^<>]+>\s*$/.exec(String(decision.by ?? '').trim())?.[1].trim();
		return {
			by,
			name: name || null,
			step:
				decision.step === undefined || decision.step === null || decision.step === '' ? null : step,
			decision: APPROVE.has(kind) ? ('approved' as const) : ('rejected' as const),
			written,
			at: at.at,
			reason: String(decision.reason ?? '').trim() || null,
		};
	});
	// In the order they were made; the same instant keeps the order given.
	return parsed
		.map((decision, index) => ({ decision, index }))
		.sort((a, b) => a.decision.at - b.decision.at || a.index - b.index)
		.map(({ decision }) => decision);
}

interface Walk {
	/** Steps approved so far. */
	approved: number;
	/** When the step being asked was asked. */
	askedAt: number;
	rejected: boolean;
	decisions: RecordedDecision[];
	ignored: IgnoredDecision[];
}

/** Why a decision changes nothing, or null when it counts. */
function whyIgnored(walk: Walk, steps: StepRule[], decision: ParsedDecision): string | null {
	const target = decision.step ?? walk.approved + 1;
	if (walk.rejected) return 'the invoice was already rejected';
	const counted = walk.decisions.find(
		(found) => found.as !== 'earlier step' && found.by.email === decision.by,
	);
	if (counted)
		return `${decision.by} already approved step ${counted.step} on ${counted.at}: no approval is asked twice`;
	if (!Number.isInteger(target) || target < 1 || target > steps.length)
		return `the policy asks ${steps.length} step${steps.length === 1 ? '' : 's'}, there is no step ${decision.step}`;
	if (target <= walk.approved) {
		const earlier = walk.decisions.find((found) => found.step === target);
		return `step ${target} was already approved${earlier ? ` by ${personText(earlier.by)} on ${earlier.at}` : ''}: no approval is asked twice`;
	}
	if (target > walk.approved + 1)
		return `step ${target} is not asked yet (step ${walk.approved + 1} is)`;
	return null;
}

/** Steps whose approver already approved an earlier step count as approved: nobody is asked twice. */
function carryOver(walk: Walk, steps: StepRule[]): void {
	while (walk.approved < steps.length) {
		const step = steps[walk.approved];
		const earlier = walk.decisions.find(
			(found) => found.decision === 'approved' && found.by.email === step.approver?.email,
		);
		if (!earlier) return;
		walk.approved += 1;
		walk.decisions.push({ ...earlier, step: walk.approved, role: step.role, as: 'earlier step' });
	}
}

function walkDecisions(
	policy: Policy,
	steps: StepRule[],
	decisions: ParsedDecision[],
	startedAt: number,
): Walk {
	const walk: Walk = {
		approved: 0,
		askedAt: startedAt,
		rejected: false,
		decisions: [],
		ignored: [],
	};
	for (const decision of decisions) {
		const ignore = (why: string) =>
			walk.ignored.push({
				by: decision.by,
				step: decision.step,
				decision: decision.written,
				at: isoOf(decision.at),
				why,
			});
		const why = whyIgnored(walk, steps, decision);
		if (why) {
			ignore(why);
			continue;
		}
		const step = steps[walk.approved];
		const end = momentsOf(step, walk.askedAt).end;
		if (end !== null && decision.at > end) {
			ignore(`it came after step ${walk.approved + 1} ended on ${isoOf(end)}`);
			continue;
		}
		const capacity = capacityOf(policy, step, walk.askedAt, decision.by, decision.at);
		if (!capacity) {
			ignore(
				`${decision.by} is not the approver of step ${walk.approved + 1} (${personText(step.approver as Person)}), nor their delegate then${step.escalateTo ? `, nor its escalation after ${isoOf(momentsOf(step, walk.askedAt).escalate ?? 0)}` : ''}`,
			);
			continue;
		}
		walk.decisions.push({
			step: walk.approved + 1,
			role: step.role,
			decision: decision.decision,
			by: capacity.person.name ? capacity.person : { ...capacity.person, name: decision.name },
			for: capacity.for,
			as: capacity.as,
			at: isoOf(decision.at),
			reason: decision.reason,
		});
		if (decision.decision === 'rejected') walk.rejected = true;
		else {
			walk.approved += 1;
			walk.askedAt = decision.at;
			carryOver(walk, steps);
		}
	}
	return walk;
}

function decidedByText(decision: RecordedDecision): string {
	return `${personText(decision.by)}${decision.for ? ` for ${personText(decision.for)}` : ''}`;
}

/** Where the invoice stands when no step is left to ask or one was rejected. */
function ended(walk: Walk, steps: StepRule[], now: number, base: NextStep): NextStep {
	const last = walk.decisions[walk.decisions.length - 1];
	if (walk.rejected) {
		const reason = `Rejected at step ${last.step} of ${steps.length} (${last.role}) by ${decidedByText(last)} on ${last.at}${last.reason ? `: ${last.reason}` : ''}`;
		return {
			...base,
			status: 'rejected',
			reason,
			decided_by: decidedByText(last),
			decided_at: last.at,
			note: reason,
		};
	}
	if (!steps.length) {
		const reason = `No approval needed (${base.compared_amount}${base.compared_currency ? ` ${base.compared_currency}` : ''}, ${base.rule})`;
		return {
			...base,
			status: 'approved',
			reason,
			decided_at: isoOf(now),
			note: `${reason}: booked without approval on ${isoOf(now)}`,
		};
	}
	const note = walk.decisions
		.filter((decision) => decision.as !== 'earlier step')
		.map((decision) => approvalNote({ decidedBy: decidedByText(decision), decidedAt: decision.at }))
		.join('; then ');
	return {
		...base,
		status: 'approved',
		reason: `Approved: ${steps.length} of ${steps.length} step${steps.length === 1 ? '' : 's'} (${base.rule})`,
		decided_by: decidedByText(last),
		decided_at: last.at,
		note,
	};
}

/** The step being asked: who decides, by when; or no decision when its end has passed. */
function asking(
	policy: Policy,
	walk: Walk,
	steps: StepRule[],
	now: number,
	base: NextStep,
): NextStep {
	const number = walk.approved + 1;
	const step = steps[walk.approved];
	const moments = momentsOf(step, walk.askedAt);
	const decider = deciderNow(policy, step, walk.askedAt, Math.min(now, moments.end ?? now));
	const at = (instant: number | null) => (instant === null ? null : isoOf(instant));
	const asked: NextStep = {
		...base,
		step: number,
		role: step.role,
		approver: step.approver,
		decider: decider.person,
		for: decider.for,
		asked_at: isoOf(walk.askedAt),
		remind_at: at(moments.remind),
		escalate_at: at(moments.escalate),
		escalate_to: step.escalateTo,
		end_at: at(moments.end),
		escalated: decider.as === 'escalation',
	};
	const which = `step ${number} of ${steps.length} (${step.role})`;
	if (moments.end !== null && now >= moments.end) {
		const reason = `Nobody decided ${which} by ${isoOf(moments.end)}: not ${personText(step.approver as Person)}${step.escalateTo ? `, not ${personText(step.escalateTo)}` : ''}. Nothing is booked.`;
		return { ...asked, status: 'no_decision', reason, note: reason };
	}
	const stands = decider.for ? ` for ${personText(decider.for)}` : '';
	const by = moments.end === null ? '' : ` by ${isoOf(moments.end)}`;
	return {
		...asked,
		status: 'waiting',
		reason: `${personText(decider.person)}${stands} decides ${which}${by}`,
	};
}

/** The next step of the invoice's approval; a PolicyError says what to fix in the table or the parameters. */
export function nextStep(
	rows: readonly PolicyRow[],
	invoice: InvoiceForApproval,
	decisions: readonly DecisionSoFar[],
	circumstances: Circumstances,
): NextStep {
	const { timeZone } = circumstances;
	const now = parseInstant(circumstances.now, timeZone, 'Now')?.at ?? Number.NaN;
	if (Number.isNaN(now))
		throw new PolicyError('Now is empty', 'Set Now to the current time, e.g. {{ $now.toISO() }}');
	const policy = policyOf(rows, timeZone);
	const cents = absoluteCents(invoice.total);
	const currency =
		String(invoice.currency ?? '')
			.trim()
			.toUpperCase() || null;
	const required = requiredSteps(
		policy,
		{
			cents,
			currency,
			supplier: String(invoice.supplier ?? ''),
			costCentre: String(invoice.costCentre ?? ''),
			newSupplier: invoice.newSupplier === true,
		},
		circumstances.rates ?? {},
	);
	const steps = required.steps;
	const startedAt = parseInstant(circumstances.startedAt, timeZone, 'Started At')?.at ?? now;
	const walk = walkDecisions(policy, steps, parseDecisions(decisions, timeZone), startedAt);
	const base: NextStep = {
		status: 'waiting',
		reason: '',
		amount: moneyText(cents),
		currency,
		credit_note: invoice.creditNote === true || Number(invoice.total) < 0,
		compared_amount: moneyText(required.compared.cents),
		compared_currency: required.compared.currency,
		conversion: required.compared.conversion,
		rule: required.rule,
		roles: steps.map((step) => step.role),
		steps: steps.length,
		step: null,
		role: null,
		approver: null,
		decider: null,
		for: null,
		asked_at: null,
		remind_at: null,
		escalate_at: null,
		escalate_to: null,
		end_at: null,
		escalated: false,
		decisions: walk.decisions,
		ignored: walk.ignored,
		decided_by: null,
		decided_at: null,
		note: null,
	};
	if (walk.rejected || walk.approved === steps.length) return ended(walk, steps, now, base);
	return asking(policy, walk, steps, now, base);
}
