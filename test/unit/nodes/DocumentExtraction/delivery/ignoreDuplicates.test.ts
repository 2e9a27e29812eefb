// Ignore Duplicates, decided in the trigger's execution step (N63): each event's items are claimed in
// the workflow's deduplication store (memory/claims.ts); only what the run claimed first goes on.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { firstTimeEvents } from '../../../../../nodes/DocumentExtraction/delivery/ignoreDuplicates.ts';
import { fakeExecuteContext } from '../../../harness/fakeExecuteContext.ts';

const event = (documentId: string, extra: IDataObject = {}): INodeExecutionData => ({
	json: { event: 'document.verified', document_id: documentId, ...extra },
});

/** A run of the trigger's execution step in `mode`, on `store` when given (another run's store). */
function run(
	items: INodeExecutionData[],
	options: { mode?: string; ignoreDuplicates?: boolean; sharing?: IExecuteFunctions } = {},
) {
	const fake = fakeExecuteContext({
		inputItems: items,
		parameters:
			options.ignoreDuplicates === undefined
				? {}
				: { options: { ignoreDuplicates: options.ignoreDuplicates } },
	});
	const context = {
		...fake.context,
		getMode: () => options.mode ?? 'webhook',
		...(options.sharing ? { helpers: options.sharing.helpers } : {}),
	} as unknown as IExecuteFunctions;
	return {
		context,
		store: fake.store,
		logs: fake.logs,
		output: async () => await firstTimeEvents(context),
	};
}

const ids = (items: INodeExecutionData[]) => items.map((item) => item.json.document_id);

describe("the event key, as the workflow's deduplication store keeps it (past runs depend on it)", () => {
	it("names the event and the document; test listening's keys are stored as a manual run's", async () => {
		const production = run([event('doc_1')]);
		await production.output();
		expect([...production.store]).toEqual(['event:production:document.verified:doc_1']);
		const test = run([event('doc_1')], { mode: 'manual' });
		await test.output();
		expect([...test.store]).toEqual(['test:event:production:document.verified:doc_1']);
	});

	it('none without an event or a document, and none for the sample event: they go on, unclaimed', async () => {
		const unnamed = run(
			[
				{ json: { document_id: 'doc_1' } },
				{ json: { event: 'document.verified', document_id: '' } },
				{ json: { event: 'document.verified', document_id: 7 } },
				event('doc_sample_1', { sample: true }),
			],
			{ mode: 'manual' },
		);
		expect(await unnamed.output()).toHaveLength(4);
		expect([...unnamed.store]).toEqual([]);
	});
});

describe('the first time an event runs', () => {
	it('the first run goes on; a later one of the same event stops with no items, logged', async () => {
		const first = run([event('doc_1')]);
		expect(ids(await first.output())).toEqual(['doc_1']);
		expect([...first.store]).toEqual(['event:production:document.verified:doc_1']);
		const copy = run([event('doc_1')], { sharing: first.context });
		expect(await copy.output()).toEqual([]);
		expect(copy.logs).toContain(
			'info: Document Extraction Trigger: ignored a duplicate event:production:document.verified:doc_1',
		);
	});

	it('two runs of one event at the same moment: exactly one goes on', async () => {
		const first = run([event('doc_2')]);
		const second = run([event('doc_2')], { sharing: first.context });
		const outputs = await Promise.all([first.output(), second.output()]);
		expect(outputs.map((items) => items.length).sort()).toEqual([0, 1]);
	});

	it('a copy whose event another process claimed while this one was claiming stops with no items: one run between the processes', async () => {
		const copy = run([event('doc_8')]);
		const { checkProcessedAndRecord } = copy.context.helpers;
		let calls = 0;
		// Before this run's confirming write, the other process's write replaced the row with its own
		// claim of the event: the key is there, this run's token is not.
		copy.context.helpers.checkProcessedAndRecord = async (...call) => {
			if (calls++ === 1)
				for (const value of [...copy.store])
					if (!value.startsWith('event:')) copy.store.delete(value);
			return await checkProcessedAndRecord(...call);
		};
		expect(await copy.output()).toEqual([]);
		expect(copy.logs.join('\n')).toContain(
			'ignored a duplicate event:production:document.verified:doc_8',
		);
	});

	it('another event of the same document, or another document, is new', async () => {
		const first = run([event('doc_3')]);
		await first.output();
		const rejected = run([{ json: { event: 'document.rejected', document_id: 'doc_3' } }], {
			sharing: first.context,
		});
		expect(ids(await rejected.output())).toEqual(['doc_3']);
		expect(ids(await run([event('doc_4')], { sharing: first.context }).output())).toEqual([
			'doc_4',
		]);
	});

	it('test listening (manual) and production keep their own: neither takes the other one’s event', async () => {
		const production = run([event('doc_5')]);
		expect(ids(await production.output())).toEqual(['doc_5']);
		const test = run([event('doc_5')], { mode: 'manual', sharing: production.context });
		expect(ids(await test.output())).toEqual(['doc_5']);
	});

	it('Split Line Items: every item of one event goes on together, and none of a copy', async () => {
		const lines = [1, 2, 3].map((line) => event('doc_6', { line_number: line }));
		const first = run(lines);
		expect((await first.output()).map((item) => item.json.line_number)).toEqual([1, 2, 3]);
		expect(await run(lines, { sharing: first.context }).output()).toEqual([]);
	});

	it('the sample event and an item without a document go on without a claim', async () => {
		const sample = event('doc_sample_1', { sample: true });
		const bare = { json: { event: 'document.verified' } };
		const first = run([sample, bare], { mode: 'manual' });
		expect(await first.output()).toEqual([sample, bare]);
		expect(first.store.size).toBe(0);
	});

	it("n8n's store failing once on the confirming write (a pool timeout): the execution fails, and its retry runs the event", async () => {
		const first = run([event('doc_9')]);
		const { checkProcessedAndRecord } = first.context.helpers;
		let calls = 0;
		first.context.helpers.checkProcessedAndRecord = async (...call) => {
			if (++calls === 2) throw new Error('timeout exceeded when trying to connect');
			return await checkProcessedAndRecord(...call);
		};
		const failure = await first.output().catch((error: Error) => error);
		expect(first.store.size).toBe(0);
		const retry = run([event('doc_9')], { sharing: first.context });
		first.context.helpers.checkProcessedAndRecord = checkProcessedAndRecord;
		expect(ids(await retry.output())).toEqual(['doc_9']);
		expect((failure as Error).message).toBe('Could not tell whether this event already ran');
	});

	it('Ignore Duplicates off: every item goes on, and the store is not touched', async () => {
		const off = run([event('doc_7'), event('doc_7')], { ignoreDuplicates: false });
		expect(ids(await off.output())).toEqual(['doc_7', 'doc_7']);
		expect(off.store.size).toBe(0);
	});
});
