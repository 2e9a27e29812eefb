/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The two whole templates, "Invoices from email to Xero / QuickBooks, with approval", as a person
// imports them: nothing to copy or connect (every output of the package's nodes wired where its name
// says, read from the package's own output rules at the node's version), one execution per
// attachment (the workflow starts itself for each file and does not wait), no fixed webhook id that
// a second import would clash with, one Settings node, and the decision carried to the bill.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import {
	checkDuplicateOutputIndex,
	outputIndex,
	outputSettingsFrom,
	type ExtractOutput,
} from '../../../nodes/DocumentExtraction/actions/document/extractOutputs.ts';

interface TemplateNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
	webhookId?: string;
	credentials?: Record<string, { name: string }>;
	onError?: string;
}
interface Connection {
	node: string;
	index: number;
}
interface Template {
	name: string;
	nodes: TemplateNode[];
	connections: Record<string, { main: Connection[][] }>;
	settings: Record<string, unknown>;
}

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');
const TEMPLATES = [
	{
		file: 'invoices-email-to-xero-with-approval.workflow.json',
		name: 'Invoices from email to Xero, with approval',
		books: 'xeroOAuth2Api',
		build: 'Build Xero bill',
		// Every write after the first keyed by the row it made: n8n's Retry keeps one row per file.
		laterKey: "={{ $('Register as received').first().json.register_key }}",
		// The outcomes the approval ends in without a bill.
		notApproved: ['Outcome'],
		// Every way an invoice ends goes to one node, Register Entry, that decides the register's row.
		outcome: 'Outcome',
		// One question per supplier: the claim is read, then the invoice goes on; the wait reads the
		// rule again, then asks again whether the account is known.
		claimed: ['Claim the question', 'First to ask?'],
		waited: ['Supplier rule', 'Account known?'],
		// A supplier without a rule claims the question at once: while another execution asks, the
		// claim is not the first, so it is withdrawn and the invoice waits.
		unknown: ['Claim the question', 'First to ask?'],
		// Approved with an account to choose (asked first), and approved.
		approvedOutputs: 2,
		// Build Bill's decision, read from the approval on the item (Bill Account computes none).
		decision: {
			decidedBy: "={{ $json.approval.decided_by ?? 'no approval needed' }}",
			decidedAt: '={{ $json.approval.decided_at ?? $now.toISO() }}',
			note: '={{ $json.approval.note }}',
		},
		// The node that starts each file's execution, and how.
		starter: { from: 'One at a time', mode: 'once' },
	},
	{
		file: 'invoices-email-to-quickbooks-with-approval.workflow.json',
		name: 'Invoices from email to QuickBooks, with approval',
		books: 'quickBooksOAuth2Api',
		build: 'Build QuickBooks bill',
		laterKey: "={{ $('Register as received').first().json.register_key }}",
		notApproved: ['Outcome'],
		outcome: 'Outcome',
		// The branch placed higher runs first: the claim (or the rule read again), then the invoice.
		claimed: ['Claim the question', 'First to ask?'],
		waited: ['Supplier rule', 'Account known?'],
		// A supplier without a rule claims the question at once: while another execution asks, the
		// claim is not the first, so it is withdrawn and the invoice waits.
		unknown: ['Claim the question', 'First to ask?'],
		// Approved with an account to choose (asked first), and approved.
		approvedOutputs: 2,
		// Build Bill's decision, read from the approval on the item (Bill Account computes none).
		decision: {
			decidedBy: "={{ $json.approval.steps ? $json.approval.decided_by : 'under the threshold' }}",
			decidedAt: '={{ $json.approval.decided_at ?? $now.toISO() }}',
			note: '={{ $json.approval.note }}',
		},
		starter: { from: 'One at a time', mode: 'once' },
	},
].map((entry) => ({
	...entry,
	workflow: JSON.parse(readFileSync(join(EXAMPLES, entry.file), 'utf8')) as Template,
}));

const description = new DocumentExtraction().description as INodeTypeDescription;

/** The node's parameters as n8n holds them at its version: defaults filled in. */
function withDefaults(node: TemplateNode): INodeParameters {
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node as never,
			description,
		) ?? {}
	);
}

const node = (template: Template, name: string) => {
	const found = template.nodes.find((entry) => entry.name === name);
	if (!found) throw new Error(`no node "${name}" in "${template.name}"`);
	return found;
};

/** Where the node is, down the canvas: n8n runs the branch placed higher first. */
const heightOf = (template: Template, name: string) =>
	(node(template, name) as unknown as { position: number[] }).position[1];

