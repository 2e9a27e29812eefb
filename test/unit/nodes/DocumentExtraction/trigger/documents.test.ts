// Which documents start the trigger (docs/spec-decisions.md#n40): the marked address and the
// parameter's default per node version.
import { describe, expect, it } from 'vitest';

import {
	documentsThatStart,
	isRoutedDelivery,
	routedUrl,
} from '../../../../../nodes/DocumentExtraction/trigger/documents.ts';

describe('the marked address', () => {
	it("is the trigger's own address with the marker, which a delivery to it carries in its query", () => {
		const url = routedUrl('https://n8n.example/webhook/abc/webhook');
		expect(url).toBe('https://n8n.example/webhook/abc/webhook?documents=this-workflow');
		expect(isRoutedDelivery(Object.fromEntries(new URL(url).searchParams))).toBe(true);
	});

	it("keeps a query the trigger's address already has", () => {
		expect(routedUrl('https://n8n.example/webhook/abc/webhook?tenant=7')).toBe(
			'https://n8n.example/webhook/abc/webhook?tenant=7&documents=this-workflow',
		);
	});

	it('a delivery without the marker, or with another value, is not routed', () => {
		expect(isRoutedDelivery({})).toBe(false);
		expect(isRoutedDelivery({ documents: 'all' })).toBe(false);
		expect(isRoutedDelivery({ documents: ['this-workflow', 'x'] })).toBe(false);
	});
});

describe('Documents', () => {
	it('a chosen value is kept at every version', () => {
		for (const version of [1, 1.1, 1.2]) {
			expect(documentsThatStart('account', version)).toBe('account');
			expect(documentsThatStart('thisWorkflow', version)).toBe('thisWorkflow');
		}
	});

	it("unset: every document on the account before 1.2 (as those triggers always did), this workflow's from 1.2", () => {
		expect(documentsThatStart(undefined, 1)).toBe('account');
		expect(documentsThatStart('', 1.1)).toBe('account');
		expect(documentsThatStart(undefined, 1.2)).toBe('thisWorkflow');
		expect(documentsThatStart('something else', 1.2)).toBe('thisWorkflow');
	});
});
