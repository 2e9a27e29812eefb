// The Xero stand-in refuses what Xero's schema refuses, and its totals are cent-exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRefusal } from '../../../nodes/DocumentExtraction/bill/booksAnswer.ts';
import {
	fromCents,
	startXeroStandIn,
	toCents,
	xeroLineCents,
	xeroTotals,
	type XeroStandIn,
} from '../../../local-n8n/accounting/index.ts';

let xero: XeroStandIn;
beforeAll(async () => {
	xero = await startXeroStandIn({ accessToken: 'token' });
});
afterAll(async () => await xero.close());

const AUTH = { authorization: 'Bearer token', 'xero-tenant-id': 'tenant' };

async function post(body: unknown, headers: Record<string, string> = AUTH, path = 'Invoices') {
	const response = await fetch(`${xero.url}/api.xro/2.0/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
	return {
		status: response.status,
		json: (await response.json()) as Record<string, unknown> & {
			Invoices: Array<Record<string, unknown>>;
			CreditNotes: Array<Record<string, unknown>>;
		},
	};
}

const lastErrors = () => xero.requests[xero.requests.length - 1].errors;

const line = {
	Description: 'Paper',
	Quantity: 2,
	UnitAmount: 12.35,
	AccountCode: '400',
	LineAmount: 24.7,
};

describe('cents', () => {
	it('reads amounts by their decimal text', () => {
		expect(toCents(0.1) + toCents(0.2)).toBe(30);
		expect(toCents(1.005)).toBe(101);
		expect(toCents('-4.755')).toBe(-476);
		expect(toCents(24.7)).toBe(2470);
		expect(fromCents(30)).toBe(0.3);
		expect(() => toCents('12,50')).toThrow('not an amount');
	});
});

describe('Xero stand-in', () => {
	it('accepts a valid bill and answers with Xero totals from the lines', async () => {
		const answer = await post({
			Invoices: [
				{
					Type: 'ACCPAY',
					Contact: { Name: 'Café & Co' },
					LineAmountTypes: 'Exclusive',
					LineItems: [
						{ ...line, TaxAmount: 4.69 },
						{ ...line, Quantity: 1, UnitAmount: 0.1, LineAmount: 0.1, TaxAmount: 0.01 },
					],
				},
			],
		});
		expect(answer.status).toBe(200);
		expect(answer.json.Invoices).toEqual([
			expect.objectContaining({
				InvoiceID: expect.any(String),
				SubTotal: 24.8,
				TotalTax: 4.7,
				Total: 29.5,
			}),
		]);
	});

	it("refuses a line on an account archived since (Xero's words), and takes it once restored", async () => {
		const archived = {
			Invoices: [
				{
					Type: 'ACCPAY',
					Contact: { Name: 'Café & Co' },
					LineItems: [{ ...line, AccountCode: '420' }],
				},
			],
		};
		const refused = await post(archived);
		expect(refused.status).toBe(400);
		expect(JSON.stringify(refused.json)).toContain(
			"Account code '420' has been archived, or has been deleted. Each line item must reference a valid account.",
		);
		// What Judge Books Answer reads from the answer: the account, in Xero's words.
		expect(
			accountRefusal({ error: { message: `400 - ${JSON.stringify(refused.json)}` } }, null),
		).toEqual({
			account: '420',
			message:
				"Account code '420' has been archived, or has been deleted. Each line item must reference a valid account.",
		});
		const entertainment = xero.accounts.find((account) => account.Code === '420')!;
		entertainment.Status = 'ACTIVE';
		try {
			expect((await post(archived)).status).toBe(200);
		} finally {
			entertainment.Status = 'ARCHIVED';
		}
	});

	it.each([
		[
			'an unknown Type',
			{ Type: 'BILL', Contact: { Name: 'A' }, LineItems: [line] },
			'/Invoices/0/Type must be equal to one of the allowed values',
		],
		[
			'a contact with neither id nor name',
			{ Type: 'ACCPAY', Contact: {}, LineItems: [line] },
			'/Invoices/0/Contact must match a schema in anyOf',
		],
		[
			'a quantity as text',
			{ Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [{ ...line, Quantity: '2' }] },
			'/Invoices/0/LineItems/0/Quantity must be number',
		],
		[
			'a line without account',
			{
				Type: 'ACCPAY',
				Contact: { Name: 'A' },
				LineItems: [{ Description: 'x', Quantity: 1, UnitAmount: 1 }],
			},
			"/Invoices/0/LineItems/0 must have required property 'AccountCode'",
		],
		[
			'an unknown LineAmountTypes',
			{ Type: 'ACCPAY', Contact: { Name: 'A' }, LineAmountTypes: 'Gross', LineItems: [line] },
			'/Invoices/0/LineAmountTypes must be equal to one of the allowed values',
		],
		[
			'a misspelt field',
			{ Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [line], DueDat: '2026-01-01' },
			'/Invoices/0 must NOT have additional properties',
		],
		[
			'a date in another format',
			{ Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [line], Date: '05.10.2026' },
			'/Invoices/0/Date must match pattern "^\\d{4}-\\d{2}-\\d{2}$"',
		],
		[
			'no lines',
			{ Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [] },
			'/Invoices/0/LineItems must NOT have fewer than 1 items',
		],
	])('refuses %s with a ValidationException', async (_case, invoice, message) => {
		xero.requests.length = 0;
		const answer = await post({ Invoices: [invoice] });
		expect(answer.status).toBe(400);
		expect(answer.json.Type).toBe('ValidationException');
		expect(xero.requests[0].errors).toContain(message);
		expect(xero.requests[0].accepted).toBe(false);
	});

	it('refuses a request without the bearer token or the tenant', async () => {
		const body = { Invoices: [{ Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [line] }] };
		expect(
			(await post(body, { authorization: 'Bearer other', 'xero-tenant-id': 't' })).status,
		).toBe(401);
		expect((await post(body, { authorization: 'Bearer token' })).status).toBe(403);
	});

	it('computes Inclusive totals with the tax inside the lines', () => {
		expect(
			xeroTotals({
				LineAmountTypes: 'Inclusive',
				LineItems: [{ Quantity: 1, UnitAmount: 119, LineAmount: 119, TaxAmount: 19 }],
			}),
		).toEqual({ SubTotal: 100, TotalTax: 19, Total: 119 });
		expect(
			xeroTotals({ LineAmountTypes: 'NoTax', LineItems: [{ Quantity: 3, UnitAmount: 0.1 }] }),
		).toEqual({ SubTotal: 0.3, TotalTax: 0, Total: 0.3 });
	});
});

describe('Xero stand-in: what Xero refuses beyond its schema', () => {
	const bill = (lines: unknown[], extra: Record<string, unknown> = {}) => ({
		Invoices: [{ Type: 'ACCPAY', Contact: { Name: 'Acme' }, LineItems: lines, ...extra }],
	});

	it('rounds a 4-decimal unit amount to 2 without unitdp=4, so 1,250 × 0.0372 no longer adds up to 46.50; with unitdp=4 it does', async () => {
		const screws = {
			Description: 'Screws',
			Quantity: 1250,
			UnitAmount: 0.0372,
			AccountCode: '400',
			LineAmount: 46.5,
		};
		expect((await post(bill([screws]))).status).toBe(400);
		expect(lastErrors()).toEqual([
			'/Invoices/0 LineItems/0: the line amount 46.5 is not quantity × unit amount (50)',
		]);
		const withoutLineAmount = await post(bill([{ ...screws, LineAmount: undefined }]));
		expect(withoutLineAmount.json.Invoices[0]).toMatchObject({ Total: 50 });
		const exact = await post(bill([screws]), AUTH, 'Invoices?unitdp=4');
		expect(exact.status).toBe(200);
		expect(exact.json.Invoices[0]).toMatchObject({ Total: 46.5, CurrencyCode: 'EUR' });
	});

	it('computes a line as quantity × unit amount rounded half away from zero, less the discount', () => {
		expect(xeroLineCents({ Quantity: 3, UnitAmount: 0.3333 })).toBe(100);
		expect(xeroLineCents({ Quantity: 1, UnitAmount: 0.125 }, 4)).toBe(13);
		expect(xeroLineCents({ Quantity: 1, UnitAmount: -0.125 }, 4)).toBe(-13);
		expect(xeroLineCents({ Quantity: 2.5, UnitAmount: 10, DiscountRate: 10 })).toBe(2250);
	});

	it.each([
		[
			'a quantity with 5 decimals',
			[{ ...line, Quantity: 1.00001, LineAmount: undefined }],
			'/Invoices/0 LineItems/0/Quantity has more than 4 decimals',
		],
		[
			'a unit amount with 5 decimals',
			[{ ...line, UnitAmount: 12.34501, LineAmount: undefined }],
			'/Invoices/0 LineItems/0/UnitAmount has more than 4 decimals',
		],
		[
			'a tax amount with 3 decimals',
			[{ ...line, TaxAmount: 4.691 }],
			'/Invoices/0 LineItems/0/TaxAmount has more than 2 decimals',
		],
		[
			'a negative total',
			[{ ...line, UnitAmount: -12.35, LineAmount: -24.7 }],
			'/Invoices/0 the total -24.7 is negative: a bill total must be zero or more',
		],
		[
			'a description over 4000 characters',
			[{ ...line, Description: 'x'.repeat(4001) }],
			'/Invoices/0/LineItems/0/Description must NOT have more than 4000 characters',
		],
	])('refuses %s', async (_case, lines, message) => {
		expect((await post(bill(lines), AUTH, 'Invoices?unitdp=4')).status).toBe(400);
		expect(lastErrors()).toContain(message);
	});

	it('refuses a currency the organisation does not use, and an invoice number or contact name over 255 characters', async () => {
		expect((await post(bill([line], { CurrencyCode: 'CHF' }))).status).toBe(400);
		expect(lastErrors()).toEqual(['/Invoices/0 the organisation does not use the currency CHF']);
		expect((await post(bill([line], { InvoiceNumber: 'N'.repeat(256) }))).status).toBe(400);
		expect(
			(
				await post({
					Invoices: [{ Type: 'ACCPAY', Contact: { Name: 'N'.repeat(256) }, LineItems: [line] }],
				})
			).status,
		).toBe(400);
	});

	it('makes a second contact for a name written differently (a line break), as Xero does', async () => {
		const before = xero.contacts.length;
		await post({
			Invoices: [{ Type: 'ACCPAY', Contact: { Name: 'Hooli GmbH' }, LineItems: [line] }],
		});
		await post({
			Invoices: [{ Type: 'ACCPAY', Contact: { Name: 'Hooli GmbH' }, LineItems: [line] }],
		});
		await post({
			Invoices: [{ Type: 'ACCPAY', Contact: { Name: 'Hooli\nGmbH' }, LineItems: [line] }],
		});
		expect(xero.contacts.slice(before).map((contact) => contact.Name)).toEqual([
			'Hooli GmbH',
			'Hooli\nGmbH',
		]);
	});

	it('takes an ACCPAYCREDIT credit note on /CreditNotes (positive amounts), and refuses an ACCPAY there', async () => {
		const credit = await post(
			{
				CreditNotes: [
					{
						Type: 'ACCPAYCREDIT',
						Contact: { Name: 'Acme' },
						CreditNoteNumber: 'CN-1',
						LineItems: [line],
					},
				],
			},
			AUTH,
			'CreditNotes?unitdp=4',
		);
		expect(credit.status).toBe(200);
		expect(credit.json.CreditNotes[0]).toMatchObject({
			CreditNoteID: expect.any(String),
			Type: 'ACCPAYCREDIT',
			Total: 24.7,
		});
		expect(
			(
				await post(
					{ CreditNotes: [{ Type: 'ACCPAY', Contact: { Name: 'Acme' }, LineItems: [line] }] },
					AUTH,
					'CreditNotes',
				)
			).status,
		).toBe(400);
	});

	it('records an attachment byte for byte on an existing bill; refuses an unknown bill, a type Xero does not take, an empty file', async () => {
		const created = await post(bill([line]));
		const id = String(created.json.Invoices[0].InvoiceID);
		const bytes = Buffer.from('%PDF-1.4 original');
		const put = (path: string, body: Buffer, contentType = 'application/pdf') =>
			fetch(`${xero.url}/api.xro/2.0/${path}`, {
				method: 'PUT',
				headers: { ...AUTH, 'content-type': contentType },
				body,
			});
		expect((await put(`Invoices/${id}/Attachments/invoice%20one.pdf`, bytes)).status).toBe(200);
		expect(xero.attachments.at(-1)).toEqual({
			ownerId: id,
			ownerType: 'Invoices',
			fileName: 'invoice one.pdf',
			contentType: 'application/pdf',
			bytes,
		});
		expect(
			(await put('Invoices/00000000-0000-0000-0000-000000000000/Attachments/a.pdf', bytes)).status,
		).toBe(404);
		expect(
			(await put(`Invoices/${id}/Attachments/invoice.json`, bytes, 'application/json')).status,
		).toBe(400);
		expect(lastErrors()).toEqual(['Xero does not take .json files']);
		expect((await put(`Invoices/${id}/Attachments/empty.pdf`, Buffer.alloc(0))).status).toBe(400);
	});
});

describe('Xero stand-in: History & Notes', () => {
	async function note(path: string, body: unknown) {
		const response = await fetch(`${xero.url}/api.xro/2.0/${path}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json', ...AUTH },
			body: JSON.stringify(body),
		});
		return { status: response.status, json: (await response.json()) as Record<string, unknown> };
	}

	it('keeps a note on an existing bill; refuses an unknown bill and a note over 250 characters', async () => {
		const created = await post({
			Invoices: [{ Type: 'ACCPAY', Contact: { Name: 'Acme' }, LineItems: [line] }],
		});
		const id = String(created.json.Invoices[0].InvoiceID);
		const ok = await note(`Invoices/${id}/History`, {
			HistoryRecords: [{ Details: 'Approved by manager@example.test on 2026-11-02T09:30:00Z' }],
		});
		expect(ok.status).toBe(200);
		expect(xero.history.filter((entry) => entry.ownerId === id)).toEqual([
			expect.objectContaining({
				ownerType: 'Invoices',
				Details: 'Approved by manager@example.test on 2026-11-02T09:30:00Z',
			}),
		]);
		expect(
			(await note('Invoices/not-a-bill/History', { HistoryRecords: [{ Details: 'x' }] })).status,
		).toBe(404);
		const long = await note(`Invoices/${id}/History`, {
			HistoryRecords: [{ Details: 'x'.repeat(251) }],
		});
		expect(long.status).toBe(400);
		expect(lastErrors()).toEqual(['HistoryRecords/0/Details is over 250 characters']);
		expect(xero.history.filter((entry) => entry.ownerId === id)).toHaveLength(1);
	});
});