/** The nodes each output of `name` leads to, by output index. */
const targets = (template: Template, name: string) =>
	(template.connections[name]?.main ?? []).map((connections) =>
		connections.map((connection) => connection.node),
	);

/** The nodes reachable from `start` along connections. */
function reachable(template: Template, start: string): Set<string> {
	const seen = new Set<string>([start]);
	const queue = [start];
	while (queue.length > 0) {
		for (const next of targets(template, queue.shift() as string).flat())
			if (!seen.has(next)) {
				seen.add(next);
				queue.push(next);
			}
	}
	return seen;
}

describe.each(TEMPLATES)('$name', ({ workflow, books, build, laterKey, notApproved }) => {
	const { outcome, claimed, waited, unknown, approvedOutputs } = TEMPLATES.find(
		(entry) => entry.workflow === workflow,
	)!;
	/** Where an invoice that ends at `name` (a Set node of its own) goes: the template's one outcome node. */
	const end = (name: string) => outcome ?? name;
	it('is named for what it does, and every connection leads to a node of the template', () => {
		expect(workflow.name).toBe(TEMPLATES.find((entry) => entry.workflow === workflow)?.name);
		const names = new Set(workflow.nodes.map((entry) => entry.name));
		expect(names.size).toBe(workflow.nodes.length);
		for (const [source, { main }] of Object.entries(workflow.connections)) {
			expect(names.has(source), source).toBe(true);
			for (const connection of main.flat())
				expect(names.has(connection.node), connection.node).toBe(true);
		}
	});

	it('holds no fixed webhook id: a second import next to the first does not clash', () => {
		expect(workflow.nodes.filter((entry) => entry.webhookId).map((entry) => entry.name)).toEqual(
			[],
		);
	});

	it('asks for one Settings node and four credentials: mailbox, Document Extraction, SMTP and the books', () => {
		expect(workflow.nodes.filter((entry) => entry.name === 'Settings')).toHaveLength(1);
		const types = new Set(workflow.nodes.flatMap((entry) => Object.keys(entry.credentials ?? {})));
		expect([...types].sort()).toEqual(['documentExtractionApi', 'imap', books, 'smtp'].sort());
	});

	it('names every Settings value in its Set up note, and every node that needs the books credential', () => {
		const setUp = String(node(workflow, 'Sticky: set up').parameters.content);
		const settings = (
			node(workflow, 'Settings').parameters.assignments as {
				assignments: Array<{ name: string }>;
			}
		).assignments.map(({ name }) => name);
		expect(settings.filter((name) => !setUp.includes(`\`${name}\``))).toEqual([]);
		const booksNodes = workflow.nodes
			.filter((entry) => books in (entry.credentials ?? {}))
			.map((entry) => entry.name);
		expect(booksNodes.filter((name) => !setUp.includes(`**${name}**`))).toEqual([]);
	});

	it('asks about a new supplier once: the newest of its rows decides, the first open question asks, the others wait for the rule (docs/accounting.md#one-question-per-supplier)', () => {
		// Newest first: the rule, or a question in flight, before a question that never ended.
		expect(node(workflow, 'Supplier rule').parameters).toMatchObject({
			limit: 1,
			orderBy: true,
			orderByColumn: 'id',
			orderByDirection: 'DESC',
		});
		expect(targets(workflow, 'Account known?')[1]).toEqual(unknown);
		if (unknown.includes('Question open?'))
			expect(targets(workflow, 'Question open?')).toEqual([['Wait for the answer'], claimed]);
		else expect(unknown).toEqual(claimed);
		expect(targets(workflow, 'First to ask?')[1]).toEqual([
			'Withdraw my question',
			'Wait for the answer',
		]);
		expect(targets(workflow, 'Wait for the answer')).toEqual([waited]);
		expect(targets(workflow, 'Register the invoice')).toEqual([['Close the question']]);
	});

	it('starts one execution of itself per attachment, without waiting for it', () => {
		expect(targets(workflow, 'Email Trigger (IMAP)')).toEqual([['One item per attachment']]);
		expect(node(workflow, 'One item per attachment').parameters).toMatchObject({
			fieldToSplitOut: '$binary',
			include: 'allOtherFields',
		});
		const { starter } = TEMPLATES.find((entry) => entry.workflow === workflow)!;
		expect(targets(workflow, starter.from).at(-1)).toEqual(['Start its own execution']);
		const start = node(workflow, 'Start its own execution');
		expect(start.parameters).toMatchObject({
			source: 'database',
			workflowId: { value: '={{ $workflow.id }}' },
			mode: starter.mode,
			options: { waitForSubWorkflow: false },
		});
		expect(node(workflow, 'Each attachment').type).toBe('n8n-nodes-base.executeWorkflowTrigger');
		const perAttachment = reachable(workflow, 'Each attachment');
		// Everything but the email's own nodes, the failure's and the sticky notes runs in the
		// attachment's execution.
		const rest = workflow.nodes.filter(
			(entry) => !perAttachment.has(entry.name) && entry.type !== 'n8n-nodes-base.stickyNote',
		);
		expect(rest.map((entry) => entry.name).sort()).toEqual(
			[
				'Email Trigger (IMAP)',
				'One at a time',
				'One item per attachment',
				'Start its own execution',
				'When this workflow fails',
				'Register the failure',
			]
				.filter((name) => workflow.nodes.some((entry) => entry.name === name))
				.sort(),
		);
	});

	it("wires every output of Extract and of the same-invoice guard where its name says, at the node's version", () => {
		const extract = node(workflow, 'Extract invoice');
		const parameters = withDefaults(extract);
		expect(parameters).toMatchObject({
			binaryPropertyName: 'attachment_*',
			waitForReview: true,
			holdNotReady: true,
			options: { skipDuplicates: true },
		});
		const settings = outputSettingsFrom((name, fallback) => parameters[name] ?? fallback);
		const expected: Record<ExtractOutput, string> = {
			verified: 'Same invoice?',
			rejected: end('Rejected in review'),
			timedOut: end('Review not finished'),
			alreadySubmitted: 'Earlier file',
			notReady: end('Not ready to post'),
			skippedFiles: end('Not an invoice'),
			needsReview: '',
			possibleDuplicate: '',
		};
		const wired = targets(workflow, 'Extract invoice');
		for (const [output, target] of Object.entries(expected)) {
			const index = outputIndex(settings, output as ExtractOutput);
			if (!target) {
				expect(index, output).toBe(-1);
				continue;
			}
			expect(wired[index], output).toEqual([target]);
		}
		const guard = withDefaults(node(workflow, 'Same invoice?'));
		const guardSettings = outputSettingsFrom((name, fallback) => guard[name] ?? fallback);
		const guarded = targets(workflow, 'Same invoice?');
		expect(guarded[checkDuplicateOutputIndex(guardSettings, 'newInvoice')]).toEqual([
			'Register as read',
			'Settings',
		]);
		expect(guarded[checkDuplicateOutputIndex(guardSettings, 'possibleDuplicate')]).toEqual([
			'Earlier invoice',
		]);
		// A repeat names the register's earlier row: looked up, then its outcome.
		expect(targets(workflow, 'Earlier invoice')).toEqual([[end('Possible duplicate')]]);
		expect(targets(workflow, 'Earlier file')).toEqual([[end('Already submitted')]]);
		expect(guarded[checkDuplicateOutputIndex(guardSettings, 'notReady')]).toEqual([
			end('Not ready to post'),
		]);
	});

	it('asks step by step as the policy says: each answer back to Next approval step, the approved ones on to the bill', () => {
		expect(node(workflow, 'Next approval step').parameters).toMatchObject({
			operation: 'nextApprovalStep',
			policyRows: "={{ $('Policy rows').all().map(item => item.json) }}",
			previousStep:
				"={{ $('Next approval step').isExecuted ? $('Next approval step').last().json.approval : {} }}",
		});
		expect(node(workflow, 'Policy rows')).toMatchObject({ alwaysOutputData: true });
		expect(targets(workflow, 'Next approval step')).toEqual([['Approval route']]);
		const [ask, again, ...rest] = targets(workflow, 'Approval route');
		const approved = rest.slice(0, approvedOutputs);
		const ended = rest.slice(approvedOutputs);
		// Asked: the invoice's email first (Xero's takes the file from Settings on the way).
		expect(ask.flatMap((next) => [next, ...targets(workflow, next).flat()])).toContain(
			'Send invoice to approver',
		);
		expect(again).toContain('Ask approver');
		expect(targets(workflow, 'Send invoice to approver')).toEqual([
			['Register as awaiting approval'],
		]);
		expect(targets(workflow, 'Register as awaiting approval')).toEqual([['Ask approver']]);
		expect(reachable(workflow, 'Ask approver').has('Next approval step')).toBe(true);
		for (const targetsOfOutput of approved)
			expect(targetsOfOutput.some((next) => reachable(workflow, next).has(build))).toBe(true);
		expect(ended.flat().sort()).toEqual([...notApproved].sort());
		for (const end of notApproved) expect(reachable(workflow, end).has(build), end).toBe(false);
	});

	it('asks who decides in every form (and, for a supplier without a rule, the account), so the bill says who and not only to whom it was sent', () => {
		const formFields = (name: string, accountsRead: boolean) => {
			const { defineForm, jsonOutput } = node(workflow, name).parameters;
			expect(defineForm, name).toBe('json');
			// The form as n8n builds it when the page is opened: its expression run on a known state.
			const accounts = [{ Name: 'Rent', Code: '469', Id: '3' }];
			const $ = (nodeName: string) => ({
				isExecuted: accountsRead && nodeName.startsWith('Accounts in'),
				first: () => ({ json: { Accounts: accounts, QueryResponse: { Account: accounts } } }),
				// The approval loop's first step, where the account is asked.
				last: () => ({ json: { approval: { step: 1 } } }),
			});
			const body = String(jsonOutput).replace(/^=\{\{([\s\S]*)\}\}$/, '$1');
			return runInNewContext(`(${body})`, { $ }) as Array<Record<string, unknown>>;
		};
		for (const name of ['Ask approver']) {
			const fields = formFields(name, false);
			expect(
				fields.map((field) => field.fieldLabel),
				name,
			).toEqual(['Decision', 'Reason', 'Your name']);
			expect(fields[2].requiredField, name).toBe(true);
			// The account comes last, so the answer's first fields keep their places.
			expect(formFields(name, true).at(-1), name).toMatchObject({
				fieldLabel: 'Account',
				fieldType: 'dropdown',
				fieldOptions: { values: [{ option: 'Rent' }] },
				requiredField: true,
			});
		}
		expect(formFields('Ask for the account', true).map((field) => field.fieldLabel)).toEqual([
			'Account',
			'Your name',
		]);
		// Who decided, for the bill: the policy's decider as Next approval step recorded them.
		const assignments = (
			node(workflow, 'Account for the bill').parameters.assignments as
				| { assignments: Array<{ name: string; value: string }> }
				| undefined
		)?.assignments;
		const decided =
			assignments?.find((assignment) => assignment.name === 'decided_by')?.value ??
			(node(workflow, build).parameters.approval as { decidedBy: string }).decidedBy;
		expect(decided).toContain('approval');
	});

	it('gives Build Bill the decision and the original, and every outcome reaches the execution and the invoice register', () => {
		const { decision } = TEMPLATES.find((entry) => entry.workflow === workflow)!;
		expect(node(workflow, build).parameters).toMatchObject({
			approval: decision,
			originalFileField: 'data',
		});
		for (const ended of new Set(
			[
				'Booked',
				...notApproved,
				'Cannot be booked',
				'Rejected in review',
				'Review not finished',
				'Already submitted',
				'Not ready to post',
				'Not an invoice',
				'Possible duplicate',
				'Already in the books',
				'A person decides',
			].map(end),
		))
			expect(targets(workflow, ended), ended).toEqual([['Register the invoice']]);
		// Register Entry saves the outcome as the execution's custom data too (its default).
		expect(node(workflow, 'Outcome').parameters.recordOnExecution).not.toBe(false);
		// The register's row: the table made when missing as the file arrives, its row "received"
		// at once and upserted by its key as the invoice moves on.
		expect(node(workflow, 'Invoice register').parameters).toMatchObject({
			resource: 'table',
			operation: 'create',
			tableName: 'Invoice register',
			options: { createIfNotExists: true },
		});
		// Executions of one email end at once: the loser of the race to make a table retries and finds it.
		for (const name of ['Invoice register', 'Supplier rules'])
			expect(node(workflow, name), name).toMatchObject({ retryOnFail: true, maxTries: 3 });
		expect(targets(workflow, 'Each attachment')).toEqual([['File fingerprint', 'Extract invoice']]);
		expect(targets(workflow, 'File fingerprint')).toEqual([['Invoice register']]);
		expect(targets(workflow, 'Invoice register')).toEqual([['Register as received']]);
		for (const [name, key] of [
			['Register as received', '={{ $execution.id }}'],
			['Register as awaiting approval', laterKey],
			['Register the invoice', laterKey],
			['Register as read', laterKey],
		])
			expect(node(workflow, name).parameters, name).toMatchObject({
				operation: 'upsert',
				dataTableId: { mode: 'name', value: 'Invoice register' },
				filters: { conditions: [{ keyName: 'register_key', condition: 'eq', keyValue: key }] },
				columns: { value: { register_key: key } },
			});
		// n8n runs the branch placed higher first: the row is written before Extract (docs:
		// "executionOrder v1"); in the approval loop it is written between the email and the form.
		const y = (name: string) =>
			(node(workflow, name) as unknown as { position: number[] }).position[1];
		expect(y('File fingerprint')).toBeLessThan(y('Extract invoice'));
	});

	it('writes the invoice on its row once read, and the row as failed when any later step fails (its own Error Trigger)', () => {
		// Read: supplier, number and total on the row before any call to the books or the approver.
		const [read] = targets(workflow, 'Same invoice?');
		expect(read[0]).toBe('Register as read');
		expect(heightOf(workflow, 'Register as read')).toBeLessThan(heightOf(workflow, 'Settings'));
		const { value: known } = node(workflow, 'Register as read').parameters.columns as {
			value: Record<string, string>;
		};
		expect(Object.keys(known).sort()).toEqual(
			[
				'register_key',
				'books',
				'document_id',
				'supplier_key',
				'number_key',
				'supplier',
				'invoice_no',
				'invoice_date',
				'total',
				'currency',
			].sort(),
		);
		// A workflow holding an Error Trigger is its own error workflow, unless its settings name
		// another: none is named, so nothing is to be set after the import.
		expect(workflow.settings?.errorWorkflow).toBeUndefined();
		const [trigger] = workflow.nodes.filter(
			(entry) => entry.type === 'n8n-nodes-base.errorTrigger',
		);
		expect(targets(workflow, trigger.name)).toEqual([['Register the failure']]);
		// The row of the execution that received the file: a retry keeps that execution's key, and
		// an execution without a row (the email's) updates none.
		expect(node(workflow, 'Register the failure').parameters).toMatchObject({
			operation: 'update',
			dataTableId: { mode: 'name', value: 'Invoice register' },
			filters: {
				conditions: [
					{
						keyName: 'register_key',
						condition: 'eq',
						keyValue: '={{ $json.execution.retryOf ?? $json.execution.id }}',
					},
				],
			},
			columns: {
				value: {
					state: 'failed',
					detail: expect.stringContaining(
						"$json.execution.lastNodeExecuted + ': ' + $json.execution.error.message",
					),
				},
			},
		});
	});
});

