// Next Approval Step through n8n's engine: the policy rows and decisions as expressions give them,
// the invoice item out with `approval` added (its file kept), paired to its input; an unusable
// policy fails the node with what to fix, or with Continue On Fail becomes an error item paired to
// its input; nothing sent to any service.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { file, pdfBytes, useNodeHarness } from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

const POLICY = [
	{ kind: 'band', up_to: 1000, currency: 'EUR', steps: 'none' },
	{ kind: 'band', up_to: null, currency: 'EUR', steps: 'approver' },
	{
		kind: 'step',
		role: 'approver',
		name: 'Maria Manager',
		email: 'manager@example.com',
		remind_after_hours: 24,
		escalate_after_hours: 48,
		escalate_to_email: 'finance-director@example.com',
		end_after_hours: 72,
	},
];

const INVOICE = {
	document_id: 'doc_1',
	vendor: 'Acme Supplies GmbH',
	total: 1487.5,
	currency: 'EUR',
};

/** The node's parameters as a template sets them: rows and decisions from the item, as expressions. */
const parameters = (extra: IDataObject = {}) => ({
	resource: 'document',
	operation: 'nextApprovalStep',
	policyRows: '={{ $json.policy }}',
	total: '={{ $json.total }}',
	invoiceCurrency: '={{ $json.currency }}',
	supplier: '={{ $json.vendor }}',
	decisions: '={{ $json.decisions ?? [] }}',
	startedAt: '2026-11-02T09:00:00Z',
	now: '2026-11-02T10:00:00Z',
	approvalOptions: { timeZone: 'Europe/Berlin' },
	...extra,
});

