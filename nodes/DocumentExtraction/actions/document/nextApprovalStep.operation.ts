/**
 * Next Approval Step: from the team's Approval policy (the rows of an n8n Data Table), the invoice
 * and the decisions so far, who decides next and by when, or that the invoice is approved or
 * rejected and why (approval/nextStep.ts). Data only: it calls nothing; the workflow asks the
 * person (Send and Wait) and records their answer. The item goes on with `approval` added.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { DecisionSoFar } from '../../approval/nextStep.ts';
import { nextStep } from '../../approval/nextStep.ts';
import { checkTimeZone, parseInstant } from '../../approval/instant.ts';
import type { PreviousPass } from '../../approval/loop.ts';
import { loopDecisions, loopFields, seedPolicy } from '../../approval/loop.ts';
import type { PolicyRow } from '../../approval/policy.ts';
import { PolicyError } from '../../approval/policyError.ts';
import { fieldsOf, jsonParameter, NOT_JSON } from '../../jsonObject.ts';
import { fileParameter, originalFileProperty } from '../fileParameter.ts';
import { itemWith } from '../itemWith.ts';
import { jsonParameterOf } from '../jsonParameters.ts';

const properties: INodeProperties[] = [
	{
		displayName: 'Policy Rows',
		name: 'policyRows',
		type: 'json',
		default: '[]',
		required: true,
		placeholder: "={{ $('Approval policy').all().map(item => item.json) }}",
		description:
			'The rows of your Approval policy Data Table (kind band, step, override, delegate), from a Data Table node that gets them all',
	},
	{
		displayName: 'Total',
		name: 'total',
		type: 'number',
		default: 0,
		description:
			"The invoice's total; compared as an absolute amount, so a credit note is approved like a bill of the same size",
	},
	{
		displayName: 'Currency',
		name: 'invoiceCurrency',
		type: 'string',
		default: '={{ $json.currency }}',
		description: "The invoice's currency (3-letter code)",
	},
	{
		displayName: 'Supplier',
		name: 'supplier',
		type: 'string',
		default: '={{ $json.vendor }}',
		description: "The supplier as the policy's override rows name it",
	},
	{
		displayName: 'Cost Centre',
		name: 'costCentre',
		type: 'string',
		default: '',
		description: "The invoice's cost centre as the policy's override rows name it",
	},
	{
		displayName: 'New Supplier',
		name: 'newSupplier',
		type: 'boolean',
		default: false,
		description:
			'Whether the supplier is new to you (an override row with new_supplier true applies)',
	},
	{
		displayName: 'Credit Note',
		name: 'creditNote',
		type: 'boolean',
		default: false,
		description:
			'Whether the invoice is a credit note (recorded; the amount compared is absolute either way)',
	},
	{
		displayName: 'Decisions So Far',
		name: 'decisions',
		type: 'json',
		default: '[]',
		description:
			'Each decision made on this invoice: by (email, or "Name &lt;email&gt;"), step (1, 2, …), decision (Approve or Reject), at (ISO 8601), reason',
	},
	{
		displayName: 'Previous Step',
		name: 'previousStep',
		type: 'json',
		default: '',
		placeholder:
			"={{ $('Next approval step').isExecuted ? $('Next approval step').last().json.approval : {} }}",
		description:
			"In a loop back from the form: this node's approval of the previous pass, which carries the decisions given so far; empty on the first pass",
	},
	{
		displayName: 'Answer',
		name: 'answer',
		type: 'json',
		default: '',
		placeholder: '={{ $json.data ?? {} }}',
		description:
			"In a loop back from the form: the Send and Wait form's answer (Decision, Reason), counted as given by the person the previous pass asked; empty when the wait ended without one",
	},
	{
		displayName: 'Invoice',
		name: 'invoice',
		type: 'json',
		default: '',
		placeholder: "={{ $('Settings').first().json }}",
		description:
			"The invoice the step is for, when the item reaching this node is not it (in a loop back from the form, the form's answer): the item going on is this invoice with its approval. Empty: the item.",
	},
	originalFileProperty(
		"when the item reaching this node has none (the form's answer), it goes on the item as data, for the next step's email to attach. Empty: the item's own file.",
	),
	{
		displayName: 'Started At',
		name: 'startedAt',
		type: 'string',
		default: '',
		placeholder: '2026-11-02T09:00:00Z',
		description:
			'When the first step was asked (reminder, escalation and end count from it); empty: now',
	},
	{
		displayName: 'Now',
		name: 'now',
		type: 'string',
		default: '={{ $now.toISO() }}',
		description: 'The time the next step is decided at',
	},
	{
		displayName: 'Options',
		name: 'approvalOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Conversion Rates',
				name: 'conversionRates',
				type: 'json',
				default: '{}',
				description:
					'For bands in a home currency: one unit of the invoice\'s currency in that currency, e.g. {"USD": 0.92, "GBP": 1.17}',
			},
			{
				displayName: 'Policy When Empty',
				name: 'policyWhenEmpty',
				type: 'fixedCollection',
				default: {},
				description:
					'While the Approval policy table has no rows: one threshold and one approver, as examples/approval-policy.csv',
				options: [
					{
						displayName: 'Policy',
						name: 'values',
						values: [
							{
								displayName: 'Approver Email',
								name: 'approverEmail',
								type: 'string',
								placeholder: 'name@email.com',
								default: '',
							},
							{
								displayName: 'Approver Name',
								name: 'approverName',
								type: 'string',
								default: '',
							},
							{
								displayName: 'End After (Hours)',
								name: 'endAfterHours',
								type: 'number',
								default: 72,
								description: 'An unanswered step then ends with no decision',
							},
							{
								displayName: 'Escalate After (Hours)',
								name: 'escalateAfterHours',
								type: 'number',
								default: 48,
							},
							{
								displayName: 'Escalate To Email',
								name: 'escalateToEmail',
								type: 'string',
								placeholder: 'name@email.com',
								default: '',
							},
							{
								displayName: 'Escalate To Name',
								name: 'escalateToName',
								type: 'string',
								default: '',
							},
							{
								displayName: 'Remind After (Hours)',
								name: 'remindAfterHours',
								type: 'number',
								default: 24,
							},
							{
								displayName: 'Threshold',
								name: 'threshold',
								type: 'number',
								default: 1000,
								description: 'Invoices up to this total (included) need no approval',
							},
						],
					},
				],
			},
			{
				displayName: 'Time Zone',
				name: 'timeZone',
				type: 'string',
				default: '',
				placeholder: 'Europe/Berlin',
				description:
					"The zone of the policy's dates written without an offset (a delegate's 2026-12-21 is that whole day there); empty: the workflow's",
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['nextApprovalStep'] } },
	properties,
);

/** A JSON parameter as n8n gives it: the value an expression made, or the text typed. */
function jsonOf(value: unknown, what: string, fix: string): unknown {
	const parsed = jsonParameter(value);
	if (parsed === NOT_JSON) throw new PolicyError(`${what} is not JSON`, fix);
	return parsed;
}

