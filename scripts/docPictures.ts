/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// `npm run doc-pictures` (`node scripts/docPictures.ts`): the pictures of docs/accounting.md's two
// Data Tables as a person sees them in n8n's editor (the project's Data tables → the table):
// docs/images/supplier-rules-table.png and docs/images/invoice-register-table.png.
// A throwaway n8n (N8N_VERSION, SQLite, no package installed; installed first if missing) gets both
// tables with the columns of the Xero approval template
// (examples/invoices-email-to-xero-with-approval.workflow.json: its "Supplier rules" and "Invoice
// register" nodes, read here, in their order) and the made-up rows below; headless Chromium signs in
// as the harness's owner, opens each table, fits its columns to their texts and saves the table's
// heading, grid and pager (not the sidebar). n8n stops at the end; its log stays in test/artifacts/.
// Needs Chromium (or Chrome), like `editor.browser.test.ts`. About half a minute.

import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
	DEFAULT_OWNER,
	REPO_ROOT,
	requirementPath,
	say,
	startStack,
	type N8nClient,
	type Stack,
} from '../local-n8n/index.ts';

const TEMPLATE = join(REPO_ROOT, 'examples', 'invoices-email-to-xero-with-approval.workflow.json');
const IMAGES = join(REPO_ROOT, 'docs', 'images');
/** The window a person has; each picture is then as wide as its table's columns. */
const VIEWPORT = { width: 1600, height: 900 };

interface Column {
	name: string;
	type: string;
}

/** The table name and columns of the template's Data Table → Create node `nodeName`. */
function tableOfTemplate(nodeName: string): { name: string; columns: Column[] } {
	const workflow = JSON.parse(readFileSync(TEMPLATE, 'utf8')) as {
		nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
	};
	const node = workflow.nodes.find((candidate) => candidate.name === nodeName);
	const parameters = node?.parameters as
		| { tableName?: string; columns?: { column?: Column[] } }
		| undefined;
	if (!parameters?.tableName || !parameters.columns?.column?.length)
		throw new Error(`${TEMPLATE} has no Data Table → Create node "${nodeName}" with columns`);
	return { name: parameters.tableName, columns: parameters.columns.column };
}

const APPROVER = 'Dana Whitfield <manager@example.com>';
// The escalation's address: the approver did not answer in time.
const FINANCE = 'Sam Okafor <finance-director@example.com>';
const BILL_ACME = '8f2c1a6e-4b7d-4c1e-9a53-2d6f0b7e91c4';
const BILL_GLOBEX = 'c71e93d0-58a2-4f6b-b0e4-9e1d27a4f8b3';
const SHA_ACME = '3b9f6c0e21d84a7f5c2e9b1d0a4f8e6c7d3b2a1908f7e6d5c4b3a29180f7e6d5';

/** One supplier per row, keyed as Check Invoice Duplicate writes `supplier_key`. */
const SUPPLIER_RULES: Array<Record<string, string>> = [
	{
		supplier_key: 'acme supplies',
		supplier: 'Acme Supplies GmbH',
		account_code: '461',
		tax_type: 'INPUT2',
	},
	{
		supplier_key: 'umbrella office',
		supplier: 'Umbrella Office Ltd.',
		account_code: '429',
		tax_type: 'INPUT2',
	},
	{
		supplier_key: 'initech',
		supplier: 'Initech GmbH',
		account_code: '489',
		tax_type: 'INPUT2',
	},
	// Learned: the approver chose "Consulting & Accounting" on the first Globex invoice's form.
	{
		supplier_key: 'globex',
		supplier: 'Globex Corporation',
		account_code: '412',
		tax_type: 'INPUT2',
	},
];

