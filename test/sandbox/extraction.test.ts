/**
 * What the sandbox extracts: the same bytes always give the same result and confidence; JSON and CSV
 * invoices (D19) are parsed into the spec's extracted-data object; the amounts add up.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
	ACCOUNTS,
	control,
	extract,
	extractedDataProblems,
	jpg,
	nextConfidence,
	pdf,
	png,
	startTestSandbox,
	type Json,
	type RunningSandbox,
	type UploadFile,
} from './helpers.ts';
import { EXTRACTED } from '../unit/harness/invoices.ts';

const A = ACCOUNTS.a.apiKey;

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ reviewDelayMs: 60_000 });
});
afterAll(() => sandbox.close());
beforeEach(() => control(sandbox, 'reset', {}));

/** The data the sandbox holds for a document (the review hides it from the extract answer). */
const dataOf = (documentId: string) =>
	sandbox.state().documents.find((document) => document.id === documentId)?.data;

describe('deterministic extraction', () => {
	const files: UploadFile[] = [
		...Array.from({ length: 8 }, (_, index) => pdf(`fixed invoice ${index}`)),
		png('fixed scan a'),
		png('fixed scan b'),
		jpg('fixed photo a'),
		jpg('fixed photo b'),
	];

	it('the same bytes give the same status, confidence and data; the data adds up', async () => {
		const statuses = new Set<string>();
		const confidences = new Set<number>();
		for (const file of files) {
			const first = (await extract(sandbox, A, file)).json;
			const second = (await extract(sandbox, A, file)).json;
			expect(second.status, file.name).toBe(first.status);
			expect(second.confidence, file.name).toBe(first.confidence);
			expect(second.document_id).not.toBe(first.document_id);
			if (first.status === 'verified') expect(second.extracted_json).toEqual(first.extracted_json);
			expect(dataOf(second.document_id)).toEqual(dataOf(first.document_id));
			expect(extractedDataProblems(dataOf(first.document_id))).toEqual([]);
			expect(first.confidence).toBeGreaterThanOrEqual(0);
			expect(first.confidence).toBeLessThanOrEqual(1);
			statuses.add(first.status);
			confidences.add(first.confidence);
		}
		// Different bytes differ (these fixed files give both outcomes).
		expect(confidences.size).toBeGreaterThan(files.length / 2);
		expect([...statuses].sort()).toEqual(['needs_review', 'verified']);
	});

	it('a forced confidence changes the path, not the data', async () => {
		const file = pdf('forced confidence');
		await nextConfidence(sandbox, 0.99);
		const verified = (await extract(sandbox, A, file)).json;
		await nextConfidence(sandbox, 0.2);
		const reviewed = (await extract(sandbox, A, file)).json;
		expect(verified.status).toBe('verified');
		expect(reviewed.status).toBe('needs_review');
		expect(dataOf(reviewed.document_id)).toEqual(verified.extracted_json);
	});
});

describe('JSON invoices (D19)', () => {
	const verifiedData = async (content: unknown): Promise<Json> => {
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A, {
			name: 'invoice.json',
			content: typeof content === 'string' ? content : JSON.stringify(content),
		});
		expect(reply.json.status).toBe('verified');
		return reply.json.extracted_json;
	};

	it('an object shaped like the extracted-data object comes back as given', async () => {
		// Amounts in cents that floating-point sums would disturb (1234.56 + 234.57).
		const invoice = {
			...EXTRACTED,
			amounts: { subtotal: 1234.56, tax: 234.57, total: 1469.13 },
			line_items: [
				{ description: 'Desk', quantity: 2, unit_price: 499.99, amount: 999.98 },
				{ description: 'Lamp', quantity: 3, unit_price: 78.19, amount: 234.57 },
				{ description: 'Cable tie', quantity: 1, unit_price: 0.01, amount: 0.01 },
			],
		};
		const data = await verifiedData(invoice);
		expect(data).toEqual(invoice);
	});

	it('missing amounts are computed from the lines and add up; missing line amounts are quantity x unit_price', async () => {
		const data = await verifiedData({
			header: { vendor: 'Soylent Foods', date: '2026-04-01', invoice_no: 'SF-1' },
			line_items: [
				{ description: 'Crackers', quantity: 3, unit_price: 2.35 },
				{ description: 'Water', quantity: '12', unit_price: '0.5', amount: '6' },
			],
		});
		expect(data.line_items).toEqual([
			{ description: 'Crackers', quantity: 3, unit_price: 2.35, amount: 7.05 },
			{ description: 'Water', quantity: 12, unit_price: 0.5, amount: 6 },
		]);
		expect(data.amounts.subtotal).toBe(13.05);
		expect(extractedDataProblems(data)).toEqual([]);
	});

	it('a confidence in the file out of 0..1 is ignored (the hash decides)', async () => {
		const content = JSON.stringify({
			header: { vendor: 'V', date: '2026-01-01', invoice_no: '1' },
			line_items: [],
			confidence: 7,
		});
		const first = (await extract(sandbox, A, { name: 'odd.json', content })).json;
		const second = (await extract(sandbox, A, { name: 'odd.json', content })).json;
		expect(first.confidence).toBeLessThanOrEqual(1);
		expect(first.confidence).toBe(second.confidence);
	});
});

