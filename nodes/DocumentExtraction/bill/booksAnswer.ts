/**
 * What the books' answers mean for one bill Build Bill built (docs/accounting.md#the-books-answers),
 * decided here rather than in a template's expressions. The lookup's answer (Xero's GET Invoices or
 * CreditNotes, QuickBooks' query response, every page): `new` (book it), `alreadyBooked` (a live
 * bill of the same supplier, number, total, date and currency: named), or `personDecides` (the same
 * number with another total, date or currency, a voided or deleted one, a longer QuickBooks number
 * whose whole is not recorded, an answer not read whole: why). The create's answer: `created` when
 * the bill returned is the bill asked for (supplier, number, total), `accountRefused` when the books
 * refused the bill's account (archived, deleted, made inactive since a rule learned it) for the first
 * time, `booksRefused` when they refused the bill otherwise (worth a last try), else `personDecides`.
 * Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { QUICKBOOKS_DOC_NUMBER_MAX, QUICKBOOKS_LOOKUP_PAGE_SIZE } from './booksGuard.ts';
import { fieldsOf } from '../jsonObject.ts';
import { moneyText } from './money.ts';
import { invoiceNumberIdentity, supplierIdentity } from './supplierIdentity.ts';
import { oneLine, text } from './text.ts';

export type LookupVerdict = 'new' | 'alreadyBooked' | 'personDecides';
export type CreateVerdict = 'created' | 'accountRefused' | 'booksRefused' | 'personDecides';

/** A bill in the books, as a person finds it. */
export interface BooksBill {
	id: string;
	number: string;
	supplier: string;
	status: string;
	total: number | null;
	date: string | null;
	currency: string | null;
	/** The bill in the books' web app. */
	link: string;
}

export interface Judgement<Verdict extends string> {
	verdict: Verdict;
	/** Why a person decides; null otherwise. */
	review_reason: string | null;
	/** The bill already booked or just created; for a person, the first one the reason names. */
	books_bill: BooksBill | null;
	/** Every other bill of the supplier with this number the answer holds. */
	also_found: BooksBill[];
	/** The account the books refused (accountRefused; null when the books do not name it). */
	refused_account?: string | null;
}

/** What the books said when they refused a bill's account. */
export interface AccountRefusal {
	account: string | null;
	message: string;
}

// Xero: "Account code '420' has been archived, or has been deleted. Each line item must reference a
// valid account." or "Account code '999' is not a valid code for this document."
const XERO_ACCOUNT_REFUSED =
	/Account code '([^'"\\]*)' (?:has been archived, or has been deleted|is not a valid code)[^"\\]*/;
// QuickBooks (code 2500): "Invalid Reference Id : Something you're trying to use has been made
// inactive. Check the fields with accounts, …" — it does not say which reference.
const QUICKBOOKS_REFERENCE_REFUSED = /Invalid Reference Id[^"\\]*(?:inactive|Account)[^"\\]*/;

/**
 * The books' refusal of the bill's account, read from the create's error as n8n's HTTP Request node
 * passes it on (the books' body may sit inside its message as text); null for any other answer.
 */
export function accountRefusal(answer: unknown, billAccount: string | null): AccountRefusal | null {
	const said = JSON.stringify(answer ?? null);
	const xero = XERO_ACCOUNT_REFUSED.exec(said);
	if (xero) return { account: xero[1] || billAccount, message: xero[0].trim() };
	const quickBooks = QUICKBOOKS_REFERENCE_REFUSED.exec(said);
	if (quickBooks) return { account: billAccount, message: quickBooks[0].trim() };
	return null;
}

/**
 * What the books said when they refused the create for another reason: n8n's error item (the HTTP
 * Request node's error output) or a QuickBooks Fault; null when the answer is no refusal.
 */
