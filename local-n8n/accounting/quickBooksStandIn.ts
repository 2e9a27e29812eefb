/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// A local stand-in of the QuickBooks Online Accounting API for the "Invoice to QuickBooks"
// example: the company's preferences (home currency), vendor query by DisplayName, vendor create
// (in a currency), bill and vendor credit
// create, and the multipart `upload` of an Attachable linked to one of them, under
// /v3/company/<realm>/…. Each body is checked against Intuit's published rules
// (quickBooksBillSchema.ts) after the bearer token, and beyond the schema: amounts with more than
// 2 decimals, a negative total, a currency the company does not use, a transaction in another
// currency than its vendor's, an unknown vendor, an attachment of a type or size QuickBooks does not
// take (attachmentRules.ts). A refused body gets QuickBooks' 400 Fault and is recorded as refused.
// Queries (`GET …/query?query=…`), as the query language writes them: vendors by DisplayName, bills
// and vendor credits by DocNumber and VendorRef, a page by STARTPOSITION and MAXRESULTS, the chart of accounts (chartOfAccounts.ts) by AccountType and
// Active joined by AND (`select * from Account where AccountType = 'Expense'`: the active ones only,
// as QuickBooks answers a query of a name list that does not ask about Active); another query is
// refused with QuickBooks' QueryParserError. Every write honours the requestid query parameter (Intuit's
// idempotent requests: a retry with the same requestid is not processed twice, nor a second one
// sent while the first is in progress: it gets the first's answer), and `loseAnswers(n)` makes the
// next n writes happen with their answer lost (504). QuickBooks' limits per company (realm) are kept:
// 500 calls a minute and 10 in progress, above them 429 ThrottleExceeded with Retry-After; an
// optional delay makes it answer slowly (booksLimits.ts).
// `GET /__standin/requests` lists every request.

import { createServer, type ServerResponse } from 'node:http';
import { billsPage, sendPage } from './billsPage.ts';
import {
	QUICKBOOKS_DEMO_ACCOUNTS,
	accountLabel,
	type QuickBooksAccount,
} from './chartOfAccounts.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { QUICKBOOKS_ATTACHMENTS, extensionOf, type StoredAttachment } from './attachmentRules.ts';
import { decimalPlaces, fromCents, toCents } from './cents.ts';
import {
	quickBooksAttachableSchema,
	quickBooksBillSchema,
	quickBooksVendorCreditSchema,
	quickBooksVendorSchema,
} from './quickBooksBillSchema.ts';
import { WriteAnswers, listenLocally, receive, schemaErrors, send } from './standInHttp.ts';
import type { StandInRequest } from './standInHttp.ts';
import {
	BooksLoad,
	QUICKBOOKS_LIMITS,
	type Admission,
	type BooksLimits,
	type StandInLoad,
} from './booksLimits.ts';

export interface QuickBooksVendor {
	Id: string;
	DisplayName: string;
	CurrencyRef: { value: string };
}

/** A bill or vendor credit as QuickBooks stored it. */
export interface QuickBooksTransaction {
	entity: 'Bill' | 'VendorCredit';
	Id: string;
	VendorRef: { value: string; name?: string };
	CurrencyRef: { value: string };
	Line: Array<{
		Amount: number;
		Description?: string;
		AccountBasedExpenseLineDetail?: { AccountRef?: { value: string } };
	}>;
	DocNumber?: string;
	PrivateNote?: string;
	TotalAmt: number;
	[field: string]: unknown;
}

export interface QuickBooksStandIn {
	url: string;
	requests: StandInRequest[];
	vendors: QuickBooksVendor[];
	transactions: QuickBooksTransaction[];
	attachments: StoredAttachment[];
	/** The chart of accounts its Account queries answer from. */
	accounts: QuickBooksAccount[];
	/** The next `count` answers to writes (made or replayed) are lost: 504 instead. */
	loseAnswers(count: number): void;
	/** The limits it keeps per company (undefined: none) and its delay before each answer. */
	limits: BooksLimits | undefined;
	responseDelayMs: number;
	close(): Promise<void>;
}

