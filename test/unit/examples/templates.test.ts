/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The examples are n8n templates a no-code team imports: no Code node (Build Bill, Merge and Set do
// what the Code nodes did), sticky notes that say what to set, and this package's nodes at their
// newest versions (older versions keep older defaults, e.g. invoices not held when not ready). How
// their canvas reads (notes whole, nodes apart, left to right in sections): canvas.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionTrigger } from '../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	retryOnFail?: boolean;
	position: [number, number];
}

type NamedValues = { parameters: Array<{ name: string; value: string }> } | undefined;

const examples = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.workflow.json'))
	.map((file) => ({
		file,
		nodes: (JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: ExampleNode[] })
			.nodes,
	}));

const newest = (version: number | number[]) => Math.max(...[version].flat());
const NEWEST: Record<string, number> = {
	'n8n-nodes-document-extraction.documentExtraction': newest(
		new DocumentExtraction().description.version,
	),
	'n8n-nodes-document-extraction.documentExtractionTool': newest(
		new DocumentExtraction().description.version,
	),
	'n8n-nodes-document-extraction.documentExtractionTrigger': newest(
		new DocumentExtractionTrigger().description.version,
	),
};

describe('the examples as n8n templates', () => {
	it('there are examples to check', () => {
		expect(examples.length).toBeGreaterThanOrEqual(7);
	});

	it.each(examples)('$file has no Code node', ({ nodes }) => {
		expect(
			nodes.filter((node) => node.type === 'n8n-nodes-base.code').map((node) => node.name),
		).toEqual([]);
	});

	it.each(examples)('$file has a sticky note that says what to set', ({ nodes }) => {
		const notes = nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
		expect(notes.length).toBeGreaterThan(0);
		expect(
			notes.some((note) =>
				/set up/i.test(
					String((note as unknown as { parameters: { content: string } }).parameters.content),
				),
			),
		).toBe(true);
	});

	it('compares the absolute total with the approval threshold: a credit note of -1,428.00 is approved too', () => {
		const comparisons = examples.flatMap(({ file, nodes }) =>
			nodes
				.filter((node) => node.type === 'n8n-nodes-base.if')
				.flatMap(
					(node) =>
						(node.parameters.conditions as { conditions: Array<Record<string, unknown>> })
							.conditions,
				)
				.filter((condition) => JSON.stringify(condition).includes('approval_threshold'))
				.map((condition) => ({ file, condition })),
		);
		expect(comparisons.map(({ file }) => file).sort()).toEqual([
			'invoice-approval-by-manager.workflow.json',
		]);
		for (const { file, condition } of comparisons)
			expect(condition, file).toMatchObject({
				leftValue: '={{ Math.abs($json.total) }}',
				operator: { type: 'number', operation: 'gt' },
				rightValue: '={{ $json.approval_threshold }}',
			});
	});

	it('calls the books with Retry On Fail, and every write with the idempotency key Build Bill made for it', () => {
		const calls = examples.flatMap(({ file, nodes }) =>
			nodes
				.filter((node) =>
					['xeroOAuth2Api', 'quickBooksOAuth2Api'].includes(
						String(node.parameters.nodeCredentialType),
					),
				)
				.map((node) => ({ file, node })),
		);
		expect(new Set(calls.map(({ file }) => file)).size).toBe(4);
		for (const { file, node } of calls) {
			const where = `${file}: ${node.name}`;
			expect(node.retryOnFail, where).toBe(true);
			if (node.parameters.method === 'GET') continue;
			const key =
				node.parameters.nodeCredentialType === 'xeroOAuth2Api'
					? (node.parameters.headerParameters as NamedValues)?.parameters.find(
							({ name }) => name === 'Idempotency-Key',
						)
					: (node.parameters.queryParameters as NamedValues)?.parameters.find(
							({ name }) => name === 'requestid',
						);
			expect(key?.value, where).toMatch(/idempotency_keys\.(vendor|bill|attachment|history) \}\}$/);
		}
	});

	it("names a Switch's outputs in at most 12 characters: the canvas shows them whole", () => {
		const keys = examples.flatMap(({ file, nodes }) =>
			[...JSON.stringify(nodes).matchAll(/"outputKey":"([^"]*)"/g)].map(
				([, key]) => `${file}: ${key}`,
			),
		);
		expect(keys.length).toBeGreaterThan(0);
		expect(keys.filter((key) => key.split(': ')[1].length > 12)).toEqual([]);
	});

	it.each(examples)("$file uses this package's nodes at their newest versions", ({ nodes }) => {
		const ours = nodes.filter((node) => node.type in NEWEST);
		expect(ours.length).toBeGreaterThan(0);
		for (const node of ours) expect(node.typeVersion, node.name).toBe(NEWEST[node.type]);
	});
});
