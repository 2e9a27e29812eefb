/**
 * The outputs of Extract (docs/spec-decisions.md#n9), as one rule from which the node's `outputs` expression, the output
 * indexes and the router's output count all follow. Without waiting: Verified | Needs Review (also
 * documents still processing, and verified invoices not ready to post when they are held). With Wait
 * for Review: Verified | Rejected | Timed Out, and Not Ready to Post last when held. The duplicate
 * guard adds Already Submitted; Detect Same Invoice (without waiting) adds Possible Duplicate; an
 * Input Binary Field pattern (every file of an item) adds Skipped Files.
 * Check Invoice Duplicate has New Invoice | Possible Duplicate, and Not Ready to Post when held
 * (docs/spec-decisions.md#n18). Other operations have one output. New outputs come last, so turning an
 * option on never moves the connections of the outputs already there.
 */
import type { IWebhookDescription } from 'n8n-workflow';

import { isFilePattern } from './extract/inputFiles.ts';
import { HOLD_NOT_READY_PARAMETER } from './holdNotReady.description.ts';
import {
	BUILD_BILL_OPERATION,
	CHECK_DUPLICATE_OPERATION,
	documentOperationExpression,
	EXTRACT_OPERATION,
	INVOICE_OPERATIONS,
	isDocumentOperation,
} from './operations.ts';

export interface ExtractOutputSettings {
	waitForReview: boolean;
	skipDuplicates: boolean;
	/** Detect Same Invoice; only without waiting (a reviewed invoice arrives where Extract no longer runs). */
	detectSameInvoice?: boolean;
	/** Hold Invoices Not Ready to Post (docs/spec-decisions.md#n18). */
	holdNotReady?: boolean;
	/** Input Binary Field is a pattern: every matching file of an item (docs/spec-decisions.md#n45). */
	filePattern?: boolean;
}

/** Reads one of the node's parameters: in an execution for one item, in the review callback the node's. */
export type ReadParameter = (name: string, fallback: unknown) => unknown;

/** The one reader of the parameters that decide the outputs (execute, each item, review callback). */
export function outputSettingsFrom(read: ReadParameter): Required<ExtractOutputSettings> {
	const options = (read('options', {}) ?? {}) as {
		skipDuplicates?: boolean;
		detectSameInvoice?: boolean;
	};
	const waitForReview = read('waitForReview', false) === true;
	return {
		waitForReview,
		skipDuplicates: options.skipDuplicates === true,
		// Only without waiting: a reviewed invoice arrives where Extract no longer runs.
		detectSameInvoice: options.detectSameInvoice === true && !waitForReview,
		holdNotReady: read(HOLD_NOT_READY_PARAMETER, false) === true,
		filePattern: isFilePattern(read('binaryPropertyName', '')),
	};
}

/** When an output exists: as a check of the settings and as the same check in n8n's expression language. */
interface OutputCondition {
	holds: (settings: ExtractOutputSettings) => boolean;
	expression: string;
}

const ALWAYS: OutputCondition = { holds: () => true, expression: 'true' };
const WAITING: OutputCondition = {
	holds: (settings) => settings.waitForReview,
	expression: '$parameter.waitForReview === true',
};
const NOT_WAITING: OutputCondition = {
	holds: (settings) => !settings.waitForReview,
	expression: '$parameter.waitForReview !== true',
};
const DETECTING_SAME_INVOICE: OutputCondition = {
	holds: (settings) => settings.detectSameInvoice === true && !settings.waitForReview,
	expression:
		'$parameter.waitForReview !== true && ($parameter.options || {}).detectSameInvoice === true',
};
/** The parameter's value as the Workflow holds it: n8n fills in the default of the node's version. */
const HOLDING: OutputCondition = {
	holds: (settings) => settings.holdNotReady === true,
	expression: '$parameter.holdNotReady === true',
};
const HOLDING_WHILE_WAITING: OutputCondition = {
	holds: (settings) => settings.holdNotReady === true && settings.waitForReview,
	expression: '$parameter.holdNotReady === true && $parameter.waitForReview === true',
};
const EVERY_FILE: OutputCondition = {
	holds: (settings) => settings.filePattern === true,
	expression: 'String($parameter.binaryPropertyName || "").includes("*")',
};
const SKIPPING_DUPLICATES: OutputCondition = {
	holds: (settings) => settings.skipDuplicates,
	expression: '($parameter.options || {}).skipDuplicates === true',
};

