// The QuickBooks stand-in refuses what Intuit's published Bill and Vendor rules refuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuickBooksStandIn, type QuickBooksStandIn } from '../../../local-n8n/accounting/index.ts';

let quickBooks: QuickBooksStandIn;
beforeAll(async () => {
	quickBooks = await startQuickBooksStandIn({ accessToken: 'token' });
});
afterAll(async () => await quickBooks.close());

async function call(method: string, path: string, body?: unknown, token = 'token') {
	const response = await fetch(`${quickBooks.url}/v3/company/1${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
	return { status: response.status, json: (await response.json()) as StandInAnswer };
}

/** The parts of the stand-in's answers these tests read. */
interface StandInAnswer {
	Vendor: { Id: string; DisplayName: string };
	QueryResponse: { Vendor?: unknown[] };
	Bill: { TotalAmt: number };
	Fault: { type: string };
}

const line = { DetailType: 'AccountBasedExpenseLineDetail', Amount: 0.1, AccountBasedExpenseLineDetail: { AccountRef: { value: '7' } } };

describe('QuickBooks stand-in', () => {
	it('creates a vendor, finds it by an escaped display name, and takes a bill summing its lines in cents', async () => {
		const vendor = await call('POST', '/vendor', { DisplayName: "O'Brien & Co" });
		expect(vendor.status).toBe(200);
		const found = await call('GET', `/query?query=${encodeURIComponent("select * from Vendor where DisplayName = 'O\\'Brien & Co'")}`);
		expect(found.json.QueryResponse.Vendor).toEqual([vendor.json.Vendor]);
		expect((await call('GET', `/query?query=${encodeURIComponent("select * from Vendor where DisplayName = 'Nobody'")}`)).json).toEqual({ QueryResponse: {} });
		const bill = await call('POST', '/bill', { VendorRef: { value: vendor.json.Vendor.Id }, DocNumber: 'A-1', TxnDate: '2026-10-05', Line: [line, { ...line, Amount: 0.2 }] });
		expect(bill.status).toBe(200);
		expect(bill.json.Bill.TotalAmt).toBe(0.3);
		expect((await call('POST', '/vendor', { DisplayName: "O'Brien & Co" })).status).toBe(400);
	});

	it.each([
		['no VendorRef', { Line: [line] }, "/ must have required property 'VendorRef'"],
		['no lines', { VendorRef: { value: '1' }, Line: [] }, '/Line must NOT have fewer than 1 items'],
		['a DocNumber over 21 characters', { VendorRef: { value: '1' }, DocNumber: 'X'.repeat(22), Line: [line] }, '/DocNumber must NOT have more than 21 characters'],
		['another DetailType', { VendorRef: { value: '1' }, Line: [{ ...line, DetailType: 'ItemBasedExpenseLineDetail' }] }, '/Line/0/DetailType must be equal to constant'],
		['a line without AccountRef', { VendorRef: { value: '1' }, Line: [{ ...line, AccountBasedExpenseLineDetail: {} }] }, "/Line/0/AccountBasedExpenseLineDetail must have required property 'AccountRef'"],
		['an amount as text', { VendorRef: { value: '1' }, Line: [{ ...line, Amount: '0.10' }] }, '/Line/0/Amount must be number'],
		['a TxnDate in another format', { VendorRef: { value: '1' }, TxnDate: '10/05/2026', Line: [line] }, '/TxnDate must match pattern "^\\d{4}-\\d{2}-\\d{2}$"'],
	])('refuses a bill with %s', async (_case, bill, message) => {
		quickBooks.requests.length = 0;
		const answer = await call('POST', '/bill', bill);
		expect(answer.status).toBe(400);
		expect(answer.json.Fault.type).toBe('ValidationFault');
		expect(quickBooks.requests[0].errors).toContain(message);
	});

	it('refuses a vendor name with a colon, and a request without the token', async () => {
		expect((await call('POST', '/vendor', { DisplayName: 'A:B' })).status).toBe(400);
		expect((await call('POST', '/vendor', { DisplayName: 'A' }, 'other')).status).toBe(401);
	});
});
