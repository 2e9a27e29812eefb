// Invoices, as the sandbox reads JSON invoice files, that more than one "to the books" test sends.

/** description, quantity, unit price, amount */
type Line = [string, number, number, number];

/** A confident (0.98) invoice file: its header, its subtotal, tax and total, and its lines. */
function confidentInvoice(
	header: { vendor: string; date: string; invoice_no: string },
	[subtotal, tax, total]: [number, number, number],
	lines: Line[],
) {
	return {
		header,
		amounts: { subtotal, tax, total },
		line_items: lines.map(([description, quantity, unit_price, amount]) => ({
			description,
			quantity,
			unit_price,
			amount,
		})),
		confidence: 0.98,
	};
}

/** Four lines (0.1 + 0.2, a zero line, a quantity of 2) with accents and an ampersand in the vendor. */
export const CAFE_INVOICE = confidentInvoice(
	{ vendor: 'Café Müller & Söhne GmbH', date: '2026-10-05', invoice_no: 'CM-7001' },
	[25.0, 4.75, 29.75],
	[
		['Espresso tasting', 1, 0.1, 0.1],
		['Milk foam', 1, 0.2, 0.2],
		['Free sample', 1, 0, 0],
		['Beans, 1 kg', 2, 12.35, 24.7],
	],
);

/** A confident invoice whose subtotal and tax do not add up to its total: WRONG_TOTAL_REASON. */
export const wrongTotalInvoice = (vendor: string, invoiceNo: string) =>
	confidentInvoice(
		{ vendor, date: '2026-10-07', invoice_no: invoiceNo },
		[100, 19, 120],
		[['Consulting', 1, 100, 100]],
	);

export const WRONG_TOTAL_REASON = 'Subtotal 100 + tax 19 does not equal the total 120';

/** A confident invoice of 2026-10-06 without tax: two lines, 0.1 + 0.2. */
export const untaxedInvoice = (vendor: string, invoiceNo: string) =>
	confidentInvoice(
		{ vendor, date: '2026-10-06', invoice_no: invoiceNo },
		[0.3, 0, 0.3],
		[
			['Stapler', 1, 0.1, 0.1],
			['Staples', 1, 0.2, 0.2],
		],
	);