describe("the Xero template: the books' answers judged by the package, a register that tells the truth", () => {
	const workflow = TEMPLATES.find((entry) => entry.build === 'Build Xero bill')!.workflow;

	it('judges the lookup and the create with Judge Books Answer and routes on its verdict', () => {
		expect(node(workflow, 'Judge the lookup').parameters).toEqual({
			resource: 'document',
			operation: 'judgeBooksAnswer',
			answerTo: 'lookup',
			bill: "={{ $('Build Xero bill').first().json }}",
			booksAnswer: '={{ $json }}',
		});
		// The create's error item too: an account Xero refused is judged, not failed.
		expect(node(workflow, 'Judge the new bill').parameters).toMatchObject({
			answerTo: 'create',
			bill: expect.stringContaining("...$('Build Xero bill').first().json, error: $json.error"),
			booksAnswer: '={{ $json }}',
		});
		for (const call of ['Find bill in Xero', 'Find bill in Xero, last try'])
			expect(targets(workflow, call)[0], call).toEqual(['Judge the lookup']);
		for (const call of ['Create bill in Xero', 'Create bill in Xero, last try'])
			expect(targets(workflow, call)[0], call).toEqual(['Judge the new bill']);
		// Each verdict has its own output: no Switch repeats what the judge decided.
		expect(targets(workflow, 'Judge the lookup')).toEqual([
			['Create bill in Xero'],
			['Outcome'],
			['Outcome'],
		]);
		// Not created: an account Xero refused asks again (once), another refusal is a failure.
		expect(targets(workflow, 'Judge the new bill')).toEqual([
			['Record decision in Xero'],
			['Outcome'],
			['Record the refusal', 'Next approval step'],
			['Create bill in Xero, last try'],
		]);
		expect(targets(workflow, 'Record the refusal')).toEqual([['Accounts in Xero']]);
	});

	it("asks the account again when Xero refuses the rule's account, once, and writes the refusal on the rule", () => {
		expect(targets(workflow, 'Xero refused').at(-2)).toEqual(['Judge the new bill']);
		// Once: refused again after the refusal was recorded, a person decides.
		expect(node(workflow, 'Judge the new bill').parameters.accountAskedAgain).toBe(
			"={{ $('Record the refusal').isExecuted }}",
		);
		const { value } = node(workflow, 'Record the refusal').parameters.columns as {
			value: Record<string, string>;
		};
		expect(value).toMatchObject({ account_code: '', refused: '={{ $json.review_reason }}' });
		const made = node(workflow, 'Supplier rules').parameters.columns as {
			column: Array<{ name: string }>;
		};
		expect(made.column.map((column) => column.name)).toContain('refused');
		// Approved after the refusal: the account is asked again, whatever was chosen before.
		const route = (
			node(workflow, 'Approval route').parameters.rules as {
				values: Array<{
					outputKey: string;
					conditions: { conditions: Array<{ leftValue: string }> };
				}>;
			}
		).values;
		const account = route.find((rule) => rule.outputKey === 'account');
		expect(route.indexOf(account!)).toBeLessThan(
			route.findIndex((rule) => rule.outputKey === 'approved'),
		);
		expect(account?.conditions.conditions[0].leftValue).toContain(
			"$('Record the refusal').isExecuted",
		);
	});

	it('tries a refused lookup or bill a last time, where the execution fails if Xero refuses again', () => {
		// One Switch for every refusal: a lookup refused otherwise than by a 429 is its fallback.
		expect(targets(workflow, 'Xero refused').at(-1)).toEqual(['Find bill in Xero, last try']);
		expect(targets(workflow, 'Judge the new bill')[3]).toEqual(['Create bill in Xero, last try']);
		for (const call of ['Find bill in Xero, last try', 'Create bill in Xero, last try'])
			expect(node(workflow, call).onError, call).toBeUndefined();
	});

	it('writes the file name from the trigger and looks up only Xero rows other than its own', () => {
		const fileName =
			"={{ Object.values($('Each attachment').first().binary ?? {})[0]?.fileName ?? '' }}";
		for (const name of ['Register as received', 'Register the invoice'])
			expect(
				(node(workflow, name).parameters.columns as { value: Record<string, string> }).value
					.file_name,
				name,
			).toBe(fileName);
		const key = "={{ $('Register as received').first().json.register_key }}";
		for (const [name, columns] of [
			['Earlier file', ['content_sha256', 'books', 'register_key']],
			['Earlier invoice', ['supplier_key', 'number_key', 'books', 'register_key']],
		] as const) {
			const { conditions } = node(workflow, name).parameters.filters as {
				conditions: Array<{ keyName: string; condition: string; keyValue: string }>;
			};
			expect(
				conditions.map((condition) => condition.keyName),
				name,
			).toEqual(columns);
			expect(conditions.find((condition) => condition.keyName === 'books')?.keyValue).toBe('Xero');
			expect(conditions.at(-1)).toEqual({
				keyName: 'register_key',
				condition: 'neq',
				keyValue: key,
			});
		}
	});
});

