/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// A local stand-in of Xero's Accounting API for the "Invoice to Xero" example. It answers as Xero
// does, after checking the bearer token, the tenant header and the body against Xero's published
// schema (xeroInvoiceSchema.ts), and refuses what Xero refuses beyond the schema:
// - `POST|PUT /api.xro/2.0/Invoices` and `/CreditNotes`: quantities with more than 4 decimals, line
//   and tax amounts with more than 2, unit amounts with more than 4 when the request asks for
//   `unitdp=4` (without it Xero rounds unit amounts to 2 decimals, as here), a LineAmount that is not
//   quantity × unit amount (less the discount) rounded to the cent, a negative total, a currency the
//   organisation does not use. Contacts are matched by exact name and created otherwise (a name
//   written differently is a second contact, as in Xero).
// - `PUT /api.xro/2.0/(Invoices|CreditNotes)/{id}/Attachments/{FileName}`: the raw file as the body;
//   refused for an unknown document, an extension Xero does not take, an empty or too large file,
//   the 11th file on a document (attachmentRules.ts).
// - `PUT|POST /api.xro/2.0/(Invoices|CreditNotes)/{id}/History`: notes for History & Notes
//   (developer.xero.com/documentation/api/history-and-notes: `Details` at most 250 characters);
//   refused for an unknown document, a note that is empty or too long.
// - `GET /api.xro/2.0/(Invoices|CreditNotes)?where=…`: the documents matching a `where` of
//   `Field=="text"` conditions joined by AND (Type, Contact.Name, InvoiceNumber, CreditNoteNumber,
//   Status); another filter is refused, so a template asking what Xero would not answer fails here.
// - `GET /api.xro/2.0/Accounts[?where=…]`: the chart of accounts (chartOfAccounts.ts; the whole chart
//   without a where), filtered by `Field=="text"` conditions joined by AND on AccountID, Code, Name,
//   Type, Class, Status, TaxType (e.g. `Class=="EXPENSE" AND Status=="ACTIVE"`), so a form can offer
//   the organisation's accounts by name; another filter is refused as above.
// - Every write honours the Idempotency-Key header (Xero's OpenAPI: a retry with the same key is not
//   processed twice, nor one sent while the first is in progress), and `loseAnswers(n)` makes the
//   next n writes happen with their answer lost (504).
// - Xero's limits per tenant: 60 calls a minute and 5 in progress, above them 429 with Retry-After
//   and X-Rate-Limit-Problem; X-MinLimit-Remaining on the others; an optional delay makes it answer
//   slowly (booksLimits.ts).
// An invalid request gets Xero's 400 ValidationException and is recorded as refused, so a test sees
// both. Every request is kept: `GET /__standin/requests` lists them, `DELETE` clears them.

import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { XERO_ATTACHMENTS, extensionOf, type StoredAttachment } from './attachmentRules.ts';
import { billsPage, sendPage } from './billsPage.ts';
import { XERO_DEMO_ACCOUNTS, accountLabel, type XeroAccount } from './chartOfAccounts.ts';
import { decimalPlaces, fromCents, roundScaled, scaled, toCents } from './cents.ts';
import { WriteAnswers, listenLocally, receive, schemaErrors, send } from './standInHttp.ts';
import type { StandInRequest } from './standInHttp.ts';
import {
	BooksLoad,
	XERO_LIMITS,
	type Admission,
	type BooksLimits,
	type StandInLoad,
} from './booksLimits.ts';
import { xeroCreditNotesRequestSchema, xeroInvoicesRequestSchema } from './xeroInvoiceSchema.ts';

export type { StandInRequest } from './standInHttp.ts';

/** A bill or credit note as Xero stored it: the request's fields, its id, Xero's own totals. */
export interface XeroDocument extends Record<string, unknown> {
	kind: 'Invoices' | 'CreditNotes';
	id: string;
	Type: string;
	Contact: { ContactID: string; Name: string };
	CurrencyCode: string;
	LineItems: XeroLineInput[];
	SubTotal: number;
	TotalTax: number;
	Total: number;
}

