/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The stand-ins keep the books' documented limits per tenant (Xero: 60 calls a minute, 5 in progress;
// QuickBooks: 500 a minute, 10 in progress), answer above them 429 with Retry-After in seconds, can
// answer slowly, and keep a write idempotent when a second one with its key arrives while the first
// is in progress. Over real HTTP on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';

import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

import { WriteAnswers } from '../../../local-n8n/accounting/standInHttp.ts';
import {
	QUICKBOOKS_LIMITS,
	RateLimiter,
	XERO_LIMITS,
	standInLoad,
	startQuickBooksStandIn,
	startXeroStandIn,
	type QuickBooksStandInOptions,
	type XeroStandInOptions,
} from '../../../local-n8n/accounting/index.ts';

describe('RateLimiter', () => {
	it('admits a minute limit of calls in any 60 seconds; Retry-After is the whole seconds until the oldest leaves the window', () => {
		let now = 1_000_000;
		const limiter = new RateLimiter({ perMinute: 3, inProgress: 10 }, () => now);
		for (const at of [0, 10_000, 20_000]) {
			now = 1_000_000 + at;
			const admission = limiter.admit('t');
			expect(admission.admitted).toBe(true);
			if (admission.admitted) admission.done();
		}
		now = 1_000_000 + 30_500;
		expect(limiter.admit('t')).toEqual({
			admitted: false,
			problem: 'minute',
			retryAfterSeconds: 30,
		});
		// Another tenant has its own minute.
		expect(limiter.admit('other').admitted).toBe(true);
		now = 1_000_000 + 59_999;
		expect(limiter.admit('t')).toMatchObject({ admitted: false, retryAfterSeconds: 1 });
		now = 1_000_000 + 60_000;
		expect(limiter.admit('t')).toMatchObject({ admitted: true, remainingThisMinute: 0 });
	});

	it('admits the in-progress limit of calls at once; one ending frees a place; Retry-After 1 s', () => {
		const limiter = new RateLimiter({ perMinute: 100, inProgress: 2 }, () => 0);
		const first = limiter.admit('t');
		const second = limiter.admit('t');
		expect([first.admitted, second.admitted]).toEqual([true, true]);
		expect(limiter.admit('t')).toEqual({
			admitted: false,
			problem: 'concurrent',
			retryAfterSeconds: 1,
		});
		expect(limiter.admit('other').admitted).toBe(true);
		if (first.admitted) {
			first.done();
			first.done();
		}
		expect(limiter.admit('t').admitted).toBe(true);
		expect(limiter.admit('t').admitted).toBe(false);
	});
});

describe('standInLoad', () => {
	it("keeps the books' documented limits and no delay unless told otherwise", () => {
		expect(standInLoad(XERO_LIMITS, {}, 'XERO_STAND_IN_SLOWDOWN', {})).toEqual({
			limits: { perMinute: 60, inProgress: 5 },
			delayMs: 0,
		});
		expect(standInLoad(QUICKBOOKS_LIMITS, {}, 'QUICKBOOKS_STAND_IN_SLOWDOWN', {})).toEqual({
			limits: { perMinute: 500, inProgress: 10 },
			delayMs: 0,
		});
	});

	it('takes the options first, then the environment; the slowdown multiplies the delay', () => {
		const env = {
			BOOKS_STAND_IN_DELAY_MS: '200',
			QUICKBOOKS_STAND_IN_SLOWDOWN: '4',
			BOOKS_STAND_IN_LIMITS: 'off',
		};
		expect(standInLoad(QUICKBOOKS_LIMITS, {}, 'QUICKBOOKS_STAND_IN_SLOWDOWN', env)).toEqual({
			limits: undefined,
			delayMs: 800,
		});
		expect(standInLoad(XERO_LIMITS, {}, 'XERO_STAND_IN_SLOWDOWN', env).delayMs).toBe(200);
		expect(
			standInLoad(
				QUICKBOOKS_LIMITS,
				{ limits: { inProgress: 2 }, responseDelayMs: 10, slowdown: 3 },
				'QUICKBOOKS_STAND_IN_SLOWDOWN',
				env,
			),
		).toEqual({ limits: { perMinute: 500, inProgress: 2 }, delayMs: 30 });
		expect(standInLoad(XERO_LIMITS, { limits: false }, 'XERO_STAND_IN_SLOWDOWN', {}).limits).toBe(
			undefined,
		);
		// A value that is not a number is ignored, not read as 0.
		expect(
			standInLoad(XERO_LIMITS, {}, 'XERO_STAND_IN_SLOWDOWN', {
				BOOKS_STAND_IN_DELAY_MS: 'slow',
				BOOKS_STAND_IN_LIMITS: 'on',
			}),
		).toEqual({ limits: XERO_LIMITS, delayMs: 0 });
	});
});

