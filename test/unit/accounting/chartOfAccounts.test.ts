// The stand-ins' charts of accounts: answered as Xero and QuickBooks answer them (checked against the
// official descriptions in ../shared/reference/), filtered as a template asks, refused as they refuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	QUICKBOOKS_DEMO_ACCOUNTS,
	XERO_DEMO_ACCOUNTS,
	quickBooksQueryOf,
	startQuickBooksStandIn,
	startXeroStandIn,
	xeroWhereConditions,
	type QuickBooksStandIn,
	type XeroStandIn,
} from '../../../local-n8n/accounting/index.ts';
import {
	hasReference,
	quickBooksEnum,
	unknownQuickBooksKeys,
	xeroSchemaValidator,
} from './officialSchemas.ts';

let xero: XeroStandIn;
let quickBooks: QuickBooksStandIn;
beforeAll(async () => {
	xero = await startXeroStandIn({ accessToken: 'token' });
	quickBooks = await startQuickBooksStandIn({ accessToken: 'token' });
});
afterAll(async () => {
	await xero.close();
	await quickBooks.close();
});

const XERO_AUTH = { authorization: 'Bearer token', 'xero-tenant-id': 'tenant' };
/** What the "Accounts in Xero" node of the template sends. */
const TEMPLATE_WHERE = 'Class=="EXPENSE" AND Status=="ACTIVE"';
/** What the "Accounts in QuickBooks" node of the template sends. */
const TEMPLATE_QUERY = "select * from Account where AccountType = 'Expense'";

type Json = Record<string, unknown>;

async function xeroGet(
	stand: XeroStandIn,
	path: string,
	where?: string,
	headers: Record<string, string> = XERO_AUTH,
) {
	const query = where === undefined ? '' : `?where=${encodeURIComponent(where)}`;
	const response = await fetch(`${stand.url}/api.xro/2.0/${path}${query}`, { headers });
	return { status: response.status, json: (await response.json()) as Json };
}

async function xeroAccounts(where?: string, headers?: Record<string, string>) {
	const { status, json } = await xeroGet(xero, 'Accounts', where, headers);
	return { status, json, accounts: (json.Accounts ?? []) as Json[] };
}

const codes = (accounts: Json[]) => accounts.map((account) => account.Code);

async function quickBooksQuery(query: string, token = 'token', stand = quickBooks) {
	const response = await fetch(
		`${stand.url}/v3/company/1/query?minorversion=75&query=${encodeURIComponent(query)}`,
		{ headers: { authorization: `Bearer ${token}` } },
	);
	const json = (await response.json()) as Json & {
		QueryResponse?: { Account?: Json[]; startPosition?: number; maxResults?: number };
		Fault?: { type: string };
	};
	return { status: response.status, json, accounts: json.QueryResponse?.Account ?? [] };
}

const ids = (accounts: Json[]) => accounts.map((account) => account.Id);

