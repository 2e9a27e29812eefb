/**
 * Month-end batches (docs/spec-decisions.md#n43): a node run's uploads go out in parallel, at most
 * Parallel Uploads at a time (the tier's default unless the node says otherwise) and at most
 * MAX_BYTES_IN_FLIGHT bytes of files at once, paced to the tier's rate (transport/pacer.ts). Files
 * are claimed in input order and an item waits for an earlier one with the same content, so Skip
 * Files Already Submitted uploads such a file once, for the first of them; every answer is then routed in input order, so Detect Same Invoice decides as it does one
 * item at a time. With Continue On Fail each item fails alone; without it, the first failure stops
 * new uploads and fails the node.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../constants.ts';
import { limitsForTier } from '../../../tierLimits.ts';
import { RequestPacer } from '../../../transport/pacer.ts';
import type { BatchHooks, Submitted } from './extractSteps.ts';
import { finishItem, submitItem } from './extractSteps.ts';
import { matchingFields } from './inputFiles.ts';
import type { ExtractSettings } from './settings.ts';
import { extractSettings } from './settings.ts';

/** What the uploads of one run may hold at once; a larger file goes alone. */
export const MAX_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

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
	if (units.length > 1 && units.some((unit) => unit.settings?.waitForReview)) {
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
	const credentials = await context.getCredentials(CREDENTIAL_TYPE, 0);
	return limitsForTier(credentials.tier).parallelUploads;
}

/** Waits in arrival order for a share of a fixed budget; a share above the budget takes all of it. */
export class ByteBudget {
	private inUse = 0;
	private readonly waiting: Array<{ bytes: number; go: () => void }> = [];

	private readonly budget: number;

	constructor(budget: number) {
		this.budget = budget;
	}

	async use<T>(bytes: number, work: () => Promise<T>): Promise<T> {
		const share = Math.min(Math.max(bytes, 0), this.budget);
		if (this.waiting.length > 0 || this.inUse + share > this.budget)
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
		while (this.waiting.length > 0 && this.inUse + this.waiting[0].bytes <= this.budget) {
			const next = this.waiting.shift()!;
			this.inUse += next.bytes;
			next.go();
		}
	}
}

/** Turns in input order: item n goes once items 0 … n-1 have passed (in any order). */
export class InputOrder {
	private next = 0;
	private readonly passed = new Set<number>();
	private readonly waiting = new Map<number, () => void>();

	async turn(itemIndex: number): Promise<void> {
		if (itemIndex > this.next) await new Promise<void>((go) => this.waiting.set(itemIndex, go));
	}

	pass(itemIndex: number): void {
		if (itemIndex < this.next) return;
		this.passed.add(itemIndex);
		while (this.passed.delete(this.next)) this.next++;
		for (const [index, go] of this.waiting) {
			if (index > this.next) continue;
			this.waiting.delete(index);
			go();
		}
	}
}

/** Per content: the upload of this run that others with the same content wait for. */
function sameContentTurns(): BatchHooks['sameContentSettled'] {
	const turns = new Map<string, Promise<void>>();
	return async (sha256) => {
		for (let earlier = turns.get(sha256); earlier; earlier = turns.get(sha256)) await earlier;
		let settle = () => {};
		turns.set(
			sha256,
			new Promise<void>((resolve) => {
				settle = () => {
					turns.delete(sha256);
					resolve();
				};
			}),
		);
		return settle;
	};
}

export async function extractInParallel(
	context: IExecuteFunctions,
	parallel: number,
): Promise<ItemOutcome[]> {
	const units = fileUnits(context);
	const credentials = await context.getCredentials(CREDENTIAL_TYPE, 0);
	const bytes = new ByteBudget(MAX_BYTES_IN_FLIGHT);
	const claims = new InputOrder();
	const pacer = new RequestPacer(limitsForTier(credentials.tier).requestsPerMinute);
	const sameContentSettled = sameContentTurns();
	const hooks = (unitIndex: number): BatchHooks => ({
		pacer,
		claimTurn: async () => await claims.turn(unitIndex),
		claimed: () => claims.pass(unitIndex),
		sameContentSettled,
		withinBytes: async (size, upload) => await bytes.use(size, upload),
	});
	const submitted: Array<{ done: Submitted } | { error: unknown } | undefined> = [];
	let next = 0;
	let stopped = false;
	let finished = 0;
	const worker = async () => {
		while (next < units.length && !stopped) {
			const unitIndex = next++;
			const { itemIndex, settings, error, noFile } = units[unitIndex];
			try {
				if (error !== undefined) throw error;
				// Only files that skip files already submitted claim anything.
				if (!settings!.skipDuplicates) claims.pass(unitIndex);
				submitted[unitIndex] = {
					done: noFile
						? { skipped: noFile }
						: await submitItem(context, itemIndex, settings!, hooks(unitIndex)),
				};
			} catch (failure) {
				submitted[unitIndex] = { error: failure };
				if (!context.continueOnFail()) stopped = true;
			} finally {
				claims.pass(unitIndex);
			}
			finished++;
			if (finished % 25 === 0 || finished === units.length)
				context.logger.info(
					`Document Extraction: ${finished} of ${units.length} files done (uploaded, skipped or already submitted)`,
				);
		}
	};
	context.logger.info(
		`Document Extraction: ${units.length} files to extract, up to ${parallel} uploads at a time`,
	);
	await Promise.all(Array.from({ length: Math.min(parallel, units.length) }, worker));
	return await finishInInputOrder(context, units, submitted);
}

/** Routes every answer in input order, so decisions that depend on earlier items are as one at a time. */
async function finishInInputOrder(
	context: IExecuteFunctions,
	units: FileUnit[],
	submitted: Array<{ done: Submitted } | { error: unknown } | undefined>,
): Promise<ItemOutcome[]> {
	const outcomes: ItemOutcome[] = [];
	for (let unitIndex = 0; unitIndex < units.length; unitIndex++) {
		const { itemIndex, settings } = units[unitIndex];
		const result = submitted[unitIndex];
		if (result === undefined) break; // not started: an earlier file failed the node
		if ('error' in result) {
			outcomes.push({ itemIndex, error: result.error });
			continue;
		}
		try {
			outcomes.push({
				itemIndex,
				outputs: await finishItem(context, itemIndex, settings!, result.done),
			});
		} catch (error) {
			outcomes.push({ itemIndex, error });
		}
	}
	return outcomes;
}
