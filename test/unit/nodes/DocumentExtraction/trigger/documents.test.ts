// Which documents start the trigger (docs/spec-decisions.md#n40): the address of this workflow's
// documents as Extract derives it, and the parameter's default per node version.
import { describe, expect, it } from 'vitest';

import {
	documentsThatStart,
	workflowDocumentsUrl,
} from '../../../../../nodes/DocumentExtraction/trigger/documents.ts';

describe("the address of this workflow's documents", () => {
	it("is n8n's webhook base with the workflow's id, production or test", () => {
		const resumeUrl = 'https://n8n.example.com/webhook-waiting/4711';
		expect(workflowDocumentsUrl(resumeUrl, 'Wf7aB', false)).toBe(
			'https://n8n.example.com/webhook/document-extraction/Wf7aB',
		);
		expect(workflowDocumentsUrl(resumeUrl, 'Wf7aB', true)).toBe(
			'https://n8n.example.com/webhook-test/document-extraction/Wf7aB',
		);
	});

	it('keeps a path prefix n8n is served under (a reverse proxy)', () => {
		expect(
			workflowDocumentsUrl('https://tools.example.com/n8n/webhook-waiting/12', 'w1', false),
		).toBe('https://tools.example.com/n8n/webhook/document-extraction/w1');
	});

	it('none when the resume URL does not show the base (renamed endpoints) or the workflow has no id', () => {
		expect(workflowDocumentsUrl('https://n8n.example.com/wait/12', 'w1', false)).toBeUndefined();
		expect(
			workflowDocumentsUrl('https://n8n.example.com/webhook-waiting/12', '', false),
		).toBeUndefined();
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