function listOf<T>(value: unknown, what: string, fix: string): T[] {
	const parsed = jsonOf(value, what, fix);
	if (parsed === null || parsed === undefined) return [];
	if (!Array.isArray(parsed)) throw new PolicyError(`${what} is not a list`, fix);
	return parsed as T[];
}

/** The item's approval, and whether a form's answer was given (in a loop). */
function decideFor(
	context: IExecuteFunctions,
	itemIndex: number,
): { approval: IDataObject; answered: boolean } {
	const parameter = (name: string, fallback: unknown = '') =>
		context.getNodeParameter(name, itemIndex, fallback);
	const options = parameter('approvalOptions', {}) as IDataObject;
	const timeZone = String(options.timeZone ?? '').trim() || context.getTimezone();
	checkTimeZone(timeZone);
	const rates = jsonOf(
		options.conversionRates ?? {},
		'Conversion Rates',
		'Write them as {"USD": 0.92}',
	) as Record<string, unknown> | null;
	const given = listOf<DecisionSoFar>(
		parameter('decisions', []),
		'Decisions So Far',
		'Give a list of decisions: [{"by": "manager@example.com", "step": 1, "decision": "Approve", "at": "2026-11-02T09:30:00Z"}]',
	);
	const now = String(parameter('now') ?? '');
	const previous = passOf(parameter('previousStep'));
	const answer = jsonOf(
		parameter('answer'),
		'Answer',
		"Set it to the form's answer, e.g. {{ $json.data }}",
	);
	const loop = loopDecisions(previous, answer, now);
	const startedAt = previous ? loop.startedAt : String(parameter('startedAt') ?? '') || now;
	const decisions = [...given, ...loop.decisions];
	const result = nextStep(
		policyRowsOf(
			listOf<PolicyRow>(
				parameter('policyRows', []),
				'Policy Rows',
				"Give the rows of your Approval policy Data Table, e.g. {{ $('Approval policy').all().map(item => item.json) }}",
			),
			options,
		),
		{
			total: parameter('total', null),
			currency: parameter('invoiceCurrency'),
			supplier: parameter('supplier'),
			costCentre: parameter('costCentre'),
			newSupplier: parameter('newSupplier', false) === true,
			creditNote: parameter('creditNote', false) === true,
		},
		decisions,
		{ now, startedAt, timeZone, rates: rates ?? {} },
	);
	const nowMs = parseInstant(now, timeZone, 'Now')?.at ?? Date.now();
	return {
		approval: {
			...result,
			...loopFields(result, previous, loop.decisions, startedAt, nowMs),
		} as unknown as IDataObject,
		answered: passOf(answer) !== null,
	};
}

