/** The Document operations that work on invoices, listed once: checks in code and in the editor follow from here. */

export const EXTRACT_OPERATION = 'extract';
export const CHECK_DUPLICATE_OPERATION = 'checkInvoiceDuplicate';
export const BUILD_BILL_OPERATION = 'buildBill';
export const NEXT_APPROVAL_STEP_OPERATION = 'nextApprovalStep';
export const REGISTER_DIGEST_OPERATION = 'registerDigest';
export const JUDGE_BOOKS_ANSWER_OPERATION = 'judgeBooksAnswer';
export const REGISTER_ENTRY_OPERATION = 'registerEntry';
export const PREPARE_ATTACHMENT_OPERATION = 'prepareAttachment';
export const BILL_ACCOUNT_OPERATION = 'billAccount';

/** The operations that call no API, so they need no credential. */
export const DATA_ONLY_OPERATIONS: readonly string[] = [
	CHECK_DUPLICATE_OPERATION,
	BUILD_BILL_OPERATION,
	NEXT_APPROVAL_STEP_OPERATION,
	REGISTER_DIGEST_OPERATION,
	JUDGE_BOOKS_ANSWER_OPERATION,
	REGISTER_ENTRY_OPERATION,
	PREPARE_ATTACHMENT_OPERATION,
	BILL_ACCOUNT_OPERATION,
];

/** The operations that offer Hold Invoices Not Ready to Post. */
export const HOLDING_OPERATIONS: readonly string[] = [EXTRACT_OPERATION, CHECK_DUPLICATE_OPERATION];

/** The operations whose items are invoices (a failed item says it is not ready to post). */
export const INVOICE_OPERATIONS: readonly string[] = [...HOLDING_OPERATIONS, BUILD_BILL_OPERATION];

/** Whether the node's resource and operation are Document and one of `operations`. */
export function isDocumentOperation(
	resource: string,
	operation: string,
	operations: readonly string[],
): boolean {
	return resource === 'document' && operations.includes(operation);
}

/** The same check as an n8n expression over the node's parameters (for editor hints). */
export function documentOperationExpression(operations: readonly string[]): string {
	return `($parameter.resource || "document") === "document" && ${JSON.stringify(operations)}.includes($parameter.operation || "${EXTRACT_OPERATION}")`;
}
