// The part of Intuit's published QuickBooks Online Accounting API rules that the QuickBooks
// stand-in checks every request body against, written by us as JSON Schemas (draft 2020-12).
//
// Sources (read, not copied):
//   Bill entity: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/bill
//     (create requires VendorRef and at least one Line; an expense line has DetailType
//     AccountBasedExpenseLineDetail, an Amount and AccountBasedExpenseLineDetail.AccountRef;
//     DocNumber at most 21 characters; PrivateNote and a line's Description at most 4000; TxnDate
//     and DueDate as yyyy-mm-dd; CurrencyRef the transaction's currency, which must be the vendor's)
//   VendorCredit entity: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/vendorcredit
//     (the same lines and references as a bill, its total positive, no DueDate)
//   Vendor entity: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/vendor
//     (DisplayName unique, at most 500 characters, no colon, tab or newline; CurrencyRef fixed at
//     creation, the home currency when left out)
//   Attachable entity: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/attachable
//     (FileName at most 1000 characters; AttachableRef.EntityRef names the transaction)
// Amounts: the stand-in also refuses more than 2 decimals (quickBooksStandIn.ts).
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
		Amount: { type: 'number' },
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

/** What a Bill and a VendorCredit share in QuickBooks Online's Accounting API. */
const payableProperties = {
	VendorRef: reference,
	Line: { type: 'array', minItems: 1, items: quickBooksBillLineSchema },
	DocNumber: { type: 'string', maxLength: 21 },
	TxnDate: isoDate,
	PrivateNote: { type: 'string', maxLength: 4000 },
	CurrencyRef: reference,
	APAccountRef: reference,
} as const;

export const quickBooksBillSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['VendorRef', 'Line'],
	properties: {
		...payableProperties,
		DueDate: isoDate,
		SalesTermRef: reference,
	},
} as const;

export const quickBooksVendorSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['DisplayName'],
	properties: {
		DisplayName: { type: 'string', minLength: 1, maxLength: 500, pattern: '^[^:\\t\\n\\r]*$' },
		CompanyName: { type: 'string', maxLength: 100 },
		CurrencyRef: reference,
	},
} as const;

export const quickBooksVendorCreditSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['VendorRef', 'Line'],
	properties: payableProperties,
} as const;

export const quickBooksAttachableSchema = {
	type: 'object',
	additionalProperties: false,
	required: ['AttachableRef', 'FileName', 'ContentType'],
	properties: {
		AttachableRef: {
			type: 'array',
			minItems: 1,
			items: {
				type: 'object',
				additionalProperties: false,
				required: ['EntityRef'],
				properties: {
					EntityRef: {
						type: 'object',
						additionalProperties: false,
						required: ['type', 'value'],
						properties: {
							type: { enum: ['Bill', 'VendorCredit'] },
							value: { type: 'string', minLength: 1 },
						},
					},
					IncludeOnSend: { type: 'boolean' },
				},
			},
		},
		FileName: { type: 'string', minLength: 1, maxLength: 1000 },
		ContentType: { type: 'string', minLength: 1 },
		Note: { type: 'string', maxLength: 2000 },
	},
} as const;
