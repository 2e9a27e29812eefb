/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The approval as a loop of forms: each pass hands its approval and the form's answer to the next;
// a new step or a new decider is asked (the invoice and the form), the same person is reminded once,
// a long silence gets the form again, the wait ends at the next reminder, escalation or end; the
// register's state names the step; and the seed a template uses while its policy table is empty.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { PreviousPass } from '../../../../../nodes/DocumentExtraction/approval/loop.ts';
import {
	loopDecisions,
	loopFields,
	seedPolicy,
} from '../../../../../nodes/DocumentExtraction/approval/loop.ts';
import { nextStep } from '../../../../../nodes/DocumentExtraction/approval/nextStep.ts';
import type { PolicyRow } from '../../../../../nodes/DocumentExtraction/approval/policy.ts';

const START = '2026-11-02T09:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(START) + hours * 3_600_000).toISOString();

const TWO_STEPS: PolicyRow[] = [
	{ kind: 'band', up_to: 1000, steps: 'none' },
	{ kind: 'band', up_to: null, steps: 'budget holder, finance director' },
	{
		kind: 'step',
		role: 'budget holder',
		name: 'Maria Manager',
		email: 'manager@example.com',
		remind_after_hours: 24,
		escalate_after_hours: 48,
		escalate_to_email: 'ceo@example.com',
		end_after_hours: 72,
	},
	{ kind: 'step', role: 'finance director', email: 'finance-director@example.com' },
	{
		kind: 'delegate',
		name: 'Tom Temp',
		email: 'tom@example.com',
		delegate_for: 'manager@example.com',
		valid_from: '2026-12-21',
		valid_until: '2026-12-24',
	},
];

/** One pass of the loop as the operation runs it: the previous pass and the answer in, the approval out. */
function pass(previous: PreviousPass | null, answer: unknown, now: string, total = 5000) {
	const loop = loopDecisions(previous, answer, now);
	const result = nextStep(TWO_STEPS, { total, currency: 'EUR' }, loop.decisions, {
		now,
		startedAt: loop.startedAt,
		timeZone: 'UTC',
	});
	return {
		...result,
		...loopFields(result, previous, loop.decisions, loop.startedAt, Date.parse(now)),
	};
}

describe('the approval loop', () => {
	it('asks step 1, reminds once, escalates, then asks step 2 after an approval and ends on a rejection', () => {
		const first = pass(null, {}, START);
		expect(first).toMatchObject({
			status: 'waiting',
			action: 'ask',
			decider: { email: 'manager@example.com' },
			wait_until: at(24),
			register_state: 'awaiting approval: step 1 of 2, budget holder',
			given: [],
			started_at: START,
		});
		const reminder = pass(first, {}, at(24));
		expect(reminder).toMatchObject({ action: 'remind', reminded: true, wait_until: at(48) });
		const escalated = pass(reminder, {}, at(48));
		expect(escalated).toMatchObject({
			action: 'ask',
			decider: { email: 'ceo@example.com' },
			wait_until: at(72),
		});
		const approved = pass(escalated, { Decision: 'Approve', Reason: '' }, at(50));
		expect(approved).toMatchObject({
			status: 'waiting',
			action: 'ask',
			step: 2,
			decider: { email: 'finance-director@example.com' },
			register_state: 'awaiting approval: step 2 of 2, finance director',
		});
		expect(approved.given).toEqual([
			{ by: 'ceo@example.com', step: 1, decision: 'Approve', reason: '', at: at(50) },
		]);
		const rejected = pass(approved, { Decision: 'Reject', Reason: 'Not ours' }, at(51));
		expect(rejected).toMatchObject({
			status: 'rejected',
			action: 'none',
			wait_until: null,
			register_state: 'rejected at step 2 of 2',
		});
		expect(rejected.reason).toContain('Not ours');
		expect(rejected.given).toHaveLength(2);
	});

	it('a step with no reminder, escalation or end is asked again after a week of silence', () => {
		const first = pass(null, {}, START);
		const second = pass(first, { Decision: 'Approve' }, at(1));
		expect(second.wait_until).toBe(at(1 + 7 * 24));
		expect(pass(second, {}, at(1 + 7 * 24))).toMatchObject({ action: 'wait', step: 2 });
	});

	it('the delegate is asked inside the window, and the answer counts as theirs', () => {
		const inWindow = '2026-12-22T10:00:00.000Z';
		const first = pass(null, {}, inWindow);
		expect(first).toMatchObject({
			action: 'ask',
			decider: { email: 'tom@example.com' },
			for: { email: 'manager@example.com' },
		});
		const approved = pass(first, { Decision: 'Approve' }, '2026-12-22T11:00:00.000Z');
		expect(approved.decisions[0]).toMatchObject({
			as: 'delegate',
			by: { email: 'tom@example.com' },
		});
	});

	it('an answer without a decision (the wait ended) adds nothing; Send and Wait approve buttons count', () => {
		const first = pass(null, {}, START);
		expect(pass(first, { Decision: '' }, at(1)).given).toEqual([]);
		expect(pass(first, { approved: true }, at(1)).given[0]).toMatchObject({ decision: 'Approve' });
		expect(pass(first, { approved: false }, at(1)).status).toBe('rejected');
	});

	it('under the lowest band: approved at once, nothing to ask', () => {
		expect(pass(null, {}, START, 999)).toMatchObject({
			status: 'approved',
			action: 'none',
			register_state: 'approved',
		});
	});
});