describe('Xero stand-in: GET /Accounts', () => {
	it("answers the template's where with Status OK and the active expense accounts, each as Xero describes an Account", async () => {
		const { status, json, accounts } = await xeroAccounts(TEMPLATE_WHERE);
		expect(status).toBe(200);
		expect(Object.keys(json).sort()).toEqual(['Accounts', 'Status']);
		expect(json.Status).toBe('OK');
		expect(codes(accounts)).toEqual([
			'300',
			'400',
			'404',
			'408',
			'412',
			'429',
			'433',
			'461',
			'469',
			'485',
			'489',
			'493',
		]);
		expect(accounts.find((account) => account.Code === '429')).toEqual({
			AccountID: expect.stringMatching(
				/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
			),
			Code: '429',
			Name: 'General Expenses',
			Status: 'ACTIVE',
			Type: 'OVERHEADS',
			TaxType: 'INPUT2',
			Description: 'General expenses related to the running of the business',
			Class: 'EXPENSE',
			EnablePaymentsToAccount: false,
			ShowInExpenseClaims: true,
			BankAccountType: '',
			HasAttachments: false,
			UpdatedDateUTC: expect.stringMatching(/^\/Date\(\d+\+0000\)\/$/),
			AddToWatchlist: false,
		});
		expect(accounts.find((account) => account.Code === '400')).toMatchObject({
			Name: 'Advertising',
			TaxType: 'INPUT2',
		});
		expect(accounts.find((account) => account.Code === '300')).toMatchObject({
			Name: 'Purchases',
			Type: 'DIRECTCOSTS',
			Class: 'EXPENSE',
		});
		expect(new Set(accounts.map((account) => account.AccountID)).size).toBe(accounts.length);
	});

	it('filters by each condition: Class alone keeps the archived expense account, Status alone the revenue one, both neither', async () => {
		const expense = codes((await xeroAccounts('Class=="EXPENSE"')).accounts);
		expect(expense).toContain('420');
		expect(expense).not.toContain('200');
		const active = codes((await xeroAccounts('Status=="ACTIVE"')).accounts);
		expect(active).toContain('200');
		expect(active).not.toContain('420');
		const both = codes((await xeroAccounts(TEMPLATE_WHERE)).accounts);
		expect(both).not.toContain('200');
		expect(both).not.toContain('420');
		expect(both).toEqual(expense.filter((code) => active.includes(code)));
		expect((await xeroAccounts('Status=="ARCHIVED"')).accounts).toMatchObject([
			{ Code: '420', Class: 'EXPENSE', Status: 'ARCHIVED' },
		]);
		expect((await xeroAccounts('Code=="469"')).accounts).toMatchObject([{ Name: 'Rent' }]);
		expect((await xeroAccounts('Class=="REVENUE"')).accounts).toMatchObject([{ Code: '200' }]);
		expect((await xeroAccounts('Class=="ASSET"')).accounts).toEqual([]);
	});

	it('answers the whole chart without a where, archived and revenue accounts too', async () => {
		const { status, accounts } = await xeroAccounts();
		expect(status).toBe(200);
		expect(accounts).toEqual(XERO_DEMO_ACCOUNTS);
		expect(xero.accounts).toEqual(XERO_DEMO_ACCOUNTS);
	});

	it('refuses a where it does not answer with a ValidationException, as it refuses an invoice lookup', async () => {
		for (const where of [
			'Class!="EXPENSE"',
			'Class=="EXPENSE" OR Status=="ACTIVE"',
			'Contact.Name=="Acme"',
			'InvoiceNumber=="1"',
		]) {
			const { status, json } = await xeroAccounts(where);
			expect(status, where).toBe(400);
			expect(json.Type, where).toBe('ValidationException');
		}
	});

	it("keeps invoice lookups as they were: an account's field is no filter for a bill", async () => {
		expect((await xeroGet(xero, 'Invoices', 'Class=="EXPENSE"')).status).toBe(400);
		expect((await xeroGet(xero, 'CreditNotes', 'Code=="400"')).status).toBe(400);
		expect((await xeroGet(xero, 'Invoices', 'Type=="ACCPAY" AND Status=="DRAFT"')).status).toBe(
			200,
		);
		expect(xeroWhereConditions('Class=="EXPENSE"')).toBeUndefined();
		expect(xeroWhereConditions(TEMPLATE_WHERE, ['Class', 'Status'])).toEqual([
			['Class', 'EXPENSE'],
			['Status', 'ACTIVE'],
		]);
	});

	it('refuses a request without the bearer token (401) or without the tenant (403), as its other routes', async () => {
		expect((await xeroAccounts(TEMPLATE_WHERE, { 'xero-tenant-id': 'tenant' })).status).toBe(401);
		expect(
			(
				await xeroAccounts(TEMPLATE_WHERE, {
					authorization: 'Bearer nope',
					'xero-tenant-id': 'tenant',
				})
			).status,
		).toBe(401);
		expect((await xeroAccounts(TEMPLATE_WHERE, { authorization: 'Bearer token' })).status).toBe(
			403,
		);
		const refused = xero.requests.filter(
			(request) => request.path.startsWith('/api.xro/2.0/Accounts') && !request.accepted,
		);
		expect(refused.map((request) => request.errors[0])).toEqual(
			expect.arrayContaining(['no valid bearer token', 'no xero-tenant-id header']),
		);
	});

	it('answers from the chart it is given', async () => {
		const own = await startXeroStandIn({
			accessToken: 'token',
			accounts: [{ ...XERO_DEMO_ACCOUNTS[2], Code: '6100', Name: 'Marketing' }],
		});
		try {
			expect(own.accounts).toMatchObject([{ Code: '6100', Name: 'Marketing' }]);
			expect((await xeroGet(own, 'Accounts', TEMPLATE_WHERE)).json.Accounts).toMatchObject([
				{ Code: '6100', Name: 'Marketing' },
			]);
		} finally {
			await own.close();
		}
	});

	it.skipIf(!hasReference)(
		"answers a body valid against Xero's OpenAPI Accounts, every TaxType and Type in its enums",
		async () => {
			const validate = xeroSchemaValidator('Accounts');
			expect(validate({ Accounts: [{ Code: '400', Status: 'LIVE' }] })).toBe(false);
			const { json } = await xeroAccounts();
			expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
			const taxType = xeroSchemaValidator('TaxType');
			for (const account of XERO_DEMO_ACCOUNTS)
				expect(taxType(account.TaxType), `${account.Code} ${account.TaxType}`).toBe(true);
			expect(taxType('VAT20')).toBe(false);
		},
		// Compiling Xero's OpenAPI description takes about 5 s on a busy 2-core machine.
		30_000,
	);

	it("shows each bill line's account with its name on the bills page, the code alone when the chart does not know it", async () => {
		await fetch(`${xero.url}/api.xro/2.0/Invoices`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...XERO_AUTH },
			body: JSON.stringify({
				Invoices: [
					{
						Type: 'ACCPAY',
						Contact: { Name: 'Acme' },
						LineItems: [
							{ Description: 'Rent', Quantity: 1, UnitAmount: 10, AccountCode: '469' },
							{ Description: 'Other', Quantity: 1, UnitAmount: 10, AccountCode: '999' },
						],
					},
				],
			}),
		});
		const page = await (await fetch(`${xero.url}/__standin/bills`)).text();
		expect(page).toContain('<td>469 Rent</td>');
		expect(page).toContain('<td>999</td>');
	});
});

