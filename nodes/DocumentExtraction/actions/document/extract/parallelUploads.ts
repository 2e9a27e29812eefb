/**
 * Extract's run over every file of its input (docs/memory.md, docs/spec-decisions.md#n44): files are
 * prepared, then those already submitted are told apart for all files at once (one claim), the rest
 * are uploaded in parallel (at most Parallel Uploads at a time, the tier's default unless the node
 * says otherwise, within MAX_BYTES_IN_FLIGHT of files held at once, paced to the tier's rate), the
 * same invoices are told apart for all answers at once, and every answer is routed in input order.
 * A claim whose result the run does not deliver is released: without Continue On Fail the first
 * failure stops new uploads and fails the node, releasing every claim of the run, so a retry
 * extracts every file again; with it each failed file fails alone and only its claim is released.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { invoiceIdentity } from '../../../invoice/invoiceIdentity.ts';
import { simplifyInvoice } from '../../../invoice/invoiceMapping.ts';
import { claimKeys, releaseKeys } from '../../../memory/claims.ts';
import { limitsForTier } from '../../../tierLimits.ts';
import { runCredential } from '../../../transport/index.ts';
import { RequestPacer } from '../../../transport/pacer.ts';
import type { SeenInvoice, Sighting } from '../sameInvoice.ts';
import { firstSightings, invoiceKeys } from '../sameInvoice.ts';
import type { Prepared, Submitted } from './extractSteps.ts';
import { finishItem, prepareItemFile } from './extractSteps.ts';
import { matchingFields } from './inputFiles.ts';
import type { ExtractSettings } from './settings.ts';
import { extractSettings } from './settings.ts';
import { alreadySubmittedItem, fileKey } from './skipFilesAlreadySubmitted.ts';
import { submitFile } from './submit.ts';

/**
 * What the files of one run may hold at once, each counted at its memoryCost (transport/upload.ts); a
 * file costing more goes alone. So a run holds at most max(64 MiB, its largest file's cost)
 * (docs/memory.md#files-in-flight): 64 MiB for streamed files (filesystem, S3) on every tier, each
 * costing at most 512 KiB, and for files read whole (database binary mode) up to Growth's 25 MiB;
 * 200 MiB for an Enterprise file of 100 MiB read whole, alone.
 */
const MAX_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

/** What became of one file, for the input item it came from. */
export type ItemOutcome = { itemIndex: number } & (
	| { outputs: INodeExecutionData[][] }
	| { error: unknown }
);

/** One extraction: an item's file (with a pattern, one of its files). */
interface FileUnit {
	itemIndex: number;
	settings?: ExtractSettings;
	/** Its parameters could not be read. */
	error?: unknown;
	/** With a pattern: no field of the item matches it. */
	noFile?: string;
}

/** Every extraction of the input, in input order (docs/spec-decisions.md#n45). */
function fileUnits(context: IExecuteFunctions): FileUnit[] {
	const units = context.getInputData().flatMap((item, itemIndex): FileUnit[] => {
		let settings: ExtractSettings;
		try {
			settings = extractSettings(context, itemIndex);
		} catch (error) {
			return [{ itemIndex, error }];
		}
		if (!settings.filePattern) return [{ itemIndex, settings }];
		const names = Object.keys(item.binary ?? {});
		const fields = matchingFields(names, settings.binaryPropertyName);
		if (fields.length === 0)
			return [
				{
					itemIndex,
					settings,
					noFile: `No file of the item matches "${settings.binaryPropertyName}" (its binary fields: ${names.join(', ') || 'none'}).`,
				},
			];
		return fields.map((field) => ({
			itemIndex,
			settings: { ...settings, binaryPropertyName: field },
		}));
	});
	// Several items are refused by Wait for Review's own check (waitPrerequisites); here, several files of one item.
	const severalFilesOfAnItem = units.length > context.getInputData().length;
	if (severalFilesOfAnItem && units.some((unit) => unit.settings?.waitForReview)) {
		const error = new NodeOperationError(
			context.getNode(),
			`Wait for Review waits for one document per execution; this input has ${units.length} files`,
			{
				description:
					'Turn Wait for Review off and use the Document Extraction Trigger (Sent by This Workflow) for the review results, or split the files into executions of their own.',
			},
		);
		return units.map((unit) => ({ itemIndex: unit.itemIndex, error }));
	}
	return units;
}

