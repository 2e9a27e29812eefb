/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// A local stand-in of Xero's Accounting API for the "Invoice to Xero" example: it answers
// `POST /api.xro/2.0/Invoices` as Xero does (the invoices back, with Xero's own SubTotal,
// TotalTax and Total computed from the lines), after checking the bearer token, the tenant header
// and the body against Xero's published schema (xeroInvoiceSchema.ts). An invalid body gets
// Xero's 400 ValidationException and is recorded as refused, so a test sees both.
// Every request is kept: `GET /__standin/requests` lists them, `DELETE` clears them.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromCents, toCents } from './cents.ts';
import { xeroInvoicesRequestSchema } from './xeroInvoiceSchema.ts';

export interface StandInRequest {
	method: string;
	path: string;
	authorization: string | undefined;
	tenantId: string | undefined;
	body: unknown;
	/** Schema errors; empty when the body is valid. */
	errors: string[];
	accepted: boolean;
}

export interface XeroStandIn {
	url: string;
	port: number;
	requests: StandInRequest[];
	close(): Promise<void>;
}

export interface XeroStandInOptions {
	port?: number;
	/** The bearer token it accepts. */
	accessToken: string;
}

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
const validateInvoices = ajv.compile(xeroInvoicesRequestSchema);

/** Xero's totals for a bill: lines in cents, tax as given per line (Exclusive) or none (NoTax). */
export function xeroTotals(invoice: { LineAmountTypes?: string; LineItems: Array<{ Quantity: number; UnitAmount: number; LineAmount?: number; TaxAmount?: number }> }) {
	let subTotal = 0;
	let totalTax = 0;
	for (const line of invoice.LineItems) {
		const lineCents = line.LineAmount !== undefined ? toCents(line.LineAmount) : Math.round(line.Quantity * toCents(line.UnitAmount));
		subTotal += lineCents;
		if (invoice.LineAmountTypes !== 'NoTax' && line.TaxAmount !== undefined) totalTax += toCents(line.TaxAmount);
	}
	if (invoice.LineAmountTypes === 'Inclusive') subTotal -= totalTax;
	return { SubTotal: fromCents(subTotal), TotalTax: fromCents(totalTax), Total: fromCents(subTotal + totalTax) };
}

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

export async function startXeroStandIn(options: XeroStandInOptions): Promise<XeroStandIn> {
	const requests: StandInRequest[] = [];
	const server = createServer((req, res) => {
		void (async () => {
			const path = (req.url ?? '/').split('?')[0];
			if (path === '/__standin/requests') {
				if (req.method === 'DELETE') requests.length = 0;
				return send(res, 200, requests);
			}
			let body: unknown;
			try {
				body = await readJson(req);
			} catch {
				body = '<not JSON>';
			}
			const entry: StandInRequest = {
				method: req.method ?? '',
				path,
				authorization: req.headers.authorization,
				tenantId: req.headers['xero-tenant-id'] as string | undefined,
				body,
				errors: [],
				accepted: false,
			};
			requests.push(entry);
			if (req.headers.authorization !== `Bearer ${options.accessToken}`) {
				entry.errors.push('no valid bearer token');
				return send(res, 401, { Title: 'Unauthorized', Status: 401, Detail: 'AuthenticationUnsuccessful' });
			}
			if (!entry.tenantId) {
				entry.errors.push('no xero-tenant-id header');
				return send(res, 403, { Title: 'Forbidden', Status: 403, Detail: 'AuthorizationUnsuccessful' });
			}
			if (req.method !== 'POST' || path !== '/api.xro/2.0/Invoices') return send(res, 404, { Message: `The stand-in has no ${req.method} ${path}` });
			if (!validateInvoices(body)) {
				entry.errors = (validateInvoices.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`.trim());
				return send(res, 400, { ErrorNumber: 10, Type: 'ValidationException', Message: 'A validation exception occurred', Elements: [{ ValidationErrors: entry.errors.map((Message) => ({ Message })) }] });
			}
			entry.accepted = true;
			const invoices = (body as { Invoices: Array<Parameters<typeof xeroTotals>[0] & Record<string, unknown>> }).Invoices;
			return send(res, 200, { Status: 'OK', Invoices: invoices.map((invoice) => ({ ...invoice, InvoiceID: randomUUID(), Status: invoice.Status ?? 'DRAFT', ...xeroTotals(invoice) })) });
		})().catch((error: unknown) => send(res, 500, { Message: String(error) }));
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
