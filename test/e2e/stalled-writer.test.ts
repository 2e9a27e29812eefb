/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n; it reads the workers' logs and prints its figures */
// A writer of the deduplication store held up in the database far beyond the claim's settle delay,
// measured on the real queue stack (docs/memory.md, "Remaining window"): the "Invoices from email to
// Xero, with approval" template (Postgres, Redis, two workers) with the Xero stand-in. Each invoice
// is the template's own execution from "Each attachment", started as its email path starts it
// (support/eachAttachment.ts).
// A trigger on n8n's `processed_data` table (support/writeStall.ts) holds one UPDATE, the first claim
// of one invoice on one worker, while more invoices start at once. The other worker's are claimed,
// confirmed and booked meanwhile; the held write then lands with the row it had read: every key they
// confirmed vanishes (figures to the log). The stalled worker's own invoices wait behind its claim and
// keep theirs. Sent again, every erased invoice passes n8n's memory and the books stop it: "Already
// in the books", one bill per invoice at the stand-in.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, executedNodes, log, type DecodedExecution } from '../../local-n8n/index.ts';
import { type XeroStandIn } from '../../local-n8n/accounting/index.ts';
import {
	publishXeroTemplate,
	type PublishedXeroTemplate,
} from './support/publishedXeroTemplate.ts';
import { publishEachAttachmentStarter } from './support/eachAttachment.ts';
import { postEmail, type Attachment } from './support/emailOfInvoices.ts';
import {
	useQueueFixture,
	waitForPublicWebhook,
	type QueueFixture,
} from './support/queueFixture.ts';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';
import { installWriteStall, storedValues, type WriteStall } from './support/writeStall.ts';

/** Invoices started at once during the stall (the queue hands them to both workers in turn). */
const AT_ONCE = 4;
/** Keys an invoice's execution confirms: its file (Extract), its identity and its document (Same invoice?). */
const KEYS_PER_INVOICE = 3;

let fixture: QueueFixture;
let published: PublishedXeroTemplate | undefined;
let xero: XeroStandIn;
let stall: WriteStall | undefined;
/** The template's workflow, and the workflow that starts its executions. */
const workflows: { template?: string; starter?: string } = {};
let starterPath: string;

/** A confident invoice file of its own supplier, under the approval threshold: booked as it comes. */
function invoice(invoiceNo: string): Attachment {
	const data = {
		header: { vendor: `Supplier of ${invoiceNo}`, date: '2026-11-06', invoice_no: invoiceNo },
		amounts: { subtotal: 100, tax: 19, total: 119 },
		line_items: [{ description: 'Paper', quantity: 1, unit_price: 100, amount: 100 }],
		confidence: 0.99,
	};
	return {
		invoiceNo,
		fileName: `${invoiceNo.toLowerCase()}.json`,
		bytes: Buffer.from(JSON.stringify(data)),
	};
}

/** The value n8n's store holds for a file's key (`sha256:<content>`): its MD5, in base64. */
function storedFileKey(file: Attachment): string {
	const key = `sha256:${createHash('sha256').update(file.bytes).digest('hex')}`;
	return createHash('md5').update(key).digest('base64');
}

/** Jobs each worker has started: one per start; the invoice's execution runs in the same process. */
function jobsStarted(): number[] {
	return fixture.stack.workers.map(
		(worker) =>
			readFileSync(worker.logFile, 'utf8').match(/Worker started execution \d+ /g)?.length ?? 0,
	);
}

/** Starts each invoice's execution of the template at once; how many each worker took. */
async function start(files: Attachment[]): Promise<number[]> {
	const before = jobsStarted();
	await Promise.all(
		files.map(async (file) => await postEmail(fixture.stack.lbClient, starterPath, [file])),
	);
	const after = await eventually(
		`the workers to take ${files.length} starts`,
		async () => jobsStarted(),
		(now) => now.reduce((sum, count, index) => sum + count - before[index], 0) >= files.length,
		60_000,
	);
	return after.map((count, index) => count - before[index]);
}

