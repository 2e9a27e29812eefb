// The part of Xero's published Accounting API schema that the Xero stand-in checks every
// `POST /api.xro/2.0/Invoices` body against, written by us as a JSON Schema (draft 2020-12).
//
// Source (read, not copied; no npm package ships the description — `xero-node` carries only
// generated code): the official OpenAPI description of the Accounting API,
//   https://github.com/XeroAPI/Xero-OpenAPI/blob/master/xero_accounting.yaml
//   (components/schemas: Invoices, Invoice, LineItem, Contact, LineAmountTypes, CurrencyCode)
// and its reference pages https://developer.xero.com/documentation/api/accounting/invoices,
// https://developer.xero.com/documentation/api/accounting/creditnotes,
// https://developer.xero.com/documentation/api/accounting/contacts and
// https://developer.xero.com/documentation/api/accounting/attachments
// (required elements for a bill: Type, Contact, LineItems; a line needs a Description, and for an
// approved bill a Quantity, UnitAmount and AccountCode; Description at most 4000 characters,
// InvoiceNumber, Reference and CreditNoteNumber at most 255, Contact Name at most 255).
//
// What we validate: the types of every field we send, the enums of Type, Status and
// LineAmountTypes, the Contact's ContactID-or-Name rule, dates as YYYY-MM-DD, the lengths above, and
// unknown properties refused (a misspelt field would be silently ignored by Xero: here it fails).
// Number formats (decimals of quantities and amounts) and totals are checked by the stand-in itself
// (xeroStandIn.ts), which knows whether the request asked for unitdp=4.

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

/** What a bill (invoice) and a credit note share in Xero's Accounting API. */
const documentProperties = {
	Contact: xeroContactSchema,
	LineItems: { type: 'array', minItems: 1, items: xeroLineItemSchema },
	Date: isoDate,
	LineAmountTypes: { enum: ['Exclusive', 'Inclusive', 'NoTax'] },
	Reference: { type: 'string', maxLength: 255 },
	CurrencyCode: { type: 'string', pattern: '^[A-Z]{3}$' },
	Status: { enum: ['DRAFT', 'SUBMITTED', 'DELETED', 'AUTHORISED', 'PAID', 'VOIDED'] },
	SubTotal: money,
	TotalTax: money,
	Total: money,
} as const;

export const xeroInvoiceSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['Type', 'Contact', 'LineItems'],
	properties: {
		...documentProperties,
		Type: {
			enum: [
				'ACCPAY',
				'ACCPAYCREDIT',
				'APOVERPAYMENT',
				'APPREPAYMENT',
				'ACCREC',
				'ACCRECCREDIT',
				'AROVERPAYMENT',
				'ARPREPAYMENT',
			],
		},
		DueDate: isoDate,
		InvoiceNumber: { type: 'string', maxLength: 255 },
	},
} as const;

/** The request body of `POST /api.xro/2.0/Invoices`: an `Invoices` array. */
export const xeroInvoicesRequestSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['Invoices'],
	properties: { Invoices: { type: 'array', minItems: 1, items: xeroInvoiceSchema } },
} as const;

export const xeroCreditNoteSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['Type', 'Contact', 'LineItems'],
	properties: {
		...documentProperties,
		Type: { enum: ['ACCPAYCREDIT', 'ACCRECCREDIT'] },
		CreditNoteNumber: { type: 'string', maxLength: 255 },
	},
} as const;

/** The request body of `POST /api.xro/2.0/CreditNotes`: a `CreditNotes` array. */
export const xeroCreditNotesRequestSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['CreditNotes'],
	properties: { CreditNotes: { type: 'array', minItems: 1, items: xeroCreditNoteSchema } },
} as const;