export type ExtractOutput =
	| 'verified'
	| 'needsReview'
	| 'rejected'
	| 'timedOut'
	| 'alreadySubmitted'
	| 'possibleDuplicate'
	| 'notReady'
	| 'skippedFiles';
export type CheckDuplicateOutput = 'newInvoice' | 'possibleDuplicate' | 'notReady';
export type BuildBillOutput = 'bill' | 'cannotBook';

export const NOT_READY_OUTPUT_NAME = 'Not Ready to Post';

interface OutputRule<Output extends string = ExtractOutput> {
	output: Output;
	displayName: string;
	when: OutputCondition;
	/**
	 * Continue On Fail (regular output) puts failed items here: the output that needs a person, never
	 * Verified or New Invoice, so a failure is not taken for a checked document.
	 */
	takesFailedItems?: true;
}

/** Extract's outputs in order; an output exists when its condition holds. */
const EXTRACT_OUTPUTS: readonly OutputRule[] = [
	{ output: 'verified', displayName: 'Verified', when: ALWAYS },
	{ output: 'needsReview', displayName: 'Needs Review', when: NOT_WAITING, takesFailedItems: true },
	{ output: 'rejected', displayName: 'Rejected', when: WAITING, takesFailedItems: true },
	{ output: 'timedOut', displayName: 'Timed Out', when: WAITING },
	{ output: 'alreadySubmitted', displayName: 'Already Submitted', when: SKIPPING_DUPLICATES },
	{ output: 'possibleDuplicate', displayName: 'Possible Duplicate', when: DETECTING_SAME_INVOICE },
	// Without waiting, held invoices go to Needs Review: no output of its own.
	{ output: 'notReady', displayName: NOT_READY_OUTPUT_NAME, when: HOLDING_WHILE_WAITING },
	// Files of an item that cannot be invoices (a logo, an invite): never uploaded.
	{ output: 'skippedFiles', displayName: 'Skipped Files', when: EVERY_FILE },
];

/**
 * Check Invoice Duplicate's outputs. A failed item goes to Possible Duplicate: an invoice that could
 * not be checked must not be paid as a new one.
 */
const CHECK_DUPLICATE_OUTPUTS: ReadonlyArray<OutputRule<CheckDuplicateOutput>> = [
	{ output: 'newInvoice', displayName: 'New Invoice', when: ALWAYS },
	{
		output: 'possibleDuplicate',
		displayName: 'Possible Duplicate',
		when: ALWAYS,
		takesFailedItems: true,
	},
	{ output: 'notReady', displayName: NOT_READY_OUTPUT_NAME, when: HOLDING },
];

/** Build Bill's outputs (docs/spec-decisions.md#n42): a failed item cannot be booked. */
const BUILD_BILL_OUTPUTS: ReadonlyArray<OutputRule<BuildBillOutput>> = [
	{ output: 'bill', displayName: 'Bill', when: ALWAYS },
	{ output: 'cannotBook', displayName: 'Cannot Be Booked', when: ALWAYS, takesFailedItems: true },
];

export function buildBillOutputIndex(output: BuildBillOutput): number {
	return BUILD_BILL_OUTPUTS.findIndex((rule) => rule.output === output);
}

function checkDuplicateOutputsOf(
	settings: ExtractOutputSettings,
): Array<OutputRule<CheckDuplicateOutput>> {
	return CHECK_DUPLICATE_OUTPUTS.filter((rule) => rule.when.holds(settings));
}

export function checkDuplicateOutputNames(settings: ExtractOutputSettings): string[] {
	return checkDuplicateOutputsOf(settings).map((rule) => rule.displayName);
}

/** Index of `output` with these settings; -1 when it does not exist with them. */
export function checkDuplicateOutputIndex(
	settings: ExtractOutputSettings,
	output: CheckDuplicateOutput,
): number {
	return checkDuplicateOutputsOf(settings).findIndex((rule) => rule.output === output);
}