/** Files as an email-to-books template registers them, oldest first (`register_key`: the execution). */
const REGISTER: Array<Record<string, string>> = [
	{
		register_key: '118',
		books: 'Xero',
		file_name: 'acme-INV-2026-0042.pdf',
		document_id: 'doc_k3m9x2p7q4t8w1z5r6v0',
		supplier_key: 'acme supplies',
		supplier: 'Acme Supplies GmbH',
		invoice_no: 'INV-2026-0042',
		invoice_date: '2026-10-02',
		total: '1487.50',
		currency: 'EUR',
		state: 'booked',
		decided_by: APPROVER,
		decided_at: '2026-10-05T09:14:22.000Z',
		bill_id: BILL_ACME,
		detail: '',
		duplicate_of: '',
		content_sha256: SHA_ACME,
	},
	{
		register_key: '119',
		books: 'Xero',
		file_name: 'globex-GX-2026-311.pdf',
		document_id: 'doc_b7n2c8d4f1g6h3j9k0l5',
		supplier_key: 'globex',
		supplier: 'Globex Corporation',
		invoice_no: 'GX-2026-311',
		invoice_date: '2026-09-30',
		total: '1785.00',
		currency: 'EUR',
		state: 'booked',
		decided_by: APPROVER,
		decided_at: '2026-10-05T09:16:40.000Z',
		bill_id: BILL_GLOBEX,
		detail: '',
		duplicate_of: '',
		content_sha256: '9d4e2b7a1c6f3e8d0b5a2c9f7e4d1b8a6c3f0e9d2b7a4c1f8e5d3b0a9c6f2e71',
	},
	{
		register_key: '121',
		books: 'Xero',
		file_name: 'umbrella-UO-5531.pdf',
		document_id: 'doc_p4q8r1s5t9u2v6w0x3y7',
		supplier_key: 'umbrella office',
		supplier: 'Umbrella Office Ltd.',
		invoice_no: 'UO-5531',
		invoice_date: '2026-10-04',
		total: '2340.00',
		currency: 'GBP',
		state: 'rejected',
		decided_by: FINANCE,
		decided_at: '2026-10-06T14:02:51.000Z',
		bill_id: '',
		detail: 'Not ordered by us: the chairs went back',
		duplicate_of: '',
		content_sha256: '1f7c3a9e5b2d8f4a0c6e2b9d5f1a7c3e8b4d0f6a2c9e5b1d7f3a8c4e0b6d2f95',
	},
	{
		register_key: '124',
		books: 'Xero',
		file_name: 'acme-INV-2026-0042.pdf',
		document_id: '',
		supplier_key: '',
		supplier: '',
		invoice_no: '',
		invoice_date: '',
		total: '',
		currency: '',
		state: 'already submitted',
		decided_by: '',
		decided_at: '',
		bill_id: BILL_ACME,
		detail: `The same file was sent before: nothing uploaded, nothing booked; earlier: execution 118, booked, bill ${BILL_ACME}`,
		duplicate_of: '118',
		content_sha256: SHA_ACME,
	},
	{
		register_key: '125',
		books: 'Xero',
		file_name: 'scan-globex-invoice.png',
		document_id: 'doc_z8y3x6w1v5u0t4s9r2q7',
		supplier_key: 'globex',
		supplier: 'GLOBEX CORP.',
		invoice_no: 'GX-2026/311',
		invoice_date: '2026-09-30',
		total: '1785.00',
		currency: 'EUR',
		state: 'possible duplicate',
		decided_by: '',
		decided_at: '',
		bill_id: BILL_GLOBEX,
		detail: `Document doc_z8y3x6w1v5u0t4s9r2q7 looks like an invoice this workflow saw before (same vendor ("globex"), same invoice number ("GX 2026 311") and total 1785.00); check before paying it again. (earlier document doc_b7n2c8d4f1g6h3j9k0l5): not booked twice; earlier: execution 119, booked, bill ${BILL_GLOBEX}`,
		duplicate_of: '119',
		content_sha256: '6a0e4c8b2f7d1a5e9c3b7f0d4a8e2c6b1f5d9a3e7c0b4f8d2a6e1c5b9f3d7a04',
	},
	// Written so far: by Register as received, then Register as awaiting approval (no other column).
	{
		register_key: '127',
		books: 'Xero',
		file_name: 'initech-2026-1107.pdf',
		document_id: 'doc_e5f9g2h6j0k3l7m1n4p8',
		supplier: 'Initech GmbH',
		invoice_no: '2026-1107',
		invoice_date: '2026-10-07',
		total: '3120.00',
		currency: 'EUR',
		state: 'awaiting approval',
		detail: 'Sent to manager@example.com',
		content_sha256: '4c8a2e6f0b3d7a1c5e9f2b6d0a4c8e1f5b9d3a7c0e4f8b2d6a1c5e9f3b7d0a26',
	},
	// Written so far: by Register as received.
	{
		register_key: '128',
		books: 'Xero',
		file_name: 'umbrella-UO-5560.pdf',
		state: 'received',
		content_sha256: '0e6b2d8f4a1c7e3b9d5f0a6c2e8b4d1f7a3c9e5b0d6f2a8c4e1b7d3f9a5c0e68',
	},
];