/** Parallel Uploads as set, else the tier's default. */
export async function parallelUploadsOf(context: IExecuteFunctions): Promise<number> {
	const options = context.getNodeParameter('options', 0, {}) as { parallelUploads?: number };
	if (typeof options.parallelUploads === 'number' && options.parallelUploads >= 1)
		return Math.floor(options.parallelUploads);
	const credentials = await runCredential(context, 0);
	return limitsForTier(credentials.tier).parallelUploads;
}

/** Waits in arrival order for a share of MAX_BYTES_IN_FLIGHT; a larger cost takes all of it, alone. */
class ByteBudget {
	private inUse = 0;
	private readonly waiting: Array<{ bytes: number; go: () => void }> = [];

	async use<T>(bytes: number, work: () => Promise<T>): Promise<T> {
		const share = Math.min(Math.max(bytes, 0), MAX_BYTES_IN_FLIGHT);
		if (this.waiting.length > 0 || this.inUse + share > MAX_BYTES_IN_FLIGHT)
			await new Promise<void>((go) => this.waiting.push({ bytes: share, go }));
		else this.inUse += share;
		try {
			return await work();
		} finally {
			this.inUse -= share;
			this.admit();
		}
	}

	private admit(): void {
		while (this.waiting.length > 0 && this.inUse + this.waiting[0].bytes <= MAX_BYTES_IN_FLIGHT) {
			const next = this.waiting.shift()!;
			this.inUse += next.bytes;
			next.go();
		}
	}
}

/** Runs `work` for every index, at most `parallel` at a time, in index order; stops starting new ones once `stop()` says so. */
async function eachInParallel(
	count: number,
	parallel: number,
	work: (index: number) => Promise<void>,
	stop: () => boolean,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count && !stop()) await work(next++);
	};
	await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}

/** One file's progress; `claimedKeys`: its keys, released (those the run won) if it fails. */
type UnitState =
	| { prepared: Prepared }
	| { submitted: Submitted; claimedKeys?: string[] }
	| { error: unknown; claimedKeys?: string[] };

export async function extractInParallel(
	context: IExecuteFunctions,
	parallel: number,
): Promise<ItemOutcome[]> {
	const units = fileUnits(context);
	const states: Array<UnitState | undefined> = [];
	let failed = false;
	const fail = (unitIndex: number, error: unknown, claimedKeys?: string[]) => {
		states[unitIndex] = { error, claimedKeys };
		if (!context.continueOnFail()) failed = true;
	};
	const stopped = () => failed;
	// One budget for the run: every open of a file, to hash it or to send it, counts its cost in it.
	const bytes = new ByteBudget();
	context.logger.info(
		`Document Extraction: ${units.length} files to extract, up to ${parallel} uploads at a time`,
	);

	await eachInParallel(
		units.length,
		parallel,
		async (unitIndex) => {
			const { itemIndex, settings, error, noFile } = units[unitIndex];
			try {
				if (error !== undefined) throw error;
				states[unitIndex] = {
					prepared: noFile
						? { skipped: noFile }
						: await prepareItemFile(context, itemIndex, settings!, bytes),
				};
			} catch (failure) {
				fail(unitIndex, failure);
			}
		},
		stopped,
	);
	let outcomes: ItemOutcome[] = [];
	try {
		if (!failed) {
			const firstOfContent = await claimFiles(context, states);
			await uploadFiles(context, units, states, firstOfContent, parallel, bytes, fail, stopped);
		}
		if (!failed) {
			const sightings = await sameInvoices(context, units, states);
			outcomes = await finishInInputOrder(context, units, states, sightings, fail);
		}
	} catch (error) {
		// The store or the network failed the whole run: nothing it claimed is delivered.
		await releaseKeys(context);
		throw new NodeOperationError(context.getNode(), error as Error);
	}
	if (failed) {
		await releaseKeys(context);
		return units.flatMap((unit, unitIndex) => {
			const state = states[unitIndex];
			return state && 'error' in state ? [{ itemIndex: unit.itemIndex, error: state.error }] : [];
		});
	}
	await releaseKeys(
		context,
		states.flatMap((state) => (state && 'error' in state ? (state.claimedKeys ?? []) : [])),
	);
	return outcomes;
}

