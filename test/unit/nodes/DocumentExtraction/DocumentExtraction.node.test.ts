/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n */
/**
 * The secrets: neither the API key nor the signing secret may show up in anything a run leaves behind
 * (output items, errors with their description, cause and stack, the execution's logs). And what the
 * editor shows of the node: brand names as their owners spell them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeParameters, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtractionApi } from '../../../../credentials/DocumentExtractionApi.credentials.ts';
import { DocumentExtraction } from '../../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionTrigger } from '../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';

import type { MockReply, RunOptions, RunResult } from '../../harness/index.ts';
import { API_KEY, SIGNING_SECRET } from '../../harness/index.ts';
import {
	DOCUMENT_ID,
	extractOnePdf,
	extractParameters,
	itemWithFile,
	serviceError,
	useNodeHarness,
	VERIFIED,
} from '../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

describe('Secrets stay out of outputs, errors and logs', () => {
	const hook = 'https://hooks.example.com/document-extraction';
	const scenarios: Array<[string, RunOptions, Array<['GET' | 'POST', string, MockReply[]]>]> = [
		[
			'extract verified',
			extractOnePdf(),
			[['POST', '/v1/extract', [{ status: 200, body: VERIFIED }]]],
		],
		[
			'extract 400',
			extractOnePdf(),
			[['POST', '/v1/extract', [{ status: 400, body: serviceError('invalid_file', 'Bad file') }]]],
		],
		[
			'extract 401',
			extractOnePdf(),
			[
				[
					'POST',
					'/v1/extract',
					[{ status: 401, body: serviceError('unauthorized', 'Invalid API key') }],
				],
			],
		],
		[
			'extract 429 exhausted',
			{
				...extractOnePdf({ options: { rateLimitWaitMinutes: 0 } }),
			},
			[['POST', '/v1/extract', [{ status: 429, body: '', headers: { 'Retry-After': '0' } }]]],
		],
		[
			'extract connection reset',
			extractOnePdf(),
			[['POST', '/v1/extract', [{ error: { code: 'ECONNRESET', message: 'socket hang up' } }]]],
		],
		[
			'extract refused before upload',
			{ parameters: extractParameters(), items: [itemWithFile(Buffer.alloc(0))] },
			[],
		],
		[
			'extract 500 with Continue On Fail',
			{ ...extractOnePdf(), continueOnFail: true },
			[
				[
					'POST',
					'/v1/extract',
					[{ status: 500, body: serviceError('server_error', 'Internal error') }],
				],
			],
		],
		[
			'status 503 exhausted',
			{
				parameters: {
					resource: 'document',
					operation: 'getStatus',
					documentId: DOCUMENT_ID,
					options: { retries: 1 },
				},
			},
			[
				[
					'GET',
					`/v1/status/${DOCUMENT_ID}`,
					[
						{ status: 503, body: '', headers: { 'Retry-After': '0' } },
						{ status: 503, body: '', headers: { 'Retry-After': '0' } },
					],
				],
			],
		],
		[
			'register with the credential secret',
			{ parameters: { resource: 'webhook', operation: 'register', url: hook } },
			[
				[
					'POST',
					'/webhooks/register',
					[{ status: 200, body: { webhook_id: 'wh_1', url: hook, status: 'active' } }],
				],
			],
		],
		[
			'register refused (400)',
			{ parameters: { resource: 'webhook', operation: 'register', url: hook } },
			[
				[
					'POST',
					'/webhooks/register',
					[{ status: 400, body: serviceError('invalid_url', 'URL not reachable') }],
				],
			],
		],
		[
			'register connection reset',
			{ parameters: { resource: 'webhook', operation: 'register', url: hook } },
			[
				[
					'POST',
					'/webhooks/register',
					[{ error: { code: 'ECONNRESET', message: 'socket hang up' } }],
				],
			],
		],
		[
			'register refused before sending (http URL)',
			{
				parameters: {
					resource: 'webhook',
					operation: 'register',
					url: 'http://hooks.example.com/x',
				},
			},
			[],
		],
	];

	function expectNoSecrets(result: RunResult) {
		const everything = result.everything();
		// The scan covers what it should: the run's items and errors are in it.
		expect(everything.length).toBeGreaterThan(200);
		for (const secret of [API_KEY, SIGNING_SECRET]) {
			expect(everything).not.toContain(secret);
			// Not even a recognisable part of it.
			expect(everything).not.toContain(secret.slice(-16));
		}
		const error = result.error();
		if (error) {
			for (const text of [error.message, error.description ?? '', JSON.stringify(error)]) {
				expect(text).not.toContain(API_KEY);
				expect(text).not.toContain(SIGNING_SECRET);
			}
		}
	}

	it.each(scenarios)('%s', async (_name, options, replies) => {
		for (const [method, path, answers] of replies) service().on(method, path, ...answers);
		const result = await harness().run(options);

		// Each scenario reached the point it is about (an answer was used, or nothing was sent).
		expect(service().requests.length).toBe(
			replies.reduce((sum, [, , answers]) => sum + answers.length, 0),
		);
		expectNoSecrets(result);
	});

	it('the scan would notice a secret in the output (the check itself works)', async () => {
		service().on('POST', '/v1/extract', { status: 200, body: { ...VERIFIED, echoed: API_KEY } });
		const result = await harness().run(extractOnePdf({ outputMode: 'raw' }));
		expect(result.everything()).toContain(API_KEY);
	});
});

/** The words the node shows a person: labels, descriptions, hints, option names and n8n's action texts. */
function shownText(value: unknown, key = ''): string[] {
	if (typeof value === 'string')
		return [
			'displayName',
			'description',
			'action',
			'placeholder',
			'hint',
			'message',
			'alias',
			'name',
			'subtitle',
		].includes(key)
			? [value]
			: [];
	if (Array.isArray(value)) return value.flatMap((entry) => shownText(entry, key));
	if (value === null || typeof value !== 'object') return [];
	const object = value as Record<string, unknown>;
	return Object.entries(object).flatMap(([name, entry]) =>
		// A parameter's `name` is its key in saved workflows (xeroTenantId), not shown; an option's is.
		name === 'name' && 'type' in object ? [] : shownText(entry, name),
	);
}