describe('who decided, as the bill records it', () => {
	it('the policy names the decider; where it gives only an email, the name typed in the form is kept', () => {
		const seedRows = seedPolicy({ threshold: 1000, approverEmail: 'manager@example.com' });
		const asked = (() => {
			const result = nextStep(seedRows, { total: 5000 }, [], {
				now: START,
				startedAt: START,
				timeZone: 'UTC',
			});
			return { ...result, ...loopFields(result, null, [], START, Date.parse(START)) };
		})();
		const loop = loopDecisions(
			asked,
			{ Decision: 'Approve', 'Your name': ' Maria  <Manager> ' },
			at(1),
		);
		const approved = nextStep(seedRows, { total: 5000 }, loop.decisions, {
			now: at(1),
			startedAt: START,
			timeZone: 'UTC',
		});
		expect(approved.decided_by).toBe('Maria Manager <manager@example.com>');
		// A policy's own name wins over what was typed.
		const named = pass(null, {}, START);
		const byPolicy = pass(named, { Decision: 'Approve', 'Your name': 'Somebody Else' }, at(1));
		expect(byPolicy.decisions[0].by).toEqual({
			name: 'Maria Manager',
			email: 'manager@example.com',
		});
	});
});

describe('the seed a template uses while its Approval policy table is empty', () => {
	it('decides as examples/approval-policy.csv does', () => {
		const root = join(__dirname, '..', '..', '..', '..', '..');
		const [header, ...lines] = readFileSync(join(root, 'examples', 'approval-policy.csv'), 'utf8')
			.trim()
			.split('\n');
		const columns = header.split(',');
		const csv: PolicyRow[] = lines.map((line) =>
			Object.fromEntries(line.split(',').map((cell, index) => [columns[index], cell])),
		);
		const seed = seedPolicy({
			threshold: 1000,
			approverName: 'Maria Manager',
			approverEmail: 'manager@example.com',
			escalateToName: 'Finance Director',
			escalateToEmail: 'finance-director@example.com',
			remindAfterHours: 24,
			escalateAfterHours: 48,
			endAfterHours: 72,
		});
		const circumstances = (now: string) => ({ now, startedAt: START, timeZone: 'UTC' });
		for (const total of [1000, 1000.01, -1500])
			for (const now of [START, at(24), at(48), at(72)])
				expect(nextStep(seed, { total }, [], circumstances(now))).toEqual(
					nextStep(csv, { total }, [], circumstances(now)),
				);
	});
});