describe('the Xero template: approval as the policy, one form at a time', () => {
	const workflow = TEMPLATES.find((entry) => entry.build === 'Build Xero bill')!.workflow;

	it('reads the Approval policy table first, every row, empty or not', () => {
		expect(node(workflow, 'Approval policy').parameters).toMatchObject({
			resource: 'table',
			operation: 'create',
			tableName: 'Approval policy',
			options: { createIfNotExists: true },
		});
		expect(node(workflow, 'Policy rows')).toMatchObject({
			alwaysOutputData: true,
			parameters: { operation: 'get', returnAll: true },
		});
		expect(targets(workflow, 'Approval policy')).toEqual([['Policy rows']]);
		// n8n runs the branch placed higher first: the policy is read before the approval starts.
		const y = (name: string) =>
			(node(workflow, name) as unknown as { position: number[] }).position[1];
		expect(y('Approval policy')).toBeLessThan(y('Supplier rules'));
		expect(targets(workflow, 'Settings')[0]).toContain('Approval policy');
		// The rule too, before the invoice goes on to Account known?.
		expect(y('Supplier rules')).toBeLessThan(y('Account known?'));
		expect(targets(workflow, 'Settings')[0]).toContain('Account known?');
	});

	it('loops Next approval step → Approval route → the form → back, and books only what it approved', () => {
		expect(node(workflow, 'Next approval step').parameters).toMatchObject({
			operation: 'nextApprovalStep',
			policyRows: "={{ $('Policy rows').all().map(item => item.json) }}",
			previousStep:
				"={{ $('Next approval step').isExecuted ? $('Next approval step').last().json.approval : {} }}",
			answer: "={{ $('Ask approver').isExecuted ? $('Ask approver').last().json.data ?? {} : {} }}",
		});
		// The invoice goes on from Settings whatever the item coming back, with the account chosen in
		// the first step's form: Next approval step consumes the answer.
		expect(node(workflow, 'Next approval step').parameters.invoice).toBe(
			"={{ { ...$('Settings').first().json, chosen_account: $json.data?.Account || ($('Next approval step').isExecuted ? $('Next approval step').last().json.chosen_account : '') } }}",
		);
		expect(targets(workflow, 'Next approval step')).toEqual([['Approval route']]);
		// An account to choose: Ask for the account, placed higher, runs first; Account for the bill
		// goes on once it is answered (n8n's execution order v1) and reads the answer by name.
		expect(targets(workflow, 'Approval route')).toEqual([
			['Send invoice to approver'],
			['Ask approver'],
			['Ask for the account', 'Account for the bill'],
			['Account for the bill'],
			['Outcome'],
		]);
		expect(targets(workflow, 'Ask for the account')).toEqual([]);
		const y = (name: string) =>
			(node(workflow, name) as unknown as { position: number[] }).position[1];
		expect(y('Ask for the account')).toBeLessThan(y('Account for the bill'));
		// Every step's email carries the original: the item coming back holds none, so Settings' file.
		expect(node(workflow, 'Next approval step').parameters.originalFile).toBe(
			"={{ $('Settings').first().binary.data }}",
		);
		expect(node(workflow, 'Send invoice to approver').parameters.options).toMatchObject({
			fileAttachments: 'data',
		});
		expect(targets(workflow, 'Send invoice to approver')).toEqual([
			['Register as awaiting approval'],
		]);
		expect(targets(workflow, 'Register as awaiting approval')).toEqual([['Ask approver']]);
		expect(targets(workflow, 'Ask approver')).toEqual([['Next approval step']]);
		expect(node(workflow, 'Ask approver').parameters.options).toMatchObject({
			limitWaitTime: {
				values: {
					limitType: 'atSpecifiedTime',
					maxDateAndTime: "={{ $('Next approval step').last().json.approval.wait_until }}",
				},
			},
		});
		expect(
			(
				node(workflow, 'Register as awaiting approval').parameters.columns as {
					value: Record<string, string>;
				}
			).value.state,
		).toBe("={{ $('Next approval step').last().json.approval.register_state }}");
		expect(reachable(workflow, 'Account for the bill').has('Build Xero bill')).toBe(true);
		expect(reachable(workflow, 'Outcome').has('Build Xero bill')).toBe(false);
	});
});

