/**
 * The outputs of Extract (docs/spec-decisions.md#n9), as one rule from which the node's `outputs` expression, the output
 * indexes and the router's output count all follow. Without waiting: Verified | Needs Review (also
 * documents still processing, and verified invoices not ready to post when they are held). With Wait
 * for Review: Verified | Rejected | Timed Out, and Not Ready when held. Skip Files Already Submitted
 * adds Same File; Detect Same Invoice (without waiting) adds Same Invoice; an Input Binary Field
 * pattern (every file of an item) adds Skipped Files.
 * Check Invoice Duplicate has New Invoice | Same Invoice, and Not Ready when held
 * (docs/spec-decisions.md#n18). Build Bill has Bill | Cannot Book. Judge Books Answer has one output
 * per verdict of its Answer To. Other operations have one output.
 *
 * From version 1.3 every output has a fixed place (docs/spec-decisions.md#n47): an option's output
 * is added after the outputs already there, and an option turned off leaves an unused output while
 * a later one is on, so turning options on or off in any order never moves a connection. Versions
 * 1 to 1.2 keep the outputs and labels their saved workflows were connected with: the outputs whose
 * conditions hold, in rule order, with the longer labels.
 */
import type { INodeProperties, IWebhookDescription } from 'n8n-workflow';

import { isFilePattern } from './extract/inputFiles.ts';
import { HOLD_NOT_READY_PARAMETER } from './holdNotReady.description.ts';
import {
	BUILD_BILL_OPERATION,
	CHECK_DUPLICATE_OPERATION,
	documentOperationExpression,
	EXTRACT_OPERATION,
	INVOICE_OPERATIONS,
	isDocumentOperation,
	JUDGE_BOOKS_ANSWER_OPERATION,
	PREPARE_ATTACHMENT_OPERATION,
	BILL_ACCOUNT_OPERATION,
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
	/** How the outputs are laid out: by node version (docs/spec-decisions.md#n47). */
	layout?: OutputLayout;
}

/**
 * `outputsThatHold`: versions 1 to 1.2, the outputs whose conditions hold, in rule order.
 * `fixedPlaces`: from 1.3, each output in its own place (docs/spec-decisions.md#n47).
 */
export type OutputLayout = 'outputsThatHold' | 'fixedPlaces';

/** The hidden parameter that carries the layout: only version 1.3 and later have it. */
const OUTPUT_LAYOUT_PARAMETER = 'outputLayout';

const FIXED_PLACES_FROM_VERSION = 1.3;

/**
 * Read like any parameter (execute, each item, the review callback, the outputs expression): n8n fills
 * in its default for a node of 1.3 or later and leaves it out for the earlier versions, whose saved
 * connections must keep their outputs.
 */
export const OUTPUT_LAYOUT_PROPERTY: INodeProperties = {
	displayName: 'Output Layout',
	name: OUTPUT_LAYOUT_PARAMETER,
	type: 'hidden',
	default: 'fixedPlaces',
	displayOptions: { show: { '@version': [{ _cnd: { gte: FIXED_PLACES_FROM_VERSION } }] } },
};

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
		layout:
			read(OUTPUT_LAYOUT_PARAMETER, 'outputsThatHold') === 'fixedPlaces'
				? 'fixedPlaces'
				: 'outputsThatHold',
	};
}

/** The settings an output's condition reads: Extract's, and Judge Books Answer's Answer To. */
type OutputSettings = ExtractOutputSettings & { answerTo?: string };

