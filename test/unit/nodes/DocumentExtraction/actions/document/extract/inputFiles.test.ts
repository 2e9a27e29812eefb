import { describe, expect, it } from 'vitest';

import {
	isFilePattern,
	matchingFields,
	notAnInvoiceBecause,
	sourceFields,
} from '../../../../../../../nodes/DocumentExtraction/actions/document/extract/inputFiles.ts';

describe('the files of an item', () => {
	it('a * makes the field a pattern', () => {
		expect(isFilePattern('attachment_*')).toBe(true);
		expect(isFilePattern('*')).toBe(true);
		expect(isFilePattern('data')).toBe(false);
		expect(isFilePattern(undefined)).toBe(false);
	});

	it('matches names in natural order; other characters are literal', () => {
		const names = ['attachment_10', 'data', 'attachment_2', 'attachment_1', 'attachmentX', 'a.b'];
		expect(matchingFields(names, 'attachment_*')).toEqual([
			'attachment_1',
			'attachment_2',
			'attachment_10',
		]);
		expect(matchingFields(names, '*')).toHaveLength(6);
		expect(matchingFields(['a.b', 'axb'], 'a.*')).toEqual(['a.b']);
		expect(matchingFields(names, 'invoice_*')).toEqual([]);
	});

	it('skips types the service does not read: an invite, a text or HTML part', () => {
		expect(notAnInvoiceBecause({ fileName: 'invite.ics', mimeType: 'text/calendar' })).toBe(
			'"invite.ics" (text/calendar) is not a type the service reads (PDF, JPG, PNG, JSON or CSV).',
		);
		expect(notAnInvoiceBecause({ fileName: 'body.html', mimeType: 'text/html' })).toMatch(
			/not a type the service reads/,
		);
		expect(notAnInvoiceBecause({ mimeType: 'text/plain' })).toMatch(/^The file without a name/);
	});

	it('skips empty files and images under 20 KB (too small to be an invoice page); keeps PDFs of any size', () => {
		expect(notAnInvoiceBecause({ fileName: 'a.pdf', bytes: 0 })).toBe('"a.pdf" is empty.');
		expect(notAnInvoiceBecause({ fileName: 'logo.png', bytes: 3_200 })).toBe(
			'"logo.png" is an image of 3.1 KB, too small to be an invoice page (a logo or a signature image).',
		);
		expect(notAnInvoiceBecause({ fileName: 'scan.jpg', bytes: 20 * 1024 - 1 })).toMatch(
			/too small to be an invoice page/,
		);
		expect(notAnInvoiceBecause({ fileName: 'scan.jpg', bytes: 20 * 1024 })).toBeUndefined();
		expect(notAnInvoiceBecause({ fileName: 'tiny.pdf', bytes: 900 })).toBeUndefined();
		expect(notAnInvoiceBecause({ fileName: 'logo.png' })).toBeUndefined();
	});

	it("keeps the input's fields a flow routes on, without long texts such as an email's body", () => {
		expect(
			sourceFields({
				from: 'ap@example.com',
				subject: 'Invoices October',
				messageId: '<m1@example.com>',
				html: 'x'.repeat(5000),
				attachments: 2,
			}),
		).toEqual({
			from: 'ap@example.com',
			subject: 'Invoices October',
			messageId: '<m1@example.com>',
			attachments: 2,
		});
	});
});