/** Creates the Data Table in the owner's personal project with `columns` (the template's, in order). */
async function createTable(client: N8nClient, name: string, columns: Column[]): Promise<string> {
	const project = await client.call<{ id: string }>('GET', '/rest/projects/personal');
	const table = await client.call<{ id: string }>(
		'POST',
		`/rest/projects/${project.id}/data-tables`,
		{ name, columns: columns.map(({ name: column, type }) => ({ name: column, type })) },
	);
	return `/projects/${project.id}/datatables/${table.id}`;
}

/** Every row's columns are the template's, in its order (a column the row leaves out stays null). */
function checkRows(table: string, columns: Column[], rows: Array<Record<string, string>>): void {
	const names = columns.map((column) => column.name);
	for (const row of rows) {
		const keys = Object.keys(row);
		if (keys.join() !== names.filter((name) => keys.includes(name)).join())
			throw new Error(
				`a row for "${table}" has the columns ${keys.join(', ')}; the template has ${names.join(', ')}: update scripts/docPictures.ts`,
			);
	}
}

async function signIn(page: Page, stack: Stack): Promise<void> {
	await page.goto(`${stack.n8n.baseUrl}/signin`);
	await page.getByLabel(/email/i).first().fill(stack.owner.email);
	await page
		.getByLabel(/password/i)
		.first()
		.fill(stack.owner.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });
}

interface Picture {
	/** The editor's page of the table. */
	url: string;
	/** A cell text of the first row: the rows are shown. */
	firstCell: string;
	/** How many rows the pager must count. */
	rows: number;
	/** Widths (px) of columns whose texts are too long to show whole; the others fit their texts. */
	widths?: Record<string, number>;
	/** The last column in the picture (default: all, with n8n's createdAt and updatedAt). */
	lastColumn?: string;
	file: string;
}

/** The header cells of the grid: column name, ag-grid's column id, left and right edges (px). */
async function headerCells(
	page: Page,
): Promise<Array<{ name: string; id: string; left: number; right: number }>> {
	return await page.locator('.ag-header-cell').evaluateAll((cells) =>
		cells.map((cell) => {
			const box = cell.getBoundingClientRect();
			return {
				name: (cell as unknown as { innerText: string }).innerText.trim(),
				id: cell.getAttribute('col-id') ?? '',
				left: box.left,
				right: box.right,
			};
		}),
	);
}

/**
 * Opens the table's page and saves its heading, grid and pager to `file`. The columns are sized as
 * a person does it: a double click on a column's edge fits it to its texts, a drag narrows a long one.
 */
