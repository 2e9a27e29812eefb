import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	extractOutputNames,
	outputIndex,
} from '../../../../../../../nodes/DocumentExtraction/actions/document/extractOutputs.ts';
import { routeAnswer } from '../../../../../../../nodes/DocumentExtraction/actions/document/extract/route.ts';
import type { ExtractSettings } from '../../../../../../../nodes/DocumentExtraction/actions/document/extract/settings.ts';
import type { Sighting } from '../../../../../../../nodes/DocumentExtraction/actions/document/sameInvoice.ts';
import { invoiceIdentity } from '../../../../../../../nodes/DocumentExtraction/invoice/invoiceIdentity.ts';
import { simplifyInvoice } from '../../../../../../../nodes/DocumentExtraction/invoice/invoiceMapping.ts';
import { fakeExecuteContext } from '../../../../../harness/fakeExecuteContext.ts';
import { DOCUMENT_ID, EXTRACTED, NEEDS_REVIEW, VERIFIED } from '../../../../../harness/fixtures.ts';

const base: ExtractSettings = {
	binaryPropertyName: 'data',
	outputMode: 'simplified',
	rateLimitWaitMs: 30 * 60_000,
	reviewResultsToTrigger: false,
	keepsFile: false,
	waitForReview: false,
	skipDuplicates: false,
	detectSameInvoice: false,
	holdNotReady: false,
};

async function route(
	response: IDataObject,
	settings: Partial<ExtractSettings> = {},
	fake = fakeExecuteContext(),
	seenBefore?: Sighting,
) {
	const all = { ...base, ...settings };
	const outputs: INodeExecutionData[][] = extractOutputNames(all).map(() => []);
	await routeAnswer(fake.context, 3, response, all, outputs, seenBefore);
	const named = Object.fromEntries(
		extractOutputNames(all).map((name, index) => [name, outputs[index]]),
	);
	return { named, outputs, fake, all };
}

/** A verified invoice whose checks fail: not ready to post. */
const NOT_READY = {
	...VERIFIED,
	extracted_json: { ...EXTRACTED, amounts: { subtotal: 250, tax: 47.5, total: 999 } },
};

describe('Extract: the answer to its output', () => {
	it('a verified answer goes to Verified, paired with its item', async () => {
		const { named } = await route(VERIFIED);
		expect(named.Verified).toHaveLength(1);
		expect(named.Verified[0].json).toMatchObject({
			document_id: DOCUMENT_ID,
			status: 'verified',
			vendor: 'Acme Supplies GmbH',
			ready_to_post: true,
		});
		expect(named.Verified[0].pairedItem).toEqual({ item: 3 });
		expect(named['Needs Review']).toEqual([]);
	});

	it('a document in review goes to Needs Review, never Verified', async () => {
		const { named } = await route(NEEDS_REVIEW);
		expect(named['Needs Review']).toHaveLength(1);
		expect(named['Needs Review'][0].json).toMatchObject({
			status: 'needs_review',
			ready_to_post: false,
		});
		expect(named.Verified).toEqual([]);
	});

	it('Split Line Items: one item per line, all on one output', async () => {
		const { named } = await route(VERIFIED, { outputMode: 'splitLineItems' });
		expect(named.Verified).toHaveLength(EXTRACTED.line_items.length);
		expect(named.Verified.every((item) => (item.pairedItem as { item: number }).item === 3)).toBe(
			true,
		);
	});

	it('holding: a verified invoice not ready to post goes to Needs Review; a ready one to Verified', async () => {
		const held = await route(NOT_READY, { holdNotReady: true });
		expect(held.named.Verified).toEqual([]);
		expect(held.named['Needs Review'][0].json).toMatchObject({
			status: 'verified',
			ready_to_post: false,
		});
		const ready = await route(VERIFIED, { holdNotReady: true });
		expect(ready.named.Verified).toHaveLength(1);
	});

	it('not holding: a verified invoice not ready to post still goes to Verified, saying it is not ready', async () => {
		const { named } = await route(NOT_READY);
		expect(named.Verified[0].json.ready_to_post).toBe(false);
	});

	it('waiting and holding: a verified invoice not ready to post goes to Not Ready to Post', async () => {
		const { named, fake } = await route(NOT_READY, { waitForReview: true, holdNotReady: true });
		expect(named['Not Ready to Post']).toHaveLength(1);
		expect(fake.waitingUntil()).toBeUndefined();
	});

	it('Detect Same Invoice: an invoice the run found seen before goes to Possible Duplicate with what matched; without a sighting, to Verified', async () => {
		const identity = invoiceIdentity(simplifyInvoice(EXTRACTED))!;
		const fresh = await route(VERIFIED, { detectSameInvoice: true });
		expect(fresh.named.Verified).toHaveLength(1);
		const seen = await route(
			{ ...VERIFIED, document_id: 'doc_second' },
			{ detectSameInvoice: true },
			fakeExecuteContext(),
			{ identity, first: { by: 'thisRun', documentId: DOCUMENT_ID, sameDocument: false } },
		);
		expect(seen.named.Verified).toEqual([]);
		expect(seen.named['Possible Duplicate'][0].json).toMatchObject({
			document_id: 'doc_second',
			duplicate: true,
			possible_duplicate_of: DOCUMENT_ID,
			same_document: false,
			matched: { vendor: identity.vendor, invoice_no: identity.invoice_no },
		});
		expect(seen.named['Possible Duplicate'][0].pairedItem).toEqual({ item: 3 });
	});

	it('waiting: a document in review puts the execution to wait, Timed Out prepared, nothing output now', async () => {
		const fake = fakeExecuteContext({ parameters: { reviewTimeout: 2 } });
		const before = Date.now();
		const { outputs, all } = await route(NEEDS_REVIEW, { waitForReview: true }, fake);
		expect(outputs.flat()).toEqual([]);
		const until = fake.waitingUntil()!.getTime();
		expect(until).toBeGreaterThanOrEqual(before + 2 * 60_000);
		expect(until).toBeLessThan(Date.now() + 2 * 60_000 + 1000);
		const prepared = fake.executeData.data!.main;
		expect(prepared[outputIndex(all, 'timedOut')][0].json).toMatchObject({
			timed_out: true,
			waited_minutes: 2,
		});
	});

	it('waiting: an answer without a document_id cannot be waited for, and says what to do', async () => {
		const withoutId: IDataObject = { ...NEEDS_REVIEW };
		delete withoutId.document_id;
		await expect(route(withoutId, { waitForReview: true })).rejects.toThrow(
			/without a document_id/,
		);
	});
});
