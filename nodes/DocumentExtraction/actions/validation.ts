/** Pure checks on user input, run before any request is sent. */

/** docs/spec-decisions.md#d4: `doc_` + 1..120 URL-safe characters. Nothing that could change the request path. */
const DOCUMENT_ID_PATTERN = /^doc_[A-Za-z0-9_-]{1,120}$/;

export function documentIdProblem(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.trim() === '') {
		return 'The Document ID is empty. Map the "document_id" field of an earlier Extract step, e.g. {{ $json.document_id }}.';
	}
	const id = value.trim();
	if (!DOCUMENT_ID_PATTERN.test(id)) {
		const shown = id.length > 60 ? `${id.slice(0, 60)}...` : id;
		return (
			`"${shown}" is not a document ID. IDs look like "doc_abc123": "doc_" followed by letters, digits, ` +
			'"_" or "-" (at most 124 characters in all). Map the "document_id" field returned by Extract.'
		);
	}
	return undefined;
}

/** The service delivers only to HTTPS endpoints (spec, Delivery rules 1). */
export function httpsUrlProblem(value: unknown, fieldLabel: string): string | undefined {
	if (typeof value !== 'string' || value.trim() === '')
		return `${fieldLabel} is empty. Enter an https:// URL.`;
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return `${fieldLabel} "${value}" is not a valid URL. Enter a full address such as https://example.com/webhook.`;
	}
	if (url.protocol !== 'https:') {
		return (
			`${fieldLabel} must use https:// (the service delivers only to HTTPS endpoints), but it is "${url.protocol}//...". ` +
			'Use a public HTTPS address or a tunnel for local tests.'
		);
	}
	if (url.username || url.password)
		return `${fieldLabel} must not contain a user name or password.`;
	return undefined;
}

export type DocumentKind = 'pdf' | 'jpg' | 'png' | 'json' | 'csv';

const KIND_BY_EXTENSION: Record<string, DocumentKind> = {
	pdf: 'pdf',
	jpg: 'jpg',
	jpeg: 'jpg',
	png: 'png',
	json: 'json',
	csv: 'csv',
};

const KIND_BY_MIME: Record<string, DocumentKind> = {
	'application/pdf': 'pdf',
	'image/jpeg': 'jpg',
	'image/jpg': 'jpg',
	'image/pjpeg': 'jpg',
	'image/png': 'png',
	'application/json': 'json',
	'text/json': 'json',
	'text/csv': 'csv',
	'application/csv': 'csv',
	'text/comma-separated-values': 'csv',
};

export const CONTENT_TYPE_BY_KIND: Record<DocumentKind, string> = {
	pdf: 'application/pdf',
	jpg: 'image/jpeg',
	png: 'image/png',
	json: 'application/json',
	csv: 'text/csv',
};

export const SUPPORTED_TYPES_LABEL = 'PDF, JPG, PNG, JSON or CSV';

/**
 * Kind of document from its file name and MIME type. The extension wins when both are known
 * (n8n often labels files application/octet-stream); undefined when neither is supported.
 */
export function documentKind(
	fileName: string | undefined,
	mimeType: string | undefined,
): DocumentKind | undefined {
	const extension = fileName?.includes('.') ? fileName.split('.').pop()?.toLowerCase() : undefined;
	if (extension && KIND_BY_EXTENSION[extension]) return KIND_BY_EXTENSION[extension];
	const mime = mimeType?.split(';')[0].trim().toLowerCase();
	if (mime && KIND_BY_MIME[mime]) return KIND_BY_MIME[mime];
	return undefined;
}

/**
 * A file name safe for a multipart header: no path, no control characters or quotes, bounded length,
 * and ending in the extension of its kind (the service may decide the type from it).
 */
export function uploadFileName(fileName: string | undefined, kind: DocumentKind): string {
	const base = (fileName ?? '').split(/[\\/]/).pop() ?? '';
	// eslint-disable-next-line no-control-regex
	let name = base.replace(/[\u0000-\u001f\u007f"\\]/g, '_').trim();
	if (name === '') name = 'document';
	if (documentKind(name, undefined) !== kind) name = `${name}.${kind}`;
	if (name.length <= 200) return name;
	const extension = name.slice(name.lastIndexOf('.'));
	return name.slice(0, 200 - extension.length) + extension;
}