describe('Xero stand-in: idempotent writes, lost answers, finding a bill', () => {
	const bill = (number: string, name = 'Acme "Quoted" Ltd') => ({
		Invoices: [
			{ Type: 'ACCPAY', Contact: { Name: name }, InvoiceNumber: number, LineItems: [line] },
		],
	});

	it('makes a write whose answer was lost once; the retry with its Idempotency-Key gets the answer', async () => {
		const keyed = { ...AUTH, 'idempotency-key': 'de-lost-once-bill' };
		xero.loseAnswers(1);
		expect((await post(bill('LOST-1'), keyed)).status).toBe(504);
		const retried = await post(bill('LOST-1'), keyed);
		expect(retried.status).toBe(200);
		const stored = xero.documents.filter((document) => document.InvoiceNumber === 'LOST-1');
		expect(stored).toHaveLength(1);
		expect(retried.json.Invoices[0].InvoiceID).toBe(stored[0].id);
		expect(xero.requests.at(-1)?.replayed).toBe(true);
		// Without the key, the same retry is a second bill, as in Xero.
		expect((await post(bill('LOST-1'))).status).toBe(200);
		expect(xero.documents.filter((document) => document.InvoiceNumber === 'LOST-1')).toHaveLength(
			2,
		);
	});

	it('finds a bill by supplier and number with a where filter; refuses a filter it does not know', async () => {
		await post(bill('FIND-1'));
		await post(bill('FIND-1', 'Someone Else'));
		const where =
			'Type=="ACCPAY" AND Contact.Name=="Acme \\"Quoted\\" Ltd" AND InvoiceNumber=="FIND-1"';
		const found = await fetch(
			`${xero.url}/api.xro/2.0/Invoices?where=${encodeURIComponent(where)}`,
			{ headers: AUTH },
		);
		const body = (await found.json()) as { Invoices: Array<{ Contact: { Name: string } }> };
		expect(body.Invoices.map((invoice) => invoice.Contact.Name)).toEqual(['Acme "Quoted" Ltd']);
		const refused = await fetch(
			`${xero.url}/api.xro/2.0/Invoices?where=${encodeURIComponent('Total>100')}`,
			{ headers: AUTH },
		);
		expect(refused.status).toBe(400);
	});
});

describe('the bills page', () => {
	it('shows each bill with its lines, account and tax, the supplier as text however it is written', async () => {
		const supplier = '<a href="https://evil.example">Pay here</a> Ltd';
		const answer = await post({
			Invoices: [
				{
					Type: 'ACCPAY',
					InvoiceNumber: 'PAGE-1',
					Contact: { Name: supplier },
					LineAmountTypes: 'Exclusive',
					LineItems: [{ ...line, Description: 'Toner <b>black</b>', TaxType: 'INPUT2' }],
				},
			],
		});
		expect(answer.status).toBe(200);
		const page = await (await fetch(`${xero.url}/__standin/bills`)).text();
		expect(page).toContain(
			'Bill PAGE-1 from &#60;a href=&#34;https://evil.example&#34;&#62;Pay here&#60;/a&#62; Ltd',
		);
		expect(page).not.toContain('<a href="https://evil.example">');
		expect(page).toContain(
			'<td>Toner &#60;b&#62;black&#60;/b&#62;</td><td>400 Advertising</td><td>INPUT2</td>',
		);
	});
});