/** `slowdown` defaults to `QUICKBOOKS_STAND_IN_SLOWDOWN`; the limits to QUICKBOOKS_LIMITS. */
export interface QuickBooksStandInOptions extends StandInLoad {
	accessToken: string;
	port?: number;
	/** The company's home currency. Default EUR. */
	homeCurrency?: string;
	/** The currencies multicurrency is set up for (the home currency always counts). Default EUR, USD, GBP. */
	currencies?: string[];
	/** The chart of accounts. Default: QUICKBOOKS_DEMO_ACCOUNTS. */
	accounts?: QuickBooksAccount[];
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateBill = ajv.compile(quickBooksBillSchema);
const validateVendorCredit = ajv.compile(quickBooksVendorCreditSchema);
const validateVendor = ajv.compile(quickBooksVendorSchema);
const validateAttachable = ajv.compile(quickBooksAttachableSchema);

function fault(res: ServerResponse, errors: string[]): void {
	send(res, 400, {
		Fault: {
			type: 'ValidationFault',
			Error: errors.map((Detail) => ({
				Message: 'Request has invalid or unsupported property',
				Detail,
				code: '2010',
			})),
		},
	});
}

/** QuickBooks' answer to a call over its limits. */
function throttled(res: ServerResponse, refusal: Extract<Admission, { admitted: false }>): void {
	res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
	send(res, 429, {
		Fault: {
			type: 'SERVICE',
			Error: [
				{
					Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429',
					Detail: 'The request limit was reached.',
					code: '3001',
				},
			],
		},
		time: new Date().toISOString(),
	});
}

/** A bill or vendor credit as QuickBooks answers it: unpaid (its balance the total). */
function asAnswered(transaction: QuickBooksTransaction): Record<string, unknown> {
	const answer: Record<string, unknown> = { ...transaction, Balance: transaction.TotalAmt };
	delete answer.entity;
	return answer;
}

/** The fields each entity can be queried by here, and the kind of value each is compared with. */
const QUERY_FIELDS = {
	Vendor: { DisplayName: 'text' },
	Bill: { DocNumber: 'text', VendorRef: 'text' },
	VendorCredit: { DocNumber: 'text', VendorRef: 'text' },
	Account: { AccountType: 'text', Active: 'boolean' },
} as const;
type QueriedEntity = keyof typeof QUERY_FIELDS;

export interface QuickBooksQuery {
	entity: QueriedEntity;
	/** Each field at most once, its value unquoted (`'O\'Brien'` → `O'Brien`) or a boolean. */
	conditions: Array<{ field: string; value: string | boolean }>;
	/** STARTPOSITION (from 1) and MAXRESULTS, QuickBooks' defaults when the query names none. */
	startPosition: number;
	maxResults: number;
}

/**
 * The entity and the conditions of a query the stand-in answers: `select * from <Entity> where`
 * `Field = 'text'` or `Field = true|false` conditions joined by AND, each on a field of the entity's
 * (QUERY_FIELDS) with a value of its kind, no field twice; undefined for any other query.
 */
export function quickBooksQueryOf(query: string): QuickBooksQuery | undefined {
	const head = /^select\s+\*\s+from\s+(\w+)\s+where\s+/i.exec(query.trim());
	if (!head) return undefined;
	const entity = (Object.keys(QUERY_FIELDS) as QueriedEntity[]).find(
		(name) => name.toLowerCase() === head[1].toLowerCase(),
	);
	if (!entity) return undefined;
	const fields: Record<string, 'text' | 'boolean'> = QUERY_FIELDS[entity];
	const condition = /(\w+)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|(true|false)\b)\s*(?:and\s+|$)/iy;
	const conditions: QuickBooksQuery['conditions'] = [];
	const paging = /\s+STARTPOSITION\s+(\d+)\s+MAXRESULTS\s+(\d+)\s*$/i.exec(query.trim());
	const text = paging ? query.trim().slice(0, paging.index) : query.trim();
	let at = head[0].length;
	while (at < text.length) {
		condition.lastIndex = at;
		const match = condition.exec(text);
		if (!match) return undefined;
		const field = Object.keys(fields).find((name) => name.toLowerCase() === match[1].toLowerCase());
		const kind = match[2] !== undefined ? 'text' : 'boolean';
		if (!field || fields[field] !== kind || conditions.some((known) => known.field === field))
			return undefined;
		conditions.push({
			field,
			value: kind === 'text' ? match[2].replace(/\\(.)/g, '$1') : match[3].toLowerCase() === 'true',
		});
		at = condition.lastIndex;
	}
	const startPosition = paging ? Number(paging[1]) : 1;
	const maxResults = paging ? Number(paging[2]) : 100;
	if (startPosition < 1 || maxResults < 1 || maxResults > 1000) return undefined;
	return conditions.length > 0 ? { entity, conditions, startPosition, maxResults } : undefined;
}

