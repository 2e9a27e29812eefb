// The QuickBooks stand-in refuses what Intuit's published Bill and Vendor rules refuse.
import { accountRefusal } from '../../../nodes/DocumentExtraction/bill/booksAnswer.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startQuickBooksStandIn,
	type QuickBooksStandIn,
} from '../../../local-n8n/accounting/index.ts';

let quickBooks: QuickBooksStandIn;
beforeAll(async () => {
	quickBooks = await startQuickBooksStandIn({ accessToken: 'token' });
});
afterAll(async () => await quickBooks.close());

async function call(method: string, path: string, body?: unknown, token = 'token') {
	const response = await fetch(`${quickBooks.url}/v3/company/1${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, json: (await response.json()) as StandInAnswer };
}

/** The parts of the stand-in's answers these tests read. */
interface StandInAnswer {
	Vendor: { Id: string; DisplayName: string; CurrencyRef: { value: string } };
	QueryResponse: { Vendor?: unknown[] };
	Bill: { Id: string; TotalAmt: number; CurrencyRef: { value: string } };
	VendorCredit: { Id: string; TotalAmt: number };
	AttachableResponse: Array<{ Attachable: { Id: string; FileName: string } }>;
	Fault: { type: string; Error: Array<{ Detail?: string }> };
}

const line = {
	DetailType: 'AccountBasedExpenseLineDetail',
	Amount: 0.1,
	AccountBasedExpenseLineDetail: { AccountRef: { value: '7' } },
};

describe('QuickBooks stand-in', () => {
	it('creates a vendor, finds it by an escaped display name, and takes a bill summing its lines in cents', async () => {
		const vendor = await call('POST', '/vendor', { DisplayName: "O'Brien & Co" });
		expect(vendor.status).toBe(200);
		const found = await call(
			'GET',
			`/query?query=${encodeURIComponent("select * from Vendor where DisplayName = 'O\\'Brien & Co'")}`,
		);
		expect(found.json.QueryResponse.Vendor).toEqual([vendor.json.Vendor]);
		expect(
			(
				await call(
					'GET',
					`/query?query=${encodeURIComponent("select * from Vendor where DisplayName = 'Nobody'")}`,
				)
			).json,
		).toEqual({ QueryResponse: {} });
		const bill = await call('POST', '/bill', {
			VendorRef: { value: vendor.json.Vendor.Id },
			DocNumber: 'A-1',
			TxnDate: '2026-10-05',
			Line: [line, { ...line, Amount: 0.2 }],
		});
		expect(bill.status).toBe(200);
		expect(bill.json.Bill.TotalAmt).toBe(0.3);
		expect((await call('POST', '/vendor', { DisplayName: "O'Brien & Co" })).status).toBe(400);
	});

	it("refuses a bill on an account made inactive since with QuickBooks' 2500, which names no field", async () => {
		const vendor = await call('POST', '/vendor', { DisplayName: 'Inactive Account Ltd' });
		const bill = {
			VendorRef: { value: vendor.json.Vendor.Id },
			DocNumber: 'IA-1',
			TxnDate: '2026-10-05',
			Line: [
				{
					...line,
					AccountBasedExpenseLineDetail: { AccountRef: { value: '21' } },
				},
			],
		};
		const refused = await call('POST', '/bill', bill);
		expect(refused.status).toBe(400);
		expect(refused.json.Fault.Error[0]).toMatchObject({
			code: '2500',
			Message: 'Invalid Reference Id',
		});
		expect(accountRefusal({ error: { description: JSON.stringify(refused.json) } }, '21')).toEqual({
			account: '21',
			message:
				"Invalid Reference Id : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees.",
		});
	});

	it.each([
		['no VendorRef', { Line: [line] }, "/ must have required property 'VendorRef'"],
		['no lines', { VendorRef: { value: '1' }, Line: [] }, '/Line must NOT have fewer than 1 items'],
		[
			'a DocNumber over 21 characters',
			{ VendorRef: { value: '1' }, DocNumber: 'X'.repeat(22), Line: [line] },
			'/DocNumber must NOT have more than 21 characters',
		],
		[
			'another DetailType',
			{ VendorRef: { value: '1' }, Line: [{ ...line, DetailType: 'ItemBasedExpenseLineDetail' }] },
			'/Line/0/DetailType must be equal to constant',
		],
		[
			'a line without AccountRef',
			{ VendorRef: { value: '1' }, Line: [{ ...line, AccountBasedExpenseLineDetail: {} }] },
			"/Line/0/AccountBasedExpenseLineDetail must have required property 'AccountRef'",
		],
		[
			'an amount as text',
			{ VendorRef: { value: '1' }, Line: [{ ...line, Amount: '0.10' }] },
			'/Line/0/Amount must be number',
		],
		[
			'a TxnDate in another format',
			{ VendorRef: { value: '1' }, TxnDate: '10/05/2026', Line: [line] },
			'/TxnDate must match pattern "^\\d{4}-\\d{2}-\\d{2}$"',
		],
	])('refuses a bill with %s', async (_case, bill, message) => {
		quickBooks.requests.length = 0;
		const answer = await call('POST', '/bill', bill);
		expect(answer.status).toBe(400);
		expect(answer.json.Fault.type).toBe('ValidationFault');
		expect(quickBooks.requests[0].errors).toContain(message);
	});

	it("answers the company's home currency from its preferences; a vendor and a bill without a currency are in it", async () => {
		const preferences = await call('GET', '/preferences');
		expect(preferences.status).toBe(200);
		expect(preferences.json).toMatchObject({
			Preferences: { CurrencyPrefs: { HomeCurrency: { value: 'EUR' } } },
		});
		const vendor = await call('POST', '/vendor', { DisplayName: 'Home Supplies' });
		expect(vendor.json.Vendor.CurrencyRef).toEqual({ value: 'EUR' });
		const bill = await call('POST', '/bill', {
			VendorRef: { value: vendor.json.Vendor.Id },
			Line: [
				{
					DetailType: 'AccountBasedExpenseLineDetail',
					Amount: 10,
					AccountBasedExpenseLineDetail: { AccountRef: { value: '7' } },
				},
			],
		});
		expect(bill.status).toBe(200);
		expect(bill.json.Bill.CurrencyRef).toEqual({ value: 'EUR' });
	});

	it('refuses a vendor name with a colon, and a request without the token', async () => {
		expect((await call('POST', '/vendor', { DisplayName: 'A:B' })).status).toBe(400);
		expect((await call('POST', '/vendor', { DisplayName: 'A' }, 'other')).status).toBe(401);
	});
});

describe('QuickBooks stand-in: currencies, vendor credits, attachments', () => {
	const lastErrors = () => quickBooks.requests[quickBooks.requests.length - 1].errors;

	it("creates a vendor in a currency; a bill in another currency than its vendor's is refused", async () => {
		const vendor = (
			await call('POST', '/vendor', {
				DisplayName: 'Dollar Supplies',
				CurrencyRef: { value: 'USD' },
			})
		).json.Vendor;
		expect(vendor.CurrencyRef).toEqual({ value: 'USD' });
		expect(
			(
				await call('POST', '/bill', {
					VendorRef: { value: vendor.Id },
					CurrencyRef: { value: 'USD' },
					Line: [line],
				})
			).json.Bill.CurrencyRef,
		).toEqual({ value: 'USD' });
		expect(
			(await call('POST', '/bill', { VendorRef: { value: vendor.Id }, Line: [line] })).status,
		).toBe(400);
		expect(lastErrors()).toEqual([
			"the vendor's currency USD is not the transaction's currency EUR",
		]);
		expect(
			(
				await call('POST', '/vendor', {
					DisplayName: 'Franc Supplies',
					CurrencyRef: { value: 'CHF' },
				})
			).status,
		).toBe(400);
	});

	it('refuses amounts with more than 2 decimals and a negative total; takes a discount line when the total stays positive', async () => {
		const vendor = (await call('POST', '/vendor', { DisplayName: 'Euro Supplies' })).json.Vendor;
		expect(
			(
				await call('POST', '/bill', {
					VendorRef: { value: vendor.Id },
					Line: [{ ...line, Amount: 0.105 }],
				})
			).status,
		).toBe(400);
		expect(lastErrors()).toEqual(['/Line/0/Amount has more than 2 decimals']);
		expect(
			(
				await call('POST', '/bill', {
					VendorRef: { value: vendor.Id },
					Line: [{ ...line, Amount: -0.2 }, line],
				})
			).status,
		).toBe(400);
		expect(lastErrors()).toEqual(['the total -0.1 is negative']);
		expect(
			(
				await call('POST', '/bill', {
					VendorRef: { value: vendor.Id },
					Line: [
						{ ...line, Amount: 1 },
						{ ...line, Amount: -0.25 },
					],
				})
			).json.Bill.TotalAmt,
		).toBe(0.75);
	});

	it('takes a VendorCredit, and an Attachable uploaded and linked to it, recording the bytes; refuses a .json file, an unknown transaction and metadata that is not a JSON part', async () => {
		const vendor = (await call('POST', '/vendor', { DisplayName: 'Credit Supplies' })).json.Vendor;
		const credit = (
			await call('POST', '/vendorcredit', {
				VendorRef: { value: vendor.Id },
				DocNumber: 'CN-1',
				Line: [line],
			})
		).json.VendorCredit;
		expect(credit.TotalAmt).toBe(0.1);
		const upload = async (fileName: string, entityId: string, metadataAsText = false) => {
			const form = new FormData();
			const metadata = JSON.stringify({
				AttachableRef: [{ EntityRef: { type: 'VendorCredit', value: entityId } }],
				FileName: fileName,
				ContentType: 'application/pdf',
			});
			if (metadataAsText) form.append('file_metadata_01', metadata);
			else
				form.append(
					'file_metadata_01',
					new Blob([metadata], { type: 'application/json' }),
					'attachable.json',
				);
			form.append(
				'file_content_01',
				new Blob([Buffer.from('%PDF-1.4 credit')], { type: 'application/pdf' }),
				fileName,
			);
			const response = await fetch(`${quickBooks.url}/v3/company/1/upload`, {
				method: 'POST',
				headers: { authorization: 'Bearer token' },
				body: form,
			});
			return { status: response.status, json: (await response.json()) as StandInAnswer };
		};
		const uploaded = await upload('credit.pdf', credit.Id);
		expect(uploaded.status).toBe(200);
		expect(uploaded.json.AttachableResponse[0].Attachable.FileName).toBe('credit.pdf');
		expect(quickBooks.attachments.at(-1)).toEqual({
			ownerId: credit.Id,
			ownerType: 'VendorCredit',
			fileName: 'credit.pdf',
			contentType: 'application/pdf',
			bytes: Buffer.from('%PDF-1.4 credit'),
		});
		expect((await upload('credit.json', credit.Id)).status).toBe(400);
		expect(lastErrors()).toEqual(['QuickBooks does not take .json files']);
		expect((await upload('credit.pdf', '999999')).status).toBe(400);
		expect(lastErrors()).toEqual(['no VendorCredit 999999']);
		expect((await upload('credit.pdf', credit.Id, true)).status).toBe(400);
		expect(lastErrors()).toEqual([
			'the file_metadata_01 part has Content-Type (none), not application/json',
		]);
	});

	it('refuses a display name with a line break or over 500 characters, and a PrivateNote over 4000', async () => {
		expect((await call('POST', '/vendor', { DisplayName: 'Acme\nLtd' })).status).toBe(400);
		expect((await call('POST', '/vendor', { DisplayName: 'A'.repeat(501) })).status).toBe(400);
		expect(
			(
				await call('POST', '/bill', {
					VendorRef: { value: '1' },
					PrivateNote: 'n'.repeat(4001),
					Line: [line],
				})
			).status,
		).toBe(400);
	});
});

describe('QuickBooks stand-in: idempotent writes, lost answers, finding a bill', () => {
	it('makes a write whose answer was lost once; the retry with its requestid gets the answer; a bill is found by its number', async () => {
		const vendor = (await call('POST', '/vendor', { DisplayName: "O'Brien Supplies" })).json.Vendor;
		quickBooks.loseAnswers(1);
		const body = { VendorRef: { value: vendor.Id }, DocNumber: "INV-'9'", Line: [line] };
		expect((await call('POST', '/bill?requestid=de-q-bill', body)).status).toBe(504);
		const retried = await call('POST', '/bill?requestid=de-q-bill', body);
		expect(retried.status).toBe(200);
		const stored = quickBooks.transactions.filter((bill) => bill.DocNumber === "INV-'9'");
		expect(stored).toHaveLength(1);
		expect(retried.json.Bill.Id).toBe(stored[0].Id);
		const query = encodeURIComponent("select * from Bill where DocNumber = 'INV-\\'9\\''");
		const found = (await call('GET', `/query?query=${query}`)).json.QueryResponse as {
			Bill?: Array<{ Id: string; VendorRef: { value: string; name: string } }>;
		};
		expect(found.Bill).toEqual([
			expect.objectContaining({
				Id: stored[0].Id,
				VendorRef: { value: vendor.Id, name: "O'Brien Supplies" },
			}),
		]);
		const none = encodeURIComponent("select * from VendorCredit where DocNumber = 'INV-\\'9\\''");
		expect((await call('GET', `/query?query=${none}`)).json.QueryResponse).toEqual({});
	});
});