async function picture(
	page: Page,
	{ url, firstCell, rows, widths = {}, lastColumn, file }: Picture,
): Promise<void> {
	// Wide enough for every column to be drawn (the grid draws only the visible ones).
	await page.setViewportSize({ width: 6000, height: VIEWPORT.height });
	await page.goto(url);
	await page.locator('.ag-root-wrapper').first().waitFor({ state: 'visible', timeout: 60_000 });
	await page.getByText(firstCell, { exact: true }).first().waitFor({ timeout: 30_000 });
	const edge = (id: string) =>
		page.locator(`.ag-header-cell[col-id="${id}"] .ag-header-cell-resize:not(.ag-hidden)`).first();
	for (const cell of await headerCells(page)) {
		if ((await edge(cell.id).count()) === 0) continue;
		await page.locator(`.ag-header-cell[col-id="${cell.id}"]`).hover();
		await edge(cell.id).dblclick({ force: true });
	}
	for (const [name, width] of Object.entries(widths)) {
		const cell = (await headerCells(page)).find((candidate) => candidate.name === name);
		const box = cell && (await edge(cell.id).boundingBox());
		if (!cell || !box) throw new Error(`no column "${name}" to narrow on ${url}`);
		const x = box.x + box.width / 2;
		const y = box.y + box.height / 2;
		await page.mouse.move(x, y);
		await page.mouse.down();
		await page.mouse.move(x + width - (cell.right - cell.left), y, { steps: 10 });
		await page.mouse.up();
	}
	const cells = await headerCells(page);
	const last = lastColumn
		? cells.find((cell) => cell.name === lastColumn)
		: cells.find((cell) => cell.name === 'updatedAt');
	if (!last) throw new Error(`no column "${lastColumn ?? 'updatedAt'}" on ${url}`);
	const gridLeft = Math.min(...cells.map((cell) => cell.left));
	// The window as wide as the columns shown (the rest, if any, scroll), the sidebar left out.
	const width = Math.ceil(last.right) + (lastColumn ? 0 : 60);
	await page.setViewportSize({ width, height: VIEWPORT.height });
	await page.mouse.move(width - 1, VIEWPORT.height - 1);
	await page.waitForTimeout(500);
	// n8n's messages (none expected) would cover the grid.
	const toast = page.locator('.el-notification');
	if (await toast.count())
		throw new Error(`n8n shows a message on ${url}: ${await toast.first().innerText()}`);
	const pager = await page.getByText(`Total ${rows}`, { exact: true }).first().boundingBox();
	if (!pager) throw new Error(`the pager under the grid does not say "Total ${rows}" on ${url}`);
	await page.screenshot({
		path: file,
		clip: {
			x: gridLeft,
			y: 0,
			width: width - gridLeft,
			height: Math.ceil(pager.y + pager.height + 16),
		},
	});
	say(`${relative(REPO_ROOT, file)}: ${Math.round(statSync(file).size / 1024)} KB`);
}

async function main(): Promise<void> {
	const rules = tableOfTemplate('Supplier rules');
	const register = tableOfTemplate('Invoice register');
	checkRows(rules.name, rules.columns, SUPPLIER_RULES);
	checkRows(register.name, register.columns, REGISTER);
	mkdirSync(IMAGES, { recursive: true });

	let stack: Stack | undefined;
	let browser: Browser | undefined;
	try {
		stack = await startStack({ package: 'none', owner: DEFAULT_OWNER, n8nName: 'doc-pictures' });
		const { client } = stack;
		const rulesPage = await createTable(client, rules.name, rules.columns);
		await client.insertDataTableRows(rules.name, SUPPLIER_RULES);
		const registerPage = await createTable(client, register.name, register.columns);
		await client.insertDataTableRows(register.name, REGISTER);

		browser = await chromium.launch({
			executablePath: requirementPath('chromium', '`npm run doc-pictures`'),
			headless: true,
			args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
		});
		const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: VIEWPORT });
		const page = await context.newPage();
		page.setDefaultTimeout(30_000);
		await signIn(page, stack);
		await picture(page, {
			url: stack.n8n.baseUrl + rulesPage,
			firstCell: SUPPLIER_RULES[0].supplier_key,
			rows: SUPPLIER_RULES.length,
			file: join(IMAGES, 'supplier-rules-table.png'),
		});
		// 17 columns: the long texts (why, the file's hash) narrowed, n8n's own timestamps left out.
		await picture(page, {
			url: stack.n8n.baseUrl + registerPage,
			firstCell: REGISTER[0].file_name,
			rows: REGISTER.length,
			widths: { detail: 320, content_sha256: 160 },
			lastColumn: 'content_sha256',
			file: join(IMAGES, 'invoice-register-table.png'),
		});
	} finally {
		await browser?.close().catch(() => undefined);
		await stack?.stop();
	}
}

main().catch((error: Error) => {
	process.stderr.write(`doc-pictures failed: ${error.message}\n`);
	process.exitCode = 1;
});