describe('the Xero template: supplier rules per organisation', () => {
	const workflow = TEMPLATES.find((entry) => entry.build === 'Build Xero bill')!.workflow;
	const tenant = "={{ $('Settings').first().json.xero_tenant_id }}";

	it('keeps, finds, claims and writes a rule within the Xero tenant of Settings', () => {
		expect(
			(node(workflow, 'Supplier rules').parameters.columns as { column: Array<{ name: string }> })
				.column[0],
		).toEqual({ name: 'organisation', type: 'string' });
		for (const name of ['Supplier rule', 'Open questions', 'Remember the rule'])
			expect(
				(node(workflow, name).parameters.filters as { conditions: unknown[] }).conditions[0],
				name,
			).toEqual({ keyName: 'organisation', condition: 'eq', keyValue: tenant });
		for (const name of ['Claim the question', 'Remember the rule'])
			expect(
				(node(workflow, name).parameters.columns as { value: Record<string, string> }).value
					.organisation,
				name,
			).toBe(tenant);
	});
});

describe("the QuickBooks template: the books' answers judged by the package, the account to the bill", () => {
	const workflow = TEMPLATES.find((entry) => entry.build === 'Build QuickBooks bill')!.workflow;

	it('judges the vendor, the lookup and the create with Judge Books Answer and routes on each verdict', () => {
		expect(node(workflow, 'Judge the vendor').parameters).toEqual({
			resource: 'document',
			operation: 'judgeBooksAnswer',
			answerTo: 'vendor',
			bill: "={{ $('Build QuickBooks bill').first().json }}",
			booksAnswer: '={{ $json }}',
			// A vendor still missing after its create was asked goes to a person, never round again.
			vendorCreateAsked: "={{ $('Create vendor').isExecuted }}",
		});
		expect(targets(workflow, 'Find vendor')).toEqual([['Judge the vendor']]);
		expect(targets(workflow, 'Judge the vendor')).toEqual([
			['Find bill in QuickBooks'],
			['Create vendor'],
			['Outcome'],
		]);
		// The vendor created is judged as one found; a create refused (another execution made the
		// vendor) looks it up again.
		expect(targets(workflow, 'Create vendor')).toEqual([['Judge the vendor'], ['Find vendor']]);
		// Every call and judge names the vendor the judge found.
		const vendorIds = workflow.nodes
			.map((entry) => JSON.stringify(entry.parameters))
			.filter((parameters) => parameters.includes('vendor_id'));
		expect(vendorIds.length).toBeGreaterThanOrEqual(4);
		for (const parameters of vendorIds)
			expect(parameters).toContain("$('Judge the vendor').first(0).json.vendor_id");
		// A lookup QuickBooks refuses on every try fails the execution there: a retry asks again.
		expect(targets(workflow, 'Find bill in QuickBooks')).toEqual([['Judge the lookup']]);
		expect(node(workflow, 'Find bill in QuickBooks').onError).toBeUndefined();
		expect(targets(workflow, 'Judge the lookup')).toEqual([
			['Create bill in QuickBooks'],
			['Outcome'],
			['Outcome'],
		]);
		for (const call of ['Create bill in QuickBooks', 'Create bill in QuickBooks, last try'])
			for (const output of targets(workflow, call))
				expect(output, call).toEqual(['Judge the new bill']);
		// Created, A Person Decides, Account Refused (the refusal on the rule, then the approval and
		// the account again: once), Books Refused (the last try, where the execution fails).
		expect(node(workflow, 'Judge the new bill').parameters).toMatchObject({
			answerTo: 'create',
			accountAskedAgain: "={{ $('Record the refusal').isExecuted }}",
		});
		const [created, person, accountRefused, booksRefused] = targets(workflow, 'Judge the new bill');
		expect(created).toHaveLength(1);
		expect(person).toEqual(['Outcome']);
		expect(accountRefused).toEqual(['Record the refusal', 'Next approval step']);
		expect(booksRefused).toEqual(['Create bill in QuickBooks, last try']);
		expect(node(workflow, 'Create bill in QuickBooks, last try').onError).toBeUndefined();
		expect(targets(workflow, 'Record the refusal')).toEqual([['Accounts in QuickBooks']]);
	});

	it('asks for the account on the approval route, and takes the one chosen in the approval form to the bill', () => {
		const [, , askAccount, approved] = targets(workflow, 'Approval route');
		expect(askAccount).toEqual(['Ask for the account']);
		expect(targets(workflow, 'Ask for the account')).toEqual([['Account for the bill']]);
		expect(approved).toEqual(['Account for the bill']);
		const rules = (
			node(workflow, 'Approval route').parameters.rules as {
				values: Array<{
					outputKey: string;
					conditions: { conditions: Array<{ leftValue: string }> };
				}>;
			}
		).values;
		expect(rules[2].outputKey).toBe('ask account');
		expect(rules[2].conditions.conditions[0].leftValue).toContain('!$json.chosen_account');
		expect(rules[2].conditions.conditions[0].leftValue).toContain(
			"$('Record the refusal').isExecuted",
		);
		// Next approval step consumes the form's answer: the account chosen at the first step rides
		// on its invoice, with the original for the next step's email.
		expect(node(workflow, 'Next approval step').parameters).toMatchObject({
			invoice: expect.stringContaining('chosen_account: $json.data?.Account'),
			originalFile: "={{ $('Settings').first().binary.data }}",
		});
		expect(targets(workflow, 'Ask approver')).toEqual([['Next approval step']]);
		// The account decided in the package: the rule unless refused, the choice, the Settings'.
		expect(node(workflow, 'Account for the bill').parameters).toMatchObject({
			operation: 'billAccount',
			books: 'quickBooks',
			invoice: "={{ $('Next approval step').last().json }}",
			rule: "={{ $('Supplier rule').first().json }}",
			ruleRefused: "={{ $('Record the refusal').isExecuted }}",
			chosen: expect.stringContaining("$('Ask for the account').last().json.data?.Account"),
			defaultAccount: "={{ $('Settings').first().json.quickbooks_expense_account_id }}",
			originalFile: "={{ $('Settings').first().binary.data }}",
		});
		expect(String(node(workflow, 'Account for the bill').parameters.chosen)).toContain(
			'$json.chosen_account',
		);
		expect(targets(workflow, 'Account for the bill')).toEqual([
			['Read home currency', 'Build QuickBooks bill'],
			['Remember the rule'],
		]);
	});
});
