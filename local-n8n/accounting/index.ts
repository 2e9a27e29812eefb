// Local stand-ins of the accounting APIs the "to the books" examples post to, and how to connect
// an n8n to them.
export * from './cents.ts';
export * from './connections.ts';
export * from './xeroInvoiceSchema.ts';
export * from './xeroStandIn.ts';
export * from './quickBooksBillSchema.ts';
export * from './quickBooksStandIn.ts';
export * from './attachmentRules.ts';
export * from './chartOfAccounts.ts';
export * from './booksLimits.ts';
