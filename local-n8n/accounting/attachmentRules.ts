// What each accounting API takes as an attachment, as Xero and Intuit document it: one row per API
// with the file types of its published list, the size of one file and, where there is one, how many
// files a document holds. A JSON invoice file is in neither list.

export interface AttachmentRules {
	/** The documentation the row is copied from. */
	source: string;
	/** The file extensions of the published list, lower case. */
	extensions: readonly string[];
	/** The largest file, in bytes. */
	maxBytes: number;
	/** How many files one document holds; undefined: no documented limit. */
	perDocument?: number;
}

const MB = 1024 * 1024;

/** The extensions as the documentation lists them, separated by spaces. */
const listed = (extensions: string) => extensions.trim().split(/\s+/);

export const XERO_ATTACHMENTS: AttachmentRules = {
	source: 'https://developer.xero.com/documentation/api/accounting/attachments',
	extensions: listed(`
		7z bmp csv doc docx eml gif jpeg jpg keynote msg numbers odf ods odt pages pdf png ppt pptx rar
		rtf tif tiff txt xls xlsx zip
	`),
	maxBytes: 10 * MB,
	perDocument: 10,
};

export const QUICKBOOKS_ATTACHMENTS: AttachmentRules = {
	source:
		'https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/attachable (Attachable entity, "Upload attachments")',
	extensions: listed(`
		ai csv doc docx eps gif jpeg jpg ods pages pdf png rtf tif txt xls xlsx xml
	`),
	maxBytes: 100 * MB,
};

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