function outputsOf(settings: ExtractOutputSettings): OutputRule[] {
	return EXTRACT_OUTPUTS.filter((rule) => rule.when.holds(settings));
}

export function extractOutputNames(settings: ExtractOutputSettings): string[] {
	return outputsOf(settings).map((rule) => rule.displayName);
}

/** Index of `output` with these settings; -1 when it does not exist with them. */
export function outputIndex(settings: ExtractOutputSettings, output: ExtractOutput): number {
	return outputsOf(settings).findIndex((rule) => rule.output === output);
}

/** The node's parameters that decide its outputs. */
export interface NodeOutputParameters extends ExtractOutputSettings {
	resource: string;
	operation: string;
}

/** Document → Extract. */
export function isExtract(parameters: NodeOutputParameters): boolean {
	return isDocumentOperation(parameters.resource, parameters.operation, [EXTRACT_OPERATION]);
}

function isCheckDuplicate(parameters: NodeOutputParameters): boolean {
	return isDocumentOperation(parameters.resource, parameters.operation, [
		CHECK_DUPLICATE_OPERATION,
	]);
}

function isBuildBill(parameters: NodeOutputParameters): boolean {
	return isDocumentOperation(parameters.resource, parameters.operation, [BUILD_BILL_OPERATION]);
}

/** Extract, Check Invoice Duplicate and Build Bill: the operations whose items are invoices. */
export function isInvoiceOperation(parameters: NodeOutputParameters): boolean {
	return isDocumentOperation(parameters.resource, parameters.operation, INVOICE_OPERATIONS);
}

/** The node's outputs with these parameters (one unnamed output for the one-output operations). */
function nodeOutputs(parameters: NodeOutputParameters): ReadonlyArray<{ takesFailedItems?: true }> {
	if (isExtract(parameters)) return outputsOf(parameters);
	if (isCheckDuplicate(parameters)) return checkDuplicateOutputsOf(parameters);
	if (isBuildBill(parameters)) return BUILD_BILL_OUTPUTS;
	return [{ takesFailedItems: true }];
}

/** How many outputs the node has with these parameters. */
export function nodeOutputCount(parameters: NodeOutputParameters): number {
	return nodeOutputs(parameters).length;
}

/** Where Continue On Fail (regular output) puts a failed item. */
export function failedItemOutput(parameters: NodeOutputParameters): number {
	return nodeOutputs(parameters).findIndex((rule) => rule.takesFailedItems === true);
}

/**
 * The node's `outputs` as an n8n expression over its parameters, generated from the rule above.
 * Missing parameters count as their defaults (resource Document, operation Extract, no waiting, no
 * duplicate guards), so a workflow created through the API with fewer parameters gets the same
 * outputs as one made in the editor.
 */
export const OUTPUTS_EXPRESSION =
	(`={{ (${documentOperationExpression([EXTRACT_OPERATION])}) ? ${outputsWhen(EXTRACT_OUTPUTS)} ` +
		`: (${documentOperationExpression([CHECK_DUPLICATE_OPERATION])}) ? ${outputsWhen(CHECK_DUPLICATE_OUTPUTS)} ` +
		`: (${documentOperationExpression([BUILD_BILL_OPERATION])}) ? ${outputsWhen(BUILD_BILL_OUTPUTS)} ` +
		': ["main"] }}') as `={{${string}}}`;

/** The outputs whose conditions hold, as an n8n expression. */
function outputsWhen(rules: ReadonlyArray<OutputRule<string>>): string {
	const outputs = rules.map(
		(rule) =>
			`${rule.when.expression} ? [${JSON.stringify({ type: 'main', displayName: rule.displayName })}] : []`,
	);
	return `[].concat(${outputs.join(', ')})`;
}

/**
 * Where the service delivers the review result of a waiting execution (n8n's resume mechanism, as in
 * its send-and-wait nodes: a restart webhook of the waiting node, nothing registered anywhere).
 */
export const REVIEW_CALLBACK_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
		ndvHideUrl: true,
		ndvHideMethod: true,
	},
];
