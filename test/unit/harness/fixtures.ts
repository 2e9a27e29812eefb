/** Service answers (shaped as in the spec) and files shared by the node tests. */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import nock from 'nock';

import type { FixtureFile, FixtureItem, Harness, RunOptions, RunResult } from './index.ts';
import { BASE_URL, disposeRuntime, ServiceMock, setupHarness } from './index.ts';
import { EXTRACTED } from './invoices.ts';

export { EXTRACTED };

export const DOCUMENT_ID = 'doc_7h3k9m2p4q8r1s5t6v0w';
export const REVIEW_ID = 'rev_2b4d6f8h0j1l3n5p7r9t';

export const VERIFIED = {
	success: true,
	status: 'verified',
	confidence: 0.98,
	document_id: DOCUMENT_ID,
	extracted_json: EXTRACTED,
	verified_by: 'ai_auto',
};

export const NEEDS_REVIEW = {
	success: true,
	status: 'needs_review',
	confidence: 0.71,
	document_id: DOCUMENT_ID,
	review_id: REVIEW_ID,
};

export const PROCESSING = { success: true, status: 'processing', document_id: DOCUMENT_ID };

export const serviceError = (code: string, message: string) => ({
	success: false,
	error: { code, message },
});

/** Deterministic bytes that are not valid UTF-8 (so they cannot pass as text anywhere). */
export function pseudoRandomBytes(length: number, seed = 0x2545f491): Buffer {
	const bytes = Buffer.allocUnsafe(length);
	let state = seed >>> 0 || 1;
	for (let i = 0; i < length; i++) {
		state ^= state << 13;
		state >>>= 0;
		state ^= state >>> 17;
		state ^= state << 5;
		state >>>= 0;
		bytes[i] = state & 0xff;
	}
	return bytes;
}

/** A PDF-looking file: the %PDF- header followed by binary bytes. */
export function pdfBytes(length = 4096, seed?: number): Buffer {
	const header = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
	return Buffer.concat([header, pseudoRandomBytes(Math.max(0, length - header.length), seed)]);
}

export function file(
	content: Buffer,
	fileName = 'invoice.pdf',
	mimeType = 'application/pdf',
): FixtureFile {
	return { content, fileName, mimeType };
}

export function itemWithFile(content: Buffer, fileName?: string, mimeType?: string): FixtureItem {
	return {
		json: { source: fileName ?? 'invoice.pdf' },
		binary: { data: file(content, fileName, mimeType) },
	};
}

/** An item carrying a PDF-looking file of `length` bytes (see pdfBytes) named `fileName`. */
export const pdfItem = (length?: number, seed?: number, fileName?: string): FixtureItem =>
	itemWithFile(pdfBytes(length, seed), fileName);

export const extractParameters = (extra: Record<string, unknown> = {}) => ({
	resource: 'document',
	operation: 'extract',
	...extra,
});

/** Extract (with these parameters) over one item carrying a PDF. */
export const extractOnePdf = (extra: Record<string, unknown> = {}) => ({
	parameters: extractParameters(extra),
	items: [pdfItem()],
});

/**
 * Sets up a file of node tests: one harness, nock refusing real network, every test starting with
 * a fresh service and checking that nothing reached the network unexpected.
 */
export function useNodeHarness(): { harness: () => Harness; service: () => ServiceMock } {
	let harness: Harness | undefined;
	let service: ServiceMock | undefined;
	beforeAll(async () => {
		nock.disableNetConnect();
		harness = await setupHarness();
	});
	beforeEach(async () => {
		ServiceMock.reset();
		harness!.reset();
		await harness!.useBinaryMode('filesystem');
		service = new ServiceMock(BASE_URL);
	});
	afterEach(() => {
		expect(ServiceMock.unmatched(), 'requests nobody expected').toEqual([]);
		ServiceMock.reset();
	});
	afterAll(() => {
		nock.enableNetConnect();
		disposeRuntime();
	});
	return { harness: () => harness!, service: () => service! };
}

/** Answers that would be given if a request did come, so a stray request cannot hide as an error. */
export function serviceWouldAnswer(service: ServiceMock): void {
	service
		.on('POST', '/v1/extract', { status: 200, body: VERIFIED })
		.on('GET', '/v1/status/doc_x', { status: 200, body: { status: 'verified' } });
}

/** Nothing reached the service: no request, and both prepared answers still unused. */
export function expectNothingSent(service: ServiceMock): void {
	expect(service.requests).toEqual([]);
	expect(service.pending()).toHaveLength(2);
}

/**
 * Runs Source -> Document Extraction with the service ready to answer (serviceWouldAnswer) and checks
 * that nothing reached it: for input the node refuses itself. The run's result, for its error.
 */
export async function runRefusedBeforeSending(
	harness: Harness,
	service: ServiceMock,
	options: RunOptions,
): Promise<RunResult> {
	serviceWouldAnswer(service);
	const result = await harness.run(options);
	expectNothingSent(service);
	return result;
}
