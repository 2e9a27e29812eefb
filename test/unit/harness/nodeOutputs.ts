/** The action node's outputs as n8n evaluates its outputs expression for a node in a saved workflow. */
import type { INode, INodeParameters, INodeTypeDescription, INodeTypes } from 'n8n-workflow';

import { ACTION_NODE_TYPE, n8nWorkflow, NODE_NAME } from './index.ts';

/**
 * The names of the outputs of a Document Extraction node of this version with these parameters.
 * The Workflow fills in the parameters' defaults of the version, as n8n does for a saved workflow.
 */
export function outputNames(
	nodeTypes: INodeTypes,
	parameters: INodeParameters,
	typeVersion = 1,
): string[] {
	const nodeType = nodeTypes.getByNameAndVersion(ACTION_NODE_TYPE, typeVersion);
	const node: INode = {
		id: 'n',
		name: NODE_NAME,
		type: ACTION_NODE_TYPE,
		typeVersion,
		position: [0, 0],
		parameters,
	};
	const workflow = new n8nWorkflow.Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const outputs = n8nWorkflow.NodeHelpers.getNodeOutputs(
		workflow,
		workflow.getNode(NODE_NAME)!,
		nodeType.description as INodeTypeDescription,
	);
	return outputs.map((output) =>
		typeof output === 'string' ? output : (output.displayName ?? output.type),
	);
}
