import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { jsonParameter, NOT_JSON } from '../jsonObject.ts';

/** The expression a parameter's own placeholder (or default) shows, as a fix to quote. */
function exampleOf(property: INodeProperties | undefined): string {
	return String(property?.placeholder || property?.default || '{{ $json }}').replace(/^=/, '');
}

/**
 * A JSON parameter's value: n8n gives an expression's value as is, typed JSON as text. Text that is
 * not JSON fails the item, naming the parameter and an expression that fits it.
 */
export function jsonParameterOf(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	name: string,
): unknown {
	const value = jsonParameter(context.getNodeParameter(name, itemIndex, ''));
	if (value !== NOT_JSON) return value;
	const property = properties.find((candidate) => candidate.name === name);
	throw new NodeOperationError(
		context.getNode(),
		`${property?.displayName ?? name} is not JSON: set it to an expression such as ${exampleOf(property)}`,
		{ itemIndex },
	);
}

/** A JSON object parameter: blank is empty; text or a value that is not an object fails the same way. */
export function objectParameterOf(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	name: string,
): IDataObject {
	const value = jsonParameter(context.getNodeParameter(name, itemIndex, ''));
	if (value === null || value === undefined) return {};
	if (value !== NOT_JSON && typeof value === 'object' && !Array.isArray(value))
		return value as IDataObject;
	const property = properties.find((candidate) => candidate.name === name);
	throw new NodeOperationError(
		context.getNode(),
		`${property?.displayName ?? name} is not a JSON object: set it to an expression such as ${exampleOf(property)}`,
		{ itemIndex },
	);
}
