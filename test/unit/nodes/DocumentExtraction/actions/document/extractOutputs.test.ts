/**
 * Extract's outputs (N9, N47): the outputs expression as n8n evaluates it, generated from the same rule
 * the router counts with, for every version; from 1.3 no option moves another output; routing by
 * status through n8n's engine.
 */
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	checkDuplicateOutputNames,
	extractOutputNames,
	failedItemOutput,
	nodeOutputCount,
	outputIndex,
	outputSettingsFrom,
} from '../../../../../../nodes/DocumentExtraction/actions/document/extractOutputs.ts';
import {
	extractParameters,
	file,
	NEEDS_REVIEW,
	pdfBytes,
	pdfItem,
	PROCESSING,
	useNodeHarness,
	VERIFIED,
} from '../../../../harness/fixtures.ts';
import { outputNames, savedActionNode } from '../../../../harness/savedActionNode.ts';

/** The label n8n shows on an output whose option is off (from 1.3): nothing comes out there. */
const OPTION_OFF = 'Option Off';

const { harness, service } = useNodeHarness();

describe('Extract outputs: the expression n8n evaluates', () => {
	const outputNamesFor = (parameters: INodeParameters) =>
		outputNames(harness().nodeTypes, parameters);

	it.each([
		[{ resource: 'document', operation: 'extract' }, ['Verified', 'Needs Review']],
		[{}, ['Verified', 'Needs Review']],
		[
			{ resource: 'document', operation: 'extract', waitForReview: true },
			['Verified', 'Rejected', 'Timed Out'],
		],
		[
			{ resource: 'document', operation: 'extract', options: { skipDuplicates: true } },
			['Verified', 'Needs Review', 'Already Submitted'],
		],
		[
			{
				resource: 'document',
				operation: 'extract',
				waitForReview: true,
				options: { skipDuplicates: true },
			},
			['Verified', 'Rejected', 'Timed Out', 'Already Submitted'],
		],
		[{ resource: 'document', operation: 'getStatus' }, ['main']],
		[{ resource: 'webhook', operation: 'register' }, ['main']],
	])('%j -> %j', (parameters, expected) => {
		expect(outputNamesFor(parameters)).toEqual(expected);
		if (expected[0] !== 'main') {
			const options = (parameters as { options?: { skipDuplicates?: boolean } }).options;
			const settings = {
				waitForReview: (parameters as { waitForReview?: boolean }).waitForReview === true,
				skipDuplicates: options?.skipDuplicates === true,
			};
			expect(extractOutputNames(settings), 'the router counts the same outputs').toEqual(expected);
		}
	});
});

describe('Extract without waiting: routing by status', () => {
	it('verified -> Verified, needs_review and processing -> Needs Review, each paired with its input item', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...NEEDS_REVIEW, document_id: 'doc_a' } },
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_b' } },
			{ status: 200, body: { ...PROCESSING, document_id: 'doc_c' } },
		);
		const result = await harness().run({
			parameters: extractParameters(),
			items: [pdfItem(900, 1), pdfItem(900, 2), pdfItem(900, 3)],
		});
		const [verified, needsReview] = result.outputs();
		expect(result.outputs()).toHaveLength(2);
		expect(verified.map((item) => [item.json.document_id, item.pairedItem])).toEqual([
			['doc_b', { item: 1 }],
		]);
		expect(
			needsReview.map((item) => [item.json.document_id, item.json.status, item.pairedItem]),
		).toEqual([
			['doc_a', 'needs_review', { item: 0 }],
			['doc_c', 'processing', { item: 2 }],
		]);
	});
});

describe('Extract outputs: the rule', () => {
	const settings = [
		{ waitForReview: false, skipDuplicates: false },
		{ waitForReview: false, skipDuplicates: true },
		{ waitForReview: true, skipDuplicates: false },
		{ waitForReview: true, skipDuplicates: true },
	];

	it.each(settings)(
		'%j: a failed item goes to the output that needs a person, never Verified',
		(extract) => {
			const parameters = { resource: 'document', operation: 'extract', ...extract };
			const names = extractOutputNames(extract);
			expect(nodeOutputCount(parameters)).toBe(names.length);
			expect(names[failedItemOutput(parameters)]).toBe(
				extract.waitForReview ? 'Rejected' : 'Needs Review',
			);
			expect(failedItemOutput(parameters)).not.toBe(outputIndex(extract, 'verified'));
		},
	);

	it.each(settings)(
		'%j: Already Submitted is last when the guard is on, absent otherwise',
		(extract) => {
			const index = outputIndex(extract, 'alreadySubmitted');
			expect(index).toBe(extract.skipDuplicates ? extractOutputNames(extract).length - 1 : -1);
		},
	);

	it.each([
		['document', 'getStatus'],
		['webhook', 'register'],
	])('%s > %s: one output, which also takes failed items', (resource, operation) => {
		const parameters = { resource, operation, waitForReview: true, skipDuplicates: true };
		expect(nodeOutputCount(parameters)).toBe(1);
		expect(failedItemOutput(parameters)).toBe(0);
	});
});

