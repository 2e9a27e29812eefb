/** The package's node types as workflows reference them: the package name, a dot, the node's name. */
import { NODE_NAMES } from '../../../nodes/DocumentExtraction/constants.ts';

export const PACKAGE_NAME = 'n8n-nodes-document-extraction';

export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.${NODE_NAMES.action}`,
	trigger: `${PACKAGE_NAME}.${NODE_NAMES.trigger}`,
} as const;
