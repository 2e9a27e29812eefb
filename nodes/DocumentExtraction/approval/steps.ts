/**
 * Which approval steps an invoice needs under the policy: an override for its supplier, else for a
 * new supplier, else for its cost centre, else the band its amount falls in. The most specific rule
 * wins: a supplier named in the table is a deliberate choice about that supplier; a new supplier is
 * a risk a cost centre's rule must not lift. Pure.
 */
import { moneyText } from '../bill/money.ts';
import type { ComparedAmount } from './comparedAmount.ts';
import { comparedAmount } from './comparedAmount.ts';
import type { Band, Override, OverrideMatch, Policy, StepRule } from './policy.ts';
import { keyOf } from './policy.ts';
import { PolicyError } from './policyError.ts';

export interface InvoiceToApprove {
	/** The absolute total in cents. */
	cents: number;
	currency: string | null;
	supplier: string;
	costCentre: string;
	newSupplier: boolean;
}

export interface RequiredSteps {
	/** The rule that decided, in words: "band up to 10000.00", "override for supplier Acme". */
	rule: string;
	steps: StepRule[];
	compared: ComparedAmount;
}

const PRECEDENCE: OverrideMatch[] = ['supplier', 'new_supplier', 'cost_centre'];

function overrideFor(policy: Policy, invoice: InvoiceToApprove): Override | undefined {
	const value: Record<OverrideMatch, string | boolean> = {
		supplier: keyOf(invoice.supplier),
		cost_centre: keyOf(invoice.costCentre),
		new_supplier: invoice.newSupplier,
	};
	for (const match of PRECEDENCE) {
		const found = policy.overrides.find(
			(override) =>
				override.match === match &&
				(match === 'new_supplier' ? value.new_supplier === true : override.value === value[match]),
		);
		if (found) return found;
	}
	return undefined;
}

/**
 * The bands that apply to the invoice's currency: those in its currency, else those in the
 * invoice's own (no currency), else those of the one currency the policy counts in (converted).
 */
function bandsFor(policy: Policy, currency: string | null): Band[] {
	const own = policy.bands.filter((band) => band.currency !== null && band.currency === currency);
	if (own.length) return own;
	const anyCurrency = policy.bands.filter((band) => band.currency === null);
	if (anyCurrency.length) return anyCurrency;
	const currencies = [...new Set(policy.bands.map((band) => band.currency))];
	if (currencies.length > 1)
		throw new PolicyError(
			`The policy's bands are in ${currencies.join(', ')}, none in ${currency ?? "the invoice's currency"}`,
			`Keep the bands in one home currency (and set Conversion Rates), or add bands in ${currency ?? 'each currency'}`,
		);
	return policy.bands;
}

function bandOf(policy: Policy, invoice: InvoiceToApprove, rates: Record<string, unknown>) {
	const bands = [...bandsFor(policy, invoice.currency)].sort(
		(a, b) => (a.upToCents ?? Number.POSITIVE_INFINITY) - (b.upToCents ?? Number.POSITIVE_INFINITY),
	);
	const compared = comparedAmount(invoice.cents, invoice.currency, bands[0], rates);
	const band = bands.find((found) => found.upToCents === null || compared.cents <= found.upToCents);
	if (!band) {
		const top = moneyText(bands[bands.length - 1].upToCents ?? 0);
		throw new PolicyError(
			`No band covers ${moneyText(compared.cents)}${compared.currency ? ` ${compared.currency}` : ''}: the highest goes up to ${top}`,
			'Add a band row with up_to empty (every amount above the others) and its steps',
		);
	}
	return { band, compared };
}

/** The step rule of each role, in order; a PolicyError naming the role whose approver is missing. */
function stepRules(policy: Policy, roles: string[], rule: string): StepRule[] {
	return roles.map((role, index) => {
		const step = policy.steps.get(role);
		if (!step?.approver)
			throw new PolicyError(
				`Step ${index + 1} of ${roles.length} ("${role}", from the ${rule}) has no approver${step ? ` (${step.row} has no email)` : ''}`,
				`Add a row with kind step, role ${role}, and the approver's name and email`,
			);
		return step;
	});
}

export function requiredSteps(
	policy: Policy,
	invoice: InvoiceToApprove,
	rates: Record<string, unknown>,
): RequiredSteps {
	if (!policy.bands.length)
		throw new PolicyError(
			'The Approval policy has no band rows, so no invoice can be approved',
			'Add at least one row with kind band: up_to empty and steps naming the role that approves (e.g. approver), with a step row for that role',
		);
	const override = overrideFor(policy, invoice);
	if (override)
		return {
			rule: override.label,
			steps: stepRules(policy, override.roles, override.label),
			compared: { cents: invoice.cents, currency: invoice.currency, conversion: null },
		};
	const { band, compared } = bandOf(policy, invoice, rates);
	return { rule: band.label, steps: stepRules(policy, band.roles, band.label), compared };
}