const outcome = (execution: DecodedExecution) =>
	(execution.raw.customData as Record<string, string> | undefined)?.outcome;

/** Executions already ended with their outcome saved (n8n saves the status first), by id. */
const ended = new Map<string, DecodedExecution>();

/** The template's executions (each invoice's own) not in `excluded`. */
async function invoiceRuns(excluded: ReadonlySet<string> = new Set()): Promise<DecodedExecution[]> {
	const client = fixture.stack.client;
	const summaries = (await client.listExecutions(workflows.template!, { limit: 500 })).filter(
		(summary) => !excluded.has(summary.id),
	);
	const runs = await Promise.all(
		summaries.map(async (summary) => {
			const known = ended.get(summary.id);
			if (known) return known;
			const execution = await client.getExecution(summary.id);
			if (execution.status === 'error' || outcome(execution) !== undefined)
				ended.set(summary.id, execution);
			return execution;
		}),
	);
	const failed = runs.filter((run) => run.status === 'error').map((run) => run.id);
	if (failed.length > 0) throw new Error(`executions failed: ${failed.join(', ')}`);
	return runs.filter((run) => executedNodes(run).includes('Each attachment'));
}

/** Each invoice's outcomes so far (runs not in `excluded`). */
async function outcomesNow(
	files: Attachment[],
	excluded: ReadonlySet<string> = new Set(),
): Promise<Map<string, Array<string | undefined>>> {
	const runs = await invoiceRuns(excluded);
	// "Supplier of N N" once extracted, the file's name when it stops before.
	const of = (file: Attachment) =>
		runs
			.filter((run) =>
				(run.raw.customData as Record<string, string> | undefined)?.invoice
					?.toLowerCase()
					.includes(file.invoiceNo.toLowerCase()),
			)
			.map(outcome);
	return new Map(files.map((file) => [file.invoiceNo, of(file)]));
}

/** Each invoice's outcomes once `count` of `files` (all unless told) have one. */
async function outcomes(
	files: Attachment[],
	excluded: ReadonlySet<string> = new Set(),
	count = files.length,
): Promise<Map<string, Array<string | undefined>>> {
	return await eventually(
		`the outcomes of ${count} of ${files.map((file) => file.invoiceNo).join(', ')}`,
		async () => await outcomesNow(files, excluded),
		(found) => [...found.values()].filter((list) => list.length > 0).length >= count,
		120_000,
	);
}

const bills = (invoiceNo: string) =>
	xero.documents.filter((document) => document.InvoiceNumber === invoiceNo);