/**
 * Skip Files Already Submitted: one claim for every file of the run. The first file of a content in
 * input order is uploaded when the run claimed it (returned: content → its unit); later ones of the
 * same content wait for its document.
 */
async function claimFiles(
	context: IExecuteFunctions,
	states: Array<UnitState | undefined>,
): Promise<Map<string, number>> {
	const hashed = states.map((state) =>
		state && 'prepared' in state && 'file' in state.prepared ? state.prepared.sha256 : undefined,
	);
	const keys = hashed.filter((sha256) => sha256 !== undefined).map(fileKey);
	const claimed =
		keys.length > 0
			? await claimKeys(context, keys, {
					message: 'Could not check whether these files were already submitted',
					description: 'Run the execution again, or turn Skip Files Already Submitted off.',
					ifKept:
						'A retry may put these files on Already Submitted: turn Skip Files Already Submitted off for that run to extract them again.',
				})
			: undefined;
	const firstOfContent = new Map<string, number>();
	states.forEach((state, unitIndex) => {
		const sha256 = hashed[unitIndex];
		if (!state || !('prepared' in state)) return;
		if ('skipped' in state.prepared) {
			states[unitIndex] = { submitted: { skipped: state.prepared.skipped } };
			return;
		}
		if (sha256 === undefined || !claimed) return;
		const key = fileKey(sha256);
		// The first file of a content is uploaded; later ones are decided with it (uploadFiles).
		if (claimed.already.has(key) || claimed.concurrent.has(key)) {
			const by = claimed.already.has(key) ? 'earlierRun' : 'concurrentRun';
			const alreadySubmitted = alreadySubmittedItem(state.prepared.file.fileName, sha256, { by });
			states[unitIndex] = { submitted: { alreadySubmitted } };
		} else if (!firstOfContent.has(sha256)) firstOfContent.set(sha256, unitIndex);
	});
	return firstOfContent;
}