describe('What the editor shows of the nodes', () => {
	const codex = (file: string) =>
		JSON.parse(
			readFileSync(join(__dirname, '../../../../nodes/DocumentExtraction', file), 'utf8'),
		) as unknown;
	const texts = [
		...shownText(new DocumentExtraction().description),
		...shownText(new DocumentExtractionTrigger().description),
		...shownText({
			displayName: new DocumentExtractionApi().displayName,
			properties: new DocumentExtractionApi().properties,
		}),
		...shownText(codex('DocumentExtraction.node.json')),
		...shownText(codex('DocumentExtractionTrigger.node.json')),
	];

	it("spells Xero and QuickBooks as their owners do, in every text (n8n lists the operations' action texts in its node search)", () => {
		const brands = texts.flatMap(
			(text) => text.match(/(?<![\w./-])(xero|quick\s*books?)(?![\w/-])/gi) ?? [],
		);
		expect(brands.length, 'the texts name the books at all').toBeGreaterThan(3);
		const misspelt = texts.filter((text) =>
			(text.match(/(?<![\w./-])(xero|quick\s*books?)(?![\w/-])/gi) ?? []).some(
				(brand) => brand !== 'Xero' && brand !== 'QuickBooks',
			),
		);
		expect(misspelt).toEqual([]);
		expect(texts).toContain('Build a bill for Xero or QuickBooks');
	});
});

describe('the subtitle on the canvas', () => {
	/** The subtitle as n8n's expression engine resolves it for a node with these parameters. */
	function subtitleOf(
		node: DocumentExtraction | DocumentExtractionTrigger,
		parameters: INodeParameters,
	): unknown {
		const nodeTypes = {
			getByName: () => node,
			getByNameAndVersion: () => node,
			getKnownTypes: () => ({}),
		} as unknown as INodeTypes;
		const workflow = new Workflow({
			nodes: [
				{
					id: '1',
					name: 'Node',
					type: 'n8n-nodes-document-extraction.node',
					typeVersion: 1,
					position: [0, 0],
					parameters,
				},
			],
			connections: {},
			active: false,
			nodeTypes,
		});
		return workflow.expression.getParameterValue(
			String(node.description.subtitle),
			null,
			0,
			0,
			'Node',
			[],
			'internal',
			{},
		);
	}
	const subtitleFor = (operation: string, resource = 'document') =>
		subtitleOf(new DocumentExtraction(), { resource, operation });

	it("names the trigger's events in words", () => {
		const trigger = new DocumentExtractionTrigger();
		expect(subtitleOf(trigger, {})).toBe('Verified or rejected');
		expect(subtitleOf(trigger, { events: ['document.verified'] })).toBe('Verified');
		expect(subtitleOf(trigger, { events: ['document.rejected'] })).toBe('Rejected');
	});

	it('names each operation in words short enough for the canvas', () => {
		const words = {
			extract: 'Extract',
			getStatus: 'Get status',
			checkInvoiceDuplicate: 'Check duplicate',
			buildBill: 'Build bill',
			nextApprovalStep: 'Next approval step',
			judgeBooksAnswer: 'Judge books answer',
		};
		for (const [operation, text] of Object.entries(words))
			expect(subtitleFor(operation)).toBe(text);
		expect(subtitleFor('register', 'webhook')).toBe('Register webhook');
	});
});
