/** Whether the original file goes onto the bill, and if not, why (a sentence for a person). Pure. */
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