export interface XeroStandIn {
	url: string;
	port: number;
	requests: StandInRequest[];
	/** Bills (ACCPAY) and credit notes accepted, in order. */
	documents: XeroDocument[];
	contacts: Array<{ ContactID: string; Name: string }>;
	attachments: StoredAttachment[];
	/** History & Notes entries added, in order. */
	history: XeroHistoryNote[];
	/** The chart of accounts `GET /Accounts` answers from. */
	accounts: XeroAccount[];
	/** The next `count` answers to writes (made or replayed) are lost: 504 instead. */
	loseAnswers(count: number): void;
	/** The limits it keeps per tenant (undefined: none) and its delay before each answer. */
	limits: BooksLimits | undefined;
	responseDelayMs: number;
	close(): Promise<void>;
}

export interface XeroHistoryNote {
	ownerId: string;
	ownerType: 'Invoices' | 'CreditNotes';
	Details: string;
	DateUTC: string;
}

/** Xero keeps a History & Notes entry's Details up to 250 characters. */
export const XERO_HISTORY_DETAILS_MAX = 250;

/** `slowdown` defaults to `XERO_STAND_IN_SLOWDOWN`; the limits to XERO_LIMITS. */
export interface XeroStandInOptions extends StandInLoad {
	port?: number;
	/** The bearer token it accepts. */
	accessToken: string;
	/** The organisation's base currency (used when a request names none). Default EUR. */
	baseCurrency?: string;
	/** The currencies the organisation has added (the base currency always counts). Default EUR, USD, GBP. */
	currencies?: string[];
	/** The chart of accounts. Default: XERO_DEMO_ACCOUNTS. */
	accounts?: XeroAccount[];
}

export interface XeroLineInput {
	Description?: string;
	Quantity: number;
	UnitAmount: number;
	LineAmount?: number;
	TaxAmount?: number;
	DiscountRate?: number;
}

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
const validateInvoices = ajv.compile(xeroInvoicesRequestSchema);
const validateCreditNotes = ajv.compile(xeroCreditNotesRequestSchema);

/**
 * The line amount Xero computes, in cents: quantity × unit amount × (1 − discount %), rounded to the
 * cent half away from zero. Without `unitdp=4` Xero first rounds the unit amount to 2 decimals.
 */
export function xeroLineCents(line: XeroLineInput, unitDecimals: 2 | 4 = 4): number {
	const unit =
		unitDecimals === 2
			? roundScaled(scaled(line.UnitAmount, 4), 2) * 100n
			: scaled(line.UnitAmount, 4);
	const quantity = scaled(line.Quantity, 4);
	// quantity and unit are scaled by 10^4 each: 10^8; to cents is / 10^6; the discount rate (up to 4
	// decimals, a percentage) adds 10^6 more.
	if (line.DiscountRate !== undefined) {
		const keep = 1_000_000n - scaled(line.DiscountRate, 4);
		return Number(roundScaled(quantity * unit * keep, 12));
	}
	return Number(roundScaled(quantity * unit, 6));
}

/** Xero's totals for a bill or credit note: lines as Xero computes them, tax as given per line (Exclusive) or none (NoTax). */
export function xeroTotals(
	invoice: { LineAmountTypes?: string; LineItems: XeroLineInput[] },
	unitDecimals: 2 | 4 = 4,
) {
	let subTotal = 0;
	let totalTax = 0;
	for (const line of invoice.LineItems) {
		subTotal +=
			line.LineAmount !== undefined ? toCents(line.LineAmount) : xeroLineCents(line, unitDecimals);
		if (invoice.LineAmountTypes !== 'NoTax' && line.TaxAmount !== undefined)
			totalTax += toCents(line.TaxAmount);
	}
	if (invoice.LineAmountTypes === 'Inclusive') subTotal -= totalTax;
	return {
		SubTotal: fromCents(subTotal),
		TotalTax: fromCents(totalTax),
		Total: fromCents(subTotal + totalTax),
	};
}

