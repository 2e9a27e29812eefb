import { describe, expect, it } from 'vitest';

import { attachmentOf } from '../../../../../nodes/DocumentExtraction/bill/attachment.ts';

describe('the original file on the bill', () => {
	it('attached when the books take its type; otherwise a sentence saying why not', () => {
		expect(attachmentOf({ fileName: ' Invoice 42.PDF ' }, ['pdf'], 'Xero')).toEqual({
			attach: true,
			note: null,
			name: 'Invoice 42.PDF',
		});
		expect(attachmentOf({ fileName: 'scan.heic' }, ['pdf'], 'Xero')).toEqual({
			attach: false,
			note: 'Xero does not take .heic attachments: the original file is not attached',
			name: null,
		});
		expect(attachmentOf(undefined, ['pdf'], 'QuickBooks').note).toMatch(
			/not on the item .* attach it to the bill by hand/,
		);
		expect(attachmentOf({ fileName: 'noextension' }, ['pdf'], 'Xero').attach).toBe(false);
	});
});
