import { describe, expect, it } from 'vitest';

import {
	documentIdProblem,
	documentKind,
	httpsUrlProblem,
	uploadFileName,
} from '../../../../../nodes/DocumentExtraction/actions/validation.ts';
import { parseMultipart } from '../../../harness/index.ts';
import {
	extractParameters,
	itemWithFile,
	pseudoRandomBytes,
	useNodeHarness,
	VERIFIED,
} from '../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

describe('documentIdProblem (D4)', () => {
	it.each([
		'doc_a',
		'doc_abc123',
		'doc_A-b_C',
		`doc_${'x'.repeat(120)}`,
		'  doc_trimmed  ',
		'doc_credentialtest0000000000',
	])('accepts %j', (id) => {
		expect(documentIdProblem(id)).toBeUndefined();
	});

	it.each([
		'doc_',
		'doc',
		'DOC_abc',
		'rev_abc',
		'../x',
		'doc_a/b',
		'doc_a\\b',
		'doc_%2F',
		'doc_a.b',
		'doc_a b',
		'doc_a?x=1',
		'doc_a#x',
		'doc_é',
		`doc_${'x'.repeat(121)}`,
	])('refuses %j', (id) => {
		expect(documentIdProblem(id)).toMatch(/is not a document ID/);
	});

	it.each([undefined, null, 42, '', '   '])('%j is reported as empty', (id) => {
		expect(documentIdProblem(id)).toMatch(/^The Document ID is empty/);
	});

	it('a long bad value is shortened in the message', () => {
		const problem = documentIdProblem(`doc_${'/'.repeat(196)}`);
		expect(problem).toContain(`"doc_${'/'.repeat(56)}..."`);
		expect(problem!.length).toBeLessThan(300);
	});
});

describe('httpsUrlProblem (spec Delivery rules 1)', () => {
	it.each([
		'https://example.com/hook',
		'https://example.com:8443/a/b?c=d',
		' https://example.com ',
	])('accepts %j', (url) => {
		expect(httpsUrlProblem(url, 'URL')).toBeUndefined();
	});

	it.each([
		['http://example.com', /must use https:\/\/.*"http:\/\/\.\.\."/],
		['HTTP://example.com', /must use https/],
		['ftp://example.com', /must use https/],
		['example.com/hook', /is not a valid URL/],
		['https://', /is not a valid URL/],
		['https://user:secret@example.com', /must not contain a user name or password/],
		['', /is empty/],
		[undefined, /is empty/],
	])('refuses %j', (url, message) => {
		expect(httpsUrlProblem(url, 'The field')).toMatch(message);
		expect(httpsUrlProblem(url, 'The field')).toMatch(/^The field /);
	});

	it('does not repeat credentials of a refused URL in the message', () => {
		expect(httpsUrlProblem('https://user:secret@example.com', 'URL')).not.toContain('secret');
	});
});

describe('documentKind (N4: extension first, then MIME type)', () => {
	it.each([
		['a.pdf', undefined, 'pdf'],
		['A.PDF', 'application/octet-stream', 'pdf'],
		['photo.jpeg', undefined, 'jpg'],
		['photo.JPG', undefined, 'jpg'],
		['x.png', 'application/pdf', 'png'],
		['data.json', undefined, 'json'],
		['lines.csv', undefined, 'csv'],
		['scan', 'image/png', 'png'],
		[undefined, 'application/pdf; charset=binary', 'pdf'],
		['noext', 'IMAGE/JPEG', 'jpg'],
		['report.txt', 'text/csv', 'csv'],
		['x.', 'application/json', 'json'],
	])('%j + %j -> %s', (fileName, mimeType, kind) => {
		expect(documentKind(fileName, mimeType)).toBe(kind);
	});

	it.each([
		['report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
		['notes.txt', 'text/plain'],
		['image.gif', 'image/gif'],
		['noext', 'application/octet-stream'],
		[undefined, undefined],
		['pdf', undefined],
	])('%j + %j -> unsupported', (fileName, mimeType) => {
		expect(documentKind(fileName, mimeType)).toBeUndefined();
	});
});

describe('the type a file is uploaded with', () => {
	it.each([
		['invoice.pdf', 'application/pdf'],
		['photo.jpeg', 'image/jpeg'],
		['scan.png', 'image/png'],
		['invoice.json', 'application/json'],
		['lines.csv', 'text/csv'],
	])(
		'%s that n8n labels application/octet-stream is uploaded as %s, the type the service reads',
		async (fileName, contentType) => {
			service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
			const result = await harness().run({
				parameters: extractParameters(),
				items: [itemWithFile(pseudoRandomBytes(2048), fileName, 'application/octet-stream')],
			});
			expect(result.error()).toBeUndefined();
			const [request] = service().requests;
			const filePart = parseMultipart(request.body, request.headers['content-type']).find(
				(part) => part.name === 'file',
			);
			expect(filePart?.contentType).toBe(contentType);
		},
	);
});

describe('uploadFileName', () => {
	it.each([
		['invoice.pdf', 'pdf', 'invoice.pdf'],
		['Invoice.PDF', 'pdf', 'Invoice.PDF'],
		['scan', 'png', 'scan.png'],
		['notes.txt', 'csv', 'notes.txt.csv'],
		['photo.jpeg', 'jpg', 'photo.jpeg'],
		['../../etc/passwd.pdf', 'pdf', 'passwd.pdf'],
		['C:\\Users\\me\\a.pdf', 'pdf', 'a.pdf'],
		['dir/', 'pdf', 'document.pdf'],
		['bad"name\r\n.pdf', 'pdf', 'bad_name__.pdf'],
		['back\u0000slash.pdf', 'pdf', 'back_slash.pdf'],
		[undefined, 'json', 'document.json'],
		['   ', 'csv', 'document.csv'],
	] as const)('%j as %s -> %j', (fileName, kind, expected) => {
		expect(uploadFileName(fileName, kind)).toBe(expected);
	});

	it('bounds the length to 200 characters and keeps the extension', () => {
		const name = uploadFileName(`${'n'.repeat(300)}.pdf`, 'pdf');
		expect(name).toHaveLength(200);
		expect(name.endsWith('.pdf')).toBe(true);
		expect(documentKind(name, undefined)).toBe('pdf');
	});
});