/** When an output exists: as a check of the settings and as the same check in n8n's expression language. */
interface OutputCondition {
	holds: (settings: OutputSettings) => boolean;
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
export type AttachmentOutput = 'attach' | 'nothingToAttach';
export type BillAccountOutput = 'bill' | 'newRule';
export type JudgeOutput =
	| 'new'
	| 'alreadyBooked'
	| 'created'
	| 'found'
	| 'missing'
	| 'personDecides'
	| 'accountRefused'
	| 'booksRefused';

interface OutputRule<Output extends string = ExtractOutput> {
	output: Output;
	/** The label of versions 1 to 1.2. */
	displayName: string;
	/**
	 * The label from 1.3 when it is another: short enough to read on the canvas, which cuts a
	 * connected output's label at 96 px (about 15 characters).
	 */
	label?: string;
	when: OutputCondition;
	/**
	 * Continue On Fail (regular output) puts failed items here: the output that needs a person, never
	 * Verified or New Invoice, so a failure is not taken for a checked document.
	 */
	takesFailedItems?: true;
}

/** From 1.3, the label of a place whose option is off while a later one is on: nothing comes out there. */
const UNUSED_OUTPUT_LABEL = 'Option Off';

const VERIFIED_OUTPUT: OutputRule = { output: 'verified', displayName: 'Verified', when: ALWAYS };
const NEEDS_REVIEW_OUTPUT: OutputRule = {
	output: 'needsReview',
	displayName: 'Needs Review',
	when: NOT_WAITING,
	takesFailedItems: true,
};
const REJECTED_OUTPUT: OutputRule = {
	output: 'rejected',
	displayName: 'Rejected',
	when: WAITING,
	takesFailedItems: true,
};
const TIMED_OUT_OUTPUT: OutputRule = {
	output: 'timedOut',
	displayName: 'Timed Out',
	when: WAITING,
};
const ALREADY_SUBMITTED_OUTPUT: OutputRule = {
	output: 'alreadySubmitted',
	displayName: 'Already Submitted',
	label: 'Same File',
	when: SKIPPING_DUPLICATES,
};
const POSSIBLE_DUPLICATE_OUTPUT: OutputRule = {
	output: 'possibleDuplicate',
	displayName: 'Possible Duplicate',
	label: 'Same Invoice',
	when: DETECTING_SAME_INVOICE,
};
/** Without waiting, held invoices go to Needs Review: no output of its own. */
const NOT_READY_OUTPUT: OutputRule = {
	output: 'notReady',
	displayName: 'Not Ready to Post',
	label: 'Not Ready',
	when: HOLDING_WHILE_WAITING,
};
/** Files of an item that cannot be invoices (a logo, an invite): never uploaded. */
const SKIPPED_FILES_OUTPUT: OutputRule = {
	output: 'skippedFiles',
	displayName: 'Skipped Files',
	when: EVERY_FILE,
};

/** Extract's outputs up to version 1.2, in order; an output exists when its condition holds. */
const EXTRACT_OUTPUTS: readonly OutputRule[] = [
	VERIFIED_OUTPUT,
	NEEDS_REVIEW_OUTPUT,
	REJECTED_OUTPUT,
	TIMED_OUT_OUTPUT,
	ALREADY_SUBMITTED_OUTPUT,
	POSSIBLE_DUPLICATE_OUTPUT,
	NOT_READY_OUTPUT,
	SKIPPED_FILES_OUTPUT,
];

/**
 * Extract's places from version 1.3, one list per way of working (turning Wait for Review on or off
 * changes what the outputs mean, from the second on). The options' outputs follow the outputs that
 * are always there, in the order of the earlier versions, except that Not Ready comes first while
 * waiting: Hold is on by default, so it leaves no unused place before Same File.
 */
const EXTRACT_PLACES_NOT_WAITING: readonly OutputRule[] = [
	VERIFIED_OUTPUT,
	NEEDS_REVIEW_OUTPUT,
	ALREADY_SUBMITTED_OUTPUT,
	POSSIBLE_DUPLICATE_OUTPUT,
	SKIPPED_FILES_OUTPUT,
];
const EXTRACT_PLACES_WAITING: readonly OutputRule[] = [
	VERIFIED_OUTPUT,
	REJECTED_OUTPUT,
	TIMED_OUT_OUTPUT,
	NOT_READY_OUTPUT,
	ALREADY_SUBMITTED_OUTPUT,
	SKIPPED_FILES_OUTPUT,
];

/**
 * Check Invoice Duplicate's outputs. A failed item goes to Same Invoice (Possible Duplicate): an
 * invoice that could not be checked must not be paid as a new one.
 */
const CHECK_DUPLICATE_OUTPUTS: ReadonlyArray<OutputRule<CheckDuplicateOutput>> = [
	{ output: 'newInvoice', displayName: 'New Invoice', when: ALWAYS },
	{
		output: 'possibleDuplicate',
		displayName: 'Possible Duplicate',
		label: 'Same Invoice',
		when: ALWAYS,
		takesFailedItems: true,
	},
	{ output: 'notReady', displayName: 'Not Ready to Post', label: 'Not Ready', when: HOLDING },
];

/** Build Bill's outputs (docs/spec-decisions.md#n42): a failed item cannot be booked. */
/** Prepare Attachment: a failed item goes where nothing is attached (the bill is booked already). */
const PREPARE_ATTACHMENT_OUTPUTS: ReadonlyArray<OutputRule<AttachmentOutput>> = [
	{ output: 'attach', displayName: 'Attach', when: ALWAYS },
	{
		output: 'nothingToAttach',
		displayName: 'Nothing To Attach',
		when: ALWAYS,
		takesFailedItems: true,
	},
];

/** Bill Account: every item on Bill; one whose chosen account becomes the rule on New Rule too. */
const BILL_ACCOUNT_OUTPUTS: ReadonlyArray<OutputRule<BillAccountOutput>> = [
	{ output: 'bill', displayName: 'Bill', when: ALWAYS, takesFailedItems: true },
	{ output: 'newRule', displayName: 'New Rule', when: ALWAYS },
];

const BUILD_BILL_OUTPUTS: ReadonlyArray<OutputRule<BuildBillOutput>> = [
	{ output: 'bill', displayName: 'Bill', when: ALWAYS },
	{
		output: 'cannotBook',
		displayName: 'Cannot Be Booked',
		label: 'Cannot Book',
		when: ALWAYS,
		takesFailedItems: true,
	},
];

const ANSWER_TO_CREATE: OutputCondition = {
	holds: (settings) => settings.answerTo === 'create',
	expression: '$parameter.answerTo === "create"',
};
const ANSWER_TO_VENDOR: OutputCondition = {
	holds: (settings) => settings.answerTo === 'vendor',
	expression: '$parameter.answerTo === "vendor"',
};
const ANSWER_TO_LOOKUP: OutputCondition = {
	holds: (settings) => settings.answerTo !== 'create' && settings.answerTo !== 'vendor',
	expression: '!["create", "vendor"].includes($parameter.answerTo)',
};

/**
 * Judge Books Answer's outputs, one per verdict of its Answer To (docs/spec-decisions.md#n104): the
 * template connects them as a Switch would. A failed item goes to A Person Decides.
 */
const JUDGE_OUTPUTS: ReadonlyArray<OutputRule<JudgeOutput>> = [
	{ output: 'new', displayName: 'New', when: ANSWER_TO_LOOKUP },
	{ output: 'alreadyBooked', displayName: 'Already Booked', when: ANSWER_TO_LOOKUP },
	{ output: 'created', displayName: 'Created', when: ANSWER_TO_CREATE },
	{ output: 'found', displayName: 'Found', when: ANSWER_TO_VENDOR },
	{ output: 'missing', displayName: 'Missing', when: ANSWER_TO_VENDOR },
	{
		output: 'personDecides',
		displayName: 'A Person Decides',
		when: ALWAYS,
		takesFailedItems: true,
	},
	{ output: 'accountRefused', displayName: 'Account Refused', when: ANSWER_TO_CREATE },
	{ output: 'booksRefused', displayName: 'Books Refused', when: ANSWER_TO_CREATE },
];

/** One output of the node as laid out: `output` null for an unused place (its option is off). */
interface LaidOutOutput<Output extends string> {
	output: Output | null;
	name: string;
	takesFailedItems?: true;
}

function nameOf(rule: OutputRule<string>, layout: OutputLayout): string {
	return (layout === 'fixedPlaces' && rule.label) || rule.displayName;
}

function laidOut<Output extends string>(
	rule: OutputRule<Output>,
	layout: OutputLayout,
): LaidOutOutput<Output> {
	return {
		output: rule.output,
		name: nameOf(rule, layout),
		...(rule.takesFailedItems ? { takesFailedItems: true } : {}),
	};
}

/** The outputs whose conditions hold, in rule order. */
function outputsThatHold<Output extends string>(
	rules: ReadonlyArray<OutputRule<Output>>,
	settings: OutputSettings,
): Array<LaidOutOutput<Output>> {
	const layout = settings.layout ?? 'outputsThatHold';
	return rules.filter((rule) => rule.when.holds(settings)).map((rule) => laidOut(rule, layout));
}

/** Every place up to the last one whose condition holds; the places before it that do not hold are unused. */
function fixedPlaces<Output extends string>(
	places: ReadonlyArray<OutputRule<Output>>,
	settings: ExtractOutputSettings,
): Array<LaidOutOutput<Output>> {
	const holding = places.map((place) => place.when.holds(settings));
	return places
		.slice(0, holding.lastIndexOf(true) + 1)
		.map((place, index) =>
			holding[index] ? laidOut(place, 'fixedPlaces') : { output: null, name: UNUSED_OUTPUT_LABEL },
		);
}

function extractOutputsOf(settings: ExtractOutputSettings): Array<LaidOutOutput<ExtractOutput>> {
	if (settings.layout !== 'fixedPlaces') return outputsThatHold(EXTRACT_OUTPUTS, settings);
	return fixedPlaces(
		settings.waitForReview ? EXTRACT_PLACES_WAITING : EXTRACT_PLACES_NOT_WAITING,
		settings,
	);
}

/** Judge Books Answer's outputs for what it answers (no Extract options apply). */
function judgeOutputs(answerTo: string): Array<LaidOutOutput<JudgeOutput>> {
	return outputsThatHold(JUDGE_OUTPUTS, { waitForReview: false, skipDuplicates: false, answerTo });
}

/** Index of the verdict's output with this Answer To; -1 when that Answer To has no such verdict. */
export function judgeOutputIndex(answerTo: string, verdict: string): number {
	return judgeOutputs(answerTo).findIndex((laid) => laid.output === verdict);
}

/** How many outputs Judge Books Answer has for what it answers. */
export function judgeOutputCount(answerTo: string): number {
	return judgeOutputs(answerTo).length;
}

/** Build Bill's outputs are the same in every version and with every setting. */
export function buildBillOutputIndex(output: BuildBillOutput): number {
	return BUILD_BILL_OUTPUTS.findIndex((rule) => rule.output === output);
}

export function checkDuplicateOutputNames(settings: ExtractOutputSettings): string[] {
	return outputsThatHold(CHECK_DUPLICATE_OUTPUTS, settings).map((laid) => laid.name);
}

/** Index of `output` with these settings; -1 when it does not exist with them. */
export function checkDuplicateOutputIndex(
	settings: ExtractOutputSettings,
	output: CheckDuplicateOutput,
): number {
	return outputsThatHold(CHECK_DUPLICATE_OUTPUTS, settings).findIndex(
		(laid) => laid.output === output,
	);
}

export function extractOutputNames(settings: ExtractOutputSettings): string[] {
	return extractOutputsOf(settings).map((laid) => laid.name);
}

/** Index of `output` with these settings; -1 when it does not exist with them (or its place is unused). */
export function outputIndex(settings: ExtractOutputSettings, output: ExtractOutput): number {
	return extractOutputsOf(settings).findIndex((laid) => laid.output === output);
}

export interface NodeOutputParameters extends OutputSettings {
	resource: string;
	operation: string;
}

/** Document → Extract. */
export function isExtract(parameters: NodeOutputParameters): boolean {
	return isDocumentOperation(parameters.resource, parameters.operation, [EXTRACT_OPERATION]);
}

/** Extract, Check Invoice Duplicate and Build Bill: the operations whose items are invoices. */
export function isInvoiceOperation(parameters: NodeOutputParameters): boolean {
	return isDocumentOperation(parameters.resource, parameters.operation, INVOICE_OPERATIONS);
}

/** The node's outputs with these parameters (one unnamed output for the one-output operations). */
function nodeOutputs(parameters: NodeOutputParameters): ReadonlyArray<{ takesFailedItems?: true }> {
	const is = (operation: string) =>
		isDocumentOperation(parameters.resource, parameters.operation, [operation]);
	if (is(EXTRACT_OPERATION)) return extractOutputsOf(parameters);
	if (is(CHECK_DUPLICATE_OPERATION)) return outputsThatHold(CHECK_DUPLICATE_OUTPUTS, parameters);
	if (is(BUILD_BILL_OPERATION)) return outputsThatHold(BUILD_BILL_OUTPUTS, parameters);
	if (is(JUDGE_BOOKS_ANSWER_OPERATION)) return outputsThatHold(JUDGE_OUTPUTS, parameters);
	if (is(PREPARE_ATTACHMENT_OPERATION))
		return outputsThatHold(PREPARE_ATTACHMENT_OUTPUTS, parameters);
	if (is(BILL_ACCOUNT_OPERATION)) return outputsThatHold(BILL_ACCOUNT_OUTPUTS, parameters);
	return [{ takesFailedItems: true }];
}

export function nodeOutputCount(parameters: NodeOutputParameters): number {
	return nodeOutputs(parameters).length;
}

/** Where Continue On Fail (regular output) puts a failed item. */
export function failedItemOutput(parameters: NodeOutputParameters): number {
	return nodeOutputs(parameters).findIndex((rule) => rule.takesFailedItems === true);
}

const FIXED_PLACES_EXPRESSION = `$parameter.${OUTPUT_LAYOUT_PARAMETER} === "fixedPlaces"`;

/** An output as the `outputs` expression lists it. */
function outputExpression(name: string): string {
	return `[${JSON.stringify({ type: 'main', displayName: name })}]`;
}

function outputsThatHoldExpression(
	rules: ReadonlyArray<OutputRule<string>>,
	layout: OutputLayout,
): string {
	const outputs = rules.map(
		(rule) => `${rule.when.expression} ? ${outputExpression(nameOf(rule, layout))} : []`,
	);
	return `[].concat(${outputs.join(', ')})`;
}

/** The fixed places up to the last one whose condition holds, as an n8n expression. */
function fixedPlacesExpression(places: ReadonlyArray<OutputRule<string>>): string {
	const outputs = places.map((place, index) => {
		const thisOrLater = places
			.slice(index)
			.map((later) => `(${later.when.expression})`)
			.join(' || ');
		return (
			`(${thisOrLater}) ? ((${place.when.expression}) ? ${outputExpression(nameOf(place, 'fixedPlaces'))} ` +
			`: ${outputExpression(UNUSED_OUTPUT_LABEL)}) : []`
		);
	});
	return `[].concat(${outputs.join(', ')})`;
}

/** One operation's outputs in both layouts, by the node's version; by default from 1.3 those that hold. */
function byLayoutExpression(
	rules: ReadonlyArray<OutputRule<string>>,
	fixedPlaces = outputsThatHoldExpression(rules, 'fixedPlaces'),
): string {
	return `(${FIXED_PLACES_EXPRESSION} ? ${fixedPlaces} : ${outputsThatHoldExpression(rules, 'outputsThatHold')})`;
}

/**
 * The node's `outputs` as an n8n expression over its parameters, generated from the rules above.
 * Missing parameters count as their defaults (resource Document, operation Extract, no waiting, no
 * duplicate guards), so a workflow created through the API with fewer parameters gets the same
 * outputs as one made in the editor.
 */
export const OUTPUTS_EXPRESSION = (`={{ (${documentOperationExpression([EXTRACT_OPERATION])}) ? ` +
	byLayoutExpression(
		EXTRACT_OUTPUTS,
		`(${WAITING.expression} ? ${fixedPlacesExpression(EXTRACT_PLACES_WAITING)} : ${fixedPlacesExpression(EXTRACT_PLACES_NOT_WAITING)})`,
	) +
	` : (${documentOperationExpression([CHECK_DUPLICATE_OPERATION])}) ? ` +
	byLayoutExpression(CHECK_DUPLICATE_OUTPUTS) +
	` : (${documentOperationExpression([BUILD_BILL_OPERATION])}) ? ` +
	byLayoutExpression(BUILD_BILL_OUTPUTS) +
	` : (${documentOperationExpression([JUDGE_BOOKS_ANSWER_OPERATION])}) ? ` +
	outputsThatHoldExpression(JUDGE_OUTPUTS, 'outputsThatHold') +
	` : (${documentOperationExpression([PREPARE_ATTACHMENT_OPERATION])}) ? ` +
	outputsThatHoldExpression(PREPARE_ATTACHMENT_OUTPUTS, 'outputsThatHold') +
	` : (${documentOperationExpression([BILL_ACCOUNT_OPERATION])}) ? ` +
	outputsThatHoldExpression(BILL_ACCOUNT_OUTPUTS, 'outputsThatHold') +
	' : ["main"] }}') as `={{${string}}}`;

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
