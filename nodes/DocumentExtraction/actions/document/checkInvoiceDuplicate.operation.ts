import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	invoiceIdentity,
	normaliseInvoiceNumber,
	normaliseVendor,
} from '../../invoice/invoiceIdentity.ts';
import {
	EXPECTED_INVOICE_FIELDS,
	invoiceOfItem,
	readinessOfItem,
} from '../../invoice/invoiceOfItem.ts';
import {
	checkDuplicateOutputIndex,
	checkDuplicateOutputNames,
	outputSettingsFrom,
} from './extractOutputs.ts';
import { CHECK_DUPLICATE_OPERATION } from './operations.ts';
import { holdNotReadyProperties } from './holdNotReady.description.ts';
import { runMemory } from '../../memory/runMemory.ts';
import { claimInvoice, possibleDuplicateFields } from './sameInvoice.ts';

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

/**
 * Every item of one document in one run takes the route of its first item (Split Line Items gives
 * one item per line).
 */
const routesOfRun = runMemory<Route>();

/** Why an invoice without an identity cannot be matched (the hint on its New Invoice item). */
function uncheckableReason(invoice: { vendor: string | null; invoice_no: string | null }): string {
	const missing = [
		normaliseVendor(invoice.vendor) ? undefined : 'vendor',
		normaliseInvoiceNumber(invoice.invoice_no) ? undefined : 'invoice number',
	].filter(Boolean);
	return `Not checked for duplicates: the invoice has no ${missing.join(' and no ')} to match on. Check it by hand before paying it.`;
}

/** Checks one item's invoice against the invoices this workflow saw, and routes it (see extractOutputs.ts). */
export async function execute(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const settings = outputSettingsFrom((name, fallback) =>
		context.getNodeParameter(name, itemIndex, fallback),
	);
	const outputs: INodeExecutionData[][] = checkDuplicateOutputNames(settings).map(() => []);
	const item = context.getInputData()[itemIndex];
	const { document_id: documentId, status, invoice } = invoiceOfItem(item.json);

	if (status !== null && status !== 'verified') {
		throw new NodeOperationError(
			context.getNode(),
			`Document ${documentId ?? 'without an ID'} is "${status}", not verified: only verified invoices are checked`,
			{
				itemIndex,
				description:
					'A document still in review or rejected has no invoice to pay yet. Connect only the Verified output of Extract here, or subscribe the Document Extraction Trigger to "Document Verified" only (or route by status with an IF node first).',
			},
		);
	}
	if (!invoice) {
		throw new NodeOperationError(
			context.getNode(),
			`Input item ${itemIndex} has no invoice data to check`,
			{
				itemIndex,
				description: `Expected ${EXPECTED_INVOICE_FIELDS}. Connect this node to the output of one of those nodes, or map those fields with an Edit Fields (Set) node first.`,
			},
		);
	}

	const routes = routesOfRun(context);
	const earlierRoute = documentId ? routes.get(documentId) : undefined;
	let route: Route;
	if (earlierRoute) {
		route = earlierRoute;
	} else {
		const identity = invoiceIdentity(invoice);
		if (!identity) {
			route = {
				output: checkDuplicateOutputIndex(settings, 'newInvoice'),
				fields: { duplicate_check_skipped: uncheckableReason(invoice) },
			};
		} else {
			const claim = await claimInvoice(context, identity, documentId, itemIndex);
			if (claim.duplicate) {
				context.logger.info(
					`Document Extraction: document ${documentId ?? '?'} (item ${itemIndex}) is an invoice this workflow saw before`,
				);
				route = {
					output: checkDuplicateOutputIndex(settings, 'possibleDuplicate'),
					fields: possibleDuplicateFields(documentId, identity, claim),
				};
			} else {
				route = { output: checkDuplicateOutputIndex(settings, 'newInvoice'), fields: {} };
			}
		}
		if (documentId) routes.set(documentId, route);
	}

	const readiness = readinessOfItem(item.json);
	// A possible duplicate stays there; a new invoice that is not ready is held (docs/spec-decisions.md#n18).
	const held =
		settings.holdNotReady &&
		!readiness.ready_to_post &&
		route.output === checkDuplicateOutputIndex(settings, 'newInvoice');
	outputs[held ? checkDuplicateOutputIndex(settings, 'notReady') : route.output].push({
		json: { ...item.json, ...route.fields, ...readiness },
		...(item.binary ? { binary: item.binary } : {}),
		pairedItem: { item: itemIndex },
	});
	return outputs;
}
