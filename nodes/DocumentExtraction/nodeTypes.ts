/** Names of the package's node types: as the node descriptions declare them and as workflows reference them. */
export const PACKAGE_NAME = 'n8n-nodes-document-extraction';

export const NODE_NAMES = {
	action: 'documentExtraction',
	trigger: 'documentExtractionTrigger',
} as const;

/** The type of a node in a workflow: package name, dot, node name. */
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.${NODE_NAMES.action}`,
	trigger: `${PACKAGE_NAME}.${NODE_NAMES.trigger}`,
} as const;