describeNeeding(
	[...QUEUE_MODE_REQUIREMENTS, 'dovecot'],
	'A write of the deduplication store held up beyond the settle delay (queue mode, the template)',
	() => {
		useQueueFixture({}, (started) => (fixture = started));

		beforeAll(async () => {
			const client = fixture.stack.client;
			// The template publishes with its Email Trigger connected to a mailbox.
			published = await publishXeroTemplate(client, fixture.account.credential);
			({ xero } = published);
			workflows.template = published.workflowId;
			// Its own "Start its own execution" node, pointed at it from a webhook.
			const starter = await publishEachAttachmentStarter(
				client,
				published.template,
				workflows.template,
			);
			workflows.starter = starter.id;
			starterPath = starter.path;
			await waitForPublicWebhook(fixture.stack, starterPath);
			stall = installWriteStall(fixture.stack.postgres);
		});

		afterAll(async () => {
			stall?.remove();
			for (const id of [workflows.starter, workflows.template])
				if (id) await fixture.stack.client.deleteWorkflow(id);
			await published?.stop();
		});

		it("one claim's write held while the other worker books invoices: every key they confirmed is erased, and sent again, each erased invoice is stopped by the books", async () => {
			const postgres = fixture.stack.postgres;
			const template = workflows.template!;
			// One invoice booked first: the row exists (a claim then writes it with an UPDATE), and the
			// template's Data Tables too.
			const seed = invoice('STALL-SEED');
			await start([seed]);
			expect((await outcomes([seed])).get(seed.invoiceNo)).toEqual(['booked']);

			// The next write of the row is held: the first claim of X's execution, after it read the row.
			const x = invoice('STALL-X');
			stall!.arm();
			const stalledWorker = (await start([x])).findIndex((taken) => taken > 0);
			await eventually(
				'the held write',
				async () => stall!.held(),
				(n) => n === 1,
				60_000,
			);
			const read = storedValues(postgres, template);

			// Invoices started at once until the other worker has taken some; it books them meanwhile.
			const started: Attachment[] = [];
			let onTheOtherWorker = 0;
			for (let round = 1; onTheOtherWorker === 0; round++) {
				if (round > 3) throw new Error('every start went to the stalled worker, three times');
				const files = Array.from({ length: AT_ONCE }, (_, index) =>
					invoice(`STALL-${round}-${index + 1}`),
				);
				started.push(...files);
				const taken = await start(files);
				onTheOtherWorker += taken.reduce(
					(sum, count, worker) => (worker === stalledWorker ? sum : sum + count),
					0,
				);
			}
			const duringStall = await outcomes(started, new Set(), onTheOtherWorker);
			const confirmedFiles = started.filter(
				(file) => (duringStall.get(file.invoiceNo) ?? []).length > 0,
			);
			const waitingFiles = started.filter((file) => !confirmedFiles.includes(file));
			for (const file of confirmedFiles)
				expect(duringStall.get(file.invoiceNo), file.invoiceNo).toEqual(['booked']);
			// Still held, and the stalled worker's invoices (X's too) have not got past their claim.
			expect(stall!.held()).toBe(1);
			const stillWaiting = await outcomesNow([x, ...waitingFiles]);
			expect([...stillWaiting.values()].flat()).toEqual([]);
			const confirmed = storedValues(postgres, template);
			const heldSeconds = stall!.release();

			for (const [invoiceNo, list] of await outcomes([x, ...waitingFiles]))
				expect(list, invoiceNo).toEqual(['booked']);
			const after = storedValues(postgres, template);
			const written = confirmed.filter((value) => !read.includes(value));
			const erased = written.filter((value) => !after.includes(value));

			// Sent again: the erased ones pass n8n's memory and meet the books.
			const allFiles = [x, ...started];
			const seen = new Set((await invoiceRuns()).map((run) => run.id));
			await start(allFiles);
			const again = await outcomes(allFiles, seen);
			const caught = confirmedFiles.filter(
				(file) => again.get(file.invoiceNo)?.[0] === 'already in the books',
			);
			const figure = `write held ${heldSeconds.toFixed(1)} s (settle delay 1 s); meanwhile the other worker confirmed ${confirmedFiles.length} invoices, ${written.length} keys; ${erased.length} of them erased when the held write landed; the stalled worker's ${waitingFiles.length + 1} invoices waited behind it and kept theirs; sent again: ${caught.length} of ${confirmedFiles.length} erased invoices "already in the books"; bills at the stand-in: ${xero.documents.length} for ${allFiles.length + 1} invoices`;
			log('stalled-writer', figure);
			process.stdout.write(`stalled writer measured: ${figure}\n`);

			// The stall was real and erased every key confirmed during it, and nothing else.
			expect(heldSeconds).toBeGreaterThan(1);
			expect(confirmedFiles).toHaveLength(onTheOtherWorker);
			expect(written).toHaveLength(KEYS_PER_INVOICE * confirmedFiles.length);
			expect(erased).toEqual(written);
			for (const file of confirmedFiles) expect(erased).toContain(storedFileKey(file));
			for (const value of read) expect(after).toContain(value);
			for (const file of [x, ...waitingFiles]) expect(after).toContain(storedFileKey(file));

			for (const file of allFiles) {
				expect(again.get(file.invoiceNo), file.invoiceNo).toEqual([
					confirmedFiles.includes(file) ? 'already in the books' : 'already submitted',
				]);
				expect(bills(file.invoiceNo), file.invoiceNo).toHaveLength(1);
			}
			expect(xero.documents).toHaveLength(allFiles.length + 1);
		});
	},
);