/** The previous pass's approval, or null on the first pass (empty, or not an object). */
function passOf(value: unknown): PreviousPass | null {
	const parsed = jsonParameter(value);
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
	return Object.keys(parsed).length ? (parsed as PreviousPass) : null;
}

/**
 * The table's rows without the empty item a Data Table node with Always Output Data gives for an
 * empty table; none left: the Policy When Empty option's seed, if set.
 */
function policyRowsOf(rows: PolicyRow[], options: IDataObject): PolicyRow[] {
	const filled = rows.filter(
		(row) => row && typeof row === 'object' && Object.keys(row).length > 0,
	);
	const defaults = (options.policyWhenEmpty as IDataObject | undefined)?.values as
		| IDataObject
		| undefined;
	if (filled.length || !defaults || !String(defaults.approverEmail ?? '').trim()) return filled;
	return seedPolicy({
		threshold: Number(defaults.threshold ?? 0),
		approverName: String(defaults.approverName ?? ''),
		approverEmail: String(defaults.approverEmail),
		escalateToName: String(defaults.escalateToName ?? ''),
		escalateToEmail: String(defaults.escalateToEmail ?? ''),
		remindAfterHours: Number(defaults.remindAfterHours),
		escalateAfterHours: Number(defaults.escalateAfterHours),
		endAfterHours: Number(defaults.endAfterHours),
	});
}

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const item = context.getInputData()[itemIndex];
	let decided: ReturnType<typeof decideFor>;
	try {
		decided = decideFor(context, itemIndex);
	} catch (error) {
		if (!(error instanceof PolicyError))
			throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
		throw new NodeOperationError(context.getNode(), `${error.message}. ${error.fix}`, {
			itemIndex,
			description: error.fix,
		});
	}
	// In a loop the form's answer is consumed here: an item passed on with it would carry it into
	// the next pass, where a form that timed out (Send and Wait then passes its input on) would
	// count it again, as the next person's decision.
	const given = fieldsOf(jsonParameterOf(context, itemIndex, properties, 'invoice'));
	const json: IDataObject = {
		...(Object.keys(given).length ? given : item.json),
		approval: decided.approval,
	};
	if (decided.answered) delete json.data;
	const original = fileParameter(
		jsonParameter(context.getNodeParameter('originalFile', itemIndex, '')),
	);
	return [[itemWith(item, itemIndex, json, original)]];
}