describe('CSV invoices (D19)', () => {
	it('parses the header row, quoted cells and the optional invoice columns into numbers and strings', async () => {
		const csv = [
			'\uFEFFdescription,quantity,unit_price,amount,vendor,date,invoice_no',
			'"Consulting, senior",10,120.50,1205.00,"Hooli ""Cloud"" Services",2026-05-31,H-99',
			'Travel,1,300,300,,,',
			'',
		].join('\r\n');
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A, { name: 'invoice.csv', content: csv });
		expect(reply.json.status).toBe('verified');
		const data = reply.json.extracted_json;
		expect(data.header).toEqual({
			vendor: 'Hooli "Cloud" Services',
			date: '2026-05-31',
			invoice_no: 'H-99',
		});
		expect(data.line_items).toEqual([
			{ description: 'Consulting, senior', quantity: 10, unit_price: 120.5, amount: 1205 },
			{ description: 'Travel', quantity: 1, unit_price: 300, amount: 300 },
		]);
		expect(data.amounts.subtotal).toBe(1505);
		expect(extractedDataProblems(data)).toEqual([]);
	});

	it('takes subtotal, tax and total from their columns when given', async () => {
		const csv =
			'description,quantity,unit_price,amount,vendor,date,invoice_no,subtotal,tax,total\nHours,4,50,200,Acme,2026-06-01,A-9,200,38,238\n';
		await nextConfidence(sandbox, 0.99);
		const data = (await extract(sandbox, A, { name: 'invoice.csv', content: csv })).json
			.extracted_json;
		expect(data.amounts).toEqual({ subtotal: 200, tax: 38, total: 238 });
	});

	it('is recognised by its content type without an extension (D22)', async () => {
		await nextConfidence(sandbox, 0.99);
		const reply = await extract(sandbox, A, {
			name: 'export',
			type: 'text/csv',
			content: 'description,amount\nFee,12.5\n',
		});
		expect(reply.json.status).toBe('verified');
		expect(reply.json.extracted_json.line_items).toEqual([
			expect.objectContaining({ description: 'Fee', amount: 12.5 }),
		]);
		expect(reply.json.extracted_json.amounts.subtotal).toBe(12.5);
	});
});

describe('a currency named in a JSON or CSV invoice (N14)', () => {
	const invoiceJson = (extra: Record<string, unknown>) =>
		JSON.stringify({
			header: { vendor: 'Acme', date: '2026-06-01', invoice_no: 'C-1' },
			line_items: [{ description: 'Hours', quantity: 2, unit_price: 50 }],
			...extra,
		});

	it.each([
		['top-level "currency"', { currency: 'EUR' }, 'EUR'],
		[
			'"header.currency"',
			{ header: { vendor: 'Acme', date: '2026-06-01', invoice_no: 'C-1', currency: 'chf' } },
			'chf',
		],
		['a symbol, passed through as text', { currency: ' € ' }, '€'],
	])('JSON %s: passed through in header.currency', async (_name, extra, expected) => {
		await nextConfidence(sandbox, 0.99);
		const data = (await extract(sandbox, A, { name: 'invoice.json', content: invoiceJson(extra) }))
			.json.extracted_json;
		expect(data.header.currency).toBe(expected);
		expect(extractedDataProblems(data)).toEqual([]);
	});

	it('CSV column "currency" (from the first row): passed through', async () => {
		await nextConfidence(sandbox, 0.99);
		const csv =
			'description,quantity,unit_price,amount,vendor,date,invoice_no,currency\nHours,4,50,200,Acme,2026-06-01,A-9,USD\n';
		const data = (await extract(sandbox, A, { name: 'invoice.csv', content: csv })).json
			.extracted_json;
		expect(data.header).toEqual({
			vendor: 'Acme',
			date: '2026-06-01',
			invoice_no: 'A-9',
			currency: 'USD',
		});
	});

	it('no currency named: no currency key at all (the contract has none)', async () => {
		await nextConfidence(sandbox, 0.99);
		const data = (
			await extract(sandbox, A, { name: 'invoice.json', content: invoiceJson({ currency: '  ' }) })
		).json.extracted_json;
		expect(data.header).toEqual({ vendor: 'Acme', date: '2026-06-01', invoice_no: 'C-1' });
		expect(JSON.stringify(data)).not.toContain('currency');
	});
});
