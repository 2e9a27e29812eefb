// The morning digest template (examples/invoice-register-morning-digest.workflow.json) in a real n8n
// with a real SMTP server (local-n8n/mail/): an Invoice register Data Table with a row in each state
// the digest reads, the Schedule Trigger run on demand as the editor's "Execute workflow" runs it,
// and the email read as its reader gets it: the sections, the totals per currency, supplier markup
// as text. Then "since the last digest": the next run lists only what was booked after it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	executedNodes,
	loadExampleWorkflows,
	log,
	nodeJson,
	withCredentialsByName,
	type Credential,
} from '../../local-n8n/index.ts';
import { withSettings } from '../../local-n8n/accounting/index.ts';
import {
	createSmtpCredential,
	startMailServer,
	type MailMessage,
	type MailServer,
} from '../../local-n8n/mail/index.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const EXAMPLE = 'invoice-register-morning-digest.workflow.json';
const TRIGGER = 'Every weekday at 08:00';
const READER = 'accounts@example.test';
const MARKUP = '<script>x</script> & "Co"';
/** The register's columns, as the email-to-books templates create it. */
const REGISTER_COLUMNS = [
	'register_key',
	'books',
	'file_name',
	'document_id',
	'supplier_key',
	'supplier',
	'invoice_no',
	'invoice_date',
	'total',
	'currency',
	'state',
	'decided_by',
	'decided_at',
	'bill_id',
	'detail',
	'duplicate_of',
	'content_sha256',
];

const fixture = useN8nAndSandbox({ tier: null });
let mail: MailServer;
let smtp: Credential;
let workflowId = '';

const row = (fields: Record<string, string>) => ({ books: 'Xero', detail: '', ...fields });

/** Runs the template from its Schedule Trigger; the finished execution. */
async function runDigest() {
	const client = fixture.stack.client;
	const id = await client.runWorkflowManually(workflowId, TRIGGER);
	const execution = await client.waitForExecution(id, { timeoutMs: 60_000 });
	expect(execution.status, JSON.stringify(execution.data.resultData?.error ?? {})).toBe('success');
	return execution;
}

async function nextDigest(count: number): Promise<MailMessage> {
	const messages = await mail.waitForMessages(
		(message) => message.to.includes(READER),
		count,
		30_000,
	);
	return messages[count - 1];
}

