// `npm start`'s Approval policy: the email-to-books templates read the Data Table "Approval policy"
// (docs/approvals.md#approval-policy); made here before they first run, so the sample email's large
// invoice shows two steps in turn on the mail page (the budget holder, then the finance director).
// A table the user already has is left as it is.
import { POLICY_COLUMNS } from '../nodes/DocumentExtraction/approval/policy.ts';
import type { N8nClient } from '../local-n8n/index.ts';

export const APPROVAL_POLICY_TABLE = 'Approval policy';

/** Under 1,000 nothing; up to 10,000 the budget holder; above it the budget holder, then the finance director. */
export const DEMO_POLICY_ROWS: Array<Record<string, string>> = [
	{ kind: 'band', up_to: '1000', steps: 'none', note: 'At or under 1,000: no approval' },
	{ kind: 'band', up_to: '10000', steps: 'budget holder', note: 'Up to 10,000: one step' },
	{
		kind: 'band',
		steps: 'budget holder, finance director',
		note: 'Above 10,000: two steps',
	},
	{
		kind: 'step',
		role: 'budget holder',
		name: 'Maria Manager',
		email: 'manager@example.com',
		remind_after_hours: '24',
		escalate_after_hours: '48',
		escalate_to_name: 'Frank Finance',
		escalate_to_email: 'finance-director@example.com',
		end_after_hours: '72',
	},
	{
		kind: 'step',
		role: 'finance director',
		name: 'Frank Finance',
		email: 'finance-director@example.com',
		remind_after_hours: '24',
		end_after_hours: '72',
	},
];

/** Makes the policy table with the demo rows unless the user has one; says which. */
export async function seedDemoPolicy(client: N8nClient): Promise<'made' | 'kept'> {
	if (await client.dataTableExists(APPROVAL_POLICY_TABLE)) return 'kept';
	await client.createDataTable(
		APPROVAL_POLICY_TABLE,
		Object.entries(POLICY_COLUMNS).map(([name, type]) => ({ name, type })),
	);
	await client.insertDataTableRows(APPROVAL_POLICY_TABLE, DEMO_POLICY_ROWS);
	return 'made';
}