/** Whether a record has every condition's value in its field (a reference: its value). */
function holds(record: object, conditions: QuickBooksQuery['conditions']): boolean {
	return conditions.every(({ field, value }) => {
		const held = (record as Record<string, unknown>)[field];
		return (
			(held && typeof held === 'object' ? (held as { value?: unknown }).value : held) === value
		);
	});
}

/**
 * The requests about an invoice: all but the company preferences read (the example reads its home
 * currency for every invoice before the bill is built), so "nothing reached QuickBooks" is testable.
 */
export function aboutTheInvoice<T extends { path: string }>(requests: T[]): T[] {
	return requests.filter((request) => !/\/preferences(\?|$)/.test(request.path));
}

export interface MultipartPart {
	name: string;
	fileName?: string;
	contentType?: string;
	data: Buffer;
}

/** The parts of a buffered multipart/form-data body. */
export function multipartParts(body: Buffer, contentType: string | undefined): MultipartPart[] {
	const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
	if (!boundary) return [];
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const parts: MultipartPart[] = [];
	let start = body.indexOf(delimiter);
	while (start !== -1) {
		const next = body.indexOf(delimiter, start + delimiter.length);
		if (next === -1) break;
		const part = body.subarray(start + delimiter.length + 2, next - 2);
		const headerEnd = part.indexOf('\r\n\r\n');
		if (headerEnd !== -1) {
			const headers = part.subarray(0, headerEnd).toString('utf8');
			const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? '';
			const fileName = /filename="([^"]*)"/i.exec(headers)?.[1];
			const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim();
			parts.push({ name, fileName, contentType: type, data: part.subarray(headerEnd + 4) });
		}
		start = next;
	}
	return parts;
}

/** What QuickBooks refuses in a bill or vendor credit beyond the schema. */
function transactionErrors(
	transaction: { Line: Array<{ Amount: number }>; CurrencyRef?: { value: string } },
	vendor: QuickBooksVendor | undefined,
	vendorId: string,
	currencies: string[],
	homeCurrency: string,
): string[] {
	const errors: string[] = [];
	transaction.Line.forEach((line, index) => {
		if (decimalPlaces(line.Amount) > 2)
			errors.push(`/Line/${index}/Amount has more than 2 decimals`);
	});
	if (errors.length > 0) return errors;
	const total = transaction.Line.reduce((sum, line) => sum + toCents(line.Amount), 0);
	if (total < 0) errors.push(`the total ${fromCents(total)} is negative`);
	const currency = transaction.CurrencyRef?.value ?? homeCurrency;
	if (!currencies.includes(currency))
		errors.push(`the company does not use the currency ${currency}`);
	if (!vendor) errors.push(`VendorRef ${vendorId} is not a vendor`);
	else if (vendor.CurrencyRef.value !== currency)
		errors.push(
			`the vendor's currency ${vendor.CurrencyRef.value} is not the transaction's currency ${currency}`,
		);
	return errors;
}

