// Register Entry through n8n's engine: whichever item reaches it, one register row out, paired to
// its input; nothing sent to any service.
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useNodeHarness } from '../../../../harness/fixtures.ts';

const { harness, service } = useNodeHarness();

async function run(parameters: IDataObject, item: IDataObject) {
	return harness().run({
		parameters: { resource: 'document', operation: 'registerEntry', ...parameters },
		items: [{ json: item }],
		typeVersion: 1.3,
	});
}

describe('Register Entry', () => {
	it("reads a look-up's row with the invoice given, paired to its input item", async () => {
		const result = await run(
			{
				books: 'QuickBooks',
				invoice: JSON.stringify({
					vendor: 'Acme Inc',
					invoice_no: 'INV-7',
					duplicate: true,
					possible_duplicate_of: 'doc_0',
				}),
			},
			{ register_key: '12', state: 'awaiting approval: step 1 of 1, approver', bill_id: '' },
		);
		const [row] = result.output();
		expect(row.json).toMatchObject({
			state: 'possible duplicate',
			duplicate_of: '12',
			supplier: 'Acme Inc',
			invoice_no: 'INV-7',
		});
		expect(String(row.json.detail)).toContain(
			'earlier: execution 12, awaiting approval: step 1 of 1, approver',
		);
		expect(row.pairedItem).toEqual({ item: 0 });
		expect(service().requests).toEqual([]);
	});

	it("saves the outcome as the execution's custom data, unless turned off", async () => {
		const item = { vendor: 'Acme Inc', invoice_no: 'INV-7', skipped_because: 'x'.repeat(300) };
		const recorded = await run({}, item);
		expect(recorded.run.data.resultData.metadata).toEqual({
			outcome: 'not an invoice',
			invoice: 'Acme Inc INV-7',
			document_id: '',
			decision: '',
			decided_by: '',
			decided_at: '',
			escalated_to: '',
			reason: 'x'.repeat(255),
		});
		const unrecorded = await run({ recordOnExecution: false }, item);
		expect(unrecorded.run.data.resultData.metadata ?? {}).toEqual({});
	});

	it('names the file on the execution when nothing was read from it (a repeated file)', async () => {
		const result = await run(
			{
				invoice: JSON.stringify({
					status: 'already_submitted',
					document_id: null,
					file_name: 'STALL-1-1.pdf',
				}),
			},
			{},
		);
		expect(result.run.data.resultData.metadata).toMatchObject({
			outcome: 'already submitted',
			invoice: 'STALL-1-1.pdf',
		});
	});

	it('says what to set when Invoice is not a JSON object', async () => {
		const result = await run({ invoice: '[1, 2]' }, {});
		expect(result.error()?.message).toContain(
			"Invoice is not a JSON object: set it to an expression such as {{ $('Settings').first().json }}",
		);
	});
});