/** What Xero refuses in one document beyond its schema (number formats, line totals, sign, currency). */
export function xeroDocumentErrors(
	document: {
		Type: string;
		CurrencyCode?: string;
		LineAmountTypes?: string;
		LineItems: XeroLineInput[];
	},
	unitDecimals: 2 | 4,
	currencies: string[],
): string[] {
	const errors: string[] = [];
	document.LineItems.forEach((line, index) => {
		const at = `LineItems/${index}`;
		if (decimalPlaces(line.Quantity) > 4) errors.push(`${at}/Quantity has more than 4 decimals`);
		if (decimalPlaces(line.UnitAmount) > 4)
			errors.push(`${at}/UnitAmount has more than 4 decimals`);
		if (line.LineAmount !== undefined && decimalPlaces(line.LineAmount) > 2)
			errors.push(`${at}/LineAmount has more than 2 decimals`);
		if (line.TaxAmount !== undefined && decimalPlaces(line.TaxAmount) > 2)
			errors.push(`${at}/TaxAmount has more than 2 decimals`);
		if (line.DiscountRate !== undefined && decimalPlaces(line.DiscountRate) > 4)
			errors.push(`${at}/DiscountRate has more than 4 decimals`);
	});
	if (errors.length > 0) return errors;
	document.LineItems.forEach((line, index) => {
		if (line.LineAmount === undefined) return;
		const computed = xeroLineCents(line, unitDecimals);
		if (computed !== toCents(line.LineAmount)) {
			errors.push(
				`LineItems/${index}: the line amount ${line.LineAmount} is not quantity × unit amount (${fromCents(computed)})`,
			);
		}
	});
	const { Total } = xeroTotals(document, unitDecimals);
	if (Total < 0)
		errors.push(
			`the total ${Total} is negative: a ${document.Type === 'ACCPAY' ? 'bill' : 'credit note'} total must be zero or more`,
		);
	if (document.CurrencyCode !== undefined && !currencies.includes(document.CurrencyCode)) {
		errors.push(`the organisation does not use the currency ${document.CurrencyCode}`);
	}
	return errors;
}

/** The fields a bill or credit note lookup filters by (`GET /Invoices|/CreditNotes?where=…`). */
export const XERO_INVOICE_WHERE_FIELDS = [
	'Type',
	'Contact.Name',
	'InvoiceNumber',
	'CreditNoteNumber',
	'Status',
];

/** The fields `GET /Accounts?where=…` filters by. */
export const XERO_ACCOUNT_WHERE_FIELDS = [
	'AccountID',
	'Code',
	'Name',
	'Type',
	'Class',
	'Status',
	'TaxType',
];

/**
 * The `Field=="text"` conditions of a `where` joined by AND, each on one of `fields`; undefined for
 * any other filter.
 */
export function xeroWhereConditions(
	where: string,
	fields: readonly string[] = XERO_INVOICE_WHERE_FIELDS,
): Array<[string, string]> | undefined {
	const condition = /([A-Za-z.]+)\s*==\s*"((?:[^"\\]|\\.)*)"\s*(?:AND\s+|$)/y;
	const conditions: Array<[string, string]> = [];
	let at = 0;
	const text = where.trim();
	while (at < text.length) {
		condition.lastIndex = at;
		const match = condition.exec(text);
		if (!match || !fields.includes(match[1])) return undefined;
		conditions.push([match[1], match[2].replace(/\\(.)/g, '$1')]);
		at = condition.lastIndex;
	}
	return conditions.length > 0 ? conditions : undefined;
}

/** Xero's answer to a call over its limits: the limit in X-Rate-Limit-Problem. */
function tooManyRequests(
	res: ServerResponse,
	refusal: Extract<Admission, { admitted: false }>,
): void {
	res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
	res.setHeader('X-Rate-Limit-Problem', refusal.problem);
	send(res, 429, {
		Title: 'Too Many Requests',
		Status: 429,
		Detail: `Rate limit exceeded: ${refusal.problem}`,
	});
}

function validationException(res: ServerResponse, errors: string[]): void {
	send(res, 400, {
		ErrorNumber: 10,
		Type: 'ValidationException',
		Message: 'A validation exception occurred',
		Elements: [{ ValidationErrors: errors.map((Message) => ({ Message })) }],
	});
}

