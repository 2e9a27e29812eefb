/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// A local stand-in of the QuickBooks Online Accounting API for the "Invoice to QuickBooks"
// example: vendor query by DisplayName, vendor create, bill create, under
// /v3/company/<realm>/…, each body checked against Intuit's published rules
// (quickBooksBillSchema.ts) after the bearer token. An invalid body gets QuickBooks' 400 Fault
// and is recorded as refused. `GET /__standin/requests` lists every request.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromCents, toCents } from './cents.ts';
import { quickBooksBillSchema, quickBooksVendorSchema } from './quickBooksBillSchema.ts';
import type { StandInRequest } from './xeroStandIn.ts';

export interface QuickBooksStandIn {
	url: string;
	requests: StandInRequest[];
	vendors: Array<{ Id: string; DisplayName: string }>;
	close(): Promise<void>;
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateBill = ajv.compile(quickBooksBillSchema);
const validateVendor = ajv.compile(quickBooksVendorSchema);

async function readJson(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text ? JSON.parse(text) : undefined;
}

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function fault(res: ServerResponse, errors: string[]): void {
	send(res, 400, { Fault: { type: 'ValidationFault', Error: errors.map((Detail) => ({ Message: 'Request has invalid or unsupported property', Detail, code: '2010' })) } });
}

/** `select * from Vendor where DisplayName = 'O\'Brien & Co'` → the name, quotes unescaped. */
function displayNameQueried(query: string): string | undefined {
	const match = /^select \* from Vendor where DisplayName = '((?:[^'\\]|\\.)*)'$/i.exec(query.trim());
	return match ? match[1].replace(/\\(.)/g, '$1') : undefined;
}

export async function startQuickBooksStandIn(options: { accessToken: string; port?: number }): Promise<QuickBooksStandIn> {
	const requests: StandInRequest[] = [];
	const vendors: Array<{ Id: string; DisplayName: string }> = [];
	let nextId = 100;
	const server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', 'http://stand-in');
			if (url.pathname === '/__standin/requests') return send(res, 200, requests);
			let body: unknown;
			try {
				body = await readJson(req);
			} catch {
				body = '<not JSON>';
			}
			const entry: StandInRequest = { method: req.method ?? '', path: `${url.pathname}${url.search}`, authorization: req.headers.authorization, tenantId: undefined, body, errors: [], accepted: false };
			requests.push(entry);
			if (req.headers.authorization !== `Bearer ${options.accessToken}`) {
				entry.errors.push('no valid bearer token');
				return send(res, 401, { Fault: { type: 'AUTHENTICATION', Error: [{ Message: 'AuthenticationFailed', code: '3200' }] } });
			}
			const route = /^\/v3\/company\/([^/]+)\/(query|vendor|bill)$/.exec(url.pathname);
			if (!route) return send(res, 404, { Fault: { type: 'NotFound', Error: [{ Message: `The stand-in has no ${req.method} ${url.pathname}` }] } });
			entry.tenantId = route[1];
			const resource = route[2];
			if (resource === 'query' && req.method === 'GET') {
				const name = displayNameQueried(url.searchParams.get('query') ?? '');
				if (name === undefined) {
					entry.errors.push(`unsupported query: ${url.searchParams.get('query')}`);
					return send(res, 400, { Fault: { type: 'QueryParserError', Error: [{ Message: 'Error parsing query' }] } });
				}
				entry.accepted = true;
				const found = vendors.filter((vendor) => vendor.DisplayName === name);
				return send(res, 200, { QueryResponse: found.length > 0 ? { Vendor: found, startPosition: 1, maxResults: found.length } : {} });
			}
			if (req.method !== 'POST') return send(res, 405, { Fault: { Error: [{ Message: 'Method not allowed' }] } });
			const validate = resource === 'vendor' ? validateVendor : validateBill;
			if (!validate(body)) {
				entry.errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`.trim());
				return fault(res, entry.errors);
			}
			if (resource === 'vendor') {
				const displayName = (body as { DisplayName: string }).DisplayName;
				if (vendors.some((vendor) => vendor.DisplayName === displayName)) {
					entry.errors.push('Duplicate Name Exists Error');
					return send(res, 400, { Fault: { type: 'ValidationFault', Error: [{ Message: 'Duplicate Name Exists Error', code: '6240' }] } });
				}
				entry.accepted = true;
				const vendor = { Id: String(nextId++), DisplayName: displayName };
				vendors.push(vendor);
				return send(res, 200, { Vendor: vendor });
			}
			const bill = body as { VendorRef: { value: string }; Line: Array<{ Amount: number }> };
			if (!vendors.some((vendor) => vendor.Id === bill.VendorRef.value)) {
				entry.errors.push(`VendorRef ${bill.VendorRef.value} is not a vendor`);
				return fault(res, entry.errors);
			}
			entry.accepted = true;
			const total = bill.Line.reduce((sum, line) => sum + toCents(line.Amount), 0);
			return send(res, 200, { Bill: { ...bill, Id: String(nextId++), TotalAmt: fromCents(total), Balance: fromCents(total) } });
		})().catch((error: unknown) => send(res, 500, { Message: String(error) }));
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, requests, vendors, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
