/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
// A month-end batch (docs/spec-decisions.md#n44) as the queue-mode tests run it: invoice files in a
// folder, a workflow that reads them all and extracts them in one run of one Extract node (Continue
// On Fail, so a failing document goes alone to Needs Review), and what that run's outputs must be.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
	actionNode,
	extractParameters,
	nodeItems,
	readFileNode,
	sandboxState,
	webhookWorkflow,
	type Credential,
	type DecodedExecution,
	type NodeExecutionItem,
} from '../../../local-n8n/index.ts';
import { invoiceFile } from './laterInvoices.ts';

/** Writes `count` confident invoices `<prefix>-000.json` … into `folder` (invoice number: the name in capitals); their glob. */
export function writeMonthEndBatch(folder: string, prefix: string, count: number): string {
	for (let index = 0; index < count; index++) {
		const name = `${prefix}-${String(index).padStart(3, '0')}`;
		const invoice = invoiceFile('Initech GmbH', name.toUpperCase(), 100 + index, 0.98);
		writeFileSync(join(folder, `${name}.json`), JSON.stringify(invoice));
	}
	return join(folder, `${prefix}-*.json`);
}

/** Webhook (answers at once) → Read invoices (`glob`) → Extract (v1.2, Continue On Fail, the tier's parallel uploads). */
export function monthEndWorkflow(name: string, credential: Credential, glob: string) {
	return webhookWorkflow({
		name,
		responseMode: 'onReceived',
		nodes: [
			readFileNode('Read invoices', glob),
			actionNode('Extract', credential, extractParameters(), {
				typeVersion: 1.2,
				onError: 'continueRegularOutput',
			}),
		],
	});
}

const pairedIndex = (item: NodeExecutionItem) => (item.pairedItem as { item: number }).item;

/**
 * Checks a finished batch run: `count` files read; Verified holds every other file's invoice in input
 * order, each paired with its input item; each item on Needs Review is a failure naming its own file.
 * The input indexes on Needs Review, and the file names in input order.
 */
export function expectMonthEndOutputs(
	execution: DecodedExecution,
	count: number,
): { failed: number[]; fileNames: string[] } {
	const fileNames = nodeItems(execution, 'Read invoices').map((item) =>
		String(item.binary?.data?.fileName),
	);
	expect(fileNames).toHaveLength(count);
	const needsReview = nodeItems(execution, 'Extract', { output: 1 });
	const failed = needsReview.map(pairedIndex);
	for (const item of needsReview)
		expect(String(item.json.error)).toContain(`extract "${fileNames[pairedIndex(item)]}"`);
	const verified = nodeItems(execution, 'Extract', { output: 0 });
	expect(verified.map((item) => [pairedIndex(item), item.json.invoice_no])).toEqual(
		fileNames.flatMap((fileName, index) =>
			failed.includes(index) ? [] : [[index, fileName.replace(/\.json$/, '').toUpperCase()]],
		),
	);
	return { failed, fileNames };
}

/** Fails unless the sandbox holds exactly one document of each of `fileNames` (and no other). */
export async function expectEachUploadedOnce(sandboxUrl: string, fileNames: string[]) {
	const uploaded = (await sandboxState(sandboxUrl)).documents.map((document) => document.fileName);
	expect([...uploaded].sort()).toEqual([...fileNames].sort());
}
