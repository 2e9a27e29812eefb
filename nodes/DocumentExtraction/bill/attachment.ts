/**
 * Whether the original file goes onto the bill, and if not, why (a sentence for a person); for
 * QuickBooks, the upload's metadata. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldsOf } from '../jsonObject.ts';
import { oneLine } from './text.ts';

export interface OriginalFile {
	fileName?: string;
	mimeType?: string;
}

export interface AttachmentDecision {
	attach: boolean;
	note: string | null;
	name: string | null;
}

export function attachmentOf(
	file: OriginalFile | undefined,
	takes: readonly string[],
	books: string,
): AttachmentDecision {
	if (file === undefined)
		return {
			attach: false,
			note: 'the original file is not on the item (the invoice came back through the review trigger): attach it to the bill by hand',
			name: null,
		};
	const name = oneLine(file.fileName);
	const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
	if (!takes.includes(extension))
		return {
			attach: false,
			note: `${books} does not take .${extension} attachments: the original file is not attached`,
			name: null,
		};
	return { attach: true, note: null, name };
}

/**
 * QuickBooks' Attachable for the original of a bill the books created (Judge Books Answer's Created
 * item): the metadata part of its upload, linking the file to the bill or vendor credit. Null when
 * nothing is to be attached (Build Bill said not to, or no bill was created).
 */
export function quickBooksAttachable(bill: IDataObject, mimeType: string): IDataObject | null {
	const id = fieldsOf(bill.books_bill).id;
	if (bill.attach !== true || id === undefined || id === null || String(id) === '') return null;
	return {
		AttachableRef: [
			{
				EntityRef: {
					type: bill.entity === 'vendorcredit' ? 'VendorCredit' : 'Bill',
					value: String(id),
				},
			},
		],
		FileName: oneLine(bill.attachment_name),
		ContentType: mimeType || 'application/octet-stream',
	};
}
