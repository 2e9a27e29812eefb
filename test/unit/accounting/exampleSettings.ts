/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// What the accounting examples hand the package's Build Bill: their Settings node's values, and the
// items as n8n carries them (JSON and the original file's metadata).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { QuickBooksSettings } from '../../../nodes/DocumentExtraction/bill/quickBooksBill.ts';
import type { XeroSettings } from '../../../nodes/DocumentExtraction/bill/xeroBill.ts';

export interface BinaryFile {
	fileName: string;
	mimeType: string;
	data?: string;
}

export interface BuiltItem {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryFile>;
	pairedItem?: { item: number };
}

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

/** The setting values of examples/`file`'s "Settings" node. */
export function exampleSettings(file: string): Record<string, string> {
	const workflow = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as {
		nodes: Array<{
			name: string;
			parameters: { assignments?: { assignments: Array<{ name: string; value: string }> } };
		}>;
	};
	const settings = workflow.nodes.find((entry) => entry.name === 'Settings');
	return Object.fromEntries(
		(settings?.parameters.assignments?.assignments ?? []).map((entry) => [entry.name, entry.value]),
	);
}

/** The settings every Build Bill target reads the same way from an example's Settings node. */
function billTerms(example: Record<string, string>) {
	return {
		paymentTermsDays: Number(example.payment_terms_days),
		allowedCurrencies: example.allowed_currencies,
	};
}

/** Build Bill's QuickBooks settings as examples/invoice-to-quickbooks.workflow.json sets them. */
export function quickBooksExampleSettings(): QuickBooksSettings {
	const example = exampleSettings('invoice-to-quickbooks.workflow.json');
	return {
		expenseAccountId: example.quickbooks_expense_account_id,
		taxAccountId: example.quickbooks_tax_account_id,
		...billTerms(example),
	};
}

/** Build Bill's Xero settings as examples/invoice-to-xero.workflow.json sets them. */
export function xeroExampleSettings(): XeroSettings {
	const example = exampleSettings('invoice-to-xero.workflow.json');
	return {
		accountCode: example.xero_account_code,
		taxType: example.xero_tax_type,
		status: example.xero_bill_status,
		...billTerms(example),
	};
}
