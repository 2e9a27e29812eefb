// Generated invoices for the property-style tests of the "to the books" examples: a seeded PRNG, so
// every run sees the same invoices and a failure names its seed and index. Each invoice says whether
// an accounts-payable team would have it posted (`expect: 'post'`) or stopped (`'stop'`, with why).
// Amounts are built in whole cents from quantities (up to 3 decimals) and unit prices (4 decimals);
// a line's amount is quantity × unit price rounded half away from zero, as the books round it.

import { invoiceOutput } from '../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';

export interface GeneratedLine {
	description: string | null;
	quantity: number | null;
	unit_price: number | null;
	amount: number | string | null;
}

/** An invoice as the extraction service returns it (the extracted-data object), plus what should happen. */
export interface GeneratedInvoice {
	name: string;
	expect: 'post' | 'stop';
	/** Why an invoice is stopped (for the test's message). */
	stopBecause?: string;
	creditNote: boolean;
	currency: string | null;
	data: {
		header: {
			vendor: string | null;
			date: string | null;
			invoice_no: string | null;
			currency?: string | null;
		};
		amounts: {
			subtotal: number | string | null;
			tax: number | string | null;
			total: number | string | null;
		};
		line_items: GeneratedLine[];
	};
	/** The invoice's totals in cents when it is posted (subtotal, tax, total; positive for a credit note). */
	cents?: { subtotal: number; tax: number; total: number };
}

/** mulberry32: a small seeded PRNG, numbers in [0, 1). */
export function prng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** quantity × unit price exactly, in units of 10^-8 (both have at most 4 decimals). */
const exactProduct = (quantity: number, unitPrice: number): bigint =>
	BigInt(Math.round(quantity * 1e4)) * BigInt(Math.round(unitPrice * 1e4));

/**
 * quantity × unit price in cents, half away from zero: the whole cents (toward zero), and one cent
 * more away from zero when what is left is half a cent or more.
 */
export function lineCents(quantity: number, unitPrice: number): number {
	const product = exactProduct(quantity, unitPrice);
	const cents = product / 1_000_000n;
	const rest = product % 1_000_000n;
	const away = rest >= 500_000n ? 1n : rest <= -500_000n ? -1n : 0n;
	return Number(cents + away);
}

/** The whole cent on the other side of quantity × unit price from where it rounds (one cent off when exact). */
function otherCent(quantity: number, unitPrice: number): number {
	const product = exactProduct(quantity, unitPrice);
	const rounded = lineCents(quantity, unitPrice);
	const roundedScaled = BigInt(rounded) * 1_000_000n;
	if (product === roundedScaled) return rounded + 1;
	return product > roundedScaled ? rounded + 1 : rounded - 1;
}

const roundHalfAway = (value: number) => Math.sign(value) * Math.round(Math.abs(value));
const fromCents = (cents: number) => Number((cents / 100).toFixed(2));

const VENDORS = [
	'Acme Supplies GmbH',
	'Globex Corporation',
	'Initech LLC',
	'Umbrella Office Ltd',
	"O'Brien & Söhne",
	'Café Müller',
];
const ITEMS = [
	'Consulting hours',
	'Printer paper A4',
	'Toner cartridge',
	'Software licence',
	'Cloud storage (1 TB)',
	'Shipping',
	'Screws M4, per piece',
];
const STOP_KINDS = [
	'no vendor',
	'no invoice number',
	'no date',
	'a line amount missing',
	'an amount as text',
	'no lines',
	'total off by 5 cents',
	'lines off by a cent',
	'a currency the books do not take',
	'no tax amount',
] as const;

/** `count` invoices from `seed`; about one in four is one the gate or the books must stop. */
export function generateInvoices(
	seed: number,
	count: number,
	allowedCurrencies = ['EUR', 'USD', 'GBP'],
): GeneratedInvoice[] {
	const random = prng(seed);
	const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
	const integer = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
	const invoices: GeneratedInvoice[] = [];
	for (let index = 0; index < count; index++) {
		const lineCount = random() < 0.15 ? integer(40, 80) : integer(1, 12);
		const taxMode = pick(['zero', 'one rate', 'mixed'] as const);
		const oneRate = pick([7, 19, 20]);
		const creditNote = random() < 0.12;
		const sign = creditNote ? -1 : 1;
		const lines: GeneratedLine[] = [];
		let subtotal = 0;
		let tax = 0;
		for (let number = 0; number < lineCount; number++) {
			// Quantities with up to 3 decimals, unit prices with 4; now and then a discount line.
			const discount = number > 0 && random() < 0.1;
			const quantity = discount
				? 1
				: Number((integer(1, 20_000) / pick([1, 10, 100, 1000])).toFixed(3));
			const unitPrice = Number((((discount ? -1 : 1) * integer(1, 2_000_000)) / 10_000).toFixed(4));
			// Some suppliers round a line the other way: the amount is the other cent next to quantity × price.
			const offByACent = !discount && random() < 0.05;
			let cents = offByACent
				? otherCent(quantity, sign * unitPrice)
				: lineCents(quantity, sign * unitPrice);
			// A discount never turns the running subtotal's sign.
			const turnsSign = creditNote ? subtotal + cents >= 0 : subtotal + cents <= 0;
			if (discount && turnsSign) cents = 0;
			subtotal += cents;
			const rate = taxMode === 'zero' ? 0 : taxMode === 'one rate' ? oneRate : pick([0, 7, 19]);
			tax += roundHalfAway((cents * rate) / 100);
			lines.push({
				description: discount ? 'Discount' : pick(ITEMS),
				quantity,
				unit_price: cents === 0 && discount ? 0 : sign * unitPrice,
				amount: fromCents(cents),
			});
		}
		if (subtotal === 0) continue;
		const currency = random() < 0.2 ? null : pick(allowedCurrencies);
		const invoice: GeneratedInvoice = {
			name: `seed ${seed} #${index}`,
			expect: 'post',
			creditNote: subtotal + tax < 0,
			currency,
			data: {
				// A supplier bills in one currency (a QuickBooks vendor has one).
				header: {
					vendor: `${pick(VENDORS)} (${currency ?? 'default currency'})`,
					date: `2026-${String(integer(1, 12)).padStart(2, '0')}-${String(integer(1, 28)).padStart(2, '0')}`,
					invoice_no: `G-${seed}-${index}`,
					currency,
				},
				amounts: {
					subtotal: fromCents(subtotal),
					tax: fromCents(tax),
					total: fromCents(subtotal + tax),
				},
				line_items: lines,
			},
			cents: { subtotal: Math.abs(subtotal), tax: Math.abs(tax), total: Math.abs(subtotal + tax) },
		};
		if (random() < 0.25) stop(invoice, pick(STOP_KINDS), random);
		invoices.push(invoice);
	}
	return invoices;
}

