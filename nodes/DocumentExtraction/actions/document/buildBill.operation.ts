/**
 * Build Bill (docs/spec-decisions.md#n42): an invoice item becomes the exact request body of a bill in
 * the chosen books (bill/: Xero, QuickBooks), or goes to Cannot Be Booked with the reasons. It builds
 * data only: posting stays with n8n's HTTP Request node and n8n's own Xero or QuickBooks credential,
 * so this package calls and authenticates to one service. The original file travels on for the
 * attachment request when the books take its type.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { BuiltBill } from '../../bill/builtBill.ts';
import { buildQuickBooksBill } from '../../bill/quickBooksBill.ts';
import { buildXeroBill } from '../../bill/xeroBill.ts';
import {
	billableOfItem,
	EXPECTED_INVOICE_FIELDS,
	readinessOfItem,
} from '../../invoice/invoiceOfItem.ts';
import { buildBillOutputIndex } from './extractOutputs.ts';

const showFor = (target: string) => ({ show: { target: [target] } });

const properties: INodeProperties[] = [
	{
		displayName: 'Target',
		name: 'target',
		type: 'options',
		options: [
			{
				name: 'Xero Bill',
				value: 'xero',
				description: 'POST /api.xro/2.0/Invoices (or CreditNotes) with unitdp=4',
			},
			{
				name: 'QuickBooks Bill',
				value: 'quickBooks',
				description: 'POST /v3/company/{realmId}/bill (or vendorcredit)',
			},
		],
		default: 'xero',
		description:
			"The books the bill is built for; an HTTP Request node with n8n's own credential posts it",
	},
	{
		displayName: 'Tenant ID',
		name: 'xeroTenantId',
		type: 'string',
		default: '',
		displayOptions: showFor('xero'),
		description:
			"Your Xero organisation's tenant ID, sent as the Xero-Tenant-ID header; on the bill item as tenant_id. Empty: Cannot Be Booked.",
	},
	{
		displayName: 'Account Code',
		name: 'xeroAccountCode',
		type: 'string',
		default: '400',
		required: true,
		displayOptions: showFor('xero'),
		description: 'The Xero expense account every line is booked to',
	},
	{
		displayName: 'Tax Type',
		name: 'xeroTaxType',
		type: 'string',
		default: '',
		placeholder: 'INPUT2',
		displayOptions: showFor('xero'),
		description: "Xero's tax type for the lines; empty: the account's default",
	},
	{
		displayName: 'Bill Status',
		name: 'xeroStatus',
		type: 'options',
		options: [
			{ name: 'Draft', value: 'DRAFT' },
			{ name: 'Awaiting Approval', value: 'SUBMITTED' },
			{ name: 'Awaiting Payment', value: 'AUTHORISED' },
		],
		default: 'DRAFT',
		displayOptions: showFor('xero'),
	},
	{
		displayName: 'Company ID',
		name: 'quickBooksCompanyId',
		type: 'string',
		default: '',
		displayOptions: showFor('quickBooks'),
		description:
			"Your QuickBooks company's ID (realm ID, in the request's URL); on the bill item as company_id. Empty: Cannot Be Booked.",
	},
	{
		displayName: 'Expense Account ID',
		name: 'quickBooksExpenseAccountId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showFor('quickBooks'),
		description: 'The ID of the QuickBooks expense account every line is booked to',
	},
	{
		displayName: 'Tax Account ID',
		name: 'quickBooksTaxAccountId',
		type: 'string',
		default: '',
		displayOptions: showFor('quickBooks'),
		description:
			'The ID of the account the tax line is booked to. An invoice with tax and no Tax Account ID goes to Cannot Be Booked.',
	},
	{
		displayName: 'Vendor ID',
		name: 'quickBooksVendorId',
		type: 'string',
		default: '',
		displayOptions: showFor('quickBooks'),
		description:
			"The vendor's ID when known: the lookup query (lookup_query) reads only its bills. Empty: bills of any vendor with the number, judged by Judge Books Answer.",
	},
	{
		displayName: 'Payment Terms (Days)',
		name: 'paymentTermsDays',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 30,
		description: 'The due date is the invoice date plus this many days (bills, not credit notes)',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: '',
		placeholder: "The books' own currency",
		description:
			"For an invoice that names no currency: empty books it in the organisation's base (Xero) or home (QuickBooks) currency; a 3-letter code books it in that one",
	},
	{
		displayName: 'Allowed Currencies',
		name: 'allowedCurrencies',
		type: 'string',
		default: '',
		placeholder: 'EUR, USD, GBP',
		description: 'Only these currencies are booked; others go to Cannot Be Booked. Empty: any.',
	},
	{
		displayName: 'Approval',
		name: 'approval',
		type: 'collection',
		placeholder: 'Add approval detail',
		default: {},
		description:
			"The decision the bill carries for its auditor: Xero as a History & Notes entry (xero_history), QuickBooks first in the bill's private note (Memo)",
		options: [
			{
				displayName: 'Decided By',
				name: 'decidedBy',
				type: 'string',
				default: '',
				placeholder: 'manager@example.com',
				description: 'Who approved the invoice',
			},
			{
				displayName: 'Decided At',
				name: 'decidedAt',
				type: 'string',
				default: '',
				placeholder: '2026-11-02T09:30:00Z',
				description: 'When the invoice was approved',
			},
			{
				displayName: 'Note',
				name: 'note',
				type: 'string',
				default: '',
				placeholder: 'Under the approval threshold of 1,000.00: no approval needed',
				description:
					'The sentence recorded on the bill; empty: "Approved by" Decided By "on" Decided At',
			},
		],
	},
	{
		displayName: 'Original File Field',
		name: 'originalFileField',
		type: 'string',
		default: 'data',
		hint: 'The binary field holding the original invoice, attached to the bill when the books take its type',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['buildBill'] } },
	properties,
);

export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const item = context.getInputData()[itemIndex];
	const outputs: INodeExecutionData[][] = [[], []];
	const built = buildFor(context, itemIndex, item);
	if (!built.ready) {
		outputs[buildBillOutputIndex('cannotBook')].push({
			json: built.json,
			pairedItem: { item: itemIndex },
		});
		return outputs;
	}
	const field = String(context.getNodeParameter('originalFileField', itemIndex, 'data'));
	outputs[buildBillOutputIndex('bill')].push({
		json: { ...built.json, ...(built.attach ? { attachment_field: field } : {}) },
		...(built.attach && item.binary?.[field] ? { binary: { [field]: item.binary[field] } } : {}),
		pairedItem: { item: itemIndex },
	});
	return outputs;
}

function buildFor(
	context: IExecuteFunctions,
	itemIndex: number,
	item: INodeExecutionData,
): BuiltBill {
	const parameter = (name: string, fallback: unknown = '') =>
		context.getNodeParameter(name, itemIndex, fallback);
	const readiness = readinessOfItem(item.json);
	const invoice = billableOfItem(item.json);
	const cannotBook = (fields: IDataObject): BuiltBill => ({
		ready: false,
		json: {
			document_id: item.json.document_id ?? null,
			vendor: item.json.vendor ?? invoice?.vendor ?? null,
			invoice_no: item.json.invoice_no ?? invoice?.invoice_no ?? null,
			...fields,
		},
	});
	if (!invoice) {
		return cannotBook({
			review_reason: `The item holds no whole invoice: expected ${EXPECTED_INVOICE_FIELDS}`,
		});
	}
	if (!readiness.ready_to_post) {
		return cannotBook({
			currency: readiness.currency,
			review_reason: readiness.not_ready_because.join(' '),
		});
	}
	const approval = parameter('approval', {}) as IDataObject;
	const common = {
		paymentTermsDays: Number(parameter('paymentTermsDays', 30)),
		currency: String(parameter('currency')),
		allowedCurrencies: String(parameter('allowedCurrencies')),
		approval: {
			note: String(approval.note ?? ''),
			decidedBy: String(approval.decidedBy ?? ''),
			decidedAt: String(approval.decidedAt ?? ''),
		},
	};
	const field = String(parameter('originalFileField', 'data'));
	const binary: IBinaryData | undefined = item.binary?.[field];
	const file = binary ? { fileName: binary.fileName, mimeType: binary.mimeType } : undefined;
	const billable = invoice as unknown as IDataObject;
	if (parameter('target', 'xero') === 'quickBooks') {
		return buildQuickBooksBill(
			billable,
			{
				...common,
				companyId: String(parameter('quickBooksCompanyId')),
				expenseAccountId: String(parameter('quickBooksExpenseAccountId')),
				taxAccountId: String(parameter('quickBooksTaxAccountId')),
				vendorId: String(parameter('quickBooksVendorId')).trim(),
			},
			file,
		);
	}
	return buildXeroBill(
		billable,
		{
			...common,
			tenantId: String(parameter('xeroTenantId')),
			accountCode: String(parameter('xeroAccountCode', '400')),
			taxType: String(parameter('xeroTaxType')),
			status: String(parameter('xeroStatus', 'DRAFT')),
		},
		file,
	);
}
