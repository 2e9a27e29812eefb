/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * Month-end batches (N44) through n8n's engine: Extract uploads several documents at once, never more
 * than Parallel Uploads (the tier's default without the option) nor more files than 64 MiB holds (a
 * file read whole counts twice its size, a streamed one its pieces; one costing more goes alone), and still
 * outputs in input order with each item's pairedItem; one failing document fails alone with Continue
 * On Fail; the same file twice in a batch is uploaded once.
 */
import { describe, expect, it } from 'vitest';

import {
	extractParameters,
	file,
	itemWithFile,
	pdfBytes,
	pdfItem,
	serviceWouldAnswer,
	useNodeHarness,
	VERIFIED,
} from '../../../../../harness/fixtures.ts';
import { parseMultipart } from '../../../../../harness/index.ts';

const { harness, service } = useNodeHarness();

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** A latency: the answer waits until all `count` uploads are in flight together, or 10 s when they never are. */
const UNTIL_ALL_IN_FLIGHT = -1;

/** The service, answering each upload after `latencyMs(fileName)` with a document named after the file. */
function serviceWithLatency(
	count: number,
	latencyMs: (fileName: string) => number,
	status: (fileName: string) => number = () => 200,
) {
	const names = new Set<string>();
	/** The files in flight as each upload arrived, that one among them. */
	const together: string[][] = [];
	const seen = { inFlight: 0, mostInFlight: 0, together };
	let allInFlight = () => {};
	const allArrived = new Promise<void>((resolve) => (allInFlight = resolve));
	service().answerEach('POST', '/v1/extract', count, async (body, headers) => {
		const [part] = parseMultipart(body, headers['content-type']).filter(
			(entry) => entry.name === 'file',
		);
		const fileName = String(part.filename);
		seen.inFlight++;
		seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
		names.add(fileName);
		together.push([...names]);
		if (seen.inFlight === count) allInFlight();
		const latency = latencyMs(fileName);
		if (latency === UNTIL_ALL_IN_FLIGHT) await Promise.race([allArrived, sleep(10_000)]);
		else await sleep(latency);
		seen.inFlight--;
		names.delete(fileName);
		const code = status(fileName);
		return code === 200
			? { status: 200, body: { ...VERIFIED, document_id: `doc_${fileName.replace('.pdf', '')}` } }
			: {
					status: code,
					body: { success: false, error: { code: 'invalid_file', message: 'unreadable' } },
				};
	});
	return seen;
}

const batch = (count: number) =>
	Array.from({ length: count }, (_, index) => pdfItem(1500, index + 1, `n${index}.pdf`));

describe('Parallel Uploads', () => {
	it('at most Parallel Uploads at once; outputs in input order with their pairedItem, though later ones finish first', async () => {
		const seen = serviceWithLatency(7, (name) => (7 - Number(name.slice(1, 2))) * 20);
		const result = await harness().run({
			parameters: extractParameters({ options: { parallelUploads: 3 } }),
			items: batch(7),
			credentials: { tier: 'growth' },
		});
		expect(seen.mostInFlight).toBe(3);
		const [verified] = result.outputs();
		expect(verified.map((item) => [item.json.document_id, item.pairedItem])).toEqual(
			Array.from({ length: 7 }, (_, index) => [`doc_n${index}`, { item: index }]),
		);
		expect(service().requestsTo('/v1/extract')).toHaveLength(7);
	});

	it("without the option, the tier's default: Growth several at once, Pilot one at a time", async () => {
		const growth = serviceWithLatency(10, () => 30);
		await harness().run({
			parameters: extractParameters(),
			items: batch(10),
			credentials: { tier: 'growth' },
		});
		expect(growth.mostInFlight).toBe(8);

		const pilot = serviceWithLatency(3, () => 30);
		const result = await harness().run({
			parameters: extractParameters(),
			items: batch(3),
			credentials: { tier: 'pilot' },
		});
		expect(pilot.mostInFlight).toBe(1);
		expect(result.outputs()[0]).toHaveLength(3);
	});

	it('a run of 20 files reads the credential once (each read is a database query and a decryption in n8n)', async () => {
		for (let i = 0; i < 20; i++)
			service().on('POST', '/v1/extract', { status: 200, body: VERIFIED });
		const items = Array.from({ length: 20 }, (_, i) => itemWithFile(pdfBytes(1500, 600 + i)));
		await harness().run({ parameters: extractParameters(), items });
		expect(service().requestsTo('/v1/extract')).toHaveLength(20);
		expect(harness().credentialsHelper.reads).toBe(1);
	});

	it('with Continue On Fail, one document that fails is alone on Needs Review with its pairedItem; the others go on', async () => {
		serviceWithLatency(
			5,
			() => 10,
			(name) => (name === 'n2.pdf' ? 400 : 200),
		);
		const result = await harness().run({
			parameters: extractParameters({ options: { parallelUploads: 4 } }),
			items: batch(5),
			credentials: { tier: 'growth' },
			continueOnFail: true,
		});
		const [verified, needsReview] = result.outputs();
		expect(verified.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 3 },
			{ item: 4 },
		]);
		expect(needsReview).toHaveLength(1);
		expect(needsReview[0].pairedItem).toEqual({ item: 2 });
		expect(needsReview[0].json).toMatchObject({
			error: expect.stringContaining('(400) while trying to extract "n2.pdf"'),
			ready_to_post: false,
		});
	});

	it('without Continue On Fail, a failing document fails the node', async () => {
		serviceWithLatency(
			2,
			() => 10,
			(name) => (name === 'n1.pdf' ? 400 : 200),
		);
		const result = await harness().run({
			parameters: extractParameters({ options: { parallelUploads: 2 } }),
			items: batch(2),
			credentials: { tier: 'growth' },
		});
		expect(result.error()?.message).toContain('(400) while trying to extract "n1.pdf"');
	});

	it('the same file twice in a batch (Skip Files Already Submitted): one upload, the copy on Already Submitted with its document_id', async () => {
		serviceWithLatency(2, () => 40);
		const same = pdfBytes(2500, 42);
		const result = await harness().run({
			parameters: extractParameters({ options: { parallelUploads: 4, skipDuplicates: true } }),
			items: [
				itemWithFile(same, 'n0.pdf'),
				pdfItem(2500, 43, 'n1.pdf'),
				itemWithFile(same, 'n2.pdf'),
			],
			credentials: { tier: 'growth' },
		});
		expect(service().requestsTo('/v1/extract')).toHaveLength(2);
		const [verified, , alreadySubmitted] = result.outputs();
		expect(verified.map((item) => item.json.document_id)).toEqual(['doc_n0', 'doc_n1']);
		expect(alreadySubmitted.map((item) => [item.json.document_id, item.pairedItem])).toEqual([
			['doc_n0', { item: 2 }],
		]);
	});
});