/** The options that add an output, as a person turns them on in the editor. */
const OPTIONS: Record<string, (parameters: INodeParameters) => INodeParameters> = {
	'Skip Files Already Submitted': (parameters) => ({
		...parameters,
		options: { ...(parameters.options as object), skipDuplicates: true },
	}),
	'Detect Same Invoice': (parameters) => ({
		...parameters,
		options: { ...(parameters.options as object), detectSameInvoice: true },
	}),
	'Input Binary Field attachment_*': (parameters) => ({
		...parameters,
		binaryPropertyName: 'attachment_*',
	}),
	'Hold Invoices Not Ready to Post': (parameters) => ({ ...parameters, holdNotReady: true }),
};

/** Every set of options (as names), each as the node's parameters, with and without waiting. */
function everyOptionSet(): Array<{ on: string[]; parameters: INodeParameters }> {
	const names = Object.keys(OPTIONS);
	const sets: Array<{ on: string[]; parameters: INodeParameters }> = [];
	for (const waitForReview of [false, true])
		for (let mask = 0; mask < 1 << names.length; mask++) {
			const on = names.filter((_, bit) => (mask & (1 << bit)) !== 0);
			const parameters = on.reduce((built, name) => OPTIONS[name](built), {
				resource: 'document',
				operation: 'extract',
				binaryPropertyName: 'data',
				holdNotReady: false,
				waitForReview,
			} as INodeParameters);
			sets.push({ on: waitForReview ? ['Wait for Review', ...on] : on, parameters });
		}
	return sets;
}

