// The invoice operations, listed once: the check in code and the editor's expression agree.
import { describe, expect, it } from 'vitest';

import {
	documentOperationExpression,
	HOLDING_OPERATIONS,
	INVOICE_OPERATIONS,
	isDocumentOperation,
} from '../../../../../../nodes/DocumentExtraction/actions/document/operations.ts';
import { useNodeHarness } from '../../../../harness/fixtures.ts';
import { savedActionNode } from '../../../../harness/savedActionNode.ts';

const { harness } = useNodeHarness();

/** The expression as n8n evaluates it for a saved node with these parameters, and the node's resolved ones. */
function evaluated(expression: string, parameters: Record<string, string>) {
	const { workflow, saved } = savedActionNode(harness().nodeTypes, parameters);
	return {
		value: workflow.expression.getSimpleParameterValue(
			saved,
			`={{ ${expression} }}`,
			'internal',
			{},
		),
		resource: String(saved.parameters.resource),
		operation: String(saved.parameters.operation),
	};
}

describe('the invoice operations', () => {
	it.each([
		['extract', true, true],
		['checkInvoiceDuplicate', true, true],
		['buildBill', false, true],
		['nextApprovalStep', false, false],
		['getStatus', false, false],
	])(
		'Document → %s: holds invoices not ready to post: %s; its items are invoices: %s',
		(operation, holds, invoices) => {
			const parameters = { resource: 'document', operation };
			expect(evaluated(documentOperationExpression(HOLDING_OPERATIONS), parameters).value).toBe(
				holds,
			);
			expect(evaluated(documentOperationExpression(INVOICE_OPERATIONS), parameters).value).toBe(
				invoices,
			);
		},
	);

	const nodes: Array<Record<string, string>> = [
		{},
		{ resource: 'document' },
		...['extract', 'getStatus', 'checkInvoiceDuplicate', 'buildBill', 'nextApprovalStep'].map(
			(operation) => ({
				resource: 'document',
				operation,
			}),
		),
		{ resource: 'webhook' },
		{ resource: 'webhook', operation: 'register' },
	];
	it.each([
		['holding', HOLDING_OPERATIONS],
		['invoice', INVOICE_OPERATIONS],
	])(
		'the %s operations: the editor expression decides as the code for every node',
		(_name, list) => {
			let matches = 0;
			for (const parameters of nodes) {
				const { value, resource, operation } = evaluated(
					documentOperationExpression(list),
					parameters,
				);
				const inCode = isDocumentOperation(resource, operation, list);
				expect(value, `${resource}/${operation}`).toBe(inCode);
				if (inCode) matches++;
			}
			// Two more: a node with no resource or no operation set is Document → Extract.
			expect(matches).toBe(list.length + 2);
		},
	);
});
