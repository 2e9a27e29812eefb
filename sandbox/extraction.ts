/**
 * What the sandbox "extracts". JSON and CSV invoices are parsed (docs/spec-decisions.md#d19); PDF, JPG and PNG give a result
 * derived from the file's SHA-256, so the same file always gives the same invoice and confidence.
 */
import type { UploadedFile } from './multipart.ts';

export type DocumentKind = 'pdf' | 'jpg' | 'png' | 'json' | 'csv';

export interface LineItem {
	description: string;
	quantity: number;
	unit_price: number;
	amount: number;
}

export interface ExtractedData {
	/** `currency` only when the file names one: the contract has no such field, a real service may send it (docs/spec-decisions.md#n14). */
	header: { vendor: string; date: string; invoice_no: string; currency?: string };
	amounts: { subtotal: number; tax: number; total: number };
	line_items: LineItem[];
}

export interface ExtractionResult {
	/** undefined: the bytes do not match the declared type (the document will fail, docs/spec-decisions.md#d5). */
	data?: ExtractedData;
	/** Confidence the file asks for (JSON `confidence`), if any. */
	requestedConfidence?: number;
	hashConfidence: number;
}

/** Each kind is named by its file extension; `.jpeg` is a JPG too. */
const KINDS: readonly DocumentKind[] = ['pdf', 'jpg', 'png', 'json', 'csv'];

function kindOfExtension(extension: string): DocumentKind | undefined {
	const named = extension === 'jpeg' ? 'jpg' : extension;
	return KINDS.find((kind) => kind === named);
}

const BY_MIME: Record<string, DocumentKind> = {
	'application/pdf': 'pdf',
	'image/jpeg': 'jpg',
	'image/jpg': 'jpg',
	'image/png': 'png',
	'application/json': 'json',
	'text/json': 'json',
	'text/csv': 'csv',
	'application/csv': 'csv',
};

/** The type from the file name's extension, else from the part's content type (docs/spec-decisions.md#d22). */
export function documentKind(fileName: string, contentType: string): DocumentKind | undefined {
	const extension = fileName.includes('.') ? fileName.split('.').pop()?.toLowerCase() : undefined;
	const byExtension = extension ? kindOfExtension(extension) : undefined;
	if (byExtension) return byExtension;
	return BY_MIME[contentType.split(';')[0].trim().toLowerCase()];
}

function bytesMatchKind(kind: DocumentKind, head: Buffer): boolean {
	switch (kind) {
		case 'pdf':
			return head.subarray(0, 5).toString('latin1') === '%PDF-';
		case 'png':
			return head
				.subarray(0, 8)
				.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
		case 'jpg':
			return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
		default:
			return true;
	}
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
		return Number(value);
	return undefined;
}

/** A currency the file names (JSON `currency` or `header.currency`, CSV column `currency`), passed through as text. */
function currencyOf(...candidates: unknown[]): { currency?: string } {
	const named = candidates.find((value) => typeof value === 'string' && value.trim() !== '');
	return named === undefined ? {} : { currency: (named as string).trim() };
}

function withTotals(
	header: ExtractedData['header'],
	lines: LineItem[],
	given: Partial<ExtractedData['amounts']>,
): ExtractedData {
	const subtotal = given.subtotal ?? round2(lines.reduce((sum, line) => sum + line.amount, 0));
	const tax = given.tax ?? round2(subtotal * 0.19);
	const total = given.total ?? round2(subtotal + tax);
	return { header, amounts: { subtotal, tax, total }, line_items: lines };
}

function fromJson(content: Buffer): { data: ExtractedData; confidence?: number } | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(content.toString('utf8'));
	} catch {
		return undefined;
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
	const object = parsed as Record<string, unknown>;
	const header = (object.header ?? object) as Record<string, unknown>;
	const amounts = (object.amounts ?? object) as Record<string, unknown>;
	const lines = Array.isArray(object.line_items) ? object.line_items : [];
	const lineItems: LineItem[] = lines.map((line) => {
		const entry = (typeof line === 'object' && line !== null ? line : {}) as Record<
			string,
			unknown
		>;
		const quantity = toNumber(entry.quantity) ?? 1;
		const unitPrice = toNumber(entry.unit_price) ?? 0;
		return {
			description: String(entry.description ?? ''),
			quantity,
			unit_price: unitPrice,
			amount: toNumber(entry.amount) ?? round2(quantity * unitPrice),
		};
	});
	const data = withTotals(
		{
			vendor: String(header.vendor ?? ''),
			date: String(header.date ?? ''),
			invoice_no: String(header.invoice_no ?? ''),
			...currencyOf(object.currency, header.currency),
		},
		lineItems,
		{
			subtotal: toNumber(amounts.subtotal),
			tax: toNumber(amounts.tax),
			total: toNumber(amounts.total),
		},
	);
	const confidence = toNumber(object.confidence);
	return {
		data,
		confidence:
			confidence !== undefined && confidence >= 0 && confidence <= 1 ? confidence : undefined,
	};
}