describe('Morning digest of the invoice register in a real n8n', () => {
	beforeAll(async () => {
		mail = await startMailServer();
		const client = fixture.stack.client;
		smtp = await createSmtpCredential(client, mail);
		await client.createDataTable(
			'Invoice register',
			REGISTER_COLUMNS.map((name) => ({ name, type: 'string' as const })),
		);
		const example = loadExampleWorkflows().find(({ file }) => file === EXAMPLE);
		if (!example) throw new Error(`examples/${EXAMPLE} is missing`);
		// Thresholds of 0 hours: every row awaiting approval or received counts as waiting too long
		// (the band's edges are unit-tested with a clock: test/unit/nodes/…/registerDigest.test.ts).
		const workflow = withSettings(example.workflow, {
			digest_email: READER,
			from_email: 'invoices@example.test',
			awaiting_approval_hours: '0',
			unfinished_hours: '0',
		});
		workflowId = (await client.createWorkflow(withCredentialsByName(workflow, [smtp]))).id;
	});

	afterAll(async () => {
		await mail?.stop();
	});

	it('an empty register sends nothing and remembers no digest', async () => {
		const execution = await runDigest();
		const ran = executedNodes(execution);
		expect(ran).toContain('Register rows');
		expect(ran).not.toContain('Send the digest');
		expect(await fixture.stack.client.dataTableRows('Invoice digests')).toEqual([]);
		expect(mail.messages()).toEqual([]);
	});

	it('emails what needs a person and what was booked, totals per currency, supplier markup as text', async () => {
		const client = fixture.stack.client;
		await client.insertDataTableRows('Invoice register', [
			row({
				register_key: '11',
				state: 'awaiting approval',
				supplier: 'Approve Me GmbH',
				invoice_no: 'A-1',
				total: '2500',
				currency: 'EUR',
				detail: 'Sent to manager@example.test',
			}),
			row({
				register_key: '12',
				state: 'failed',
				supplier: MARKUP,
				invoice_no: 'F-1',
				total: '10',
				currency: 'EUR',
				detail: 'Xero answered 503: <b>try later</b>',
			}),
			row({ register_key: '13', state: 'received', file_name: 'scan-13.pdf' }),
			row({
				register_key: '14',
				state: 'booked',
				supplier: MARKUP,
				invoice_no: 'B-1',
				total: '0.1',
				currency: 'EUR',
				bill_id: 'bill-14',
			}),
			row({
				register_key: '15',
				state: 'booked',
				supplier: 'Two Ltd',
				invoice_no: 'B-2',
				total: '0.2',
				currency: 'EUR',
				bill_id: 'bill-15',
			}),
			row({
				register_key: '16',
				state: 'booked',
				books: 'QuickBooks',
				supplier: 'Dollar Inc',
				invoice_no: 'B-3',
				total: '1487.5',
				currency: 'USD',
				bill_id: '77',
			}),
			row({
				register_key: '17',
				state: 'rejected',
				supplier: 'Nobody Needs Me',
				total: '5',
				currency: 'EUR',
			}),
		]);
		const execution = await runDigest();
		expect(executedNodes(execution)).toContain('Remember this digest');
		const digest = nodeJson(execution, 'What needs a person')[0] as {
			counts: Record<string, number>;
			digest_at: string;
		};
		expect(digest.counts).toEqual({ awaiting_approval: 1, failed: 1, unfinished: 1, booked: 3 });

		const email = await nextDigest(1);
		log('digest', `email: ${email.subject}`);
		expect(email.subject).toBe(
			'Invoice register: 1 awaiting approval, 1 failed, 1 not finished, 3 booked',
		);
		expect(email.html).toContain('Awaiting approval (1)');
		expect(email.html).toContain(
			'Approve Me GmbH, A-1, EUR 2,500.00 (Xero): waiting 0 h, Sent to manager@example.test',
		);
		expect(email.html).toContain('Failed (1)');
		expect(email.html).toContain('Received, not finished (1)');
		expect(email.html).toContain('scan-13.pdf (Xero): received 0 h ago');
		expect(email.html).toContain('Booked in total:</b> EUR 0.30 (2), USD 1,487.50 (1)');
		expect(email.html).not.toContain('Nobody Needs Me');
		// Markup from the register arrives as text: escaped in the HTML, as it is in the text part.
		expect(email.html).not.toMatch(/<script|<b>try later/);
		expect(email.html).toContain('&#x3C;script&#x3E;x&#x3C;/script&#x3E; &#x26; &#x22;Co&#x22;');
		expect(email.html).toContain('Xero answered 503: &#x3C;b&#x3E;try later&#x3C;/b&#x3E;');
		expect(email.text).toContain(`${MARKUP}, B-1, EUR 0.10 (Xero): bill bill-14`);
		expect(email.text).toContain('Booked in total: EUR 0.30 (2), USD 1,487.50 (1)');

		expect(await client.dataTableRows('Invoice digests')).toEqual([
			expect.objectContaining({ digest: 'morning', sent_at: digest.digest_at }),
		]);
	});

	it('the next digest lists only what was booked since the last one', async () => {
		const client = fixture.stack.client;
		const [before] = await client.dataTableRows('Invoice digests');
		await client.insertDataTableRows('Invoice register', [
			row({
				register_key: '18',
				state: 'booked',
				supplier: 'Pound Ltd',
				invoice_no: 'B-4',
				total: '99.99',
				currency: 'GBP',
				bill_id: 'bill-18',
			}),
		]);
		const [added] = (await client.dataTableRows('Invoice register')).filter(
			(entry) => entry.register_key === '18',
		);
		log(
			'digest',
			`last digest at ${String(before.sent_at)}, row 18 written at ${String(added.updatedAt)}`,
		);
		await runDigest();
		const email = await nextDigest(2);
		expect(email.subject).toBe(
			'Invoice register: 1 awaiting approval, 1 failed, 1 not finished, 1 booked',
		);
		expect(email.html).toContain(`Booked since ${String(before.sent_at)} (1)`);
		expect(email.html).toContain('Pound Ltd, B-4, GBP 99.99 (Xero): bill bill-18');
		expect(email.html).toContain('Booked in total:</b> GBP 99.99 (1)');
		expect(email.html).not.toMatch(/B-1|B-2|B-3|USD/);
	});
});
