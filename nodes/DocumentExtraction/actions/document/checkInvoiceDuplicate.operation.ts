import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	invoiceIdentity,
	normaliseInvoiceNumber,
	normaliseVendor,
} from '../../invoice/invoiceIdentity.ts';
import { supplierIdentity } from '../../bill/supplierIdentity.ts';
import {
	EXPECTED_INVOICE_FIELDS,
	invoiceOfItem,
	readinessOfItem,
} from '../../invoice/invoiceOfItem.ts';
import { refusals } from '../../refusals.ts';
import { itemWith } from '../itemWith.ts';
import {
	checkDuplicateOutputIndex,
	checkDuplicateOutputNames,
	outputSettingsFrom,
} from './extractOutputs.ts';
import { CHECK_DUPLICATE_OPERATION } from './operations.ts';
import { holdNotReadyProperties } from './holdNotReady.description.ts';
import type { FirstSeen, SeenInvoice } from './sameInvoice.ts';
import { firstSightings, possibleDuplicateFields } from './sameInvoice.ts';

const properties: INodeProperties[] = [
	{
		displayName:
			'Sends an invoice this workflow already saw (same vendor, invoice number and total) to <b>Possible Duplicate</b>. Put it after the trigger or after Wait for Review, in the workflow whose Extract uses Detect Same Invoice (<a href="https://github.com/document-extraction/n8n-nodes-document-extraction/blob/main/docs/operations.md#document--check-invoice-duplicate" target="_blank">more</a>).',
		name: 'checkInvoiceDuplicateNotice',
		type: 'notice',
		default: '',
	},
	...holdNotReadyProperties(
		'They go to an extra "Not Ready to Post" output (a possible duplicate still goes to Possible Duplicate). Without it, they go to New Invoice with ready_to_post false.',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: [CHECK_DUPLICATE_OPERATION] } },
	properties,
);

type Route = { output: number; fields: IDataObject };

/** What the run's check says of an item: who saw its invoice first, or that it is new or cannot be checked. */
type Verdict = FirstSeen | 'new' | 'uncheckable';

/** Why an invoice without an identity cannot be matched (the hint on its New Invoice item). */
function uncheckableReason(invoice: { vendor: string | null; invoice_no: string | null }): string {
	const missing = [
		normaliseVendor(invoice.vendor) ? undefined : 'vendor',
		normaliseInvoiceNumber(invoice.invoice_no) ? undefined : 'invoice number',
	].filter(Boolean);
	return `Not checked for duplicates: the invoice has no ${missing.join(' and no ')} to match on. Check it by hand before paying it.`;
}

/** The item's output settings; reading a parameter's expression can fail. */
const settingsOf = (context: IExecuteFunctions, itemIndex: number) =>
	outputSettingsFrom((name, fallback) => context.getNodeParameter(name, itemIndex, fallback));

/** Why an item cannot be checked: a failing parameter, a review not verified, or no invoice. */
function uncheckableItem(context: IExecuteFunctions, itemIndex: number): unknown {
	try {
		settingsOf(context, itemIndex);
	} catch (error) {
		return error;
	}
	const refusal = refusals(context, itemIndex);
	const { json } = context.getInputData()[itemIndex];
	const { document_id: documentId, status, invoice } = invoiceOfItem(json);
	if (status !== null && status !== 'verified') {
		return refusal(
			`Document ${documentId ?? 'without an ID'} is "${status}", not verified: only verified invoices are checked`,
			'A document still in review or rejected has no invoice to pay yet. Connect only the Verified output of Extract here, or subscribe the Document Extraction Trigger to "Document Verified" only (or route by status with an IF node first).',
		);
	}
	if (!invoice) {
		return refusal(
			`Input item ${itemIndex} has no invoice data to check`,
			`Expected ${EXPECTED_INVOICE_FIELDS}. Connect this node to the output of one of those nodes, or map those fields with an Edit Fields (Set) node first.`,
		);
	}
	return undefined;
}