describe('QuickBooks stand-in: select * from Account', () => {
	it("answers the template's query with the active expense accounts, as Intuit's Account", async () => {
		const { status, json, accounts } = await quickBooksQuery(TEMPLATE_QUERY);
		expect(status).toBe(200);
		expect(json.QueryResponse).toEqual({
			Account: accounts,
			startPosition: 1,
			maxResults: accounts.length,
		});
		expect(ids(accounts)).toEqual(['7', '10', '12', '15', '16', '17', '19']);
		expect(accounts[0]).toEqual({
			Id: '7',
			SyncToken: '0',
			Name: 'Office Expenses',
			SubAccount: false,
			FullyQualifiedName: 'Office Expenses',
			Active: true,
			Classification: 'Expense',
			AccountType: 'Expense',
			AccountSubType: 'OfficeGeneralAdministrativeExpenses',
			CurrentBalance: 0,
		});
		for (const account of accounts)
			expect(account).toMatchObject({
				AccountType: 'Expense',
				Classification: 'Expense',
				Active: true,
			});
	});

	it('leaves out the income account, the tax account (8) and the inactive one; Active = true is the same, Active = false the inactive one', async () => {
		const expense = ids((await quickBooksQuery(TEMPLATE_QUERY)).accounts);
		expect(expense).not.toContain('1');
		expect(expense).not.toContain('8');
		expect(expense).not.toContain('21');
		expect(ids((await quickBooksQuery(`${TEMPLATE_QUERY} AND Active = true`)).accounts)).toEqual(
			expense,
		);
		expect(
			ids(
				(await quickBooksQuery("SELECT * FROM Account WHERE AccountType='Expense' and Active=true"))
					.accounts,
			),
		).toEqual(expense);
		expect((await quickBooksQuery(`${TEMPLATE_QUERY} AND Active = false`)).accounts).toMatchObject([
			{ Id: '21', Active: false, Name: 'Equipment Rental (deleted)' },
		]);
		expect(
			(await quickBooksQuery("select * from Account where AccountType = 'Other Current Liability'"))
				.accounts,
		).toMatchObject([{ Id: '8', Classification: 'Liability', AccountSubType: 'GlobalTaxPayable' }]);
		expect(
			(await quickBooksQuery("select * from Account where AccountType = 'Bank'")).json
				.QueryResponse,
		).toEqual({});
	});

	it('refuses another query with a QueryParserError, and a request without the token', async () => {
		for (const query of [
			"select * from Account where Name = 'Rent'",
			"select * from Account where AccountType = 'Expense' OR Active = true",
			"select * from Account where AccountType = 'Expense' AND AccountType = 'Income'",
			"select * from Account where Active = 'true'",
			'select * from Account where AccountType = Expense',
			'select * from Account',
			"select * from Vendor where DisplayName = 'Acme' AND Active = true",
			"select * from Bill where DocNumber = '1' AND DocNumber = '2'",
		]) {
			const { status, json } = await quickBooksQuery(query);
			expect(status, query).toBe(400);
			expect(json.Fault?.type, query).toBe('QueryParserError');
		}
		const { status, json } = await quickBooksQuery(TEMPLATE_QUERY, 'nope');
		expect(status).toBe(401);
		expect(json.Fault?.type).toBe('AUTHENTICATION');
	});

	it('reads the queries of vendors, bills and vendor credits as before', () => {
		expect(quickBooksQueryOf("select * from Vendor where DisplayName = 'O\\'Brien & Co'")).toEqual({
			entity: 'Vendor',
			conditions: [{ field: 'DisplayName', value: "O'Brien & Co" }],
			startPosition: 1,
			maxResults: 100,
		});
		expect(quickBooksQueryOf("select * from VendorCredit where DocNumber = 'A AND B'")).toEqual({
			entity: 'VendorCredit',
			conditions: [{ field: 'DocNumber', value: 'A AND B' }],
			startPosition: 1,
			maxResults: 100,
		});
		expect(
			quickBooksQueryOf(
				"select * from Bill where DocNumber = 'A-1' and VendorRef = '56' STARTPOSITION 1001 MAXRESULTS 1000",
			),
		).toEqual({
			entity: 'Bill',
			conditions: [
				{ field: 'DocNumber', value: 'A-1' },
				{ field: 'VendorRef', value: '56' },
			],
			startPosition: 1001,
			maxResults: 1000,
		});
		expect(quickBooksQueryOf("select * from Vendor where DocNumber = '1'")).toBeUndefined();
		expect(quickBooksQueryOf("select * from Invoice where DocNumber = '1'")).toBeUndefined();
	});

	it('answers from the chart it is given', async () => {
		const own = await startQuickBooksStandIn({
			accessToken: 'token',
			accounts: [{ ...QUICKBOOKS_DEMO_ACCOUNTS[1], Id: '60', Name: 'Marketing' }],
		});
		try {
			expect(own.accounts).toMatchObject([{ Id: '60', Name: 'Marketing' }]);
			expect((await quickBooksQuery(TEMPLATE_QUERY, 'token', own)).accounts).toMatchObject([
				{ Id: '60', Name: 'Marketing' },
			]);
		} finally {
			await own.close();
		}
	});

	it.skipIf(!hasReference)(
		"answers every account with only elements of Intuit's Account, its enums' values",
		async () => {
			expect(unknownQuickBooksKeys({ Id: '1', Nmae: 'x' }, 'Account')).toEqual(['Account.Nmae']);
			const { accounts } = await quickBooksQuery(TEMPLATE_QUERY);
			for (const account of [...accounts, ...QUICKBOOKS_DEMO_ACCOUNTS])
				expect(unknownQuickBooksKeys({ ...account }, 'Account')).toEqual([]);
			for (const [type, field] of [
				['AccountTypeEnum', 'AccountType'],
				['AccountClassificationEnum', 'Classification'],
				['AccountSubTypeEnum', 'AccountSubType'],
			] as const) {
				const values = quickBooksEnum(type);
				expect(values.length, type).toBeGreaterThan(3);
				for (const account of QUICKBOOKS_DEMO_ACCOUNTS)
					expect(values, `${account.Id} ${field}`).toContain(account[field]);
			}
		},
	);

	it("shows each bill line's account with its name on the bills page", async () => {
		const vendor = await fetch(`${quickBooks.url}/v3/company/1/vendor`, {
			method: 'POST',
			headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
			body: JSON.stringify({ DisplayName: 'Acme' }),
		});
		const { Vendor } = (await vendor.json()) as { Vendor: { Id: string } };
		const bill = await fetch(`${quickBooks.url}/v3/company/1/bill`, {
			method: 'POST',
			headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
			body: JSON.stringify({
				VendorRef: { value: Vendor.Id },
				Line: [
					{
						DetailType: 'AccountBasedExpenseLineDetail',
						Amount: 10,
						AccountBasedExpenseLineDetail: { AccountRef: { value: '15' } },
					},
				],
			}),
		});
		expect(bill.status).toBe(200);
		const page = await (await fetch(`${quickBooks.url}/__standin/bills`)).text();
		expect(page).toContain('<td>15 Rent or Lease</td>');
	});
});
