/**
 * Which operations ask for the Document Extraction API credential, as n8n decides it from the node
 * description: the editor shows the credential (and flags it when missing) only where its
 * displayOptions match, and n8n's permission checks use the same rule (getActiveCredentialTypes).
 * Check Invoice Duplicate calls no API, so it needs none; every other operation does.
 */
import type { INode, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { ACTION_NODE_TYPE, CREDENTIAL_TYPE, n8nWorkflow, NODE_NAME } from '../harness/index.ts';

const { description } = new DocumentExtraction();

function nodeWith(parameters: INodeParameters): INode {
	return {
		id: 'node',
		name: NODE_NAME,
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

/** The credential types n8n counts as used by a node with these parameters (defaults filled in as the editor does). */
function activeCredentials(parameters: INodeParameters): string[] {
	const node = nodeWith(parameters);
	node.parameters =
		n8nWorkflow.NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	return [
		...(n8nWorkflow.NodeHelpers.getActiveCredentialTypes(node, description) ?? ['(undetermined)']),
	];
}

describe('the credential, per operation', () => {
	it('Check Invoice Duplicate needs none', () => {
		expect(activeCredentials({ resource: 'document', operation: 'checkInvoiceDuplicate' })).toEqual(
			[],
		);
	});

	it.each([
		['a new node (Extract by default)', {}],
		['Extract', { resource: 'document', operation: 'extract' }],
		['Get Status', { resource: 'document', operation: 'getStatus' }],
		['Register Webhook', { resource: 'webhook', operation: 'register' }],
	] as Array<[string, INodeParameters]>)(
		'%s needs the Document Extraction API credential',
		(_operation, parameters) => {
			expect(activeCredentials(parameters)).toEqual([CREDENTIAL_TYPE]);
		},
	);
});
