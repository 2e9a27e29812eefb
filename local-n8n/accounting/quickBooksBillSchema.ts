// The part of Intuit's published QuickBooks Online Accounting API rules that the QuickBooks
// stand-in checks every request body against, written by us as JSON Schemas (draft 2020-12).
//
// Sources (read, not copied):
//   Bill entity: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/bill
//     (create requires VendorRef and at least one Line; an expense line has DetailType
//     AccountBasedExpenseLineDetail, an Amount and AccountBasedExpenseLineDetail.AccountRef;
//     DocNumber at most 21 characters; TxnDate and DueDate as yyyy-mm-dd)
//   Vendor entity: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/vendor
//     (DisplayName unique, at most 500 characters, no colon, tab or newline)
// Unknown properties are refused, so a misspelt field fails here instead of being ignored.

const reference = {
	type: 'object',
	additionalProperties: false,
	required: ['value'],
	properties: { value: { type: 'string', minLength: 1 }, name: { type: 'string' } },
} as const;
const isoDate = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

export const quickBooksBillLineSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['DetailType', 'Amount', 'AccountBasedExpenseLineDetail'],
	properties: {
		Id: { type: 'string' },
		LineNum: { type: 'integer', minimum: 1 },
		Description: { type: 'string', maxLength: 4000 },
		Amount: { type: 'number', minimum: 0 },
		DetailType: { const: 'AccountBasedExpenseLineDetail' },
		AccountBasedExpenseLineDetail: {
			type: 'object',
			additionalProperties: false,
			required: ['AccountRef'],
			properties: {
				AccountRef: reference,
				TaxCodeRef: reference,
				BillableStatus: { enum: ['Billable', 'NotBillable', 'HasBeenBilled'] },
				CustomerRef: reference,
			},
		},
	},
} as const;

export const quickBooksBillSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['VendorRef', 'Line'],
	properties: {
		VendorRef: reference,
		Line: { type: 'array', minItems: 1, items: quickBooksBillLineSchema },
		DocNumber: { type: 'string', maxLength: 21 },
		TxnDate: isoDate,
		DueDate: isoDate,
		PrivateNote: { type: 'string', maxLength: 4000 },
		CurrencyRef: reference,
		APAccountRef: reference,
		SalesTermRef: reference,
	},
} as const;

export const quickBooksVendorSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['DisplayName'],
	properties: {
		DisplayName: { type: 'string', minLength: 1, maxLength: 500, pattern: '^[^:\\t\\n]*$' },
		CompanyName: { type: 'string', maxLength: 100 },
	},
} as const;
