/**
 * One Document Extraction node in a saved workflow, as n8n holds it: the Workflow fills in the
 * parameters' defaults of the node's version, and evaluates its expressions (outputs included).
 */
import type { INode, INodeParameters, INodeTypeDescription, INodeTypes } from 'n8n-workflow';

import { ACTION_NODE_TYPE, n8nWorkflow, NODE_NAME } from './index.ts';

/** The workflow around the node, and the node as the workflow resolved it. */
export function savedActionNode(
	nodeTypes: INodeTypes,
	parameters: INodeParameters,
	typeVersion = 1,
) {
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
	return { workflow, saved: workflow.getNode(NODE_NAME)! };
}

/** The names of the outputs of the node of this version with these parameters, as n8n evaluates them. */
export function outputNames(
	nodeTypes: INodeTypes,
	parameters: INodeParameters,
	typeVersion = 1,
): string[] {
	const { workflow, saved } = savedActionNode(nodeTypes, parameters, typeVersion);
	const nodeType = nodeTypes.getByNameAndVersion(ACTION_NODE_TYPE, typeVersion);
	const outputs = n8nWorkflow.NodeHelpers.getNodeOutputs(
		workflow,
		saved,
		nodeType.description as INodeTypeDescription,
	);
	return outputs.map((output) =>
		typeof output === 'string' ? output : (output.displayName ?? output.type),
	);
}
