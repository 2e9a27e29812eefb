import type { IBinaryData, INodeProperties } from 'n8n-workflow';

import { fieldsOf } from '../jsonObject.ts';

/**
 * A file given as a parameter (e.g. `{{ $('Settings').first().binary.data }}`) as n8n keeps it on an
 * item: stored (id) or inline (data), with its type; null for anything else. n8n passes a file by
 * reference, so an operation can put the invoice's original back on an item that lost it.
 */
export function fileParameter(value: unknown): IBinaryData | null {
	const file = fieldsOf(value);
	const stored = typeof file.id === 'string' || typeof file.data === 'string';
	return stored && typeof file.mimeType === 'string' ? (file as unknown as IBinaryData) : null;
}

/** The Original File parameter, read with fileParameter: `use` says where the operation puts the file. */
export function originalFileProperty(use: string, required = false): INodeProperties {
	return {
		displayName: 'Original File',
		name: 'originalFile',
		type: 'json',
		default: '',
		...(required ? { required } : {}),
		placeholder: "={{ $('Settings').first().binary.data }}",
		description: `The invoice's original file, from any node of the execution that holds it: ${use}`,
	};
}