export function booksRefusal(answer: unknown): string | null {
	const body = fieldsOf(answer);
	if (body.error !== undefined && body.error !== null) {
		const error = typeof body.error === 'object' ? fieldsOf(body.error) : { message: body.error };
		const code = text(error.httpCode);
		const message = oneLine(text(error.message) || text(error.description)) || 'no message';
		return code && !message.startsWith(code) ? `${message} (HTTP ${code})` : message;
	}
	const fault = fieldsOf(body.Fault);
	if (Object.keys(fault).length === 0) return null;
	const first = fieldsOf((fault.Error as unknown[] | undefined)?.[0]);
	return oneLine(text(first.Detail) || text(first.Message)) || 'no message';
}

/** The bill Build Bill asked for, read from its item. */
interface AskedBill {
	books: 'xero' | 'quickBooks';
	creditNote: boolean;
	supplier: string;
	/** The whole number. */
	number: string;
	totalCents: number;
	date: string | null;
	currency: string | null;
	/** The account of its first line (Xero's code, QuickBooks' id): the one a refusal names. */
	account: string | null;
}

/** A bill of the answer with what the judgement compares. */
interface FoundBill extends BooksBill {
	totalCents: number | null;
	live: boolean;
	vendorId: string | null;
	privateNote: string;
}

/** An amount in whole cents; null when it is no number. */
function centsOf(value: unknown): number | null {
	const amount = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof amount !== 'number' || !Number.isFinite(amount)) return null;
	return Math.round(Number(amount.toFixed(6)) * 100);
}

/** The asked bill of a Build Bill item, or why the item is not one. */
function askedBillOf(item: IDataObject): AskedBill | string {
	const xero = fieldsOf(item.xero_request);
	const endpoint = text(item.endpoint);
	const xeroDocument = fieldsOf((xero[endpoint] as unknown[] | undefined)?.[0]);
	if (Object.keys(xeroDocument).length > 0) {
		const creditNote = endpoint === 'CreditNotes';
		return {
			books: 'xero',
			creditNote,
			supplier: text(fieldsOf(xeroDocument.Contact).Name),
			number: text(creditNote ? xeroDocument.CreditNoteNumber : xeroDocument.InvoiceNumber),
			totalCents: centsOf(fieldsOf(item.expected).total) ?? NaN,
			date: text(xeroDocument.Date) || null,
			currency: text(xeroDocument.CurrencyCode) || null,
			account:
				text(fieldsOf((xeroDocument.LineItems as unknown[] | undefined)?.[0]).AccountCode) || null,
		};
	}
	const quickBooks = fieldsOf(item.bill);
	if (Object.keys(quickBooks).length > 0) {
		return {
			books: 'quickBooks',
			creditNote: item.entity === 'vendorcredit',
			supplier: text(item.vendor_name),
			number: oneLine(item.invoice_no),
			totalCents: centsOf(item.expected_total) ?? NaN,
			date: text(quickBooks.TxnDate) || null,
			currency: text(fieldsOf(quickBooks.CurrencyRef).value) || null,
			account:
				text(
					fieldsOf(
						fieldsOf(
							fieldsOf((quickBooks.Line as unknown[] | undefined)?.[0])
								.AccountBasedExpenseLineDetail,
						).AccountRef,
					).value,
				) || null,
		};
	}
	return 'the Bill parameter holds no bill Build Bill built: set it to the Build Bill item of this invoice';
}