describe('WriteAnswers.turn', () => {
	it('lets a second write with a key in progress go on only once the first is answered; other keys do not wait', async () => {
		const writes = new WriteAnswers();
		const response = () =>
			Object.assign(new EventEmitter(), { closed: false }) as unknown as ServerResponse;
		const first = response();
		await writes.turn('k', first);
		const order: string[] = [];
		const second = writes.turn('k', response()).then(() => order.push('second'));
		await writes.turn('other', response()).then(() => order.push('other'));
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(order).toEqual(['other']);
		first.emit('close');
		await second;
		expect(order).toEqual(['other', 'second']);
	});
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
	await Promise.all(closers.splice(0).map(async (close) => await close()));
});

async function xeroStandIn(options: Omit<XeroStandInOptions, 'accessToken'>) {
	const xero = await startXeroStandIn({ accessToken: 'token', ...options });
	closers.push(xero.close);
	const call = async (
		tenant: string,
		init: { method?: string; body?: unknown; key?: string } = {},
	) => {
		const response = await fetch(
			`${xero.url}/api.xro/2.0/${init.body === undefined ? 'Accounts' : 'Invoices'}`,
			{
				method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
				headers: {
					authorization: 'Bearer token',
					'xero-tenant-id': tenant,
					'content-type': 'application/json',
					...(init.key ? { 'idempotency-key': init.key } : {}),
				},
				body: init.body === undefined ? undefined : JSON.stringify(init.body),
			},
		);
		return {
			status: response.status,
			retryAfter: response.headers.get('retry-after'),
			problem: response.headers.get('x-rate-limit-problem'),
			remaining: response.headers.get('x-minlimit-remaining'),
			json: (await response.json()) as Record<string, unknown>,
		};
	};
	return { xero, call };
}