function splitCsvLine(line: string): string[] {
	const cells: string[] = [];
	let cell = '';
	let quoted = false;
	for (let index = 0; index < line.length; index++) {
		const char = line[index];
		if (quoted) {
			if (char === '"' && line[index + 1] === '"') {
				cell += '"';
				index++;
			} else if (char === '"') quoted = false;
			else cell += char;
		} else if (char === '"') quoted = true;
		else if (char === ',') {
			cells.push(cell);
			cell = '';
		} else cell += char;
	}
	cells.push(cell);
	return cells.map((value) => value.trim());
}

/** docs/spec-decisions.md#d19: a header row with description, quantity, unit_price, amount (+ optional invoice columns, read from the first row). */
function fromCsv(content: Buffer): ExtractedData | undefined {
	const lines = content
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.split(/\r?\n/)
		.filter((line) => line.trim() !== '');
	if (lines.length < 2) return undefined;
	const columns = splitCsvLine(lines[0]).map((name) => name.toLowerCase());
	if (!columns.includes('description') || !columns.includes('amount')) return undefined;
	const rows = lines.slice(1).map((line) => {
		const cells = splitCsvLine(line);
		return Object.fromEntries(columns.map((name, index) => [name, cells[index] ?? '']));
	});
	const first = rows[0];
	const lineItems = rows.map((row) => {
		const quantity = toNumber(row.quantity) ?? 1;
		const unitPrice = toNumber(row.unit_price) ?? 0;
		return {
			description: row.description,
			quantity,
			unit_price: unitPrice,
			amount: toNumber(row.amount) ?? round2(quantity * unitPrice),
		};
	});
	return withTotals(
		{
			vendor: first.vendor ?? '',
			date: first.date ?? '',
			invoice_no: first.invoice_no ?? '',
			...currencyOf(first.currency),
		},
		lineItems,
		{ subtotal: toNumber(first.subtotal), tax: toNumber(first.tax), total: toNumber(first.total) },
	);
}

const VENDORS = [
	'Acme Supplies GmbH',
	'Globex Corporation',
	'Initech LLC',
	'Umbrella Office Ltd',
	'Stark Industries',
	'Wayne Enterprises',
	'Soylent Foods',
	'Hooli Cloud Services',
];
const ITEMS = [
	'Consulting hours',
	'Printer paper A4',
	'Toner cartridge',
	'Software licence',
	'Office chairs',
	'Cloud storage (1 TB)',
	'Shipping',
	'Maintenance visit',
];

/** An invoice that adds up to the cent, chosen by the file's hash. */
function fromHash(sha256: string): ExtractedData {
	const bytes = Buffer.from(sha256, 'hex');
	const lineCount = 1 + (bytes[0] % 5);
	const lineItems: LineItem[] = [];
	for (let index = 0; index < lineCount; index++) {
		const quantity = 1 + (bytes[1 + index] % 20);
		const unitPrice = round2(5 + bytes.readUInt16BE(8 + 2 * index) / 100);
		lineItems.push({
			description: ITEMS[bytes[20 + index] % ITEMS.length],
			quantity,
			unit_price: unitPrice,
			amount: round2(quantity * unitPrice),
		});
	}
	const month = 1 + (bytes[26] % 12);
	const day = 1 + (bytes[27] % 28);
	return withTotals(
		{
			vendor: VENDORS[bytes[28] % VENDORS.length],
			date: `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
			invoice_no: `INV-${bytes.readUInt32BE(12) % 1_000_000}`,
		},
		lineItems,
		{},
	);
}

/** Confidence from the hash, spread over 0.80..1.00 (4 decimals). */
export function hashConfidence(sha256: string): number {
	return Math.round((0.8 + (parseInt(sha256.slice(0, 8), 16) % 2001) / 10_000) * 10_000) / 10_000;
}

export function extract(kind: DocumentKind, file: UploadedFile): ExtractionResult {
	const confidence = hashConfidence(file.sha256);
	if (!bytesMatchKind(kind, file.head)) return { hashConfidence: confidence };
	if (kind === 'json' || kind === 'csv') {
		if (!file.content) return { hashConfidence: confidence };
		if (kind === 'csv') return { data: fromCsv(file.content), hashConfidence: confidence };
		const parsed = fromJson(file.content);
		return {
			data: parsed?.data,
			requestedConfidence: parsed?.confidence,
			hashConfidence: confidence,
		};
	}
	return { data: fromHash(file.sha256), hashConfidence: confidence };
}

/** Applies a reviewer's corrections (a partial extracted-data object) to the data. */
export function applyCorrections(data: ExtractedData, corrections: unknown): ExtractedData {
	if (typeof corrections !== 'object' || corrections === null) return data;
	const patch = corrections as Partial<ExtractedData>;
	return {
		header: { ...data.header, ...(patch.header ?? {}) },
		amounts: { ...data.amounts, ...(patch.amounts ?? {}) },
		line_items: Array.isArray(patch.line_items)
			? (patch.line_items as LineItem[])
			: data.line_items,
	};
}
