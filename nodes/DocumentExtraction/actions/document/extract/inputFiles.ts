/**
 * Which files of an item Extract reads (docs/spec-decisions.md#n45): the Input Binary Field, or with
 * a pattern such as `attachment_*` every binary field whose name matches, each its own extraction;
 * and which of those cannot be invoices and are skipped with a reason instead of uploaded: a type the
 * service does not read (an invite, a text or HTML part), an empty file, an image too small to be an
 * invoice page (a logo, a signature image). Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { formatBytes } from '../../../tierLimits.ts';
import { documentKind, SUPPORTED_TYPES_LABEL } from '../../validation.ts';

/** Below this, a JPG or PNG is a logo or a signature image, not a page of an invoice. */
const SMALLEST_INVOICE_IMAGE_BYTES = 20 * 1024;

/** Input fields longer than this (an email's body) are not copied onto each file's item. */
const LONGEST_SOURCE_TEXT = 1000;

export function isFilePattern(value: unknown): boolean {
	return typeof value === 'string' && value.includes('*');
}

function patternExpression(pattern: string): RegExp {
	const escaped = pattern
		.trim()
		.split('*')
		.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
	return new RegExp(`^${escaped.join('.*')}$`);
}

/** The names matching `pattern`, in natural order (attachment_2 before attachment_10). */
export function matchingFields(fieldNames: string[], pattern: string): string[] {
	const expression = patternExpression(pattern);
	return fieldNames
		.filter((name) => expression.test(name))
		.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

export interface CandidateFile {
	fileName?: string;
	mimeType?: string;
	/** Unknown until the file is opened, when n8n did not record it. */
	bytes?: number;
}

/** Why the file cannot be an invoice, as a sentence; undefined when it may be one. */
export function notAnInvoiceBecause(file: CandidateFile): string | undefined {
	const name = file.fileName ? `"${file.fileName}"` : 'The file without a name';
	const kind = documentKind(file.fileName, file.mimeType);
	if (!kind)
		return `${name} (${file.mimeType || 'unknown type'}) is not a type the service reads (${SUPPORTED_TYPES_LABEL}).`;
	if (file.bytes === 0) return `${name} is empty.`;
	if ((kind === 'jpg' || kind === 'png') && file.bytes !== undefined)
		if (file.bytes < SMALLEST_INVOICE_IMAGE_BYTES)
			return `${name} is an image of ${formatBytes(file.bytes)}, too small to be an invoice page (a logo or a signature image).`;
	return undefined;
}

/** The input item's fields a flow routes on (sender, subject, message id…), without long texts. */
export function sourceFields(json: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(json).filter(
			([, value]) => !(typeof value === 'string' && value.length > LONGEST_SOURCE_TEXT),
		),
	);
}
