/**
 * What the editor shows stays short: every notice and hint of the nodes and the credential is a
 * sentence or two (at most 330 characters of text, links and markup aside); the depth is in docs/,
 * which they link to.
 */
import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtractionApi } from '../../../credentials/DocumentExtractionApi.credentials.ts';
import { DocumentExtraction } from '../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { DocumentExtractionTrigger } from '../../../nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';

const MAX_TEXT = 330;

function notices(properties: INodeProperties[]): Array<[string, string]> {
	return properties.flatMap((property) => [
		...(property.type === 'notice'
			? [[property.name, property.displayName] as [string, string]]
			: []),
		...notices(
			(property.options ?? []).filter(
				(option): option is INodeProperties => 'displayName' in option && 'type' in option,
			),
		),
	]);
}

const text = (html: string) => html.replace(/<a [^>]*>([^<]*)<\/a>/g, '$1').replace(/<[^>]+>/g, '');

const texts: Array<[string, string]> = [
	...notices(new DocumentExtraction().description.properties).map(
		([name, value]) => [`Document Extraction: ${name}`, value] as [string, string],
	),
	...notices(new DocumentExtractionTrigger().description.properties).map(
		([name, value]) => [`Trigger: ${name}`, value] as [string, string],
	),
	...notices(new DocumentExtractionApi().properties).map(
		([name, value]) => [`Credential: ${name}`, value] as [string, string],
	),
	...(new DocumentExtraction().description.hints ?? []).map(
		(hint, index) => [`Document Extraction: hint ${index + 1}`, hint.message] as [string, string],
	),
];

describe('notices and hints in the editor', () => {
	it('there are some to check', () => {
		expect(texts.length).toBeGreaterThanOrEqual(8);
	});

	it.each(texts)(`%s is at most ${MAX_TEXT} characters`, (_name, value) => {
		expect(text(value).length).toBeLessThanOrEqual(MAX_TEXT);
	});
});