export async function startQuickBooksStandIn(
	options: QuickBooksStandInOptions,
): Promise<QuickBooksStandIn> {
	const requests: StandInRequest[] = [];
	const vendors: QuickBooksVendor[] = [];
	const transactions: QuickBooksTransaction[] = [];
	const attachments: StoredAttachment[] = [];
	const accounts = (options.accounts ?? QUICKBOOKS_DEMO_ACCOUNTS).map((account) => ({
		...account,
	}));
	const homeCurrency = options.homeCurrency ?? 'EUR';
	const currencies = [homeCurrency, ...(options.currencies ?? ['EUR', 'USD', 'GBP'])];
	let nextId = 100;
	const writes = new WriteAnswers();
	const load = new BooksLoad(QUICKBOOKS_LIMITS, options, 'QUICKBOOKS_STAND_IN_SLOWDOWN');

	function upload(
		res: ServerResponse,
		entry: StandInRequest,
		raw: Buffer,
		contentType: string | undefined,
		requestId: string | undefined,
	) {
		const parts = multipartParts(raw, contentType);
		const metadataPart = parts.find((part) => /^file_metadata_\w+$/.test(part.name));
		const contentPart = parts.find((part) => /^file_content_\w+$/.test(part.name));
		entry.body = {
			parts: parts.map((part) => ({
				name: part.name,
				fileName: part.fileName,
				contentType: part.contentType,
				size: part.data.length,
			})),
		};
		if (!metadataPart || !contentPart) {
			entry.errors.push('a file_metadata_NN part and a file_content_NN part are needed');
			return fault(res, entry.errors);
		}
		// Intuit's upload examples send the metadata part as a JSON file part.
		if (!/^application\/json\b/i.test(metadataPart.contentType ?? '')) {
			entry.errors.push(
				`the ${metadataPart.name} part has Content-Type ${metadataPart.contentType ?? '(none)'}, not application/json`,
			);
			return fault(res, entry.errors);
		}
		let metadata: unknown;
		try {
			metadata = JSON.parse(metadataPart.data.toString('utf8'));
		} catch {
			entry.errors.push('file_metadata is not JSON');
			return fault(res, entry.errors);
		}
		(entry.body as Record<string, unknown>).metadata = metadata;
		if (!validateAttachable(metadata)) {
			entry.errors = schemaErrors(validateAttachable);
			return fault(res, entry.errors);
		}
		const attachable = metadata as {
			AttachableRef: Array<{ EntityRef: { type: string; value: string } }>;
			FileName: string;
			ContentType: string;
		};
		const errors: string[] = [];
		for (const { EntityRef } of attachable.AttachableRef) {
			if (
				!transactions.some(
					(transaction) =>
						transaction.entity === EntityRef.type && transaction.Id === EntityRef.value,
				)
			)
				errors.push(`no ${EntityRef.type} ${EntityRef.value}`);
		}
		const { extensions, maxBytes } = QUICKBOOKS_ATTACHMENTS;
		if (!extensions.includes(extensionOf(attachable.FileName)))
			errors.push(`QuickBooks does not take .${extensionOf(attachable.FileName)} files`);
		if (contentPart.data.length === 0) errors.push('the file is empty');
		if (contentPart.data.length > maxBytes) errors.push(`the file is over ${maxBytes} bytes`);
		if (errors.length > 0) {
			entry.errors = errors;
			return fault(res, errors);
		}
		entry.accepted = true;
		const [{ EntityRef }] = attachable.AttachableRef;
		attachments.push({
			ownerId: EntityRef.value,
			ownerType: EntityRef.type,
			fileName: attachable.FileName,
			contentType: attachable.ContentType,
			bytes: Buffer.from(contentPart.data),
		});
		return writes.answer(res, requestId, 200, {
			AttachableResponse: [
				{ Attachable: { ...attachable, Id: String(nextId++), Size: contentPart.data.length } },
			],
		});
	}

	const server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', 'http://stand-in');
			if (url.pathname === '/__standin/requests') return send(res, 200, requests);
			if (url.pathname === '/__standin/bills')
				return sendPage(
					res,
					billsPage(
						'QuickBooks',
						transactions.map((bill) => ({
							kind: bill.entity === 'Bill' ? 'Bill' : 'Vendor credit',
							number: bill.DocNumber ?? '',
							supplier: bill.VendorRef.name ?? bill.VendorRef.value,
							date: String(bill.TxnDate ?? ''),
							currency: bill.CurrencyRef.value,
							lines: bill.Line.map((line) => ({
								description: line.Description ?? '',
								account: accountLabel(
									line.AccountBasedExpenseLineDetail?.AccountRef?.value ?? '',
									accounts.find(
										(account) =>
											account.Id === line.AccountBasedExpenseLineDetail?.AccountRef?.value,
									)?.Name,
								),
								tax: '',
								amount: line.Amount,
							})),
							total: bill.TotalAmt,
							attachments: attachments
								.filter((attachment) => attachment.ownerId === bill.Id)
								.map((attachment) => attachment.fileName),
							notes: bill.PrivateNote ? [bill.PrivateNote] : [],
						})),
					),
				);
			const authorised = req.headers.authorization === `Bearer ${options.accessToken}`;
			// A call counts against its company's limits from its arrival until it is answered.
			const realm = /^\/v3\/company\/([^/]+)\//.exec(url.pathname)?.[1];
			const refusal = authorised && realm !== undefined ? load.admit(realm, res) : undefined;
			const { raw, entry } = await receive(
				requests,
				req,
				url,
				undefined,
				url.pathname.endsWith('/upload') ? 'nothing' : 'json',
			);
			const { body } = entry;
			if (!authorised) {
				entry.errors.push('no valid bearer token');
				return send(res, 401, {
					Fault: {
						type: 'AUTHENTICATION',
						Error: [{ Message: 'AuthenticationFailed', code: '3200' }],
					},
				});
			}
			if (refusal) {
				entry.tenantId = realm;
				entry.throttled = refusal.problem;
				entry.errors.push(`429: over the ${refusal.problem} limit`);
				return throttled(res, refusal);
			}
			await load.pause();
			const preferences = /^\/v3\/company\/([^/]+)\/preferences$/.exec(url.pathname);
			if (preferences && req.method === 'GET') {
				entry.tenantId = preferences[1];
				entry.accepted = true;
				// The company's home currency, as QuickBooks' Preferences entity gives it.
				return send(res, 200, {
					Preferences: {
						CurrencyPrefs: { MultiCurrencyEnabled: true, HomeCurrency: { value: homeCurrency } },
					},
				});
			}
			const route = /^\/v3\/company\/([^/]+)\/(query|vendor|bill|vendorcredit|upload)$/.exec(
				url.pathname,
			);
			if (!route)
				return send(res, 404, {
					Fault: {
						type: 'NotFound',
						Error: [{ Message: `The stand-in has no ${req.method} ${url.pathname}` }],
					},
				});
			entry.tenantId = route[1];
			const resource = route[2];
			if (resource === 'query' && req.method === 'GET') {
				const query = quickBooksQueryOf(url.searchParams.get('query') ?? '');
				if (query === undefined) {
					entry.errors.push(`unsupported query: ${url.searchParams.get('query')}`);
					return send(res, 400, {
						Fault: { type: 'QueryParserError', Error: [{ Message: 'Error parsing query' }] },
					});
				}
				entry.accepted = true;
				const { entity, conditions, startPosition, maxResults } = query;
				// A query of a name list (vendors, accounts) answers its active entries unless it asks
				// about Active (Intuit's query language).
				const activeAsked = conditions.some(({ field }) => field === 'Active');
				const matching: unknown[] =
					entity === 'Vendor'
						? vendors.filter((vendor) => holds(vendor, conditions))
						: entity === 'Account'
							? accounts.filter(
									(account) => holds(account, conditions) && (activeAsked || account.Active),
								)
							: transactions
									.filter((transaction) => transaction.entity === entity)
									.filter((transaction) => holds(transaction, conditions))
									.map(asAnswered);
				const found = matching.slice(startPosition - 1, startPosition - 1 + maxResults);
				return send(res, 200, {
					QueryResponse:
						found.length > 0 ? { [entity]: found, startPosition, maxResults: found.length } : {},
				});
			}
			if (req.method !== 'POST')
				return send(res, 405, { Fault: { Error: [{ Message: 'Method not allowed' }] } });
			const requestId = url.searchParams.get('requestid') ?? undefined;
			await writes.turn(requestId, res);
			if (writes.replay(res, entry, requestId)) return;
			if (resource === 'upload')
				return upload(res, entry, raw, req.headers['content-type'], requestId);
			const validate =
				resource === 'vendor'
					? validateVendor
					: resource === 'bill'
						? validateBill
						: validateVendorCredit;
			if (!validate(body)) {
				entry.errors = schemaErrors(validate);
				return fault(res, entry.errors);
			}
			if (resource === 'vendor') {
				const { DisplayName: displayName, CurrencyRef: currencyRef } = body as {
					DisplayName: string;
					CurrencyRef?: { value: string };
				};
				const currency = currencyRef?.value ?? homeCurrency;
				if (vendors.some((vendor) => vendor.DisplayName === displayName)) {
					entry.errors.push('Duplicate Name Exists Error');
					return send(res, 400, {
						Fault: {
							type: 'ValidationFault',
							Error: [{ Message: 'Duplicate Name Exists Error', code: '6240' }],
						},
					});
				}
				if (!currencies.includes(currency)) {
					entry.errors.push(`the company does not use the currency ${currency}`);
					return fault(res, entry.errors);
				}
				entry.accepted = true;
				const vendor = {
					Id: String(nextId++),
					DisplayName: displayName,
					CurrencyRef: { value: currency },
				};
				vendors.push(vendor);
				return writes.answer(res, requestId, 200, { Vendor: vendor });
			}
			const transaction = body as {
				VendorRef: { value: string };
				CurrencyRef?: { value: string };
				Line: Array<{ Amount: number }>;
			};
			const vendor = vendors.find((entry) => entry.Id === transaction.VendorRef.value);
			entry.errors = transactionErrors(
				transaction,
				vendor,
				transaction.VendorRef.value,
				currencies,
				homeCurrency,
			);
			if (entry.errors.length > 0) return fault(res, entry.errors);
			// An account made inactive since a rule learned it: QuickBooks' 2500, which names no field.
			const inactive = transaction.Line.some((line) => {
				const detail = (
					line as { AccountBasedExpenseLineDetail?: { AccountRef?: { value?: string } } }
				).AccountBasedExpenseLineDetail;
				const account = accounts.find((found) => found.Id === detail?.AccountRef?.value);
				return account !== undefined && !account.Active;
			});
			if (inactive) {
				entry.errors.push('Invalid Reference Id: an inactive account');
				return send(res, 400, {
					Fault: {
						type: 'ValidationFault',
						Error: [
							{
								Message: 'Invalid Reference Id',
								Detail:
									"Invalid Reference Id : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees.",
								code: '2500',
								element: '',
							},
						],
					},
				});
			}
			entry.accepted = true;
			const entity = resource === 'bill' ? 'Bill' : 'VendorCredit';
			const total = fromCents(
				transaction.Line.reduce((sum, line) => sum + toCents(line.Amount), 0),
			);
			const stored: QuickBooksTransaction = {
				...transaction,
				entity,
				Id: String(nextId++),
				// QuickBooks answers a reference with the name it refers to.
				VendorRef: { value: transaction.VendorRef.value, name: vendor!.DisplayName },
				CurrencyRef: { value: transaction.CurrencyRef?.value ?? homeCurrency },
				TotalAmt: total,
			};
			transactions.push(stored);
			return writes.answer(res, requestId, 200, { [entity]: asAnswered(stored) });
		})().catch((error: unknown) => send(res, 500, { Message: String(error) }));
	});
	const { url, close } = await listenLocally(server, options.port);
	return {
		url,
		requests,
		vendors,
		transactions,
		attachments,
		accounts,
		loseAnswers: (count) => writes.loseAnswers(count),
		limits: load.limits,
		responseDelayMs: load.delayMs,
		close,
	};
}