describe('Files in flight', () => {
	const MiB = 1024 * 1024;
	// Tens of MiB through n8n's engine and the mocked service take seconds on a busy machine.
	const bigItem = (mebibytes: number, seed: number) =>
		itemWithFile(
			Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(mebibytes * MiB, seed)]),
			`big${seed}.pdf`,
		);

	it('files read whole (here from the item) count twice their size: no more than 64 MiB holds, whatever Parallel Uploads says', async () => {
		await harness().useBinaryMode('default');
		const seen = serviceWithLatency(3, () => 300);
		// Three files of 12 MiB, 24 MiB each in the budget: two fit in 64 MiB, three do not.
		const result = await harness().run({
			parameters: extractParameters({ options: { parallelUploads: 3 } }),
			items: [1, 2, 3].map((seed) => bigItem(12, seed)),
			credentials: { tier: 'enterprise' },
		});
		expect(result.outputs()[0]).toHaveLength(3);
		expect(seen.mostInFlight).toBe(2);
	}, 30_000);

	it('a file costing more than 64 MiB goes alone, the others before and after it together', async () => {
		await harness().useBinaryMode('default');
		const seen = serviceWithLatency(5, () => 300);
		// 33 MiB read whole costs 66 MiB: nothing else is in flight beside it.
		const items = [pdfItem(1500, 1, 'a.pdf'), pdfItem(1500, 2, 'b.pdf'), bigItem(33, 3)];
		items.push(pdfItem(1500, 4, 'c.pdf'), pdfItem(1500, 5, 'd.pdf'));
		const result = await harness().run({
			parameters: extractParameters({ options: { parallelUploads: 5 } }),
			items,
			credentials: { tier: 'enterprise' },
		});
		expect(result.outputs()[0]).toHaveLength(5);
		const withBig = seen.together.filter((names) => names.includes('big3.pdf'));
		expect(withBig).toEqual([['big3.pdf']]);
		expect(seen.mostInFlight).toBe(2);
	}, 30_000);

	it('streamed files (filesystem mode) count the pieces they hold, not their size: large ones go together', async () => {
		// Answered only once all three are in flight: an upload's time on a busy machine does not matter.
		const seen = serviceWithLatency(3, () => UNTIL_ALL_IN_FLIGHT);
		// Three files of 22 MiB streamed from disk, 512 KiB each in the budget.
		const result = await harness().run({
			parameters: extractParameters({ options: { parallelUploads: 3 } }),
			items: [1, 2, 3].map((seed) => bigItem(22, seed)),
			credentials: { tier: 'enterprise' },
		});
		expect(result.outputs()[0]).toHaveLength(3);
		expect(seen.mostInFlight).toBe(3);
	}, 30_000);
});

