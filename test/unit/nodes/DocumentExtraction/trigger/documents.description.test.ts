// The Documents parameter as the editor shows it: its default per node version, and one sentence per
// choice saying which documents start the workflow.
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { documentsProperties } from '../../../../../nodes/DocumentExtraction/trigger/documents.description.ts';
import { documentsThatStart } from '../../../../../nodes/DocumentExtraction/trigger/documents.ts';
import { DocumentExtractionTrigger } from '../../../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
import { n8nWorkflow } from '../../../harness/index.ts';

/** The property the editor shows for `version` (n8n's @version display rule, as the node uses it). */
function shownAt(version: number): INodeProperties {
	const shown = documentsProperties.filter((property) => {
		if (property.name !== 'documents') return false;
		const rule = property.displayOptions?.show?.['@version'] ?? [];
		return rule.some((value) =>
			typeof value === 'number'
				? value === version
				: version >= (value as { _cnd: { gte: number } })._cnd.gte,
		);
	});
	expect(shown, `one Documents parameter at version ${version}`).toHaveLength(1);
	return shown[0];
}

describe('Documents in the editor', () => {
	it("each version's default is what the trigger applies when the parameter is unset", () => {
		for (const version of [1, 1.1, 1.2]) {
			expect(shownAt(version).default).toBe(documentsThatStart(undefined, version));
		}
	});

	it('each choice has one notice, shown only with it, a sentence long', () => {
		const notices = documentsProperties.filter((property) => property.type === 'notice');
		const choices = (shownAt(1.2).options ?? []).map(
			(option) => (option as { value: string }).value,
		);
		expect(notices.map((notice) => notice.displayOptions?.show?.documents)).toEqual(
			choices.map((choice) => [choice]),
		);
		for (const notice of notices) expect(notice.displayName.length).toBeLessThan(300);
	});
});

const { description } = new DocumentExtractionTrigger();

/** The notices the panel shows for these parameters (defaults filled in, as the editor does). */
function notices(parameters: INodeParameters): string[] {
	const node = { typeVersion: 1.2, parameters } as unknown as INode;
	const withDefaults =
		n8nWorkflow.NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	return description.properties
		.filter(
			(property) =>
				property.type === 'notice' &&
				n8nWorkflow.NodeHelpers.displayParameter(withDefaults, property, node, description),
		)
		.map((property) => property.displayName);
}

// n8n's publish check cannot read a credential's fields (docs/spec-decisions.md#n66): the panel says
// before publishing what Sent by This Workflow needs from the credential.
describe("the trigger's panel before publishing", () => {
	it('Sent by This Workflow (the default) says it needs the Webhook Signing Secret', () => {
		expect(notices({}).some((text) => text.includes('Webhook Signing Secret'))).toBe(true);
	});

	it('Every Document on the Account does not ask for it', () => {
		expect(
			notices({ documents: 'account' }).some((text) => text.includes('Webhook Signing Secret')),
		).toBe(false);
	});
});
