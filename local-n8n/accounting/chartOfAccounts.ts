// The stand-ins' charts of accounts, as the real APIs answer them, so a template can offer a person
// the books' own accounts by name (Xero: `GET /Accounts`; QuickBooks: `select * from Account`).
// Field names and enums from Xero's Accounting OpenAPI (`Account`, `AccountType`, `TaxType`) and
// Intuit's Finance.xsd (`Account`, `AccountTypeEnum`, `AccountClassificationEnum`, `AccountSubTypeEnum`).

/** An account as Xero answers it. */
export interface XeroAccount {
	AccountID: string;
	Code: string;
	Name: string;
	/** One of Xero's AccountType enum (OVERHEADS, DIRECTCOSTS, REVENUE, …). */
	Type: string;
	Class: 'ASSET' | 'EQUITY' | 'EXPENSE' | 'LIABILITY' | 'REVENUE';
	Status: 'ACTIVE' | 'ARCHIVED' | 'DELETED';
	/** One of Xero's TaxType enum (INPUT2, OUTPUT2, EXEMPTINPUT, NONE, …). */
	TaxType: string;
	Description?: string;
	EnablePaymentsToAccount?: boolean;
	ShowInExpenseClaims?: boolean;
	BankAccountType?: 'BANK' | 'CREDITCARD' | 'PAYPAL' | 'NONE' | '';
	HasAttachments?: boolean;
	UpdatedDateUTC?: string;
	AddToWatchlist?: boolean;
}

/** An account as QuickBooks Online answers it. */
export interface QuickBooksAccount {
	Id: string;
	SyncToken?: string;
	Name: string;
	SubAccount?: boolean;
	FullyQualifiedName: string;
	Active: boolean;
	Classification: 'Asset' | 'Equity' | 'Expense' | 'Liability' | 'Revenue';
	/** One of Intuit's AccountTypeEnum ("Expense", "Income", "Other Current Liability", …). */
	AccountType: string;
	/** One of Intuit's AccountSubTypeEnum. */
	AccountSubType: string;
	CurrentBalance?: number;
}

const xero = (
	Code: string,
	Name: string,
	TaxType: string,
	Description: string,
	{ Type = 'OVERHEADS', Class = 'EXPENSE', Status = 'ACTIVE' }: Partial<XeroAccount> = {},
): XeroAccount => ({
	AccountID: `00000000-0000-4000-8000-000000000${Code.padStart(3, '0')}`,
	Code,
	Name,
	Status,
	Type,
	TaxType,
	Description,
	Class,
	EnablePaymentsToAccount: false,
	ShowInExpenseClaims: Class === 'EXPENSE' && Status === 'ACTIVE',
	BankAccountType: '',
	HasAttachments: false,
	UpdatedDateUTC: '/Date(1767225600000+0000)/',
	AddToWatchlist: false,
});

/**
 * After Xero's UK demo company: expense accounts with 20% VAT on expenses (INPUT2), exempt (EXEMPTINPUT)
 * or none (NONE); one revenue account (200) and one archived expense account (420), so that the
 * template's `Class=="EXPENSE" AND Status=="ACTIVE"` leaves something out.
 */
export const XERO_DEMO_ACCOUNTS: XeroAccount[] = [
	xero('200', 'Sales', 'OUTPUT2', 'Income from any normal business activity', {
		Type: 'REVENUE',
		Class: 'REVENUE',
	}),
	xero(
		'300',
		'Purchases',
		'INPUT2',
		'Goods purchased with the intention of selling these to customers',
		{
			Type: 'DIRECTCOSTS',
		},
	),
	xero(
		'400',
		'Advertising',
		'INPUT2',
		'Expenses incurred for advertising while trying to increase sales',
	),
	xero(
		'404',
		'Bank Fees',
		'NONE',
		'Fees charged by your bank for transactions regarding your bank account(s)',
	),
	xero('408', 'Cleaning', 'INPUT2', 'Expenses incurred for cleaning business property'),
	xero('412', 'Consulting & Accounting', 'INPUT2', 'Expenses related to paying consultants'),
	xero(
		'420',
		'Entertainment',
		'NONE',
		'Expenses paid by company for the business but are not deductable for income tax purposes',
		{
			Status: 'ARCHIVED',
		},
	),
	xero(
		'429',
		'General Expenses',
		'INPUT2',
		'General expenses related to the running of the business',
	),
	xero('433', 'Insurance', 'EXEMPTINPUT', "Expenses incurred for insuring the business' assets"),
	xero(
		'461',
		'Printing & Stationery',
		'INPUT2',
		'Expenses incurred by the entity as a result of printing and stationery',
	),
	xero('469', 'Rent', 'INPUT2', 'The payment to lease a building or area'),
	xero('485', 'Subscriptions', 'INPUT2', 'E.g. Magazines, professional bodies'),
	xero(
		'489',
		'Telephone & Internet',
		'INPUT2',
		'Expenditure incurred from any business-related phone calls, phone lines, or internet connections',
	),
	xero(
		'493',
		'Travel - National',
		'INPUT2',
		'Expenses incurred from domestic travel which has a business purpose',
	),
];

const quickBooks = (
	Id: string,
	Name: string,
	AccountSubType: string,
	{
		AccountType = 'Expense',
		Classification = 'Expense',
		Active = true,
	}: Partial<QuickBooksAccount> = {},
): QuickBooksAccount => ({
	Id,
	SyncToken: '0',
	Name,
	SubAccount: false,
	FullyQualifiedName: Name,
	Active,
	Classification,
	AccountType,
	AccountSubType,
	CurrentBalance: 0,
});

/**
 * A sandbox company's: expense accounts (7 is the templates' default expense account), the tax
 * liability the templates book tax lines to (8, `quickbooks_tax_account_id`), one income account, one
 * inactive expense account. `select * from Account where AccountType = 'Expense'` answers the active
 * expense accounts only.
 */
export const QUICKBOOKS_DEMO_ACCOUNTS: QuickBooksAccount[] = [
	quickBooks('1', 'Services', 'ServiceFeeIncome', {
		AccountType: 'Income',
		Classification: 'Revenue',
	}),
	quickBooks('7', 'Office Expenses', 'OfficeGeneralAdministrativeExpenses'),
	quickBooks('8', 'VAT Payable', 'GlobalTaxPayable', {
		AccountType: 'Other Current Liability',
		Classification: 'Liability',
	}),
	quickBooks('10', 'Advertising', 'AdvertisingPromotional'),
	quickBooks('12', 'Legal & Professional Fees', 'LegalProfessionalFees'),
	quickBooks('15', 'Rent or Lease', 'RentOrLeaseOfBuildings'),
	quickBooks('16', 'Utilities', 'Utilities'),
	quickBooks('17', 'Travel', 'Travel'),
	quickBooks('19', 'Supplies', 'SuppliesMaterials'),
	// QuickBooks renames an account made inactive: "… (deleted)".
	quickBooks('21', 'Equipment Rental (deleted)', 'EquipmentRental', { Active: false }),
];

/** The name next to an account's code or id, for a page a person reads ("469 Rent"). */
export function accountLabel(code: string, name: string | undefined): string {
	return name ? `${code} ${name}` : code;
}
