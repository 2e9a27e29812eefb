/**
 * The approval as a workflow runs it: one Send and Wait form at a time, in a loop back to Next
 * Approval Step (docs/approvals.md#approval-loop). Each pass hands the previous pass's `approval` and
 * the form's answer back; this module turns them into the decisions so far and says what the
 * workflow does next: ask (a new step or a new decider gets the invoice and the form), remind (the
 * same person again, once), wait (the same form again after a long silence), or nothing. It also
 * gives the seed policy a template uses while its Approval policy table is empty. Pure.
 */
import type { Person, PolicyRow } from './policy.ts';
import type { DecisionSoFar, NextStep } from './nextStep.ts';
import { personText } from './nextStep.ts';
import { isoOf } from './instant.ts';

/** What the workflow does after this pass. */
export type LoopAction = 'ask' | 'remind' | 'wait' | 'none';

/** What a pass hands to the next one (the `approval` it output), as far as the loop reads it. */
export interface PreviousPass {
	given?: unknown;
	started_at?: unknown;
	step?: unknown;
	decider?: unknown;
	reminded?: unknown;
}

export interface LoopFields {
	action: LoopAction;
	/** When the workflow looks again if nobody answers: the next reminder, escalation or end. */
	wait_until: string | null;
	reminded: boolean;
	/** The register's state for this pass, e.g. "awaiting approval: step 2 of 2, finance director". */
	register_state: string;
	/** Every decision given so far, the ignored ones included: fed back through Previous Step. */
	given: DecisionSoFar[];
	started_at: string;
}

/** A form that never ends would hold the execution for ever: look again after a week. */
const LONGEST_WAIT_MS = 7 * 24 * 3_600_000;

const emailOfPerson = (value: unknown): string | null =>
	value && typeof value === 'object' && typeof (value as Person).email === 'string'
		? (value as Person).email
		: null;

interface Answered {
	decision: string;
	reason: string;
	/** The name the person typed ("Your name"), kept where the policy names only an email. */
	name: string;
}

/** The decision a form's answer holds, or null when the wait ended without one. */
function decisionOfAnswer(answer: unknown): Answered | null {
	if (!answer || typeof answer !== 'object') return null;
	const fields = answer as Record<string, unknown>;
	const reason = String(fields.Reason ?? fields.reason ?? '').trim();
	const name = String(fields['Your name'] ?? fields.name ?? '')
		.replace(/[<>]/g, '')
		.replace(/\s+/g, ' ')
		.trim();
	if (typeof fields.approved === 'boolean')
		return { decision: fields.approved ? 'Approve' : 'Reject', reason, name };
	const decision = String(fields.Decision ?? fields.decision ?? '').trim();
	return decision ? { decision, reason, name } : null;
}

/**
 * The decisions so far and when the approval started, from the previous pass and the answer its
 * form got: the answer counts as given by the person that pass asked, for the step it asked.
 */
export function loopDecisions(
	previous: PreviousPass | null,
	answer: unknown,
	now: string,
): { decisions: DecisionSoFar[]; startedAt: string } {
	const given = Array.isArray(previous?.given) ? (previous.given as DecisionSoFar[]) : [];
	const startedAt = typeof previous?.started_at === 'string' ? previous.started_at : now;
	const answered = previous ? decisionOfAnswer(answer) : null;
	const asked = previous?.decider as Person | null | undefined;
	if (!answered || !emailOfPerson(asked)) return { decisions: given, startedAt };
	return {
		decisions: [
			...given,
			{
				by: personText({
					name: (asked as Person).name || answered.name || null,
					email: (asked as Person).email,
				}),
				step: previous?.step ?? null,
				decision: answered.decision,
				reason: answered.reason,
				at: now,
			},
		],
		startedAt,
	};
}

/** What the workflow does next, and until when it waits for an answer. */
export function loopFields(
	result: NextStep,
	previous: PreviousPass | null,
	decisions: DecisionSoFar[],
	startedAt: string,
	now: number,
): LoopFields {
	const common = { given: decisions, started_at: startedAt };
	if (result.status !== 'waiting') {
		const ended = {
			approved: 'approved',
			rejected: `rejected at step ${result.decisions[result.decisions.length - 1]?.step ?? '?'} of ${result.steps}`,
			no_decision: 'no decision',
		}[result.status];
		return { ...common, action: 'none', wait_until: null, reminded: false, register_state: ended };
	}
	const sameAsking =
		previous !== null &&
		previous.step === result.step &&
		emailOfPerson(previous.decider) === emailOfPerson(result.decider);
	const remindAt = result.remind_at === null ? null : Date.parse(result.remind_at);
	const remindDue = remindAt !== null && now >= remindAt;
	const alreadyReminded = sameAsking && previous.reminded === true;
	let action: LoopAction = 'ask';
	if (sameAsking) action = remindDue && !alreadyReminded ? 'remind' : 'wait';
	const reminded = alreadyReminded || action === 'remind' || (action === 'ask' && remindDue);
	const moments = [reminded ? null : result.remind_at, result.escalated ? null : result.escalate_at]
		.concat(result.end_at)
		.filter((moment): moment is string => moment !== null)
		.map((moment) => Date.parse(moment))
		.filter((moment) => moment > now);
	const waitUntil = Math.min(...moments, now + LONGEST_WAIT_MS);
	return {
		...common,
		action,
		wait_until: isoOf(waitUntil),
		reminded,
		register_state: `awaiting approval: step ${result.step} of ${result.steps}, ${result.role}`,
	};
}

/** Today's single-threshold approval as the policy a template uses while its table is empty. */
export interface PolicyDefaults {
	threshold: number;
	approverName?: string;
	approverEmail: string;
	escalateToName?: string;
	escalateToEmail?: string;
	remindAfterHours?: number;
	escalateAfterHours?: number;
	endAfterHours?: number;
}

const hoursOrEmpty = (hours: number | undefined) =>
	hours === undefined || !Number.isFinite(hours) || hours <= 0 ? '' : hours;

/** The rows of examples/approval-policy.csv, from a template's settings. */
export function seedPolicy(defaults: PolicyDefaults): PolicyRow[] {
	return [
		{ kind: 'band', up_to: defaults.threshold, steps: 'none' },
		{ kind: 'band', up_to: '', steps: 'approver' },
		{
			kind: 'step',
			role: 'approver',
			name: defaults.approverName ?? '',
			email: defaults.approverEmail,
			remind_after_hours: hoursOrEmpty(defaults.remindAfterHours),
			escalate_after_hours: defaults.escalateToEmail
				? hoursOrEmpty(defaults.escalateAfterHours)
				: '',
			escalate_to_name: defaults.escalateToName ?? '',
			escalate_to_email: defaults.escalateToEmail ?? '',
			end_after_hours: hoursOrEmpty(defaults.endAfterHours),
		},
	];
}