async function uploadFiles(
	context: IExecuteFunctions,
	units: FileUnit[],
	states: Array<UnitState | undefined>,
	firstOfContent: Map<string, number>,
	parallel: number,
	bytes: ByteBudget,
	fail: (unitIndex: number, error: unknown, claimedKeys?: string[]) => void,
	stopped: () => boolean,
): Promise<void> {
	const credentials = await runCredential(context, 0);
	// One at a time, the service's own answers pace the run (429 and its Retry-After).
	const pacer =
		parallel > 1 ? new RequestPacer(limitsForTier(credentials.tier).requestsPerMinute) : undefined;
	const uploading = states.map((state) =>
		state && 'prepared' in state && 'file' in state.prepared ? state.prepared : undefined,
	);
	const isRepeat = (unitIndex: number) => {
		const sha256 = uploading[unitIndex]?.sha256;
		return sha256 !== undefined && firstOfContent.get(sha256) !== unitIndex;
	};
	let finished = 0;
	await eachInParallel(
		units.length,
		parallel,
		async (unitIndex) => {
			const prepared = uploading[unitIndex];
			if (!prepared || isRepeat(unitIndex)) return;
			const { itemIndex, settings } = units[unitIndex];
			const claimedKeys = prepared.sha256 ? [fileKey(prepared.sha256)] : [];
			try {
				const response = await bytes.use(
					prepared.file.source.memoryCost,
					async () =>
						await submitFile(context, itemIndex, prepared.file, settings!.rateLimitWaitMs, pacer),
				);
				states[unitIndex] = { submitted: { response }, claimedKeys };
			} catch (failure) {
				fail(unitIndex, failure, claimedKeys);
			}
			finished++;
			if (finished % 25 === 0) context.logger.info(`Document Extraction: ${finished} uploads done`);
		},
		stopped,
	);
	// Later files of a content uploaded in this run: skipped with its document, or failed with it.
	uploading.forEach((prepared, unitIndex) => {
		if (!prepared?.sha256 || !isRepeat(unitIndex)) return;
		const first = states[firstOfContent.get(prepared.sha256)!];
		if (!first || 'error' in first) {
			states[unitIndex] = { error: first?.error };
			return;
		}
		if (!('submitted' in first) || !('response' in first.submitted)) return;
		const documentId = first.submitted.response.document_id;
		const firstFile = uploading[firstOfContent.get(prepared.sha256)!]!.file.fileName;
		const alreadySubmitted = alreadySubmittedItem(prepared.file.fileName, prepared.sha256, {
			by: 'thisRun',
			documentId: typeof documentId === 'string' ? documentId : null,
			fileName: firstFile,
		});
		states[unitIndex] = { submitted: { alreadySubmitted } };
	});
}

/** Detect Same Invoice: one claim for every verified invoice of the run. */
async function sameInvoices(
	context: IExecuteFunctions,
	units: FileUnit[],
	states: Array<UnitState | undefined>,
): Promise<Array<Sighting | undefined>> {
	const seen: Array<{ unitIndex: number } & SeenInvoice> = [];
	states.forEach((state, unitIndex) => {
		if (!units[unitIndex].settings?.detectSameInvoice) return;
		if (!state || !('submitted' in state) || !('response' in state.submitted)) return;
		const { response } = state.submitted;
		if (response.status !== 'verified') return;
		const identity = invoiceIdentity(simplifyInvoice(response.extracted_json as never));
		if (!identity) return;
		const documentId = typeof response.document_id === 'string' ? response.document_id : null;
		seen.push({ unitIndex, identity, documentId });
	});
	const sightings: Array<Sighting | undefined> = [];
	if (seen.length === 0) return sightings;
	const firsts = await firstSightings(context, seen);
	seen.forEach(({ unitIndex, identity }, i) => {
		const first = firsts[i];
		if (first) sightings[unitIndex] = { identity, first };
		const state = states[unitIndex] as { claimedKeys?: string[] };
		state.claimedKeys = [...(state.claimedKeys ?? []), ...invoiceKeys(seen[i])];
	});
	return sightings;
}

async function finishInInputOrder(
	context: IExecuteFunctions,
	units: FileUnit[],
	states: Array<UnitState | undefined>,
	sightings: Array<Sighting | undefined>,
	fail: (unitIndex: number, error: unknown, claimedKeys?: string[]) => void,
): Promise<ItemOutcome[]> {
	const outcomes: ItemOutcome[] = [];
	for (let unitIndex = 0; unitIndex < units.length; unitIndex++) {
		const { itemIndex, settings } = units[unitIndex];
		const state = states[unitIndex];
		if (state === undefined) continue;
		if ('error' in state) {
			outcomes.push({ itemIndex, error: state.error });
			continue;
		}
		if (!('submitted' in state)) continue;
		try {
			outcomes.push({
				itemIndex,
				outputs: await finishItem(
					context,
					itemIndex,
					settings!,
					state.submitted,
					sightings[unitIndex],
				),
			});
		} catch (error) {
			fail(unitIndex, error, state.claimedKeys);
			outcomes.push({ itemIndex, error });
		}
	}
	return outcomes;
}
