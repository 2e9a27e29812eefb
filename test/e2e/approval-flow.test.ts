// The approval example (examples/invoice-approval-by-manager.workflow.json) in a real n8n, with a
// real SMTP server (local-n8n/mail/, the `smtp-server` package) receiving what n8n's Email node
// sends. The test reads the emails as the approver would, follows the form link of n8n's Send and
// Wait for Response (signed by n8n), answers it, and checks where the execution ended: approved
// invoices reach the books once with who approved and when, rejected ones carry the reason and
// reach nothing, an unanswered one gets a reminder and then goes to the escalation address, and an
// invoice under the threshold sends no email at all. The unanswered one is sent first: its three
// limits end at n8n's wait tracker's looks, two to three minutes, while the other tests run.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	eventually,
	executedNodes,
	loadExampleWorkflows,
	nodeJson,
	waitForWorkflowWebhooks,
	withCredentialsByName,
	type Credential,
	type DecodedExecution,
} from '../../local-n8n/index.ts';
import { withSettings } from '../../local-n8n/accounting/index.ts';
import {
	createSmtpCredential,
	startMailServer,
	type MailMessage,
	type MailServer,
} from '../../local-n8n/mail/index.ts';
import { invoiceFile, sendToExample } from './support/laterInvoices.ts';
import { answerForm, formLink, mailAbout, openForm } from './support/approvalForms.ts';
import { sleep, useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const EXAMPLE = 'invoice-approval-by-manager.workflow.json';
const APPROVER = 'manager@example.test';
const ESCALATION = 'director@example.test';
const SETTINGS = {
	approver_email: APPROVER,
	escalation_email: ESCALATION,
	from_email: 'invoices@example.test',
};
/** n8n's wait tracker looks for executions whose wait has ended once a minute. */
const TIMEOUT_PATH_MS = 4 * 60_000;

const fixture = useN8nAndSandbox({ tier: 'pilot' });
let mail: MailServer;
let smtp: Credential;
const workflows: Record<'answered' | 'unanswered', { id: string; webhookPath: string }> = {
	answered: { id: '', webhookPath: '' },
	unanswered: { id: '', webhookPath: '' },
};

/**
 * Imports the example with its Settings overridden, under a name and webhook path of its own (so two
 * copies can be active side by side), activates it and waits for its webhook.
 */
async function importExample(copy: string, settings: Record<string, string>) {
	const example = loadExampleWorkflows().find(({ file }) => file === EXAMPLE);
	if (!example) throw new Error(`examples/${EXAMPLE} is missing`);
	const configured = withSettings(example.workflow, settings);
	const workflow = {
		...configured,
		name: `${configured.name} (${copy})`,
		nodes: configured.nodes.map((node) =>
			node.type === 'n8n-nodes-base.webhook'
				? {
						...node,
						webhookId: crypto.randomUUID(),
						parameters: { ...node.parameters, path: `invoice-approval-${copy}` },
					}
				: node,
		),
	};
	const client = fixture.stack.client;
	const created = await client.createWorkflow(
		withCredentialsByName(workflow, [fixture.credential, smtp]),
	);
	await client.activateWorkflow(created.id);
	await waitForWorkflowWebhooks(client, workflow);
	return { id: created.id, webhookPath: `invoice-approval-${copy}` };
}

/** The execution of `workflowId` that extracted the invoice `invoiceNo`, once `done` says so. */
async function executionOf(
	workflowId: string,
	invoiceNo: string,
	done: (execution: DecodedExecution) => boolean,
	timeoutMs = 60_000,
): Promise<DecodedExecution> {
	const client = fixture.stack.client;
	const found = await eventually(
		`the execution of ${invoiceNo}`,
		async () => {
			for (const summary of await client.listExecutions(workflowId, { limit: 20 })) {
				const execution = await client.getExecution(summary.id);
				if (nodeJson(execution, 'Extract invoice')[0]?.invoice_no === invoiceNo) return execution;
			}
			return undefined;
		},
		(execution) => execution !== undefined && done(execution),
		timeoutMs,
	);
	return found as DecodedExecution;
}

/** An invoice the sandbox verifies at once (confidence 0.99), with three lines. */
function invoiceAbove(invoiceNo: string) {
	return {
		...invoiceFile('Acme Supplies GmbH', invoiceNo, 1487.5, 0.99),
		amounts: { subtotal: 1250, tax: 237.5, total: 1487.5 },
		line_items: [
			{ description: 'Paper A4 <80 g>', quantity: 50, unit_price: 20, amount: 1000 },
			{ description: 'Toner', quantity: 2, unit_price: 100, amount: 200 },
			{ description: 'Delivery', quantity: 1, unit_price: 50, amount: 50 },
		],
	};
}

/**
 * Sends `invoiceAbove(invoiceNo)` as `fileName` to a copy of the example; the email that asks the
 * approver to approve or reject it.
 */
async function askApprover(
	copy: keyof typeof workflows,
	fileName: string,
	invoiceNo: string,
): Promise<MailMessage> {
	await sendToExample(fixture.stack.client, workflows[copy], fileName, invoiceAbove(invoiceNo));
	const [ask] = await mail.waitForMessages(mailAbout(invoiceNo, 'Approve or reject: ', APPROVER));
	return ask;
}

describe('Approval by a manager, in a real n8n with a real SMTP server', () => {
	beforeAll(async () => {
		mail = await startMailServer();
		smtp = await createSmtpCredential(fixture.stack.client, mail);
		workflows.answered = await importExample('answered', SETTINGS);
		// 0.05 minutes: every Send and Wait of this copy gives up at the wait tracker's next look.
		workflows.unanswered = await importExample('unanswered', {
			...SETTINGS,
			answer_within_minutes: '0.05',
		});
		await sendToExample(
			fixture.stack.client,
			workflows.unanswered,
			'silent.json',
			invoiceAbove('INV-SILENT-1'),
		);
	});

	afterAll(async () => {
		await mail?.stop();
	});

	it('an invoice at or under the threshold goes straight to the books, and no email is sent', async () => {
		const invoice = invoiceFile('Small Parts Ltd', 'INV-UNDER-1', 250, 0.99);
		await sendToExample(fixture.stack.client, workflows.answered, 'under.json', invoice);
		const execution = await executionOf(
			workflows.answered.id,
			'INV-UNDER-1',
			(e) => e.status === 'success',
		);
		expect(executedNodes(execution)).toContain('Books: under threshold');
		expect(executedNodes(execution)).not.toContain('Ask approver');
		const [booked] = nodeJson(execution, 'Books: under threshold');
		expect(booked).toMatchObject({
			invoice_no: 'INV-UNDER-1',
			approved_by: 'auto (under threshold)',
		});
		await sleep(fixture.settleMs);
		const aboutIt = (message: MailMessage) =>
			[message.subject, message.text, message.html, message.raw].some((part) =>
				part.includes('INV-UNDER-1'),
			);
		expect(mail.messages().filter(aboutIt)).toEqual([]);
	});

	it('above it, the approver gets the invoice and a form; approving books it once, with who and when', async () => {
		const sentAt = Date.now();
		const ask = await askApprover('answered', 'above.json', 'INV-APPROVE-1');
		const [details] = await mail.waitForMessages(
			mailAbout('INV-APPROVE-1', 'Invoice to approve: ', APPROVER),
		);
		expect(details.subject).toBe(
			'Invoice to approve: Acme Supplies GmbH, INV-APPROVE-1, 2026-10-12, 1,487.50, 3 lines',
		);
		expect(details.attachments).toEqual(['above.json']);
		// Numeric references: n8n's Send and Wait turns named ones back into markup (N43).
		expect(details.html).toContain('<td>Paper A4 &#x3C;80 g&#x3E;</td>');
		expect(details.html).toContain('<td align="right">1,000.00</td>');

		expect(ask.html).toContain('| Toner | 2 | 100.00 | 200.00 |');
		const waiting = await executionOf(
			workflows.answered.id,
			'INV-APPROVE-1',
			(e) => e.status === 'waiting',
		);
		expect(executedNodes(waiting)).not.toContain('Approved: to the books');

		const link = formLink(ask);
		const form = await openForm(fixture.stack.client, link);
		expect(form.status).toBe(200);
		expect(form.html).toContain('Decision');
		const answered = await answerForm(fixture.stack.client, link, 'Approve', '');
		expect(answered.status).toBe(200);
		expect(answered.html).toContain('Got it, thanks');

		const approved = await executionOf(
			workflows.answered.id,
			'INV-APPROVE-1',
			(e) => e.status === 'success',
		);
		expect(executedNodes(approved)).not.toContain('Rejected');
		const booked = nodeJson(approved, 'Approved: to the books');
		expect(booked).toHaveLength(1);
		expect(booked[0]).toMatchObject({
			invoice_no: 'INV-APPROVE-1',
			total: 1487.5,
			approved_by: APPROVER,
			summary: 'Acme Supplies GmbH, INV-APPROVE-1, 2026-10-12, 1,487.50, 3 lines',
		});
		const approvedAt = Date.parse(String(booked[0].approved_at));
		expect(approvedAt).toBeGreaterThanOrEqual(sentAt - 1000);
		expect(approvedAt).toBeLessThanOrEqual(Date.now());
		expect(booked[0].approval_note).toBe(`Approved by ${APPROVER} on ${booked[0].approved_at}`);

		// The same link again: n8n says no action is required, and nothing is booked a second time.
		const executionsBefore = await fixture.stack.client.listExecutions(workflows.answered.id);
		const again = await answerForm(fixture.stack.client, link, 'Reject', 'changed my mind');
		expect(again.status).toBe(200);
		expect(again.html).toContain('No action required');
		await sleep(fixture.settleMs);
		const after = await fixture.stack.client.getExecution(approved.id);
		expect(nodeJson(after, 'Approved: to the books')).toEqual(booked);
		expect(executedNodes(after)).not.toContain('Rejected');
		expect(await fixture.stack.client.listExecutions(workflows.answered.id)).toHaveLength(
			executionsBefore.length,
		);
	});

	it('rejecting with a reason carries the reason, and nothing reaches the books', async () => {
		const ask = await askApprover('answered', 'reject.json', 'INV-REJECT-1');
		await executionOf(workflows.answered.id, 'INV-REJECT-1', (e) => e.status === 'waiting');
		const reason = 'Toner was not ordered; ask Acme for a corrected invoice';
		expect((await answerForm(fixture.stack.client, formLink(ask), 'Reject', reason)).status).toBe(
			200,
		);

		const rejected = await executionOf(
			workflows.answered.id,
			'INV-REJECT-1',
			(e) => e.status === 'success',
		);
		expect(executedNodes(rejected)).not.toContain('Approved: to the books');
		expect(nodeJson(rejected, 'Rejected')).toEqual([
			expect.objectContaining({ reason, posted: false, rejected_by: APPROVER }),
		]);
	});

	it(
		'no answer: a reminder to the approver, then the invoice goes to the escalation address; nobody answers, nothing is booked',
		async () => {
			// Sent in beforeAll.
			const [ask] = await mail.waitForMessages(
				mailAbout('INV-SILENT-1', 'Approve or reject: ', APPROVER),
			);
			const [reminder] = await mail.waitForMessages(
				mailAbout('INV-SILENT-1', 'Reminder: approve or reject: ', APPROVER),
				1,
				TIMEOUT_PATH_MS / 2,
			);
			const [escalationDetails] = await mail.waitForMessages(
				mailAbout('INV-SILENT-1', 'Invoice to approve: ', ESCALATION),
				1,
				TIMEOUT_PATH_MS / 2,
			);
			const [escalation] = await mail.waitForMessages(
				mailAbout('INV-SILENT-1', 'Escalated: approve or reject: ', ESCALATION),
			);
			expect(Date.parse(reminder.receivedAt)).toBeGreaterThan(Date.parse(ask.receivedAt));
			expect(Date.parse(escalation.receivedAt)).toBeGreaterThan(Date.parse(reminder.receivedAt));
			expect(escalationDetails.attachments).toEqual(['silent.json']);
			// Each email has its own signed link: the reminder's is not the first one's.
			expect(formLink(reminder)).not.toBe(formLink(ask));

			const ended = await executionOf(
				workflows.unanswered.id,
				'INV-SILENT-1',
				(e) => e.status === 'success',
				TIMEOUT_PATH_MS / 2,
			);
			expect(executedNodes(ended)).toEqual(
				expect.arrayContaining(['Ask approver', 'Remind approver', 'Escalate', 'No decision']),
			);
			expect(executedNodes(ended)).not.toContain('Approved: to the books');
			expect(nodeJson(ended, 'No decision')[0]).toMatchObject({ posted: false });
		},
		TIMEOUT_PATH_MS * 1.5,
	);
});
