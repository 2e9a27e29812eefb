// The reference for what any community trigger can reach in n8n: a package `n8n-nodes-minimal-trigger`
// whose one node's webhook() only hands the body to the workflow. Written as plain JavaScript into a
// temporary folder, packed and installed into n8n's user folder next to ours, as n8n documents manual
// installation. Its webhook description mirrors our trigger's (POST, path `webhook`, responseMode
// `onReceived`, responseData '', versions 1 and 1.1), so the two differ only in what webhook() does.
// It accepts our credential type without reading it: with the credential attached, n8n does for it
// what it does for any start node with a credential (checks the credential may be used, per run).

import type { Credential, PackedPackage } from '../local-n8n/index.ts';
import { credentialReference, packPackage, writePlainPackage } from '../local-n8n/index.ts';
import type { BenchContext } from './context.ts';
import { activeTriggerNodeWorkflow } from './context.ts';

export const MINIMAL_PACKAGE = 'n8n-nodes-minimal-trigger';
export const MINIMAL_NODE_TYPE = `${MINIMAL_PACKAGE}.minimalTrigger`;

const NODE_SOURCE = `class MinimalTrigger {
	constructor() {
		this.description = {
			displayName: 'Minimal Trigger',
			name: 'minimalTrigger',
			group: ['trigger'],
			version: [1, 1.1],
			defaultVersion: 1.1,
			description: 'Starts the workflow with the body of a POST, nothing else',
			defaults: { name: 'Minimal Trigger' },
			inputs: [],
			outputs: ['main'],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' }],
			credentials: [{ name: 'documentExtractionApi', required: false }],
			properties: [],
		};
	}
	async webhook() {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	}
}
module.exports = { MinimalTrigger };
`;

/** Writes the package to a temporary folder and returns the folder. */
export function makeMinimalTriggerPackage(version = '0.0.1'): string {
	return writePlainPackage(
		'minimal-trigger-package',
		{
			name: MINIMAL_PACKAGE,
			version,
			description:
				'Benchmark reference: a community trigger that does nothing but start the workflow',
		},
		{ 'nodes/MinimalTrigger/MinimalTrigger.node.js': NODE_SOURCE },
	);
}

/** The package, packed (`npm pack`) for installation into n8n's user folder. */
export async function packMinimalTrigger(): Promise<PackedPackage> {
	return await packPackage(makeMinimalTriggerPackage());
}

/**
 * Creates and activates a workflow started by the minimal trigger, with `credential` attached if
 * given (never read); returns its id and webhook path.
 */
export async function activeMinimalTriggerWorkflow(
	context: BenchContext,
	name: string,
	typeVersion = 1.1,
	credential?: Credential,
) {
	return await activeTriggerNodeWorkflow(context, name, {
		name: 'Minimal Trigger',
		type: MINIMAL_NODE_TYPE,
		typeVersion,
		parameters: {},
		...(credential ? { credentials: credentialReference(credential) } : {}),
	});
}