describe('Next Approval Step', () => {
	it('the invoice goes on with who decides next and by when, its file kept, paired to its input', async () => {
		const result = await harness().run({
			parameters: parameters(),
			items: [
				{ json: { ...INVOICE, policy: POLICY }, binary: { data: file(pdfBytes(), 'A-1.pdf') } },
			],
			typeVersion: 1.3,
		});
		const [item] = result.output();
		expect(item.json).toMatchObject({
			document_id: 'doc_1',
			approval: {
				status: 'waiting',
				steps: 1,
				step: 1,
				decider: { name: 'Maria Manager', email: 'manager@example.com' },
				remind_at: '2026-11-03T09:00:00.000Z',
				escalate_at: '2026-11-04T09:00:00.000Z',
				escalate_to: { name: null, email: 'finance-director@example.com' },
				end_at: '2026-11-05T09:00:00.000Z',
			},
		});
		expect(item.binary?.data?.fileName).toBe('A-1.pdf');
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(service().requests).toEqual([]);
	});

	it('the decision recorded: approved, with the note Build Bill records on the bill', async () => {
		const decisions = [
			{
				by: 'Maria Manager <manager@example.com>',
				step: 1,
				decision: 'Approve',
				at: '2026-11-02T09:30:00Z',
			},
		];
		const result = await harness().run({
			parameters: parameters(),
			items: [{ json: { ...INVOICE, policy: POLICY, decisions } }],
			typeVersion: 1.3,
		});
		expect(result.output()[0].json.approval).toMatchObject({
			status: 'approved',
			decided_by: 'Maria Manager <manager@example.com>',
			note: 'Approved by Maria Manager <manager@example.com> on 2026-11-02T09:30:00.000Z',
		});
	});

	it('policy rows typed as JSON text, and the conversion rates an option', async () => {
		const result = await harness().run({
			parameters: parameters({
				policyRows: JSON.stringify(POLICY),
				approvalOptions: { timeZone: 'UTC', conversionRates: '{"USD": 0.92}' },
			}),
			items: [{ json: { ...INVOICE, currency: 'USD', total: 1086.96 } }],
			typeVersion: 1.3,
		});
		expect(result.output()[0].json.approval).toMatchObject({
			status: 'approved',
			compared_amount: '1000.00',
			conversion: '1086.96 USD at 0.92',
		});
	});

	it('a missing rate fails the node with the rate to set', async () => {
		const result = await harness().run({
			parameters: parameters(),
			items: [{ json: { ...INVOICE, currency: 'USD', policy: POLICY } }],
			typeVersion: 1.3,
		});
		expect(result.error()?.message).toBe(
			'No conversion rate from USD to EUR: the policy\'s bands are in EUR. Set Conversion Rates to include USD, e.g. {"USD": 0.92} (1 USD = 0.92 EUR)',
		);
	});

	it('an unknown time zone fails the node with what to write', async () => {
		const result = await harness().run({
			parameters: parameters({ approvalOptions: { timeZone: 'Berlin' } }),
			items: [{ json: { ...INVOICE, policy: POLICY } }],
			typeVersion: 1.3,
		});
		expect(result.error()?.message).toBe(
			'"Berlin" is not a time zone. Set Time Zone to an IANA name such as Europe/Berlin or America/New_York',
		);
	});

	it('with Continue On Fail an item the policy cannot decide becomes an error item, paired with its input', async () => {
		const result = await harness().run({
			parameters: parameters(),
			items: [{ json: { ...INVOICE, policy: [] } }, { json: { ...INVOICE, policy: POLICY } }],
			typeVersion: 1.3,
			continueOnFail: true,
		});
		const [failed, decided] = result.output();
		expect(failed.json.error).toBe(
			'The Approval policy has no band rows, so no invoice can be approved. Add at least one row with kind band: up_to empty and steps naming the role that approves (e.g. approver), with a step row for that role',
		);
		expect(failed.pairedItem).toEqual({ item: 0 });
		expect(decided.json.approval).toMatchObject({ status: 'waiting' });
		expect(decided.pairedItem).toEqual({ item: 1 });
	});

	it('policy rows that are not a list: an error saying what to give', async () => {
		const result = await harness().run({
			parameters: parameters({ policyRows: '{"kind": "band"}' }),
			items: [{ json: INVOICE }],
			typeVersion: 1.3,
		});
		expect(result.error()?.message).toMatch(
			/^Policy Rows is not a list\. Give the rows of your Approval policy Data Table/,
		);
	});

	it('in a loop: the previous pass and the form answer give the next step; an empty table uses Policy When Empty', async () => {
		const loopParameters = parameters({
			// A Data Table node with Always Output Data gives one empty item for an empty table.
			policyRows: '={{ [{}] }}',
			previousStep: '={{ $json.previous ?? {} }}',
			answer: '={{ $json.data ?? {} }}',
			approvalOptions: {
				timeZone: 'UTC',
				policyWhenEmpty: {
					values: {
						threshold: 1000,
						approverEmail: 'manager@example.com',
						escalateToEmail: 'finance-director@example.com',
						remindAfterHours: 24,
						escalateAfterHours: 48,
						endAfterHours: 72,
					},
				},
			},
		});
		const first = await harness().run({
			parameters: loopParameters,
			items: [{ json: INVOICE }],
			typeVersion: 1.3,
		});
		const asked = first.output()[0].json.approval as IDataObject;
		expect(asked).toMatchObject({
			status: 'waiting',
			action: 'ask',
			decider: { email: 'manager@example.com' },
			wait_until: '2026-11-03T09:00:00.000Z',
			register_state: 'awaiting approval: step 1 of 1, approver',
		});
		const answered = await harness().run({
			parameters: { ...loopParameters, now: '2026-11-02T11:00:00Z' },
			items: [{ json: { ...INVOICE, previous: asked, data: { Decision: 'Approve', Reason: '' } } }],
			typeVersion: 1.3,
		});
		expect(answered.output()[0].json.approval).toMatchObject({
			status: 'approved',
			action: 'none',
			note: 'Approved by manager@example.com on 2026-11-02T11:00:00.000Z',
		});
		// The answer is consumed: passed on, a form that later times out (Send and Wait passes its
		// input on) would hand it to the next pass as a new decision.
		expect(answered.output()[0].json.data).toBeUndefined();
	});

	it("with Invoice set, the form's answer in gives the invoice out with its approval", async () => {
		const result = await harness().run({
			parameters: parameters({
				policyRows: JSON.stringify(POLICY),
				total: String(INVOICE.total),
				invoiceCurrency: INVOICE.currency,
				supplier: INVOICE.vendor,
				invoice: JSON.stringify(INVOICE),
				previousStep: '={{ $json.previous }}',
				answer: '={{ $json.data }}',
			}),
			items: [
				{
					json: {
						previous: {
							status: 'waiting',
							action: 'ask',
							step: 1,
							decider: { email: 'manager@example.com' },
							started_at: '2026-11-02T09:00:00Z',
							asked_at: '2026-11-02T09:00:00Z',
							decisions: [],
						},
						data: { Decision: 'Reject', Reason: 'not ours' },
					},
				},
			],
			typeVersion: 1.3,
		});
		const [item] = result.output();
		expect(item.json).toEqual({
			...INVOICE,
			approval: expect.objectContaining({ status: 'rejected' }),
		});
		expect(item.pairedItem).toEqual({ item: 0 });
		const typo = await harness().run({
			parameters: parameters({ invoice: '{not json' }),
			items: [{ json: { ...INVOICE, policy: POLICY } }],
			typeVersion: 1.3,
		});
		expect(typo.error()?.message).toContain('Invoice is not JSON');
	});
});
