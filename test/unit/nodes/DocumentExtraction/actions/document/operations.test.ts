// The invoice operations, listed once: the check in code and the editor's expression agree.
import { describe, expect, it } from 'vitest';

import {
	BUILD_BILL_OPERATION,
	documentOperationExpression,
	HOLDING_OPERATIONS,
	INVOICE_OPERATIONS,
	isDocumentOperation,
} from '../../../../../../nodes/DocumentExtraction/actions/document/operations.ts';

/** Evaluates the expression the way n8n does for these simple ones: plain JavaScript over $parameter. */
function evaluate(expression: string, parameter: Record<string, string | undefined>): boolean {
	return new Function('$parameter', `return (${expression});`)(parameter) as boolean;
}

describe('the invoice operations', () => {
	it('Build Bill holds nothing back but its items are invoices', () => {
		expect(HOLDING_OPERATIONS).not.toContain(BUILD_BILL_OPERATION);
		expect(INVOICE_OPERATIONS).toEqual([...HOLDING_OPERATIONS, BUILD_BILL_OPERATION]);
	});

	const resources = ['document', 'webhook', undefined];
	const operations = [
		'extract',
		'getStatus',
		'checkInvoiceDuplicate',
		'buildBill',
		'register',
		undefined,
	];
	it.each([
		['holding', HOLDING_OPERATIONS],
		['invoice', INVOICE_OPERATIONS],
	])(
		'the %s operations: the expression decides as the code for every resource and operation',
		(_name, list) => {
			let matches = 0;
			for (const resource of resources) {
				for (const operation of operations) {
					// n8n leaves a parameter at its default out of $parameter: document / extract.
					const inCode = isDocumentOperation(resource ?? 'document', operation ?? 'extract', list);
					expect(
						evaluate(documentOperationExpression(list), { resource, operation }),
						`${resource}/${operation}`,
					).toBe(inCode);
					if (inCode) matches++;
				}
			}
			expect(matches).toBeGreaterThanOrEqual(list.length);
		},
	);
});
