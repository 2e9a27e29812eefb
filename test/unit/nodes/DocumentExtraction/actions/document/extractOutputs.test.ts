/**
 * Extract's outputs (N9): the outputs expression as n8n evaluates it, generated from the same rule the
 * router counts with, and routing by status through n8n's engine.
 */
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	extractOutputNames,
	failedItemOutput,
	nodeOutputCount,
	outputIndex,
} from '../../../../../../nodes/DocumentExtraction/actions/document/extractOutputs.ts';
import {
	extractParameters,
	NEEDS_REVIEW,
	pdfItem,
	PROCESSING,
	useNodeHarness,
	VERIFIED,
} from '../../../../harness/fixtures.ts';
import { outputNames } from '../../../../harness/savedActionNode.ts';

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