/**
 * The whole run's check, made when its first item is routed: every invoice is claimed at once
 * (one settle delay per run), and every item of one document takes the route of its first item
 * (Split Line Items gives one item per line). Items that cannot be checked fail alone with Continue
 * On Fail; without it the node fails before anything is claimed, so a retry checks them all anew.
 */
const runChecks = new WeakMap<IExecuteFunctions, Promise<Map<number, Verdict>>>();

async function checkRun(context: IExecuteFunctions): Promise<Map<number, Verdict>> {
	const verdicts = new Map<number, Verdict>();
	const seen: Array<{ itemIndex: number } & SeenInvoice> = [];
	const firstItemOfDocument = new Map<string, number>();
	const items = context.getInputData();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const problem = uncheckableItem(context, itemIndex);
		if (problem && !context.continueOnFail()) throw problem;
		if (problem) continue;
		const { document_id: documentId, invoice } = invoiceOfItem(items[itemIndex].json);
		if (documentId && firstItemOfDocument.has(documentId)) continue;
		if (documentId) firstItemOfDocument.set(documentId, itemIndex);
		const identity = invoiceIdentity(invoice!);
		if (identity) seen.push({ itemIndex, identity, documentId });
		else verdicts.set(itemIndex, 'uncheckable');
	}
	const sightings = await firstSightings(context, seen);
	seen.forEach(({ itemIndex }, i) => verdicts.set(itemIndex, sightings[i] ?? 'new'));
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const documentId = invoiceOfItem(items[itemIndex].json).document_id;
		const first = documentId ? firstItemOfDocument.get(documentId) : undefined;
		if (first !== undefined && first !== itemIndex) verdicts.set(itemIndex, verdicts.get(first)!);
	}
	return verdicts;
}

/** Checks one item's invoice against the invoices this workflow saw, and routes it (see extractOutputs.ts). */
export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const settings = settingsOf(context, itemIndex);
	const outputs: INodeExecutionData[][] = checkDuplicateOutputNames(settings).map(() => []);
	const problem = uncheckableItem(context, itemIndex);
	if (problem) throw problem;
	let checks = runChecks.get(context);
	if (!checks) {
		checks = checkRun(context);
		runChecks.set(context, checks);
	}
	const verdict = (await checks).get(itemIndex);
	const item = context.getInputData()[itemIndex];
	const { document_id: documentId, invoice } = invoiceOfItem(item.json);
	const identity = invoiceIdentity(invoice!);
	let route: Route = { output: checkDuplicateOutputIndex(settings, 'newInvoice'), fields: {} };
	if (verdict === 'uncheckable' || !identity) {
		route.fields = { duplicate_check_skipped: uncheckableReason(invoice!) };
	} else if (verdict && verdict !== 'new') {
		context.logger.info(
			`Document Extraction: document ${documentId ?? '?'} (item ${itemIndex}) is an invoice this workflow saw before`,
		);
		route = {
			output: checkDuplicateOutputIndex(settings, 'possibleDuplicate'),
			fields: possibleDuplicateFields(documentId, identity, verdict),
		};
	}

	const readiness = readinessOfItem(item.json);
	// A possible duplicate stays there; a new invoice that is not ready is held (docs/spec-decisions.md#n18).
	const held =
		settings.holdNotReady &&
		!readiness.ready_to_post &&
		route.output === checkDuplicateOutputIndex(settings, 'newInvoice');
	// Who the supplier is (rules, register) and the number as a re-scan may read it (register look-ups).
	const supplierKey = supplierIdentity(invoice!.vendor);
	const numberKey = normaliseInvoiceNumber(invoice!.invoice_no);
	outputs[held ? checkDuplicateOutputIndex(settings, 'notReady') : route.output].push(
		itemWith(item, itemIndex, {
			...item.json,
			supplier_key: supplierKey,
			number_key: numberKey,
			...route.fields,
			...readiness,
		}),
	);
	return outputs;
}
