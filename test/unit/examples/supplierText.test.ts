/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// Supplier text shows as text in every example: in every email, Send and Wait message and form a
// template shows a person, each `{{ … }}` that reads the invoice (its summary, vendor, file name,
// lines, a reason…) is escaped with numeric references, or is HTML the package escaped, or is no
// supplier text at all (a number, a date, the template's own settings, n8n's resume link).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

import { invoiceSummary } from '../../../nodes/DocumentExtraction/invoice/invoiceSummary.ts';
import type { SimplifiedInvoice } from '../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import { ESCAPE, rawSupplierText, showsAPerson, type TemplateNode } from './supplierText.ts';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');
const examples = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.workflow.json'))
	.map((file) => ({
		file,
		nodes: (JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: TemplateNode[] })
			.nodes,
	}));

const VENDOR = '<a href="https://evil.example">Pay here</a> Ltd & "Sons"';
const escaped = (reading: string) => `{{ String(${reading} ?? '')${ESCAPE} }}`;

/** What n8n's Send and Wait does to its message before it sends (n8n-nodes-base 2.41.1). */
const sendAndWaitDecodes = (html: string) =>
	html.replace(
		/&amp;|&lt;|&gt;|&#39;|&quot;/g,
		(entity) =>
			({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&#39;': "'", '&quot;': '"' })[entity] as string,
	);

const settings: TemplateNode = {
	name: 'Settings',
	type: 'n8n-nodes-base.set',
	parameters: {
		assignments: {
			assignments: [
				{ name: 'approval_threshold', value: '1000' },
				{ name: 'approver_email', value: 'manager@example.com' },
				{ name: 'copied_summary', value: '={{ $json.summary }}' },
			],
		},
	},
};
/** An HTML email; its subject is a plain-text header, where the summary may stand as it is. */
const email = (name: string, html: string, subject = '=Invoice: {{ $json.summary }}') => ({
	name,
	type: 'n8n-nodes-base.emailSend',
	parameters: { toEmail: '={{ $json.vendor_email }}', subject, emailFormat: 'html', html },
});

/** A template that does it right: nothing to flag. */
const RIGHT: TemplateNode[] = [
	settings,
	email(
		'Escaped',
		`=<b>${escaped('$json.summary')}</b> ${escaped("$('Settings').first().binary?.file?.fileName")}` +
			// As a workflow JSON may also write the last step: `/\"/g`.
			`${escaped('$json.vendor').replace('/"/g', '/\\"/g')} {{ $json.lines_html }}` +
			" {{ String($json.lines_html ?? '').replace(/&lt;/g, '&#60;') }}" +
			" over {{ $('Settings').first().json.approval_threshold }}: {{ Number($json.total).toFixed(2) }}" +
			' {{ Number($json.total).toLocaleString() }} on {{ $now.toISO() }}',
	),
	{
		name: 'Ask',
		type: 'n8n-nodes-base.slack',
		parameters: {
			operation: 'sendAndWait',
			message: `=${escaped("$('Settings').first().json.summary")} {{ $json.summary_html }} {{ $json.lines_markdown }}`,
			options: { responseFormDescription: `=${escaped('$json.data?.Reason')}` },
		},
	},
	{
		name: 'Page',
		type: 'n8n-nodes-base.respondToWebhook',
		parameters: {
			respondWith: 'text',
			responseBody: '=<a href="{{ $execution.resumeUrl }}">Answer</a> {{ $(\'Ask\').isExecuted }}',
		},
	},
	// Not shown to a person: a Set node and a JSON answer may carry the raw text.
	{ name: 'Record', type: 'n8n-nodes-base.set', parameters: { value: '={{ $json.summary }}' } },
	{
		name: 'JSON answer',
		type: 'n8n-nodes-base.respondToWebhook',
		parameters: { respondWith: 'json', responseBody: '={{ $json.summary }}' },
	},
];

/** A template that does it wrong, one way per node. */
const WRONG: TemplateNode[] = [
	settings,
	email('Raw summary', '=<b>{{ $json.summary }}</b>'),
	email(
		'Named entities',
		"={{ String($json.vendor).replace(/&/g, '&amp;').replace(/</g, '&lt;') }}",
	),
	email(
		'Only the last part escaped',
		`={{ $json.vendor + ' ' + String($json.invoice_no)${ESCAPE} }}`,
	),
	email('Not a number', '={{ $json.total }} {{ $json.vendor.toLocaleString() }}'),
	email('A setting filled from the invoice', "={{ $('Settings').first().json.copied_summary }}"),
	{
		name: 'Send and Wait',
		type: 'n8n-nodes-base.microsoftTeams',
		parameters: { operation: 'sendAndWait', message: "=File {{ $binary.file.fileName ?? '' }}" },
	},
	{
		name: 'Form',
		type: 'n8n-nodes-base.form',
		parameters: { formDescription: '=Rejected: {{ $json.data.Reason }}' },
	},
	{
		name: 'Wait for a form',
		type: 'n8n-nodes-base.wait',
		parameters: {
			resume: 'form',
			formDescription: '={{ $input.item.json.line_items[0].description }}',
		},
	},
	{
		name: 'Page',
		type: 'n8n-nodes-base.respondToWebhook',
		parameters: {
			respondWith: 'text',
			responseBody: '=<p>{{ $json.lines_html.replace("<", "") }}</p>',
		},
	},
];

describe('supplier text shows as text in every email, Send and Wait message and form of the examples', () => {
	it('the rule passes escaped text, numbers and the template’s own values, and flags the rest', () => {
		expect(rawSupplierText(RIGHT)).toEqual([]);
		expect(rawSupplierText(WRONG).map(({ node, parameter }) => `${node} › ${parameter}`)).toEqual([
			'Raw summary › html',
			'Named entities › html',
			'Only the last part escaped › html',
			'Not a number › html',
			'Not a number › html',
			'A setting filled from the invoice › html',
			'Send and Wait › message',
			'Form › formDescription',
			'Wait for a form › formDescription',
			'Page › responseBody',
		]);
	});

	it('what passes stays text in the email, also after Send and Wait decodes named entities', () => {
		const shown = sendAndWaitDecodes(
			runInNewContext(`String(vendor)${ESCAPE}`, { vendor: VENDOR }) as string,
		);
		expect(shown).not.toMatch(/[<>"]/);
		expect(shown.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(+code))).toBe(
			VENDOR,
		);

		const invoice: SimplifiedInvoice = {
			vendor: VENDOR,
			invoice_no: '<b>INV-1</b>',
			invoice_date: '2026-11-02',
			currency: 'EUR',
			subtotal: 100,
			tax: 0,
			total: 100,
			line_items: [{ description: VENDOR, quantity: 1, unit_price: 100, amount: 100 }],
			checks: {
				subtotal_plus_tax_equals_total: true,
				line_items_sum_equals_subtotal: true,
				line_amounts_match: true,
				all_passed: true,
			},
		};
		const { summary_html, lines_html, lines_markdown } = invoiceSummary(invoice);
		expect(sendAndWaitDecodes(`${summary_html} ${lines_markdown}`)).not.toMatch(/[<>]/);
		expect(sendAndWaitDecodes(String(lines_html))).not.toMatch(/<(a|b)\b/);
	});

	it('every example shows supplier text as text', () => {
		const shown = examples.flatMap(({ file, nodes }) =>
			nodes.filter(showsAPerson).map((node) => `${file} › ${node.name}`),
		);
		// The approval templates: the invoice email and the Send and Wait forms of each (the two
		// email-to-books templates ask every policy step with one email and one form).
		expect(shown.length).toBeGreaterThanOrEqual(12);
		expect(
			examples.flatMap(({ file, nodes }) =>
				rawSupplierText(nodes).map(
					({ node, parameter, expression }) =>
						`${file} › ${node} › ${parameter}: {{ ${expression} }}`,
				),
			),
		).toEqual([]);
	});
});