describe('Extract outputs from version 1.3: every output keeps its place (N47)', () => {
	const namesAt13 = (parameters: INodeParameters) =>
		outputNames(harness().nodeTypes, parameters, 1.3);

	it('the reported case: Detect Same Invoice turned on beside Skipped Files leaves Skipped Files where it was', () => {
		const intake = { ...extractParameters(), binaryPropertyName: 'attachment_*' };
		const before = namesAt13(intake);
		const after = namesAt13(OPTIONS['Detect Same Invoice'](intake));
		expect(before).toEqual(['Verified', 'Needs Review', OPTION_OFF, OPTION_OFF, 'Skipped Files']);
		expect(after).toEqual([
			'Verified',
			'Needs Review',
			OPTION_OFF,
			'Same Invoice',
			'Skipped Files',
		]);
	});

	it.each(everyOptionSet())(
		"$on: turning any other option on or off changes only that option's place",
		({ parameters }) => {
			const before = namesAt13(parameters);
			for (const [name, turnOn] of Object.entries(OPTIONS)) {
				const after = namesAt13(turnOn(parameters));
				const common = Math.min(before.length, after.length);
				const moved = before
					.slice(0, common)
					.map((label, index) => [index, label, after[index]] as const)
					.filter(([, was, is]) => was !== is);
				// At most one place changes (the option's own: unused <-> its output); every other
				// output that was there is still at its index.
				expect(moved.length, `${name}: ${JSON.stringify(moved)}`).toBeLessThanOrEqual(1);
				for (const [, was, is] of moved) expect([was, is], name).toContain(OPTION_OFF);
			}
		},
	);

	it.each(everyOptionSet())(
		'$on: the router counts and routes to the outputs n8n shows; labels fit the canvas',
		({ parameters }) => {
			const { saved } = savedActionNode(harness().nodeTypes, parameters, 1.3);
			const settings = outputSettingsFrom((name, fallback) => saved.parameters[name] ?? fallback);
			const names = namesAt13(parameters);
			expect(extractOutputNames(settings)).toEqual(names);
			for (const label of names) expect(label.length, label).toBeLessThanOrEqual(15);
			expect(
				names[failedItemOutput({ resource: 'document', operation: 'extract', ...settings })],
			).toBe(settings.waitForReview ? 'Rejected' : 'Needs Review');
			expect(names).not.toContain(undefined);
			if (names.length > 2) expect(names.at(-1)).not.toBe(OPTION_OFF);
		},
	);

	it('Judge Books Answer: one output per verdict of its Answer To, failures to a person', () => {
		const judge = { resource: 'document', operation: 'judgeBooksAnswer' };
		expect(namesAt13(judge)).toEqual(['New', 'Already Booked', 'A Person Decides']);
		expect(namesAt13({ ...judge, answerTo: 'create' })).toEqual([
			'Created',
			'A Person Decides',
			'Account Refused',
			'Books Refused',
		]);
		expect(namesAt13({ ...judge, answerTo: 'vendor' })).toEqual([
			'Found',
			'Missing',
			'A Person Decides',
		]);
		const settings = { waitForReview: false, skipDuplicates: false };
		expect(failedItemOutput({ ...judge, ...settings, answerTo: 'lookup' })).toBe(2);
		expect(failedItemOutput({ ...judge, ...settings, answerTo: 'create' })).toBe(1);
		expect(failedItemOutput({ ...judge, ...settings, answerTo: 'vendor' })).toBe(2);
		expect(nodeOutputCount({ ...judge, ...settings, answerTo: 'create' })).toBe(4);
		const prepare = { resource: 'document', operation: 'prepareAttachment' };
		expect(namesAt13(prepare)).toEqual(['Attach', 'Nothing To Attach']);
		expect(failedItemOutput({ ...prepare, ...settings })).toBe(1);
		const account = { resource: 'document', operation: 'billAccount' };
		expect(namesAt13(account)).toEqual(['Bill', 'New Rule']);
		expect(failedItemOutput({ ...account, ...settings })).toBe(0);
	});

	it('Check Invoice Duplicate and Build Bill: the same outputs, with short labels', () => {
		expect(
			namesAt13({ resource: 'document', operation: 'checkInvoiceDuplicate', holdNotReady: true }),
		).toEqual(['New Invoice', 'Same Invoice', 'Not Ready']);
		expect(
			namesAt13({ resource: 'document', operation: 'checkInvoiceDuplicate', holdNotReady: false }),
		).toEqual(['New Invoice', 'Same Invoice']);
		expect(namesAt13({ resource: 'document', operation: 'buildBill' })).toEqual([
			'Bill',
			'Cannot Book',
		]);
		expect(
			checkDuplicateOutputNames({
				waitForReview: false,
				skipDuplicates: false,
				holdNotReady: true,
				layout: 'fixedPlaces',
			}),
		).toEqual(['New Invoice', 'Same Invoice', 'Not Ready']);
	});

	it('a skipped file comes out at its place, after the unused places of the options that are off', async () => {
		const result = await harness().run({
			parameters: extractParameters({ binaryPropertyName: 'attachment_*' }),
			items: [
				{
					json: {},
					binary: { attachment_0: file(Buffer.alloc(2048, 1), 'logo.png', 'image/png') },
				},
			],
			typeVersion: 1.3,
		});
		const outputs = result.outputs();
		expect(outputs).toHaveLength(5);
		expect(outputs.map((items) => items.map((item) => item.json.file_name))).toEqual([
			[],
			[],
			[],
			[],
			['logo.png'],
		]);
		expect(service().requestsTo('/v1/extract')).toEqual([]);
	});

	it('with Detect Same Invoice on too, the same invoice twice: the second at Same Invoice, the skipped file still last', async () => {
		service().on(
			'POST',
			'/v1/extract',
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_first' } },
			{ status: 200, body: { ...VERIFIED, document_id: 'doc_second' } },
		);
		const result = await harness().run({
			parameters: extractParameters({
				binaryPropertyName: 'attachment_*',
				options: { detectSameInvoice: true },
			}),
			items: [
				{
					json: {},
					binary: {
						attachment_0: file(pdfBytes(3000, 71), 'a.pdf'),
						attachment_1: file(pdfBytes(3000, 72), 'b.pdf'),
						attachment_2: file(Buffer.alloc(2048, 1), 'logo.png', 'image/png'),
					},
				},
			],
			typeVersion: 1.3,
		});
		expect(result.outputs().map((items) => items.map((item) => item.json.file_name))).toEqual([
			['a.pdf'],
			[],
			[],
			['b.pdf'],
			['logo.png'],
		]);
	});
});

describe('Extract outputs of versions 1 to 1.2: as their saved workflows were connected', () => {
	it.each([1, 1.1, 1.2])('version %s', (typeVersion) => {
		const names = (parameters: INodeParameters) =>
			outputNames(harness().nodeTypes, { holdNotReady: false, ...parameters }, typeVersion);
		const intake = { ...extractParameters(), binaryPropertyName: 'attachment_*' };
		expect(names(intake)).toEqual(['Verified', 'Needs Review', 'Skipped Files']);
		expect(names({ ...intake, options: { detectSameInvoice: true } })).toEqual([
			'Verified',
			'Needs Review',
			'Possible Duplicate',
			'Skipped Files',
		]);
		expect(
			names({ ...intake, options: { detectSameInvoice: true, skipDuplicates: true } }),
		).toEqual([
			'Verified',
			'Needs Review',
			'Already Submitted',
			'Possible Duplicate',
			'Skipped Files',
		]);
		expect(
			names({
				...extractParameters(),
				waitForReview: true,
				holdNotReady: true,
				options: { skipDuplicates: true },
			}),
		).toEqual(['Verified', 'Rejected', 'Timed Out', 'Already Submitted', 'Not Ready to Post']);
		expect(
			names({ resource: 'document', operation: 'checkInvoiceDuplicate', holdNotReady: true }),
		).toEqual(['New Invoice', 'Possible Duplicate', 'Not Ready to Post']);
		expect(names({ resource: 'document', operation: 'buildBill' })).toEqual([
			'Bill',
			'Cannot Be Booked',
		]);
	});
});
