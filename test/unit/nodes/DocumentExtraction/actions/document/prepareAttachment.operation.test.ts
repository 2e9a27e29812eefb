// Prepare Attachment through n8n's engine: a created QuickBooks bill and its original in, the item
// QuickBooks' upload takes out (the file and the Attachable linking it); nothing sent to any service.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { itemWithFile, pdfBytes, useNodeHarness } from '../../../../harness/fixtures.ts';
import { Container, n8nCore } from '../../../../harness/index.ts';

const { harness, service } = useNodeHarness();

const created = {
	verdict: 'created',
	attach: true,
	entity: 'bill',
	attachment_name: 'INV <1001>.pdf',
	books_bill: { id: 145, number: 'INV-1001' },
};

async function run(bill: IDataObject, originalFile = '={{ $binary.data }}') {
	const bytes = pdfBytes(3000);
	const result = await harness().run({
		parameters: {
			resource: 'document',
			operation: 'prepareAttachment',
			bill: '={{ $json }}',
			originalFile,
		},
		items: [{ ...itemWithFile(bytes, 'INV 1001.pdf'), json: bill }],
		typeVersion: 1.3,
	});
	return { result, bytes };
}

const stored = (file: unknown) =>
	Container.get(n8nCore.BinaryDataService).getAsBuffer(file as never);

describe('Prepare Attachment', () => {
	it("puts the original and QuickBooks' Attachable for the created bill on one item", async () => {
		const { result, bytes } = await run(created);
		const [[attach], nothing] = result.outputs();
		expect(nothing).toEqual([]);
		expect(attach.json).toEqual({ bill_id: '145', attachment_name: 'INV <1001>.pdf' });
		expect(attach.pairedItem).toEqual({ item: 0 });
		expect(JSON.parse((await stored(attach.binary!.file_metadata)).toString())).toEqual({
			AttachableRef: [{ EntityRef: { type: 'Bill', value: '145' } }],
			FileName: 'INV <1001>.pdf',
			ContentType: 'application/pdf',
		});
		expect(attach.binary!.file_metadata).toMatchObject({
			fileName: 'attachable.json',
			mimeType: 'application/json',
		});
		expect((await stored(attach.binary!.data)).equals(bytes)).toBe(true);
		expect(service().requests).toEqual([]);
	});

	it('links a vendor credit as a VendorCredit', async () => {
		const { result } = await run({ ...created, entity: 'vendorcredit' });
		const [[attach]] = result.outputs();
		expect(JSON.parse((await stored(attach.binary!.file_metadata)).toString())).toMatchObject({
			AttachableRef: [{ EntityRef: { type: 'VendorCredit', value: '145' } }],
		});
	});

	it('passes the bill on to Nothing To Attach when Build Bill said not to, or no file is given', async () => {
		for (const [bill, originalFile] of [
			[{ ...created, attach: false }, undefined],
			[created, '={{ {} }}'],
		] as const) {
			const { result } = await run(bill, originalFile);
			const [attach, [nothing]] = result.outputs();
			expect(attach).toEqual([]);
			expect(nothing.json).toEqual(bill);
		}
	});

	it('says what to set when Original File is not JSON', async () => {
		const { result } = await run(created, 'not json');
		expect(result.error()?.message).toContain('Original File is not JSON');
	});
});