async function quickBooksStandIn(options: Omit<QuickBooksStandInOptions, 'accessToken'>) {
	const quickBooks = await startQuickBooksStandIn({ accessToken: 'token', ...options });
	closers.push(quickBooks.close);
	const call = async (realm: string, path: string, body?: unknown) => {
		const response = await fetch(`${quickBooks.url}/v3/company/${realm}${path}`, {
			method: body === undefined ? 'GET' : 'POST',
			headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return {
			status: response.status,
			retryAfter: response.headers.get('retry-after'),
			json: (await response.json()) as Record<string, unknown> & {
				Vendor: { Id: string };
				Fault: { Error: Array<{ code: string; Message: string }> };
			},
		};
	};
	return { quickBooks, call };
}

const statuses = (answers: Array<{ status: number }>) =>
	answers.map((answer) => answer.status).sort((a, b) => a - b);

const bill = {
	Invoices: [
		{
			Type: 'ACCPAY',
			Contact: { Name: 'Acme Inc' },
			LineAmountTypes: 'NoTax',
			LineItems: [
				{ Description: 'Paper', Quantity: 1, UnitAmount: 10, AccountCode: '400', LineAmount: 10 },
			],
			InvoiceNumber: 'A-1',
		},
	],
};

describe('Xero stand-in: 60 calls a minute and 5 in progress per tenant', () => {
	it('refuses a sixth call in progress with 429, Retry-After 1 and X-Rate-Limit-Problem concurrent; another tenant is not held', async () => {
		const { xero, call } = await xeroStandIn({ limits: {}, responseDelayMs: 300 });
		expect(xero.limits).toEqual(XERO_LIMITS);
		const answers = await Promise.all([
			...Array.from({ length: 7 }, async () => await call('busy')),
			call('quiet'),
		]);
		expect(statuses(answers)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
		expect(answers.at(-1)!.status).toBe(200);
		const refused = answers.filter((answer) => answer.status === 429);
		for (const answer of refused) {
			expect(answer).toMatchObject({ retryAfter: '1', problem: 'concurrent' });
			expect(answer.json).toMatchObject({ Status: 429 });
		}
		expect(xero.requests.filter((request) => request.throttled === 'concurrent')).toHaveLength(2);
		// Once they are answered, the tenant's calls are admitted again.
		expect((await call('busy')).status).toBe(200);
	});

	it('refuses the 61st call within a minute with Retry-After until the oldest call is a minute old', async () => {
		let now = Date.parse('2026-11-30T17:00:00Z');
		const { call } = await xeroStandIn({ limits: {}, now: () => now });
		for (let index = 0; index < 60; index++) {
			const answer = await call('tenant');
			expect(answer.status).toBe(200);
			expect(answer.remaining).toBe(String(59 - index));
			now += 500;
		}
		now += 10_250;
		// The first call was at 0 s; now is 40.25 s: it leaves the window in 19.75 s.
		const refused = await call('tenant');
		expect(refused).toMatchObject({ status: 429, retryAfter: '20', problem: 'minute' });
		expect((await call('another tenant')).status).toBe(200);
		now += 20_000;
		expect((await call('tenant')).status).toBe(200);
	});

	it('answers after the delay, and a second write with the Idempotency-Key of one in progress gets its answer: one bill', async () => {
		const { xero, call } = await xeroStandIn({ limits: false, responseDelayMs: 100, slowdown: 2 });
		expect(xero.responseDelayMs).toBe(200);
		const started = Date.now();
		const answers = await Promise.all(
			Array.from({ length: 3 }, async () => await call('tenant', { body: bill, key: 'de-x' })),
		);
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		expect(statuses(answers)).toEqual([200, 200, 200]);
		const ids = answers.map(
			(answer) => (answer.json.Invoices as Array<{ InvoiceID: string }>)[0].InvoiceID,
		);
		expect(new Set(ids).size).toBe(1);
		expect(xero.documents).toHaveLength(1);
		expect(xero.requests.filter((request) => request.replayed)).toHaveLength(2);
	});
});

describe('QuickBooks stand-in: 500 calls a minute and 10 in progress per company', () => {
	it('refuses an eleventh call in progress with 429 ThrottleExceeded and Retry-After 1; another company is not held', async () => {
		const { quickBooks, call } = await quickBooksStandIn({ limits: {}, responseDelayMs: 300 });
		expect(quickBooks.limits).toEqual(QUICKBOOKS_LIMITS);
		const answers = await Promise.all([
			...Array.from({ length: 12 }, async () => await call('9130', '/preferences')),
			call('9131', '/preferences'),
		]);
		expect(statuses(answers)).toEqual([...Array(11).fill(200), 429, 429]);
		expect(answers.at(-1)!.status).toBe(200);
		for (const answer of answers.filter(({ status }) => status === 429)) {
			expect(answer.retryAfter).toBe('1');
			expect(answer.json.Fault.Error[0]).toMatchObject({
				code: '3001',
				Message: expect.stringContaining('ThrottleExceeded'),
			});
		}
	});

	it('refuses the 501st call within a minute with Retry-After until the oldest call is a minute old', async () => {
		let now = Date.parse('2026-11-30T17:00:00Z');
		const { quickBooks, call } = await quickBooksStandIn({ limits: {}, now: () => now });
		for (let index = 0; index < 500; index++) {
			expect((await call('9130', '/preferences')).status).toBe(200);
			now += 10;
		}
		// 5 s after the first call: 55 s to wait.
		const refused = await call('9130', '/preferences');
		expect(refused).toMatchObject({ status: 429, retryAfter: '55' });
		expect(quickBooks.requests.at(-1)).toMatchObject({ throttled: 'minute', tenantId: '9130' });
		expect((await call('9131', '/preferences')).status).toBe(200);
		now += 55_000;
		expect((await call('9130', '/preferences')).status).toBe(200);
	});

	it('slow: eight creates of one vendor with one requestid get the one vendor; with eight requestids seven get 6240', async () => {
		const { quickBooks, call } = await quickBooksStandIn({
			limits: {},
			responseDelayMs: 50,
			slowdown: 4,
		});
		const started = Date.now();
		const converged = await Promise.all(
			Array.from(
				{ length: 8 },
				async () => await call('9130', '/vendor?requestid=de-one', { DisplayName: 'Acme Inc' }),
			),
		);
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		expect(statuses(converged)).toEqual(Array(8).fill(200));
		expect(new Set(converged.map((answer) => answer.json.Vendor.Id)).size).toBe(1);
		expect(quickBooks.vendors).toHaveLength(1);
		expect(quickBooks.requests.filter((request) => request.replayed)).toHaveLength(7);

		const raced = await Promise.all(
			Array.from(
				{ length: 8 },
				async (_, index) =>
					await call('9130', `/vendor?requestid=de-invoice-${index}`, { DisplayName: 'Globex' }),
			),
		);
		expect(statuses(raced)).toEqual([200, ...Array(7).fill(400)]);
		for (const answer of raced.filter(({ status }) => status === 400))
			expect(answer.json.Fault.Error[0].code).toBe('6240');
	});
});
