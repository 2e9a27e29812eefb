// The Xero stand-in refuses what Xero's schema refuses, and its totals are cent-exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromCents, startXeroStandIn, toCents, xeroTotals, type XeroStandIn } from '../../../local-n8n/accounting/index.ts';

let xero: XeroStandIn;
beforeAll(async () => {
	xero = await startXeroStandIn({ accessToken: 'token' });
});
afterAll(async () => await xero.close());

async function post(body: unknown, headers: Record<string, string> = { authorization: 'Bearer token', 'xero-tenant-id': 'tenant' }) {
	const response = await fetch(`${xero.url}/api.xro/2.0/Invoices`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
	return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const line = { Description: 'Paper', Quantity: 2, UnitAmount: 12.35, AccountCode: '400', LineAmount: 24.7 };

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
		const answer = await post({ Invoices: [{ Type: 'ACCPAY', Contact: { Name: 'Café & Co' }, LineAmountTypes: 'Exclusive', LineItems: [{ ...line, TaxAmount: 4.69 }, { ...line, Quantity: 1, UnitAmount: 0.1, LineAmount: 0.1, TaxAmount: 0.01 }] }] });
		expect(answer.status).toBe(200);
		expect(answer.json.Invoices).toEqual([expect.objectContaining({ InvoiceID: expect.any(String), SubTotal: 24.8, TotalTax: 4.7, Total: 29.5 })]);
	});

	it.each([
		['an unknown Type', { Type: 'BILL', Contact: { Name: 'A' }, LineItems: [line] }, '/Invoices/0/Type must be equal to one of the allowed values'],
		['a contact with neither id nor name', { Type: 'ACCPAY', Contact: {}, LineItems: [line] }, '/Invoices/0/Contact must match a schema in anyOf'],
		['a quantity as text', { Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [{ ...line, Quantity: '2' }] }, '/Invoices/0/LineItems/0/Quantity must be number'],
		['a line without account', { Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [{ Description: 'x', Quantity: 1, UnitAmount: 1 }] }, "/Invoices/0/LineItems/0 must have required property 'AccountCode'"],
		['an unknown LineAmountTypes', { Type: 'ACCPAY', Contact: { Name: 'A' }, LineAmountTypes: 'Gross', LineItems: [line] }, '/Invoices/0/LineAmountTypes must be equal to one of the allowed values'],
		['a misspelt field', { Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [line], DueDat: '2026-01-01' }, '/Invoices/0 must NOT have additional properties'],
		['a date in another format', { Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [line], Date: '05.10.2026' }, '/Invoices/0/Date must match pattern "^\\d{4}-\\d{2}-\\d{2}$"'],
		['no lines', { Type: 'ACCPAY', Contact: { Name: 'A' }, LineItems: [] }, '/Invoices/0/LineItems must NOT have fewer than 1 items'],
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
		expect((await post(body, { authorization: 'Bearer other', 'xero-tenant-id': 't' })).status).toBe(401);
		expect((await post(body, { authorization: 'Bearer token' })).status).toBe(403);
	});

	it('computes Inclusive totals with the tax inside the lines', () => {
		expect(xeroTotals({ LineAmountTypes: 'Inclusive', LineItems: [{ Quantity: 1, UnitAmount: 119, LineAmount: 119, TaxAmount: 19 }] })).toEqual({ SubTotal: 100, TotalTax: 19, Total: 119 });
		expect(xeroTotals({ LineAmountTypes: 'NoTax', LineItems: [{ Quantity: 3, UnitAmount: 0.1 }] })).toEqual({ SubTotal: 0.3, TotalTax: 0, Total: 0.3 });
	});
});
