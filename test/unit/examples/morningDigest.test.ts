/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The morning digest template as a person imports it: every weekday at 08:00 it reads the same
// Data Table the two email-to-books templates write (its name and columns taken from them), turns
// the rows into the digest with the package's Register Digest (no Code node), and emails only when
// there is something to tell, remembering the digest's time only after the email went out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { REGISTER_STATES } from '../../../nodes/DocumentExtraction/register/registerDigest.ts';

interface TemplateNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { name: string }>;
}
interface Template {
	nodes: TemplateNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');
const read = (file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Template;
const digest = read('invoice-register-morning-digest.workflow.json');
const flagships = [
	read('invoices-email-to-xero-with-approval.workflow.json'),
	read('invoices-email-to-quickbooks-with-approval.workflow.json'),
];
const node = (template: Template, name: string) => {
	const found = template.nodes.find((entry) => entry.name === name);
	if (!found) throw new Error(`no node "${name}"`);
	return found;
};
const next = (name: string, output = 0) =>
	(digest.connections[name]?.main[output] ?? []).map((connection) => connection.node);

describe('invoice-register-morning-digest.workflow.json', () => {
	it('runs every weekday at 08:00', () => {
		expect(node(digest, 'Every weekday at 08:00')).toMatchObject({
			type: 'n8n-nodes-base.scheduleTrigger',
			parameters: {
				rule: { interval: [{ field: 'weeks', triggerAtDay: [1, 2, 3, 4, 5], triggerAtHour: 8 }] },
			},
		});
	});

	it('creates the register exactly as the email-to-books templates do, and reads all of it', () => {
		for (const flagship of flagships)
			expect(node(digest, 'Invoice register').parameters).toEqual(
				node(flagship, 'Invoice register').parameters,
			);
		expect(node(digest, 'Register rows').parameters).toMatchObject({
			operation: 'get',
			dataTableId: { value: 'Invoice register' },
			returnAll: true,
		});
	});

	it('reads the states the email-to-books templates write', () => {
		for (const flagship of flagships) {
			const written = JSON.stringify(flagship.nodes);
			expect(written).toContain(`"${REGISTER_STATES.received}"`);
			// Booked: written as it is, or decided by Register Entry (its states are the register's).
			expect(
				written.includes(`"${REGISTER_STATES.booked}"`) || written.includes('"registerEntry"'),
			).toBe(true);
			// Awaiting approval: the policy's step ("awaiting approval: step 1 of 2, …").
			expect(written).toContain('approval.register_state');
			// Who has the invoice, in the row's detail.
			expect(
				node(flagship, 'Register as awaiting approval').parameters.columns as {
					value: Record<string, string>;
				},
			).toMatchObject({ value: { detail: expect.stringContaining('Sent to ') } });
		}
	});

	it('wires Schedule → Settings → tables → rows → one item → Register Digest → send only when there is something', () => {
		const path = [
			'Every weekday at 08:00',
			'Settings',
			'Invoice register',
			'Invoice digests',
			'Last digest',
			'Register rows',
			'All rows in one item',
			'What needs a person',
			'Anything to tell?',
		];
		path.slice(0, -1).forEach((name, index) => expect(next(name), name).toEqual([path[index + 1]]));
		expect(node(digest, 'What needs a person')).toMatchObject({
			type: 'n8n-nodes-document-extraction.documentExtraction',
			parameters: { operation: 'registerDigest', registerRows: '={{ $json.rows }}' },
		});
		expect(node(digest, 'All rows in one item').parameters).toMatchObject({
			aggregate: 'aggregateAllItemData',
			destinationFieldName: 'rows',
		});
		expect(node(digest, 'Anything to tell?').parameters).toMatchObject({
			conditions: { conditions: [{ leftValue: '={{ $json.send }}' }] },
		});
		expect(next('Anything to tell?', 0)).toEqual(['Send the digest']);
		expect(next('Anything to tell?', 1)).toEqual([]);
		expect(next('Send the digest')).toEqual(['Remember this digest']);
		expect(digest.nodes.filter((entry) => entry.type === 'n8n-nodes-base.code')).toEqual([]);
	});

	it('remembers the time the digest was made, read back as the next Last Digest At', () => {
		expect(node(digest, 'Last digest')).toMatchObject({ alwaysOutputData: true });
		expect(node(digest, 'What needs a person').parameters.lastDigestAt).toBe(
			"={{ $('Last digest').first().json.sent_at ?? '' }}",
		);
		expect(node(digest, 'Remember this digest').parameters).toMatchObject({
			operation: 'upsert',
			dataTableId: { value: 'Invoice digests' },
			columns: {
				value: { sent_at: "={{ $('What needs a person').first().json.digest_at }}" },
			},
		});
	});

	it('emails the package-escaped HTML and the plain text with the SMTP credential the templates use', () => {
		const send = node(digest, 'Send the digest');
		expect(send.parameters).toMatchObject({
			emailFormat: 'both',
			text: '={{ $json.digest_text }}',
			html: expect.stringContaining('{{ $json.digest_html }}'),
		});
		expect(send.credentials?.smtp.name).toBe(
			node(flagships[0], 'Send invoice to approver').credentials?.smtp.name,
		);
	});
});
