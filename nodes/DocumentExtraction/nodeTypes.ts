/**
 * Names of the package's nodes, as the node descriptions declare them. Workflows reference a node by
 * its type: the package name (package.json), a dot, this name.
 */
export const NODE_NAMES = {
	action: 'documentExtraction',
	trigger: 'documentExtractionTrigger',
} as const;