export async function startXeroStandIn(options: XeroStandInOptions): Promise<XeroStandIn> {
	const requests: StandInRequest[] = [];
	const documents: XeroDocument[] = [];
	const contacts: Array<{ ContactID: string; Name: string }> = [];
	const attachments: StoredAttachment[] = [];
	const history: XeroHistoryNote[] = [];
	const accounts = (options.accounts ?? XERO_DEMO_ACCOUNTS).map((account) => ({ ...account }));
	const writes = new WriteAnswers();
	const load = new BooksLoad(
		XERO_LIMITS,
		options,
		'XERO_STAND_IN_SLOWDOWN',
		'X-MinLimit-Remaining',
	);
	const baseCurrency = options.baseCurrency ?? 'EUR';
	const currencies = [baseCurrency, ...(options.currencies ?? ['EUR', 'USD', 'GBP'])];

	function contactNamed(name: string) {
		let contact = contacts.find((entry) => entry.Name === name);
		if (!contact) {
			contact = { ContactID: randomUUID(), Name: name };
			contacts.push(contact);
		}
		return contact;
	}

	function attach(
		res: ServerResponse,
		entry: StandInRequest,
		kind: string,
		id: string,
		fileName: string,
		contentType: string | undefined,
		bytes: Buffer,
		key: string | undefined,
	) {
		const owner = documents.find((document) => document.kind === kind && document.id === id);
		if (!owner) {
			entry.errors.push(`no ${kind} ${id}`);
			return send(res, 404, {
				Title: 'Not Found',
				Status: 404,
				Detail: `The resource ${id} was not found`,
			});
		}
		const errors: string[] = [];
		const { extensions, maxBytes, perDocument = Infinity } = XERO_ATTACHMENTS;
		if (!extensions.includes(extensionOf(fileName)))
			errors.push(`Xero does not take .${extensionOf(fileName)} files`);
		if (!contentType) errors.push('no Content-Type');
		if (bytes.length === 0) errors.push('the file is empty');
		if (bytes.length > maxBytes) errors.push(`the file is over ${maxBytes} bytes`);
		if (attachments.filter((attachment) => attachment.ownerId === id).length >= perDocument)
			errors.push(`a document holds at most ${perDocument} files`);
		if (errors.length > 0) {
			entry.errors = errors;
			return validationException(res, errors);
		}
		entry.accepted = true;
		attachments.push({ ownerId: id, ownerType: kind, fileName, contentType: contentType!, bytes });
		return writes.answer(res, key, 200, {
			Attachments: [
				{
					AttachmentID: randomUUID(),
					FileName: fileName,
					MimeType: contentType,
					ContentLength: bytes.length,
				},
			],
		});
	}

	function addHistory(
		res: ServerResponse,
		entry: StandInRequest,
		kind: 'Invoices' | 'CreditNotes',
		id: string,
		body: unknown,
		key: string | undefined,
	) {
		if (!documents.some((document) => document.kind === kind && document.id === id)) {
			entry.errors.push(`no ${kind} ${id}`);
			return send(res, 404, {
				Title: 'Not Found',
				Status: 404,
				Detail: `The resource ${id} was not found`,
			});
		}
		const records = (body as { HistoryRecords?: unknown } | undefined)?.HistoryRecords;
		const errors: string[] = [];
		if (!Array.isArray(records) || records.length === 0) errors.push('no HistoryRecords');
		for (const [index, record] of (Array.isArray(records) ? records : []).entries()) {
			const details = (record as { Details?: unknown }).Details;
			if (typeof details !== 'string' || details.trim() === '')
				errors.push(`HistoryRecords/${index}/Details is empty`);
			else if (details.length > XERO_HISTORY_DETAILS_MAX)
				errors.push(
					`HistoryRecords/${index}/Details is over ${XERO_HISTORY_DETAILS_MAX} characters`,
				);
		}
		if (errors.length > 0) {
			entry.errors = errors;
			return validationException(res, errors);
		}
		entry.accepted = true;
		const DateUTC = new Date().toISOString();
		const added = (records as Array<{ Details: string }>).map(({ Details }) => ({
			ownerId: id,
			ownerType: kind,
			Details,
			DateUTC,
		}));
		history.push(...added);
		return writes.answer(res, key, 200, {
			HistoryRecords: added.map(({ Details }) => ({ Details, DateUTC, User: 'System Generated' })),
		});
	}

	/** As Xero answers a read: the fields it was given, its id under InvoiceID or CreditNoteID. */
	function asAnswered(document: XeroDocument): Record<string, unknown> {
		const idField = document.kind === 'Invoices' ? 'InvoiceID' : 'CreditNoteID';
		const fields: Record<string, unknown> = { ...document, [idField]: document.id };
		delete fields.kind;
		delete fields.id;
		return fields;
	}

	function find(
		res: ServerResponse,
		entry: StandInRequest,
		kind: 'Invoices' | 'CreditNotes',
		url: URL,
	) {
		const conditions = xeroWhereConditions(url.searchParams.get('where') ?? '');
		if (!conditions) {
			entry.errors.push(`unsupported where: ${url.searchParams.get('where')}`);
			return validationException(res, entry.errors);
		}
		entry.accepted = true;
		const value = (document: XeroDocument, field: string) =>
			field === 'Contact.Name' ? document.Contact.Name : String(document[field] ?? '');
		const found = documents.filter(
			(document) =>
				document.kind === kind &&
				conditions.every(([field, expected]) => value(document, field) === expected),
		);
		return send(res, 200, { Status: 'OK', [kind]: found.map(asAnswered) });
	}

	function findAccounts(res: ServerResponse, entry: StandInRequest, url: URL) {
		const where = url.searchParams.get('where');
		// Without a where Xero answers the whole chart, archived accounts too.
		const conditions = where === null ? [] : xeroWhereConditions(where, XERO_ACCOUNT_WHERE_FIELDS);
		if (!conditions) {
			entry.errors.push(`unsupported where: ${where}`);
			return validationException(res, entry.errors);
		}
		entry.accepted = true;
		const found = accounts.filter((account) =>
			conditions.every(
				([field, expected]) => String(account[field as keyof XeroAccount] ?? '') === expected,
			),
		);
		return send(res, 200, { Status: 'OK', Accounts: found });
	}

	const accountName = (code: string) => accounts.find((account) => account.Code === code)?.Name;

	const server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', 'http://stand-in');
			const path = url.pathname;
			if (path === '/__standin/bills')
				return sendPage(
					res,
					billsPage(
						'Xero',
						documents.map((document) => ({
							kind: document.kind === 'Invoices' ? 'Bill' : 'Credit note',
							number: String(document.InvoiceNumber ?? document.CreditNoteNumber ?? ''),
							supplier: document.Contact.Name,
							date: String(document.Date ?? ''),
							currency: document.CurrencyCode,
							lines: document.LineItems.map((line) => {
								const coded = line as XeroLineInput & { AccountCode?: string; TaxType?: string };
								return {
									description: line.Description ?? '',
									account: accountLabel(
										coded.AccountCode ?? '',
										accountName(coded.AccountCode ?? ''),
									),
									tax: coded.TaxType ?? '',
									amount: line.LineAmount ?? line.Quantity * line.UnitAmount,
								};
							}),
							total: document.Total,
							attachments: attachments
								.filter((attachment) => attachment.ownerId === document.id)
								.map((attachment) => attachment.fileName),
							notes: history
								.filter((note) => note.ownerId === document.id)
								.map((note) => note.Details),
						})),
					),
				);
			if (path === '/__standin/requests') {
				if (req.method === 'DELETE') requests.length = 0;
				return send(res, 200, requests);
			}
			const attachmentRoute =
				/^\/api\.xro\/2\.0\/(Invoices|CreditNotes)\/([^/]+)\/Attachments\/([^/]+)$/.exec(path);
			const authorised = req.headers.authorization === `Bearer ${options.accessToken}`;
			const tenant = req.headers['xero-tenant-id'] as string | undefined;
			// A call counts against its tenant's limits from its arrival until it is answered.
			const refusal = authorised && tenant ? load.admit(tenant, res) : undefined;
			const { raw, entry } = await receive(
				requests,
				req,
				url,
				req.headers['xero-tenant-id'] as string | undefined,
				attachmentRoute ? 'size' : 'json',
			);
			const { body } = entry;
			if (!authorised) {
				entry.errors.push('no valid bearer token');
				return send(res, 401, {
					Title: 'Unauthorized',
					Status: 401,
					Detail: 'AuthenticationUnsuccessful',
				});
			}
			if (!entry.tenantId) {
				entry.errors.push('no xero-tenant-id header');
				return send(res, 403, {
					Title: 'Forbidden',
					Status: 403,
					Detail: 'AuthorizationUnsuccessful',
				});
			}
			if (refusal) {
				entry.throttled = refusal.problem;
				entry.errors.push(`429: over the ${refusal.problem} limit`);
				return tooManyRequests(res, refusal);
			}
			await load.pause();
			const key = req.headers['idempotency-key'] as string | undefined;
			const writing = req.method === 'PUT' || req.method === 'POST';
			if (writing) await writes.turn(key, res);
			if (writing && writes.replay(res, entry, key)) return;
			if (attachmentRoute && writing) {
				return attach(
					res,
					entry,
					attachmentRoute[1],
					attachmentRoute[2],
					decodeURIComponent(attachmentRoute[3]),
					req.headers['content-type'],
					raw,
					key,
				);
			}
			const historyRoute = /^\/api\.xro\/2\.0\/(Invoices|CreditNotes)\/([^/]+)\/History$/.exec(
				path,
			);
			if (historyRoute && (req.method === 'PUT' || req.method === 'POST'))
				return addHistory(
					res,
					entry,
					historyRoute[1] as 'Invoices' | 'CreditNotes',
					historyRoute[2],
					body,
					key,
				);
			const kind =
				path === '/api.xro/2.0/Invoices'
					? 'Invoices'
					: path === '/api.xro/2.0/CreditNotes'
						? 'CreditNotes'
						: undefined;
			if (kind && req.method === 'GET') return find(res, entry, kind, url);
			if (path === '/api.xro/2.0/Accounts' && req.method === 'GET')
				return findAccounts(res, entry, url);
			if (!kind || !writing)
				return send(res, 404, { Message: `The stand-in has no ${req.method} ${path}` });
			const validate = kind === 'Invoices' ? validateInvoices : validateCreditNotes;
			if (!validate(body)) {
				entry.errors = schemaErrors(validate);
				return validationException(res, entry.errors);
			}
			const unitDecimals = url.searchParams.get('unitdp') === '4' ? 4 : 2;
			type Incoming = {
				Type: string;
				Contact: { Name?: string; ContactID?: string };
				CurrencyCode?: string;
				LineAmountTypes?: string;
				LineItems: XeroLineInput[];
				Status?: string;
			} & Record<string, unknown>;
			const incoming = (body as unknown as Record<string, Incoming[]>)[kind];
			entry.errors = incoming.flatMap((document, index) =>
				xeroDocumentErrors(document, unitDecimals, currencies).map(
					(error) => `/${kind}/${index} ${error}`,
				),
			);
			// An account archived or deleted since a rule learned it: Xero's own words.
			for (const document of incoming)
				for (const line of document.LineItems as Array<{ AccountCode?: string }>) {
					const account = accounts.find((found) => found.Code === line.AccountCode);
					if (account && account.Status !== 'ACTIVE')
						entry.errors.push(
							`Account code '${account.Code}' has been archived, or has been deleted. Each line item must reference a valid account.`,
						);
				}
			if (entry.errors.length > 0) return validationException(res, entry.errors);
			entry.accepted = true;
			const stored = incoming.map((document): XeroDocument => {
				const contact = document.Contact.ContactID
					? (contacts.find((entry) => entry.ContactID === document.Contact.ContactID) ??
						contactNamed(document.Contact.ContactID))
					: contactNamed(document.Contact.Name!);
				const record: XeroDocument = {
					...document,
					kind,
					id: randomUUID(),
					Contact: contact,
					CurrencyCode: document.CurrencyCode ?? baseCurrency,
					Status: document.Status ?? 'DRAFT',
					// Xero answers with the unit amounts it keeps (rounded to 2 decimals without unitdp=4).
					LineItems: document.LineItems.map((line) => ({
						...line,
						UnitAmount:
							unitDecimals === 2
								? fromCents(Number(roundScaled(scaled(line.UnitAmount, 4), 2)))
								: line.UnitAmount,
						LineAmount: fromCents(
							line.LineAmount !== undefined
								? toCents(line.LineAmount)
								: xeroLineCents(line, unitDecimals),
						),
					})),
					...xeroTotals(document, unitDecimals),
				};
				documents.push(record);
				return record;
			});
			const answer = stored.map(asAnswered);
			return writes.answer(res, key, 200, { Status: 'OK', [kind]: answer });
		})().catch((error: unknown) => send(res, 500, { Message: String(error) }));
	});
	return {
		...(await listenLocally(server, options.port)),
		requests,
		documents,
		contacts,
		attachments,
		history,
		accounts,
		loseAnswers: (count) => writes.loseAnswers(count),
		limits: load.limits,
		responseDelayMs: load.delayMs,
	};
}