/** A Xero date, `/Date(1767225600000+0000)/` or `2026-01-01T00:00:00`, as YYYY-MM-DD. */
function xeroDate(value: unknown): string | null {
	const raw = text(value);
	const epoch = /^\/Date\((-?\d+)/.exec(raw);
	if (epoch) return new Date(Number(epoch[1])).toISOString().slice(0, 10);
	return /^\d{4}-\d{2}-\d{2}/.test(raw) ? raw.slice(0, 10) : null;
}

function xeroBill(row: IDataObject, creditNote: boolean): FoundBill {
	const id = text(creditNote ? row.CreditNoteID : row.InvoiceID);
	const status = text(row.Status);
	const totalCents = centsOf(row.Total);
	return {
		id,
		number: text(creditNote ? row.CreditNoteNumber : row.InvoiceNumber),
		supplier: text(fieldsOf(row.Contact).Name),
		status,
		total: totalCents === null ? null : totalCents / 100,
		totalCents,
		date: xeroDate(row.DateString ?? row.Date),
		currency: text(row.CurrencyCode) || null,
		link: creditNote
			? `https://go.xero.com/AccountsPayable/ViewCreditNote.aspx?creditNoteID=${id}`
			: `https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=${id}`,
		live: status !== 'VOIDED' && status !== 'DELETED',
		vendorId: text(fieldsOf(row.Contact).ContactID) || null,
		privateNote: '',
	};
}

function quickBooksBill(row: IDataObject, creditNote: boolean): FoundBill {
	const id = text(row.Id);
	const totalCents = centsOf(row.TotalAmt);
	const privateNote = text(row.PrivateNote);
	// QuickBooks keeps a voided transaction with a zero total and "Voided" in its private note.
	const voided = totalCents === 0 && /^voided\b/i.test(privateNote);
	return {
		id,
		number: text(row.DocNumber),
		supplier: text(fieldsOf(row.VendorRef).name),
		status: voided ? 'Voided' : 'Live',
		total: totalCents === null ? null : totalCents / 100,
		totalCents,
		date: /^\d{4}-\d{2}-\d{2}$/.test(text(row.TxnDate)) ? text(row.TxnDate) : null,
		currency: text(fieldsOf(row.CurrencyRef).value) || null,
		link: `https://app.qbo.intuit.com/app/${creditNote ? 'vendorcredit' : 'bill'}?txnId=${id}`,
		live: !voided,
		vendorId: text(fieldsOf(row.VendorRef).value) || null,
		privateNote,
	};
}

/** The rows of the answer's pages, or why the answer cannot be read whole. */
function lookupRows(asked: AskedBill, answer: unknown): FoundBill[] | string {
	const pages = Array.isArray(answer) ? answer : [answer];
	const rows: FoundBill[] = [];
	for (const [index, page] of pages.entries()) {
		if (asked.books === 'xero') {
			const key = asked.creditNote ? 'CreditNotes' : 'Invoices';
			const found = fieldsOf(page)[key];
			if (!Array.isArray(found))
				return `the lookup's answer is not Xero's ${key} answer: check Find bill's request`;
			rows.push(...found.map((row) => xeroBill(fieldsOf(row), asked.creditNote)));
			continue;
		}
		const response = fieldsOf(page).QueryResponse;
		if (!response || typeof response !== 'object')
			return "the lookup's answer is not a QuickBooks query response: check Find bill's request";
		const found = fieldsOf(response)[asked.creditNote ? 'VendorCredit' : 'Bill'] ?? [];
		if (!Array.isArray(found))
			return "the lookup's answer is not a QuickBooks query response: check Find bill's request";
		rows.push(...found.map((row) => quickBooksBill(fieldsOf(row), asked.creditNote)));
		// A full last page means QuickBooks has more: an answer not read whole decides nothing.
		if (index === pages.length - 1 && found.length >= QUICKBOOKS_LOOKUP_PAGE_SIZE)
			return `QuickBooks answered a full page of ${QUICKBOOKS_LOOKUP_PAGE_SIZE} bills numbered ${asked.number} and the next page was not read: read every page (STARTPOSITION) before judging`;
	}
	return rows;
}

function sameSupplier(asked: AskedBill, found: FoundBill, vendorId: string | undefined): boolean {
	if (asked.books === 'quickBooks' && vendorId) return found.vendorId === vendorId;
	return supplierIdentity(found.supplier) === supplierIdentity(asked.supplier);
}

/**
 * Whether a found bill carries the asked number: the whole number, one line, without regard to case.
 * QuickBooks keeps 21 characters: a longer number is that bill's when its private note records the
 * whole number as Build Bill writes it ("Invoice number: …"); `cut` when only the 21 agree.
 */
function numberMatch(asked: AskedBill, found: FoundBill): 'same' | 'cut' | 'other' {
	const whole = invoiceNumberIdentity(asked.number);
	if (invoiceNumberIdentity(found.number) === whole) return 'same';
	if (asked.books !== 'quickBooks' || asked.number.length <= QUICKBOOKS_DOC_NUMBER_MAX)
		return 'other';
	if (
		invoiceNumberIdentity(found.number) !==
		invoiceNumberIdentity(asked.number.slice(0, QUICKBOOKS_DOC_NUMBER_MAX))
	)
		return 'other';
	const recorded = found.privateNote
		.split('\n')
		.some((line) => invoiceNumberIdentity(line.replace(/^Invoice number:\s*/, '')) === whole);
	return recorded ? 'same' : 'cut';
}

/** Why a bill of the supplier with this number is not simply this invoice booked; none: it is. */
function differences(asked: AskedBill, found: FoundBill): string[] {
	const differ: string[] = [];
	if (!found.live) differ.push(`it is ${found.status.toLowerCase()}`);
	if (found.totalCents !== asked.totalCents)
		differ.push(
			`its total is ${found.totalCents === null ? 'unknown' : moneyText(found.totalCents)}, this invoice's ${moneyText(asked.totalCents)}`,
		);
	if (asked.date && found.date !== asked.date)
		differ.push(`it is dated ${found.date ?? 'unknown'}, this invoice ${asked.date}`);
	if (asked.currency && found.currency && found.currency !== asked.currency)
		differ.push(`it is in ${found.currency}, this invoice in ${asked.currency}`);
	return differ;
}

function named(found: FoundBill): BooksBill {
	const { id, number, supplier, status, total, date, currency, link } = found;
	return { id, number, supplier, status, total, date, currency, link };
}

const BOOKS_NAME = { xero: 'Xero', quickBooks: 'QuickBooks' } as const;

function personDecides<Verdict extends string>(
	reason: string,
	books_bill: BooksBill | null = null,
	also_found: BooksBill[] = [],
): Judgement<Verdict | 'personDecides'> {
	return { verdict: 'personDecides', review_reason: reason, books_bill, also_found };
}

/**
 * The lookup's answer for `bill` (a Build Bill item): one page or every page of it. `vendorId`:
 * QuickBooks' Id of the supplier, which decides whose bills count; without it, the vendor's name.
 */
export function judgeLookup(
	bill: IDataObject,
	answer: unknown,
	vendorId?: string,
): Judgement<LookupVerdict> {
	const asked = askedBillOf(bill);
	if (typeof asked === 'string') return personDecides(asked);
	const rows = lookupRows(asked, answer);
	if (typeof rows === 'string') return personDecides(rows);
	const books = BOOKS_NAME[asked.books];
	const theirs = rows.filter((found) => sameSupplier(asked, found, vendorId || undefined));
	const exact: FoundBill[] = [];
	const reasons: string[] = [];
	const questioned: FoundBill[] = [];
	for (const found of theirs) {
		const match = numberMatch(asked, found);
		if (match === 'other') continue;
		if (match === 'cut') {
			questioned.push(found);
			reasons.push(
				`${books} bill ${found.id} has DocNumber ${found.number}, the ${QUICKBOOKS_DOC_NUMBER_MAX} characters QuickBooks keeps of ${asked.number}, and its private note does not record the whole number`,
			);
			continue;
		}
		const differ = differences(asked, found);
		if (differ.length === 0) exact.push(found);
		else {
			questioned.push(found);
			reasons.push(
				`${books} has bill ${found.number} (id ${found.id}) of this supplier: ${differ.join(', ')}`,
			);
		}
	}
	if (exact.length > 0)
		return {
			verdict: 'alreadyBooked',
			review_reason: null,
			books_bill: named(exact[0]),
			also_found: [...exact.slice(1), ...questioned].map(named),
		};
	if (questioned.length > 0)
		return personDecides(
			`${reasons.join('; ')}: a person decides whether this invoice is booked`,
			named(questioned[0]),
			questioned.slice(1).map(named),
		);
	return { verdict: 'new', review_reason: null, books_bill: null, also_found: [] };
}

/**
 * The create's answer for `bill`: `created` when the books returned the bill asked for (supplier,
 * number as the books keep it, total), else why not: an idempotency key the books already knew
 * answers with the bill first made with it. An account refused once more, after the account was
 * asked again (`accountAskedAgain`), is for a person.
 */
export function judgeCreated(
	bill: IDataObject,
	answer: unknown,
	vendorId?: string,
	accountAskedAgain = false,
): Judgement<CreateVerdict> {
	const asked = askedBillOf(bill);
	if (typeof asked === 'string') return personDecides(asked);
	const books = BOOKS_NAME[asked.books];
	const refused = accountRefusal(answer, asked.account);
	if (refused) {
		const reason = `${books} refused the account${refused.account ? ` ${refused.account}` : ''}: ${refused.message}`;
		return {
			...(accountAskedAgain
				? personDecides(`${reason}. It was the account chosen again: a person decides`)
				: {
						verdict: 'accountRefused' as const,
						review_reason: reason,
						books_bill: null,
						also_found: [],
					}),
			refused_account: refused.account,
		};
	}
	const refusal = booksRefusal(answer);
	if (refusal !== null)
		return {
			verdict: 'booksRefused',
			review_reason: `${books} refused the ${asked.creditNote ? 'credit note' : 'bill'}: ${refusal}`,
			books_bill: null,
			also_found: [],
		};
	const body = fieldsOf(answer);
	let found: FoundBill | undefined;
	if (asked.books === 'xero') {
		const rows = body[asked.creditNote ? 'CreditNotes' : 'Invoices'];
		if (Array.isArray(rows) && rows.length === 1)
			found = xeroBill(fieldsOf(rows[0]), asked.creditNote);
	} else {
		const row = body[asked.creditNote ? 'VendorCredit' : 'Bill'];
		if (row && typeof row === 'object') found = quickBooksBill(fieldsOf(row), asked.creditNote);
	}
	if (!found || !found.id)
		return personDecides(
			`${books} did not answer the create with one ${asked.creditNote ? 'credit note' : 'bill'}: look in ${books} before booking it again`,
		);
	const differ: string[] = [];
	if (!sameSupplier(asked, found, vendorId || undefined))
		differ.push(
			asked.books === 'quickBooks' && vendorId
				? `its vendor is ${found.vendorId ?? 'unknown'}${found.supplier ? ` (${found.supplier})` : ''}, not ${vendorId}`
				: `its supplier is ${found.supplier || 'unknown'}, not ${asked.supplier}`,
		);
	const askedNumber =
		asked.books === 'quickBooks' ? asked.number.slice(0, QUICKBOOKS_DOC_NUMBER_MAX) : asked.number;
	if (invoiceNumberIdentity(found.number) !== invoiceNumberIdentity(askedNumber))
		differ.push(`its number is ${found.number || 'empty'}, not ${askedNumber}`);
	if (found.totalCents !== asked.totalCents)
		differ.push(
			`its total is ${found.totalCents === null ? 'unknown' : moneyText(found.totalCents)}, not ${moneyText(asked.totalCents)}`,
		);
	if (!found.live) differ.push(`it is ${found.status.toLowerCase()}`);
	if (differ.length > 0)
		return personDecides(
			`${books} answered the create with bill ${found.id}, not the bill asked for: ${differ.join(', ')}`,
			named(found),
		);
	return { verdict: 'created', review_reason: null, books_bill: named(found), also_found: [] };
}