function stop(
	invoice: GeneratedInvoice,
	kind: (typeof STOP_KINDS)[number],
	random: () => number,
): void {
	const { header, amounts, line_items: lines } = invoice.data;
	invoice.expect = 'stop';
	invoice.stopBecause = kind;
	delete invoice.cents;
	switch (kind) {
		case 'no vendor':
			header.vendor = null;
			break;
		case 'no invoice number':
			header.invoice_no = null;
			break;
		case 'no date':
			header.date = null;
			break;
		case 'a line amount missing':
			lines[Math.floor(random() * lines.length)].amount = null;
			break;
		case 'an amount as text': {
			const line = lines[Math.floor(random() * lines.length)];
			line.amount = Number(line.amount).toLocaleString('en-US', { minimumFractionDigits: 2 });
			if (!String(line.amount).includes(',')) line.amount = `${String(line.amount)} EUR`;
			break;
		}
		case 'no lines':
			invoice.data.line_items = [];
			break;
		case 'total off by 5 cents':
			amounts.total = fromCents(Math.round(Number(amounts.total) * 100) + 5);
			break;
		case 'lines off by a cent':
			// Within the extraction checks' one-cent tolerance, but not a bill to the cent.
			amounts.subtotal = fromCents(Math.round(Number(amounts.subtotal) * 100) + 1);
			amounts.total = fromCents(Math.round(Number(amounts.total) * 100) + 1);
			break;
		case 'a currency the books do not take':
			header.currency = 'CHF';
			invoice.currency = 'CHF';
			break;
		case 'no tax amount':
			amounts.tax = null;
			break;
	}
}

/** The package's Simplified item for a generated invoice, as Extract or the trigger gives it. */
export function simplified(
	invoice: GeneratedInvoice['data'],
	documentId = 'doc_generated',
): Record<string, unknown> {
	const [item] = invoiceOutput(
		'simplified',
		{},
		{ document_id: documentId, status: 'verified' },
		invoice,
	);
	return item as Record<string, unknown>;
}

/** Generated invoices, each with the item Extract's Simplified output makes of it. */
export function generateInvoiceItems(
	seed: number,
	count: number,
): Array<{ invoice: GeneratedInvoice; item: Record<string, unknown> }> {
	return generateInvoices(seed, count).map((invoice) => ({
		invoice,
		item: simplified(invoice.data),
	}));
}

/** A consulting invoice whose one line holds only its amount ("Consulting, September — 2,400.00"). */
export function amountOnlyInvoice(
	overrides: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		vendor: 'Northwind Consulting Ltd',
		invoice_no: 'NW-9',
		invoice_date: '2026-10-01',
		currency: 'GBP',
		subtotal: 2400,
		tax: 480,
		total: 2880,
		line_items: [
			{ description: 'Consulting, September', quantity: null, unit_price: null, amount: 2400 },
		],
		...overrides,
	};
}

/** One Simplified invoice item for a case-by-case test: 1,250 screws at 0.0372 in EUR unless overridden. */
export function invoiceItem(
	overrides: Partial<{
		vendor: string;
		invoice_no: string;
		currency: string | null;
		lines: GeneratedInvoice['data']['line_items'];
		subtotal: number;
		tax: number;
		total: number;
	}> = {},
): Record<string, unknown> {
	const lines = overrides.lines ?? [
		{ description: 'Screws', quantity: 1250, unit_price: 0.0372, amount: 46.5 },
	];
	const subtotal = overrides.subtotal ?? 46.5;
	const tax = overrides.tax ?? 0;
	return simplified({
		header: {
			vendor: overrides.vendor ?? 'Acme Supplies GmbH',
			date: '2026-10-05',
			invoice_no: overrides.invoice_no ?? 'INV-1',
			currency: overrides.currency === undefined ? 'EUR' : overrides.currency,
		},
		amounts: { subtotal, tax, total: overrides.total ?? subtotal + tax },
		line_items: lines,
	});
}