describe('Every file of an item (Input Binary Field attachment_*)', () => {
	const email = () => ({
		json: { from: 'billing@acme.example', subject: 'Invoices October', html: 'x'.repeat(3000) },
		binary: {
			attachment_0: file(pdfBytes(3000, 61), 'invoice-1.pdf', 'application/pdf'),
			attachment_1: file(Buffer.alloc(2048, 1), 'logo.png', 'image/png'),
			attachment_2: file(pdfBytes(3000, 62), 'invoice-2.pdf', 'application/pdf'),
			attachment_3: file(Buffer.from('BEGIN:VCALENDAR'), 'invite.ics', 'text/calendar'),
		},
	});

	it('each invoice its own extraction and item, paired with the email; the logo and the invite skipped with reasons, never uploaded', async () => {
		serviceWithLatency(2, () => 10);
		const result = await harness().run({
			parameters: extractParameters({ binaryPropertyName: 'attachment_*' }),
			items: [email()],
			typeVersion: 1.2,
		});
		expect(service().requestsTo('/v1/extract')).toHaveLength(2);
		const [verified, needsReview, skipped] = result.outputs();
		expect(needsReview).toEqual([]);
		expect(
			verified.map((item) => [
				item.json.document_id,
				item.json.file_name,
				item.json.binary_field,
				item.pairedItem,
				item.binary?.data?.fileName,
			]),
		).toEqual([
			['doc_invoice-1', 'invoice-1.pdf', 'attachment_0', { item: 0 }, 'invoice-1.pdf'],
			['doc_invoice-2', 'invoice-2.pdf', 'attachment_2', { item: 0 }, 'invoice-2.pdf'],
		]);
		expect(verified[0].json.source).toEqual({
			from: 'billing@acme.example',
			subject: 'Invoices October',
		});
		expect(skipped.map((item) => [item.json.file_name, item.json.skipped_because])).toEqual([
			['logo.png', expect.stringContaining('too small to be an invoice page')],
			['invite.ics', expect.stringContaining('not a type the service reads')],
		]);
		expect(skipped.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('the same email fetched again: nothing new uploaded (Skip Files Already Submitted)', async () => {
		serviceWithLatency(2, () => 10);
		const parameters = extractParameters({
			binaryPropertyName: 'attachment_*',
			options: { skipDuplicates: true },
		});
		await harness().run({ parameters, items: [email()], typeVersion: 1.2 });
		const again = await harness().run({ parameters, items: [email()], typeVersion: 1.2 });
		expect(service().requestsTo('/v1/extract')).toHaveLength(2);
		const [, , alreadySubmitted, skipped] = again.outputs();
		expect(alreadySubmitted.map((item) => item.json.file_name)).toEqual([
			'invoice-1.pdf',
			'invoice-2.pdf',
		]);
		expect(skipped).toHaveLength(2);
	});

	it('an item without a matching file is one skipped item saying which fields it has', async () => {
		serviceWouldAnswer(service());
		const result = await harness().run({
			parameters: extractParameters({ binaryPropertyName: 'attachment_*' }),
			items: [pdfItem(1000, 1, 'a.pdf')],
		});
		const [, , skipped] = result.outputs();
		expect(skipped.map((item) => item.json.skipped_because)).toEqual([
			'No file of the item matches "attachment_*" (its binary fields: data).',
		]);
		expect(service().requestsTo('/v1/extract')).toEqual([]);
	});
});

describe('Detect Same Invoice in a parallel batch', () => {
	it('one invoice in two files: the later item is the Possible Duplicate, though its upload finished first', async () => {
		const acme = {
			header: { vendor: 'Acme Supplies GmbH', date: '2026-10-02', invoice_no: 'INV-7' },
			amounts: { subtotal: 40, tax: 0, total: 40 },
			line_items: [{ description: 'Paper', quantity: 1, unit_price: 40, amount: 40 }],
		};
		service().answerEach('POST', '/v1/extract', 2, async (body, headers) => {
			const [part] = parseMultipart(body, headers['content-type']).filter(
				(entry) => entry.name === 'file',
			);
			const first = part.filename === 'n0.pdf';
			await sleep(first ? 80 : 5);
			return {
				status: 200,
				body: {
					...VERIFIED,
					document_id: first ? 'doc_pdf' : 'doc_scan',
					extracted_json: acme,
				},
			};
		});
		const result = await harness().run({
			parameters: extractParameters({ options: { detectSameInvoice: true, parallelUploads: 2 } }),
			items: batch(2),
			credentials: { tier: 'growth' },
		});
		const [verified, , possibleDuplicate] = result.outputs();
		expect(verified.map((item) => [item.json.document_id, item.pairedItem])).toEqual([
			['doc_pdf', { item: 0 }],
		]);
		expect(
			possibleDuplicate.map((item) => [item.json.possible_duplicate_of, item.pairedItem]),
		).toEqual([['doc_pdf', { item: 1 }]]);
	});
});
