/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// The official descriptions of the books' APIs kept beside the repository (../shared/reference/, see
// its README): Xero's Accounting API OpenAPI description and Intuit's QuickBooks Online v3 XSD. Bodies
// Build Bill makes are checked against them as published, not against our own reading of them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';

export const REFERENCE = join(__dirname, '..', '..', '..', '..', 'shared', 'reference');
export const hasReference = existsSync(join(REFERENCE, 'xero', 'xero_accounting.yaml'));

/** A validator for one of Xero's `components/schemas` (OpenAPI 3.0, its own keywords ignored). */
export function xeroSchemaValidator(schemaName: string) {
	const description = parse(
		readFileSync(join(REFERENCE, 'xero', 'xero_accounting.yaml'), 'utf8'),
	) as { components: { schemas: Record<string, unknown> } };
	const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
	ajv.addSchema({ $id: 'xero', components: description.components });
	return ajv.compile({ $ref: `xero#/components/schemas/${schemaName}` });
}

const QUICKBOOKS_FILES = ['Finance.xsd', 'IntuitBaseTypes.xsd'];

let quickBooksTexts: string[] | undefined;
const elementsByType = new Map<string, Map<string, string>>();

/** The body of `<xs:complexType name="…">` in Intuit's XSDs, nested types included. */
function complexTypeBody(name: string): string | undefined {
	quickBooksTexts ??= QUICKBOOKS_FILES.map((file) =>
		readFileSync(join(REFERENCE, 'quickbooks', file), 'utf8'),
	);
	for (const text of quickBooksTexts) {
		const start = text.search(new RegExp(`<xs:complexType name="${name}"[\\s>]`));
		if (start < 0) continue;
		const tag = /<(\/?)xs:complexType\b[^>]*?(\/?)>/g;
		tag.lastIndex = start;
		let depth = 0;
		for (let match = tag.exec(text); match; match = tag.exec(text)) {
			if (match[2]) continue;
			depth += match[1] ? -1 : 1;
			if (depth === 0) return text.slice(start, match.index);
		}
	}
	return undefined;
}

/**
 * The elements a QuickBooks type has (JSON keys), its base types' included, with each element's
 * type name: what a JSON body of that type may carry.
 */
export function quickBooksElements(typeName: string): Map<string, string> {
	const known = elementsByType.get(typeName);
	if (known) return known;
	const elements = new Map<string, string>();
	elementsByType.set(typeName, elements);
	for (let name: string | undefined = typeName; name; ) {
		const body = complexTypeBody(name);
		if (body === undefined) throw new Error(`no complexType ${name} in Intuit's XSDs`);
		for (const match of body.matchAll(/<xs:element name="(\w+)"(?:\s+type="(\w+:)?(\w+)")?/g))
			elements.set(match[1], match[3] ?? '');
		name = /<xs:extension base="(?:\w+:)?(\w+)"/.exec(body)?.[1];
	}
	return elements;
}

/** Every key of `body` (nested objects and arrays too) that the XSD type does not have, as paths. */
export function unknownQuickBooksKeys(body: Record<string, unknown>, typeName: string): string[] {
	const elements = quickBooksElements(typeName);
	const unknown: string[] = [];
	for (const [key, value] of Object.entries(body)) {
		const type = elements.get(key);
		if (type === undefined) {
			unknown.push(`${typeName}.${key}`);
			continue;
		}
		const values = Array.isArray(value) ? value : [value];
		for (const entry of values)
			if (entry && typeof entry === 'object' && type && type !== 'ReferenceType')
				unknown.push(...unknownQuickBooksKeys(entry as Record<string, unknown>, type));
	}
	return unknown;
}

/** The values of one of Intuit's `xs:simpleType` enumerations (e.g. AccountTypeEnum) in Finance.xsd. */
export function quickBooksEnum(name: string): string[] {
	const text = readFileSync(join(REFERENCE, 'quickbooks', 'Finance.xsd'), 'utf8');
	const start = text.indexOf(`<xs:simpleType name="${name}">`);
	if (start < 0) throw new Error(`no simpleType ${name} in Finance.xsd`);
	const body = text.slice(start, text.indexOf('</xs:simpleType>', start));
	return [...body.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((match) => match[1]);
}
