import { describe, expect, it } from 'vitest';

import {
	attachmentOf,
	quickBooksAttachable,
} from '../../../../../nodes/DocumentExtraction/bill/attachment.ts';

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

describe('quickBooksAttachable', () => {
	const created = {
		attach: true,
		entity: 'bill',
		attachment_name: ' INV\n1001.pdf ',
		books_bill: { id: 145 },
	};

	it('links the original to the created bill or vendor credit, its name on one line', () => {
		expect(quickBooksAttachable(created, 'image/png')).toEqual({
			AttachableRef: [{ EntityRef: { type: 'Bill', value: '145' } }],
			FileName: 'INV 1001.pdf',
			ContentType: 'image/png',
		});
		expect(quickBooksAttachable({ ...created, entity: 'vendorcredit' }, '')?.ContentType).toBe(
			'application/octet-stream',
		);
	});

	it('is nothing when Build Bill said not to attach, or no bill was created', () => {
		expect(quickBooksAttachable({ ...created, attach: false }, 'image/png')).toBeNull();
		expect(quickBooksAttachable({ ...created, books_bill: null }, 'image/png')).toBeNull();
	});
});
