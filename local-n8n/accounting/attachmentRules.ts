// What each accounting API takes as an attachment: file extensions and size, as Xero and Intuit
// document them (Xero: https://developer.xero.com/documentation/api/accounting/attachments, 10 MB per
// file, 10 files per document; QuickBooks Online: Attachable entity and "Upload attachments",
// https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/attachable, 100 MB).
// A JSON invoice file is in neither list.

export const XERO_ATTACHMENT_EXTENSIONS = [
	'7z',
	'bmp',
	'csv',
	'doc',
	'docx',
	'eml',
	'gif',
	'jpeg',
	'jpg',
	'keynote',
	'msg',
	'numbers',
	'odf',
	'ods',
	'odt',
	'pages',
	'pdf',
	'png',
	'ppt',
	'pptx',
	'rar',
	'rtf',
	'tif',
	'tiff',
	'txt',
	'xls',
	'xlsx',
	'zip',
];
export const XERO_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const XERO_ATTACHMENTS_PER_DOCUMENT = 10;

export const QUICKBOOKS_ATTACHMENT_EXTENSIONS = [
	'ai',
	'csv',
	'doc',
	'docx',
	'eps',
	'gif',
	'jpeg',
	'jpg',
	'ods',
	'pages',
	'pdf',
	'png',
	'rtf',
	'tif',
	'txt',
	'xls',
	'xlsx',
	'xml',
];
export const QUICKBOOKS_ATTACHMENT_MAX_BYTES = 100 * 1024 * 1024;

/** The lower-case extension of a file name, '' when it has none. */
export function extensionOf(fileName: string): string {
	const dot = fileName.lastIndexOf('.');
	return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** One recorded attachment: what the API received, byte for byte. */
export interface StoredAttachment {
	/** The bill or credit note it belongs to (Xero InvoiceID / CreditNoteID, QuickBooks entity Id). */
	ownerId: string;
	ownerType: string;
	fileName: string;
	contentType: string;
	bytes: Buffer;
}
