// The part of Xero's published Accounting API schema that the Xero stand-in checks every
// `POST /api.xro/2.0/Invoices` body against, written by us as a JSON Schema (draft 2020-12).
//
// Source (read, not copied; no npm package ships the description — `xero-node` carries only
// generated code): the official OpenAPI description of the Accounting API,
//   https://github.com/XeroAPI/Xero-OpenAPI/blob/master/xero_accounting.yaml
//   (components/schemas: Invoices, Invoice, LineItem, Contact, LineAmountTypes, CurrencyCode)
// and its reference page https://developer.xero.com/documentation/api/accounting/invoices
// (required elements for a bill: Type, Contact, LineItems; a line needs a Description, and for an
// approved bill a Quantity, UnitAmount and AccountCode).
//
// What we validate: the types of every field we send, the enums of Type, Status and
// LineAmountTypes, the Contact's ContactID-or-Name rule, dates as YYYY-MM-DD, and unknown
// properties refused (a misspelt field would be silently ignored by Xero: here it fails).

const money = { type: 'number' } as const;
const isoDate = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

export const xeroLineItemSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['Description', 'Quantity', 'UnitAmount', 'AccountCode'],
	properties: {
		LineItemID: { type: 'string' },
		Description: { type: 'string', minLength: 1, maxLength: 4000 },
		Quantity: { type: 'number' },
		UnitAmount: money,
		ItemCode: { type: 'string' },
		AccountCode: { type: 'string', minLength: 1 },
		TaxType: { type: 'string' },
		TaxAmount: money,
		LineAmount: money,
		DiscountRate: { type: 'number' },
	},
} as const;

export const xeroContactSchema = {
	type: 'object',
	additionalProperties: false,
	anyOf: [{ required: ['ContactID'] }, { required: ['Name'] }],
	properties: {
		ContactID: { type: 'string', pattern: '^[0-9a-fA-F-]{36}$' },
		Name: { type: 'string', minLength: 1, maxLength: 255 },
	},
} as const;

export const xeroInvoiceSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['Type', 'Contact', 'LineItems'],
	properties: {
		Type: { enum: ['ACCPAY', 'ACCPAYCREDIT', 'APOVERPAYMENT', 'APPREPAYMENT', 'ACCREC', 'ACCRECCREDIT', 'AROVERPAYMENT', 'ARPREPAYMENT'] },
		Contact: xeroContactSchema,
		LineItems: { type: 'array', minItems: 1, items: xeroLineItemSchema },
		Date: isoDate,
		DueDate: isoDate,
		LineAmountTypes: { enum: ['Exclusive', 'Inclusive', 'NoTax'] },
		InvoiceNumber: { type: 'string', maxLength: 255 },
		Reference: { type: 'string' },
		CurrencyCode: { type: 'string', pattern: '^[A-Z]{3}$' },
		Status: { enum: ['DRAFT', 'SUBMITTED', 'DELETED', 'AUTHORISED', 'PAID', 'VOIDED'] },
		SubTotal: money,
		TotalTax: money,
		Total: money,
	},
} as const;

/** The request body of `POST /api.xro/2.0/Invoices`: an `Invoices` array. */
export const xeroInvoicesRequestSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['Invoices'],
	properties: { Invoices: { type: 'array', minItems: 1, items: xeroInvoiceSchema } },
} as const;
